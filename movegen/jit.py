"""The one decorator of every numba kernel in Leyden, and the guard of its disk cache.

``kernel`` is ``njit(cache=True, nogil=True)`` plus ``_nrt=False``: numba's runtime would
otherwise increment and decrement (atomically) the reference count of array arguments on
calls, a large share of the time of kernels called once per node. No kernel allocates,
so none needs the runtime. Should a numba release drop the option, set
``_NO_RUNTIME = {}``: everything still works, only slower.

``error_model="numpy"``: an integer division or remainder does not test its divisor for
zero (to raise ZeroDivisionError) first; every divisor in the kernels is a constant or
a value kept at least 1 where it is built (the taper's phase total, the scale weights:
search/weights.py refuses 0). 1 to 2% more search nodes a second, the same nodes;
perft unchanged.

numba decides whether a cached kernel is stale from the kernel's own source file only,
but kernels have other modules' functions compiled into them (the search has all of
movegen inside). ``drop_stale_cache`` keeps a fingerprint of every kernel source file
beside the caches and empties them when it changes; it runs on import of ``movegen``,
before any kernel is loaded.

Where the caches live is numba's choice, made per source directory, and the guard asks
numba's own locators so that it looks in the same place: ``$NUMBA_CACHE_DIR`` when that is
set; else the package's ``__pycache__`` when it is writable (a checkout, an install into a
user's own virtual environment); else the user-wide cache directory
(``$XDG_CACHE_HOME/numba``, by default ``~/.cache/numba``), e.g. for a system-wide install
the user cannot write to.
"""
import hashlib
from pathlib import Path

from numba import njit

_NO_RUNTIME = {"_nrt": False, "error_model": "numpy"}

_ROOT = Path(__file__).resolve().parents[1]
_PACKAGES = ("movegen", "search")
_STAMP = "leyden-kernels.stamp"


def kernel(fn):
    return njit(cache=True, nogil=True, **_NO_RUNTIME)(fn)


def inline_kernel(fn):
    """A kernel numba copies into each caller (its own IR, before compiling): for a
    helper of a recursive kernel that calls that kernel back, since numba's cache cannot
    load a cycle of separately compiled recursive kernels (it crashes)."""
    return njit(cache=True, nogil=True, inline="always", **_NO_RUNTIME)(fn)


def fingerprint() -> str:
    h = hashlib.sha1()
    for package in _PACKAGES:
        for f in sorted((_ROOT / package).glob("*.py")):
            h.update(f"{package}/{f.name}".encode())
            h.update(f.read_bytes())
    return h.hexdigest()


def cache_dir(package: str) -> Path | None:
    """The directory numba caches ``package``'s kernels in (created), None if none is writable."""
    from numba.core import caching
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    locator_classes = getattr(impl, "_locator_classes", None)
    if not locator_classes:  # a numba that hides them: assume its classic in-tree place
        return _ROOT / package / "__pycache__"
    source = str(_ROOT / package / "__init__.py")
    for locator_class in locator_classes:
        locator = locator_class.from_function(cache_dir, source)
        if locator is not None:
            return Path(locator.get_cache_path())
    return None


def drop_stale_cache() -> None:
    try:
        digest = fingerprint()
        for package in _PACKAGES:
            cache = cache_dir(package)
            if cache is None:
                continue  # numba will not cache these kernels at all
            stamp = cache / _STAMP
            if stamp.is_file() and stamp.read_text() == digest:
                continue
            for f in list(cache.glob("*.nbi")) + list(cache.glob("*.nbc")):
                f.unlink(missing_ok=True)
            cache.mkdir(exist_ok=True)
            stamp.write_text(digest)
    except OSError:
        pass  # the cache cannot be written: numba compiles in memory every time
