"""The one place where the engine process meets the search.

``SearchJob`` runs ``Searcher.search`` in a worker thread; the protocol thread starts,
stops and waits for jobs. The ``search`` package provides Searcher, Limits, Info and
warmup.
"""
from __future__ import annotations

import threading
from collections.abc import Callable

from search import MAX_NODES as MAX_COUNT  # noqa: F401 - re-exported for the protocol modules
from search import MAX_SECONDS, MAX_THREADS, Info, Limits, Searcher  # noqa: F401
from search import warmup as _search_warmup


def run_bench(depth=None, out=print):
    from search.bench import run_bench as bench
    return bench(depth=depth, out=out)


def warmup() -> None:
    """Load (or compile, on first use) every numba kernel the engine needs."""
    from movegen import GAMES, Position
    for name in GAMES:
        pos = Position(name)
        moves = pos.legal_moves()
        if moves:
            pos.push(moves[0])
            pos.outcome()
            pos.in_check()
            pos.pop()
        pos.fen()
    _search_warmup()


class SearchJob:
    """One search in a worker thread.

    ``on_info(info)`` is called in the worker for each progress report;
    ``on_done(job, best, ponder)`` is called in the worker when the search returns,
    also after ``stop()`` (the caller checks ``job.cancelled`` to know whether the
    result is still wanted). An exception inside the search ends the job with
    ``best=None`` and is handed to ``on_error(exc)``; the process goes on.
    """

    def __init__(self, searcher, pos, limits, *, kind: str,
                 on_info: Callable | None = None, on_done: Callable | None = None,
                 on_error: Callable | None = None):
        self.searcher = searcher
        self.pos = pos
        self.limits = limits
        self.kind = kind  #: "think", "ponder", "analyze" (XBoard) or "go" (UCI)
        self.on_info = on_info
        self.on_done = on_done
        self.on_error = on_error
        self.cancelled = False  #: the result is no longer wanted
        self.last_info = None
        self.best = None
        self.ponder = None
        self.finished = threading.Event()
        self.thread = threading.Thread(target=self._run, name=f"search-{kind}", daemon=True)

    def start(self) -> SearchJob:
        """Start the worker. The searcher is armed here, in the caller's thread, so a
        ``stop()`` made any time after ``start()`` returns is never lost."""
        self.searcher.arm()
        self.thread.start()
        return self

    def _info(self, info) -> None:
        self.last_info = info
        if self.on_info and not self.cancelled:
            try:
                self.on_info(info)
            except Exception as exc:  # noqa: BLE001 - a reporting bug must not kill the search
                if self.on_error:
                    self.on_error(exc)

    def _run(self) -> None:
        try:
            best, ponder = self.searcher.search(self.pos, self.limits, self._info, armed=True)
            self.best, self.ponder = best, ponder
        except Exception as exc:  # noqa: BLE001
            if self.on_error:
                self.on_error(exc)
        finally:
            self.finished.set()
        if self.on_done:
            try:
                self.on_done(self, self.best, self.ponder)
            except Exception as exc:  # noqa: BLE001
                if self.on_error:
                    self.on_error(exc)

    def stop(self) -> None:
        self.searcher.stop()

    def cancel(self) -> None:
        """Stop and discard the result; returns when the worker has finished."""
        self.cancelled = True
        self.stop_and_wait()

    def stop_and_wait(self) -> None:
        """Stop and wait for the worker (its ``on_done`` has run when this returns)."""
        if threading.current_thread() is self.thread:
            return
        self.searcher.stop()
        self.thread.join()

    def wait(self, timeout: float | None = None) -> bool:
        if threading.current_thread() is self.thread:
            return True
        self.thread.join(timeout)
        return not self.thread.is_alive()

    @property
    def running(self) -> bool:
        return not self.finished.is_set()
