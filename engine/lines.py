"""Robust line input and thread-safe line output for the protocol loops.

A GUI, a script or a fuzzer may send anything: binary bytes, lines without an end,
lines of megabytes. ``LineReader`` turns the byte stream into text lines of a bounded
length and never raises; ``Output`` writes whole lines from any thread and flushes each.
"""
from __future__ import annotations

import sys
import threading

#: Longest line handed to the protocol code; the rest of a longer line is dropped.
MAX_LINE = 16384


class LineReader:
    """Reads text lines from a binary stream.

    ``readline()`` returns the next line without its end (``\\r`` stripped too),
    decoded as UTF-8 with undecodable bytes replaced; an oversized line is cut to
    ``MAX_LINE`` characters and flagged through ``last_was_truncated``; NUL bytes and
    other control characters (except tab) become spaces. At end of input it returns None.
    """

    def __init__(self, stream=None, max_line: int = MAX_LINE):
        self.stream = stream if stream is not None else sys.stdin.buffer
        self.max_line = max_line
        self.last_was_truncated = False

    def readline(self) -> str | None:
        try:
            data = self.stream.readline(self.max_line + 1)
        except (OSError, ValueError):
            return None
        if not data:
            return None
        self.last_was_truncated = False
        if not data.endswith(b"\n") and len(data) > self.max_line:
            # Oversized: keep the head, skip the rest of the line.
            self.last_was_truncated = True
            data = data[: self.max_line]
            while True:
                try:
                    more = self.stream.readline(65536)
                except (OSError, ValueError):
                    break
                if not more or more.endswith(b"\n"):
                    break
        text = data.decode("utf-8", errors="replace")
        text = text.rstrip("\r\n")
        return "".join(c if (c >= " " or c == "\t") and c != "\x7f" else " " for c in text)


class Output:
    """Writes protocol lines to a text stream, one lock for all threads.

    Every line is flushed at once (GUIs read pipes line by line). A closed or broken
    stream is remembered and later writes are dropped silently: the engine must not
    die because its GUI went away mid-line.
    """

    def __init__(self, stream=None, log=None):
        self.stream = stream if stream is not None else sys.stdout
        self.lock = threading.RLock()
        self.broken = False
        self.log = log  #: optional callable(str) that sees every line written

    def send(self, *lines: str) -> None:
        with self.lock:
            if self.broken:
                return
            try:
                for line in lines:
                    self.stream.write(line + "\n")
                    if self.log:
                        self.log("> " + line)
                self.stream.flush()
            except (OSError, ValueError):
                self.broken = True
