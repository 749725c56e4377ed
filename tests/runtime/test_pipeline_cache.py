"""The on-disk pipeline cache ($XDG_CACHE_HOME/torchvulkan/pipelines-*.bin)."""

import torchvulkan
from tests.helpers import run_python

WORKLOAD = """
    import torch, torchvulkan
    d = torch.zeros(16, device="vulkan")
    d[::2].fill_(3)
    e = d.to(torch.int32)
    print(e.cpu().tolist())
"""
EXPECTED = str([3, 0] * 8)


def _cache_files(root):
    return sorted((root / "torchvulkan").glob("pipelines-*.bin"))


def test_cache_written_at_exit(tmp_path):
    r = run_python(WORKLOAD, {"XDG_CACHE_HOME": str(tmp_path)})
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == EXPECTED
    files = _cache_files(tmp_path)
    assert len(files) == 1
    assert files[0].stat().st_size > 0
    assert not list((tmp_path / "torchvulkan").glob("*.tmp*"))


def test_cache_reused_and_results_identical(tmp_path):
    env = {"XDG_CACHE_HOME": str(tmp_path)}
    first = run_python(WORKLOAD, env)
    assert first.returncode == 0, first.stderr
    (path,) = _cache_files(tmp_path)
    second = run_python(WORKLOAD, env)
    assert second.returncode == 0, second.stderr
    assert second.stdout.strip() == EXPECTED
    assert _cache_files(tmp_path) == [path]
    assert path.stat().st_size > 0


def test_corrupt_cache_is_ignored(tmp_path):
    env = {"XDG_CACHE_HOME": str(tmp_path)}
    assert run_python(WORKLOAD, env).returncode == 0
    (path,) = _cache_files(tmp_path)
    path.write_bytes(b"not a pipeline cache" * 10)
    r = run_python(WORKLOAD, env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == EXPECTED
    assert path.stat().st_size > 0 and path.read_bytes() != b"not a pipeline cache" * 10


def test_no_cache_dir_still_works(tmp_path):
    r = run_python(WORKLOAD, {"XDG_CACHE_HOME": "", "HOME": ""})
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == EXPECTED


def test_unwritable_cache_dir_does_not_crash(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")  # a file where the cache directory should be
    r = run_python(WORKLOAD, {"XDG_CACHE_HOME": str(blocker)})
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == EXPECTED


def test_save_pipeline_cache_in_process():
    torchvulkan._C.save_pipeline_cache()
