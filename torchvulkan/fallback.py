"""The CPU fallback's record: which ops ran on the CPU, and how often."""

from . import _C


def fallback_counts() -> dict[str, int]:
    """Calls per operator that had no native Vulkan kernel and ran on the CPU."""
    return dict(_C.fallback_counts())


def reset_fallback_counts() -> None:
    _C.reset_fallback_counts()
