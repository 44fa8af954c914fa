"""A real ``leyden serve`` process for the browser and HTTP tests (not a test module)."""
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``python -m engine serve`` on a free port; ``url`` is its base address."""

    def __init__(self):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        self.proc = subprocess.Popen([sys.executable, "-m", "engine", "serve", "--port", str(self.port)],
                                     cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
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
