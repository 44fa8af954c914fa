"""The one decorator every search kernel uses.

``njit(cache=True, nogil=True)`` as everywhere in Leyden, plus ``_nrt=False``: numba's
runtime would otherwise increment and decrement (atomically) the reference count of
every array argument on every call, and the search calls itself once per node with
eight arrays; measured, that was over a quarter of the search's time. The search
kernels never allocate, so they do not need the runtime. Should a numba release drop
the option, set ``_NO_RUNTIME = {}`` and everything still works, only slower.
"""
from numba import njit

_NO_RUNTIME = {"_nrt": False}


def kernel(fn):
    return njit(cache=True, nogil=True, **_NO_RUNTIME)(fn)
