"""Keep numba's on-disk cache of the search kernels consistent with the rules code.

numba decides whether a cached kernel is stale from the source file of that kernel
only, but the search kernels have the move generator (movegen/) compiled into them. So
a fingerprint of every source file the kernels are built from is kept beside the cache,
and the search's cached kernels are dropped when it changes. Run before any kernel is
first called (search/__init__.py does).
"""
import hashlib
from pathlib import Path

_HERE = Path(__file__).resolve().parent
_STAMP = "leyden-kernels.stamp"
# the search files compiled into kernels (constants included); movegen/ counts whole
_KERNEL_SOURCES = ("alphabeta.py", "evaluate.py", "jit.py", "ordering.py", "state.py", "tt.py")


def fingerprint() -> str:
    h = hashlib.sha1()
    files = [_HERE / name for name in _KERNEL_SOURCES]
    files += sorted((_HERE.parent / "movegen").glob("*.py"))
    for f in files:
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()


def drop_stale_cache() -> None:
    cache = _HERE / "__pycache__"
    try:
        digest = fingerprint()
        stamp = cache / _STAMP
        if stamp.is_file() and stamp.read_text() == digest:
            return
        for f in list(cache.glob("*.nbi")) + list(cache.glob("*.nbc")):
            f.unlink(missing_ok=True)
        cache.mkdir(exist_ok=True)
        stamp.write_text(digest)
    except OSError:
        pass  # a read-only install: numba caches elsewhere (or not at all)
