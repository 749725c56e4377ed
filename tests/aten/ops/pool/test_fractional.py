"""fractional_max_pool2d and fractional_max_pool3d on the vulkan device
(csrc/aten/ops/pool/fractional.cpp), in strict mode against the CPU with the
same random samples: values, indices and gradients, batched and unbatched,
output sizes and ratios, float32 and float64, NaNs, and windows drawn from
the vulkan generator. (OpInfo's samples draw from the generator, which
differs between devices, so they are not compared.)"""

import pytest
import torch
import torch.nn.functional as F

from tests.helpers import assert_forward_backward_match


@pytest.mark.parametrize("case", [
    ((2, 3, 11, 9), 3, (5, 4), 2), ((3, 10, 10), 2, (7, 3), 2), ((1, 2, 6, 7, 8), 2, (3, 4, 5), 3),
    ((2, 5, 6, 7), (2, 3), (4, 4), 2), ((2, 1, 6, 6, 6), 2, (4, 4, 4), 3)], ids=str)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_matches_cpu(case, dtype, no_fallback):
    shape, kernel, output_size, spatial = case
    torch.manual_seed(0)
    x = torch.randn(shape, dtype=dtype)
    batch = shape[0] if len(shape) == spatial + 2 else 1
    samples = torch.rand(batch, shape[-spatial - 1], spatial, dtype=dtype)
    fn = F.fractional_max_pool2d if spatial == 2 else F.fractional_max_pool3d
    out, idx = fn(x, kernel, output_size=output_size, return_indices=True, _random_samples=samples)
    outv, idxv = fn(x.to("vulkan"), kernel, output_size=output_size, return_indices=True,
                    _random_samples=samples.to("vulkan"))
    torch.testing.assert_close(outv.cpu(), out)
    torch.testing.assert_close(idxv.cpu(), idx)
    assert_forward_backward_match(
        lambda t: fn(t, kernel, output_size=output_size, _random_samples=samples.to(t.device)), x)


def test_nan_and_generator(no_fallback):
    x = torch.randn(1, 2, 8, 8)
    x[0, 0, 3, 3] = float("nan")
    samples = torch.rand(1, 2, 2)
    out = F.fractional_max_pool2d(x.to("vulkan"), 3, output_size=4, _random_samples=samples.to("vulkan"))
    torch.testing.assert_close(out.cpu(), F.fractional_max_pool2d(x, 3, output_size=4, _random_samples=samples),
                               equal_nan=True)
    # Without samples the windows come from the vulkan generator: each output
    # is the input at its index.
    x = torch.randn(1, 2, 8, 8)
    y, i = F.fractional_max_pool2d(x.to("vulkan"), 2, output_ratio=(0.5, 0.5), return_indices=True)
    y, i = y.cpu(), i.cpu()
    assert y.shape == (1, 2, 4, 4)
    assert torch.equal(y, x.flatten(2).gather(2, i.flatten(2)).view_as(y))


def test_samples_on_another_device(no_fallback):
    with pytest.raises(RuntimeError, match="expected random_samples on vulkan"):
        F.fractional_max_pool2d(torch.randn(1, 2, 8, 8, device="vulkan"), 2, output_size=4,
                                _random_samples=torch.rand(1, 2, 2))
