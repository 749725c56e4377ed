"""A process forked after its parent opened a Vulkan device gets a clear
error for Vulkan work (csrc/runtime/runtime.h), as CUDA refuses a forked
child, instead of waiting forever on the parent's submitting thread."""

import multiprocessing

import torch

import torchvulkan  # noqa: F401


def _child(queue):
    result = {"bad_fork": torch.vulkan._is_in_bad_fork()}
    try:
        result["sum"] = torch.ones(4, device="vulkan").sum().item()
    except RuntimeError as error:
        result["error"] = str(error)
    queue.put(result)


def _run_forked_child():
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_child, args=(queue,))
    child.start()
    result = queue.get(timeout=120)
    child.join(timeout=60)
    return result


def test_child_of_a_process_that_used_vulkan_gets_a_clear_error():
    torch.ones(1, device="vulkan").cpu()
    assert not torch.vulkan._is_in_bad_fork()
    result = _run_forked_child()
    assert result["bad_fork"]
    assert "forked subprocess" in result["error"] and "spawn" in result["error"]
    # The parent carries on.
    assert torch.ones(3, device="vulkan").sum().item() == 3.0
