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

Array indices are used as they are: numba's own lowering adds the length to a negative
index (Python's ``a[-1]``), a compare and a select on every access through a signed
index, in the board walks of the move generator, the attack tests and the evaluation.
No kernel indexes from the end (the board's LEAD cells keep every leap inside it,
movegen/layout.py), so ``_lower_index`` drops that test in the functions of Leyden's
kernel packages (``_PACKAGES``; any other numba code in the process keeps numba's own
lowering): about a fifth more search nodes a second, the same nodes. An index out of
range is now as unchecked as a too-large one always was; ``LEYDEN_CHECK_INDEX=1``
compiles a checking version instead, which prints ``index out of range`` and where for
every such access (the slow test tests/rules/test_indexing.py runs the bench and perft
with it, in a cache of its own).

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
import inspect
import os
from pathlib import Path

from numba import njit
from numba.core import cgutils, types

try:
    from numba.np import arrayobj as _arrayobj
except ImportError:  # a numba that moved it: indexing keeps its negative-index test
    _arrayobj = None

_NO_RUNTIME = {"_nrt": False, "error_model": "numpy"}

_ROOT = Path(__file__).resolve().parents[1]
_PACKAGES = ("movegen", "search")
_STAMP = "leyden-kernels.stamp"
_MANGLED = tuple(f"_ZN{len(p)}{p}" for p in _PACKAGES)  # numba's names of their functions
_CHECK = os.environ.get("LEYDEN_CHECK_INDEX") == "1"


def _index_as_is(context, builder, idxty, idx, size):
    """An integer array index cast to the machine's index type, and nothing more."""
    return context.cast(builder, idx, idxty, types.intp if idxty.signed else types.uintp)


def _ours(builder) -> bool:
    """Whether numba is compiling a function of ``_PACKAGES`` (by its mangled name)."""
    return builder.function.name.startswith(_MANGLED)


def _source_line() -> str:
    """file:line of the Python statement numba is compiling (best effort: from its
    lowering object up the stack)."""
    for frame in inspect.stack()[2:40]:
        lower = frame.frame.f_locals.get("self")
        if lower is not None and hasattr(lower, "fndesc") and hasattr(lower, "loc"):
            return f"{lower.loc.filename}:{lower.loc.line}"
    return "?"


def _index_checked(context, builder, idxty, idx, size):
    """``_index_as_is``, printing where an index falls outside ``[0, size)`` at run time."""
    ind = _index_as_is(context, builder, idxty, idx, size)
    outside = builder.icmp_unsigned(">=", ind, size)
    with builder.if_then(outside, likely=False):
        cgutils.printf(builder, f"index out of range at {_source_line()}: %lld of %lld\n",
                       ind, size)
    return ind


def _lower_index(context, builder, idxty, idx, size):
    """numba's ``fix_integer_index`` as Leyden's kernels have it (see the module text)."""
    if not _ours(builder):
        return _numba_index(context, builder, idxty, idx, size)
    if _CHECK:
        return _index_checked(context, builder, idxty, idx, size)
    return _index_as_is(context, builder, idxty, idx, size)


_numba_index = getattr(_arrayobj, "fix_integer_index", None)
if _numba_index is not None:
    _arrayobj.fix_integer_index = _lower_index


def kernel(fn):
    return njit(cache=True, nogil=True, **_NO_RUNTIME)(fn)


def inline_kernel(fn):
    """A kernel numba copies into each caller (its own IR, before compiling): for a
    helper of a recursive kernel that calls that kernel back, since numba's cache cannot
    load a cycle of separately compiled recursive kernels (it crashes)."""
    return njit(cache=True, nogil=True, inline="always", **_NO_RUNTIME)(fn)


def fingerprint() -> str:
    h = hashlib.sha1()
    h.update(b"check" if _CHECK else b"")  # checking kernels are cached apart
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
