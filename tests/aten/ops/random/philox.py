"""Philox4x32-10 in Python, written from its definition (Salmon, Moraes, Dror
and Shaw, "Parallel Random Numbers: As Easy as 1, 2, 3", SC'11), to check the
device's bits: shaders/random/philox.glsl must give the same words."""

M0, M1 = 0xD2511F53, 0xCD9E8D57
W0, W1 = 0x9E3779B9, 0xBB67AE85  # the key schedule's Weyl increments
MASK = 0xFFFFFFFF


def philox4x32_10(counter, key):
    c0, c1, c2, c3 = counter
    k0, k1 = key
    for _ in range(10):
        p0, p1 = M0 * c0, M1 * c2
        c0, c1, c2, c3 = (p1 >> 32) ^ c1 ^ k0, p1 & MASK, (p0 >> 32) ^ c3 ^ k1, p0 & MASK
        k0, k1 = (k0 + W0) & MASK, (k1 + W1) & MASK
    return c0, c1, c2, c3


def words(seed, offset, block):
    """The four words of `block` for a launch keyed by (seed, offset), as the device lays them out."""
    counter = (block & MASK, block >> 32, offset & MASK, offset >> 32)
    return philox4x32_10(counter, (seed & MASK, seed >> 32))
