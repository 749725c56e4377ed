"""Fits the float erf of shaders/common/math.glsl and reports its error.

    erf(x) = x + x * P(x^2)      for |x| < 0.9    (P of degree 5)
    erf(x) = 1 - 2^Q(|x|)        for |x| < 3.92   (Q of degree 9; past it erf rounds to 1)

Each fit is a weighted least-squares fit on Chebyshev nodes, reweighted toward
equal error (a cheap stand-in for Remez), of the relative error of erf. The
error is then measured in float32 with fused multiply-adds, against mpmath,
on 220,000 points. mpmath comes with torch (through sympy).

    python scripts/fit_erf.py
"""

import mpmath as mp
import numpy as np

mp.mp.dps = 40
SPLIT, CUTOFF = 0.9, 3.92
NODES = 4000


def chebyshev(lo, hi):
    return lo + (hi - lo) * (0.5 + 0.5 * np.cos(np.pi * (np.arange(NODES) + 0.5) / NODES))


def equal_error_fit(basis, target, weight):
    """Coefficients (highest first) minimizing weight * |basis @ c - target|, near-minimax."""
    w = weight.copy()
    for _ in range(40):
        c, *_ = np.linalg.lstsq(basis * w[:, None], target * w, rcond=None)
        err = np.abs(basis @ c - target) * weight
        w = w * np.sqrt(err / err.max() + 1e-3)
        w /= w.max()
    return c


def fit_small():
    x = np.sqrt(chebyshev(0, SPLIT**2))
    erf = np.array([float(mp.erf(v)) for v in x])
    target = np.array([float(mp.erf(v) / v - 1) for v in x])
    return equal_error_fit(np.vander(x * x, 6), target, x / erf)


def fit_large():
    a = chebyshev(SPLIT, CUTOFF)
    target = np.array([float(mp.log(mp.erfc(v), 2)) for v in a])
    erfc = np.array([float(mp.erfc(v)) for v in a])
    return equal_error_fit(np.vander(a, 10), target, erfc / erfc.max())


def horner(coefs, x):
    """Horner's rule in float32, each step one fused multiply-add."""
    r = np.full(x.shape, np.float32(coefs[0]))
    for c in coefs[1:]:
        r = (r.astype(np.float64) * x + np.float64(np.float32(c))).astype(np.float32)
    return r


def main():
    small, large = fit_small(), fit_large()
    x = np.concatenate([np.linspace(0, 4, 200001), 10.0 ** np.linspace(-8, 0, 20001)]).astype(np.float32)
    p = horner(small, x * x)
    near = (x.astype(np.float64) * p + x).astype(np.float32)
    far = (1 - np.exp2(horner(large, x).astype(np.float64))).astype(np.float32)
    ours = np.where(x < SPLIT, near, np.where(x < CUTOFF, far, np.float32(1)))
    exact = np.array([float(mp.erf(float(v))) for v in x])
    ulps = np.abs(ours - exact) / np.spacing(exact.astype(np.float32))
    print("P:", ", ".join(f"{float(np.float32(c))!r}" for c in small))
    print("Q:", ", ".join(f"{float(np.float32(c))!r}" for c in large))
    print(f"max error: {ulps[x < SPLIT].max():.2f} ulp below {SPLIT}, {ulps[x >= SPLIT].max():.2f} ulp above")


if __name__ == "__main__":
    main()
