"""search/bits.py: the LLVM bit instructions agree with plain Python on every kind of
int64, the sign bit and zero included."""
import random

import numpy as np
import pytest
from numba import njit

from search.bits import highest_bit, lowest_bit, popcount


@njit
def _all(x):
    return popcount(x), lowest_bit(x), highest_bit(x)


def _expected(x):
    u = x & (2**64 - 1)  # the word's bits, as numba's int64 holds them
    if u == 0:
        return 0, 64, -1
    return bin(u).count("1"), (u & -u).bit_length() - 1, u.bit_length() - 1


VALUES = [0, 1, 2, 3, 40, 1 << 62, (1 << 62) | 5, -1, -(1 << 63), 2**63 - 1, -2]


RANDOM = [random.Random(seed).randrange(-2**63, 2**63) for seed in range(20)]


@pytest.mark.parametrize("x", VALUES + RANDOM)
def test_bits_as_python_counts_them(x):
    assert _all(np.int64(x)) == _expected(x)
