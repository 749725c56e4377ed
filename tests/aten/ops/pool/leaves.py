"""The pooling tests' inputs: one tensor as a CPU leaf and a vulkan leaf."""

import torch


def leaf_pair(x, channels_last=False):
    """(CPU leaf, vulkan leaf) of `x`, requiring grad when floating; the vulkan
    one channels-last when asked."""
    xv = x.to("vulkan")
    if channels_last:
        xv = xv.contiguous(memory_format=torch.channels_last)
    floating = x.dtype.is_floating_point
    return x.clone().requires_grad_(floating), xv.requires_grad_(floating)
