"""The programs the tests drive: a Leyden engine process over a pipe, a ``leyden serve``
process over HTTP, Fairy-Stockfish as a perft reference, and scripts of the checkout
loaded as modules (not a test module)."""
from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from typing import NamedTuple

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  #: the checkout


def find_program(name: str) -> str | None:
    """An installed program: on PATH, or in the directory Debian installs game engines in
    (often not on a user's PATH)."""
    path = shutil.which(name) or os.path.join("/usr/games", name)
    return path if os.access(path, os.X_OK) else None


def load_script(relative_path: str):
    """A Python file of the checkout that is not in a package (``benchmarks/strength.py``)
    as a module, imported under its file name without touching ``sys.path``."""
    name = os.path.splitext(os.path.basename(relative_path))[0]
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, relative_path))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # so that a script importing its sibling by name finds it
    spec.loader.exec_module(module)
    return module


# --------------------------------------------------------------------------- engine process

class EngineProcess:
    """``python -m engine`` with a thread collecting its output lines."""

    def __init__(self, *args: str, env: dict | None = None):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "engine", *args], cwd=ROOT, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=None if env is None else {**os.environ, **env})
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


# --------------------------------------------------------------------------- leyden serve

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``python -m engine serve`` on a free port; ``url`` is its base address."""

    def __init__(self):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen([sys.executable, "-m", "engine", "serve", "--port", str(self.port)],
                                     cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 240  # a cold numba cache compiles first
        lines = []
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("leyden serve ended: " + "".join(lines))
            lines.append(line)
            if "serves the games on" in line:
                return
        raise RuntimeError("leyden serve did not start: " + "".join(lines))

    def request(self, method: str, path: str, body=None, raw: bytes | None = None):
        """(status, decoded JSON or text) of one request."""
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        req = urllib.request.Request(self.url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as res:
                status, text, ctype = res.status, res.read().decode(), res.headers.get("Content-Type", "")
        except urllib.error.HTTPError as err:
            status, text, ctype = err.code, err.read().decode(), err.headers.get("Content-Type", "")
        return status, (json.loads(text) if "json" in ctype else text)

    def wait_idle(self, gid: str, timeout: float = 60) -> dict:
        """The game's state once Leyden has finished its turn."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status, state = self.request("GET", f"/api/games/{gid}")
            assert status == 200, state
            if not state["thinking"]:
                return state
            time.sleep(0.05)
        raise AssertionError("Leyden did not finish its turn")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.proc.stdout.close()


# --------------------------------------------------------------------------- Fairy-Stockfish

class Divide(NamedTuple):
    moves: dict  #: root move -> the count below it
    total: int


class FairyStockfish:
    """Fairy-Stockfish over UCI as a perft reference for ``variant``; skips the calling test
    where it is not installed. A context manager: leaving it ends the process."""

    def __init__(self, variant: str, chess960: bool = False, watchdog: float = 300):
        path = find_program("fairy-stockfish")
        if path is None:
            pytest.skip("Fairy-Stockfish not installed: apt-get install fairy-stockfish")
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.watchdog = threading.Timer(watchdog, self.proc.kill)  # a hang fails, never blocks
        self.watchdog.start()
        self._send("uci")
        self._read_until("uciok")
        self.set_variant(variant, chess960)

    def set_variant(self, variant: str, chess960: bool = False) -> None:
        self._send(f"setoption name UCI_Variant value {variant}")
        self._send(f"setoption name UCI_Chess960 value {'true' if chess960 else 'false'}")
        self._send("isready")
        self._read_until("readyok")

    def _send(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def _read_until(self, prefix: str) -> list[str]:
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("fairy-stockfish ended")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    def divide(self, fen: str, depth: int) -> Divide:
        """``go perft``: the count below each root move and the total."""
        self._send(f"position fen {fen}")
        self._send(f"go perft {depth}")
        lines = self._read_until("Nodes searched")
        moves = {}
        for line in lines:
            m = re.fullmatch(r"([a-j]\d+[a-j]\d+[a-z]?): (\d+)", line)
            if m:
                moves[m.group(1)] = int(m.group(2))
        return Divide(moves, int(lines[-1].split()[-1]))

    def close(self) -> None:
        try:
            self._send("quit")
            self.proc.wait(timeout=10)
        finally:
            self.watchdog.cancel()
            if self.proc.poll() is None:
                self.proc.kill()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def open_engine(protocol: str):
    """Leyden under python-chess's ``chess.engine`` ("uci" or "xboard")."""
    import chess.engine
    popen = (chess.engine.SimpleEngine.popen_uci if protocol == "uci"
             else chess.engine.SimpleEngine.popen_xboard)
    return popen([sys.executable, "-m", "engine"], cwd=ROOT, timeout=120)
