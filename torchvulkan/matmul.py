"""Which matrix-product kernel tier ran: the portable tiled kernel or the
tensor-core (cooperative matrix) one."""

from . import _C


def matmul_tier_counts() -> dict[str, int]:
    """Matrix-product launches per kernel tier so far: {"tiled": n, "coopmat": m}."""
    return dict(_C.gemm_tier_counts())
