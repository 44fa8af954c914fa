"""What the XBoard and UCI sessions share: reading lines until ``quit`` or end of input,
logging them, dispatching each to a command, and never dying on one.

An unexpected failure (a bug, never a bad command: those are answered by the command)
becomes one protocol line; its traceback goes to the ``--log`` file only, because a
GUI shows what the engine prints to its user."""
from __future__ import annotations

import threading
import traceback

from search.weights import parse_changes

from .lines import Output
from .searching import Searcher


class ProtocolSession:
    """Base of ``XBoardEngine`` and ``UCIEngine``; they implement ``dispatch``,
    ``line_too_long``, ``error_line`` and ``finish``."""

    def __init__(self, out: Output, loader: threading.Thread | None = None, log=None):
        self.out = out
        self.loader = loader  # kernel loading started at process start
        self.log = log
        self.lock = threading.RLock()
        self.quit = False
        self.searcher = None
        self.hash_mb = 64
        self.threads = 1  # search threads (UCI Threads, XBoard cores)
        self.changes: tuple = ()  # weights and search settings of the Tune option

    def send(self, *lines: str) -> None:
        self.out.send(*lines)

    def _ensure_searcher(self):
        """The searcher, created once the kernels are loaded."""
        if self.searcher is None:
            if self.loader is not None:
                self.loader.join()
            self.searcher = Searcher(hash_mb=self.hash_mb, threads=self.threads)
            self.searcher.changes = self.changes
        return self.searcher

    def set_tune(self, text: str) -> str | None:
        """The ``Tune`` option: search with these weights or search settings changed
        (``name=value`` pairs, search/weights.py) from the next search on; an empty
        value restores the game's own. The problem, if the value is refused (nothing
        changes then)."""
        try:
            self.changes = parse_changes(text)
        except ValueError as exc:
            return str(exc)
        if self.searcher is not None:
            self.searcher.changes = self.changes
        return None

    def set_threads(self, n: int) -> None:
        """Search with ``n`` threads from the next search on (a running one goes on)."""
        self.threads = n
        if self.searcher is not None:
            self.searcher.set_threads(n)

    def run(self, reader, first_line: str | None = None) -> None:
        if first_line is not None:
            self.handle(first_line)
        while not self.quit:
            line = reader.readline()
            if line is None:
                break
            if reader.last_was_truncated:
                self.send(self.line_too_long(line))
                continue
            self.handle(line)
        self.finish()

    def handle(self, line: str) -> None:
        line = line.strip()
        if not line:
            return
        if self.log:
            self.log("< " + line)
        parts = line.split(None, 1)
        cmd, arg = parts[0], (parts[1].strip() if len(parts) > 1 else "")
        try:
            self.dispatch(line, cmd, arg)
        except Exception as exc:  # noqa: BLE001 - never die on input
            self.report(exc, line)

    def report(self, exc: BaseException, context: str) -> None:
        """One protocol line for an unexpected failure while doing ``context``."""
        if self.log:
            for text in traceback.format_exception(exc):
                for part in text.rstrip().splitlines():
                    self.log("! " + part)
        self.send(self.error_line(exc, context))

    def on_search_error(self, exc: BaseException) -> None:
        """A search job failed (its move is replaced by a legal one by the caller)."""
        self.report(exc, "search")

    # ----------------------------------------------------------- for subclasses
    def dispatch(self, line: str, cmd: str, arg: str) -> None:
        raise NotImplementedError

    def line_too_long(self, line: str) -> str:
        raise NotImplementedError

    def error_line(self, exc: BaseException, line: str) -> str:
        raise NotImplementedError

    def finish(self) -> None:
        """End of session: stop any search."""
