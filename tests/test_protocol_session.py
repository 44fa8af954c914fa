"""A Leyden engine process driven over a pipe (shared by the protocol tests), and tests
of the process as a whole: the start-up handshake and survival of bad input."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class EngineProcess:
    """``python -m engine`` with a thread collecting its output lines."""

    def __init__(self, *args: str):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "engine", *args], cwd=ROOT, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines: list[str] = []
        self.errors: list[str] = []  #: what the process wrote to stderr
        self.cond = threading.Condition()
        self._since: int | None = None  # output index when the unsynced sends began
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_errors, daemon=True).start()

    def _read_errors(self):
        for raw in self.proc.stderr:
            self.errors.append(raw.decode("utf-8", "replace").rstrip("\n"))

    def _read(self):
        for raw in self.proc.stdout:
            with self.cond:
                self.lines.append(raw.decode("utf-8", "replace").rstrip("\n"))
                self.cond.notify_all()
        with self.cond:
            self.cond.notify_all()

    def write(self, data: bytes):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, *texts: str):
        if self._since is None:
            with self.cond:
                self._since = len(self.lines)
        for text in texts:
            self.write(text.encode("utf-8", "surrogateescape") + b"\n")

    def mark(self) -> int:
        """Index of the next output line (to wait for answers to what is sent next)."""
        with self.cond:
            self._since = None
            return len(self.lines)

    def wait_for(self, predicate, timeout: float = 30.0, start: int = 0) -> int | None:
        """Index of the first line from ``start`` on that satisfies ``predicate``."""
        if isinstance(predicate, str):
            prefix = predicate
            predicate = lambda s: s.startswith(prefix)
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for i in range(start, len(self.lines)):
                    if predicate(self.lines[i]):
                        return i
                left = deadline - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    return None
                self.cond.wait(min(left, 0.5))

    def expect(self, predicate, timeout: float = 30.0, start: int = 0) -> str:
        i = self.wait_for(predicate, timeout, start)
        assert i is not None, f"no line matching {predicate!r}; last lines: {self.lines[-8:]}"
        return self.lines[i]

    def sync_xboard(self, n: int = 99, timeout: float = 60.0) -> list[str]:
        """Send ``ping n``; return the lines since the first send after the last sync."""
        start = self._since if self._since is not None else self.mark()
        self.send(f"ping {n}")
        self._since = None
        end = self.wait_for(lambda s: s == f"pong {n}", timeout, start)
        assert end is not None, f"no pong {n}; last lines: {self.lines[-8:]}"
        return self.lines[start:end]

    def sync_uci(self, timeout: float = 60.0) -> list[str]:
        """Send ``isready``; return the lines since the first send after the last sync."""
        start = self._since if self._since is not None else self.mark()
        self.send("isready")
        self._since = None
        end = self.wait_for(lambda s: s == "readyok", timeout, start)
        assert end is not None, f"no readyok; last lines: {self.lines[-8:]}"
        return self.lines[start:end]

    def close(self):
        try:
            self.send("quit")
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def xboard_engine() -> EngineProcess:
    eng = EngineProcess()
    eng.send("xboard", "protover 2")
    eng.expect(lambda s: s == "feature done=1", 120)
    return eng


def test_xboard_handshake_waits_with_done_0_then_ready():
    with EngineProcess() as eng:
        start = time.monotonic()
        eng.send("xboard", "protover 2")
        first = eng.expect("feature", 10)
        assert first == "feature done=0"  # XBoard must wait for the kernels
        eng.expect(lambda s: s == "feature done=1", 120)
        ready = time.monotonic() - start
        features = " ".join(eng.lines)
        for f in ("ping=1", "setboard=1", "usermove=1", "analyze=1", "memory=1", "colors=0",
                  "sigint=0", "sigterm=0", "highlight=1", 'myname="Leyden'):
            assert f in features, f
        assert ('variants="normal,capablanca,caparandom,energizer,sultan,sultanrandom,'
                'batteries,enders"') in features
        assert ready < 60


def test_end_of_input_and_truncated_last_line_end_cleanly():
    for data in (b"xboard\nprotover 2\nping 1\nusermove e2e", b"uci\nisready\ngo depth 1",
                 b"", b"\x00\xff\xfe garbage without newline"):
        eng = EngineProcess()
        eng.write(data)
        eng.proc.stdin.close()
        assert eng.proc.wait(120) == 0


def test_binary_and_oversized_lines_get_errors_not_crashes():
    with xboard_engine() as eng:
        eng.write(b"\x00\x01\x02\xff\xfe\xfd\n")
        eng.write(b"usermove " + b"e" * 1_000_000 + b"\n")
        eng.write("usermove \u00e9\u20ac\u4e2d\n".encode())
        eng.write(b"\r\n\t\n   \n")
        lines = eng.sync_xboard(1)
        assert any(s.startswith("Error (line too long") for s in lines)
        assert eng.proc.poll() is None
