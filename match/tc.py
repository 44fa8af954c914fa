"""Time controls and chess clocks for the match runner (``leyden match --tc``).

Accepted forms (combine several with commas, e.g. ``10+0.1,depth=8``):

    40/60        40 moves in 60 seconds, repeating      40/1:30   minutes:seconds
    10+0.1       10 seconds for the game, 0.1 s added per move; ``60`` alone = 60+0
    40/60+1      both
    st=1         a fixed 1 second per move
    depth=4      search to depth 4 (no clock)
    nodes=20000  search 20000 nodes per move (no clock)

In Ender's Chess every action is a move for the clock (increment and moves per
session), as XBoard counts it.
"""
from __future__ import annotations

from dataclasses import dataclass, replace


def _seconds(text: str) -> float:
    """``90``, ``1.5`` or ``1:30`` -> seconds."""
    if ":" in text:
        minutes, sec = text.split(":", 1)
        return float(minutes) * 60 + float(sec)
    return float(text)


def _fmt(x: float) -> str:
    return f"{x:g}"


@dataclass(frozen=True)
class TimeControl:
    """Limits for one engine: a clock (``base``/``inc``/``moves``), ``movetime``,
    ``depth`` or ``nodes``; any field may be unset."""

    moves: int = 0  #: moves per session; 0 = the whole game
    base: float = 0.0  #: seconds per session
    inc: float = 0.0  #: seconds added after each move
    movetime: float | None = None  #: fixed seconds per move (``st=``)
    depth: int | None = None
    nodes: int | None = None

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        tc = cls()
        text = (text or "").strip()
        if not text:
            raise ValueError("empty time control")
        for part in text.split(","):
            part = part.strip()
            try:
                tc = tc._parse_part(part)
            except ValueError:
                raise ValueError(f"bad time control {part!r} (examples: 40/60, 10+0.1, st=1, "
                                 f"depth=4, nodes=20000)") from None
        if tc.base <= 0 and tc.movetime is None and tc.depth is None and tc.nodes is None:
            raise ValueError(f"time control {text!r} gives no time and no depth or node limit")
        return tc

    def _parse_part(self, part: str) -> TimeControl:
        key, eq, value = part.partition("=")
        if eq:
            key = key.strip().lower()
            if key in ("st", "movetime"):
                v = _seconds(value)
                if v <= 0:
                    raise ValueError
                return replace(self, movetime=v)
            if key in ("depth", "sd"):
                v = int(value)
                if v < 1:
                    raise ValueError
                return replace(self, depth=v)
            if key == "nodes":
                v = int(value)
                if v < 1:
                    raise ValueError
                return replace(self, nodes=v)
            if key == "tc":
                return replace(self, **_clock_fields(value))
            raise ValueError
        return replace(self, **_clock_fields(part))

    def with_limits(self, depth=None, nodes=None, movetime=None) -> TimeControl:
        tc = self
        if depth is not None:
            tc = replace(tc, depth=depth)
        if nodes is not None:
            tc = replace(tc, nodes=nodes)
        if movetime is not None:
            tc = replace(tc, movetime=movetime)
        return tc

    @property
    def clocked(self) -> bool:
        """True if the engine plays against a game clock (base time)."""
        return self.base > 0 and self.movetime is None

    @property
    def timed(self) -> bool:
        """True if the runner enforces a time limit on each move."""
        return self.clocked or self.movetime is not None

    def __str__(self) -> str:
        parts = []
        if self.movetime is not None:
            parts.append(f"st={_fmt(self.movetime)}")
        elif self.base > 0:
            clock = f"{self.moves}/" if self.moves else ""
            clock += _fmt(self.base)
            if self.inc:
                clock += f"+{_fmt(self.inc)}"
            parts.append(clock)
        if self.depth is not None:
            parts.append(f"depth={self.depth}")
        if self.nodes is not None:
            parts.append(f"nodes={self.nodes}")
        return ",".join(parts)

    def pgn(self) -> str:
        """The PGN ``TimeControl`` tag value (``-`` when there is no clock)."""
        if self.movetime is not None:
            return f"1/{_fmt(self.movetime)}"
        if self.base > 0:
            text = f"{self.moves}/" if self.moves else ""
            text += _fmt(self.base)
            if self.inc:
                text += f"+{_fmt(self.inc)}"
            return text
        return "-"


def _clock_fields(text: str) -> dict:
    """``40/60+1`` -> moves, base, inc."""
    moves = 0
    if "/" in text:
        m, text = text.split("/", 1)
        moves = int(m)
        if moves < 0:
            raise ValueError
    inc = 0.0
    if "+" in text:
        text, i = text.split("+", 1)
        inc = float(i)
    base = _seconds(text)
    if base <= 0 or inc < 0:
        raise ValueError
    return {"moves": moves, "base": base, "inc": inc}


class Clock:
    """One side's clock under a ``TimeControl``."""

    def __init__(self, tc: TimeControl):
        self.tc = tc
        self.remaining = tc.base if tc.clocked else 0.0
        self.moves_done = 0
        self.used = 0.0  #: total thinking time

    def budget(self) -> float | None:
        """Seconds allowed for the coming move (before any grace margin), or None."""
        if self.tc.movetime is not None:
            return self.tc.movetime
        if self.tc.clocked:
            return max(0.0, self.remaining)
        return None

    def moves_to_go(self) -> int | None:
        if self.tc.clocked and self.tc.moves:
            return self.tc.moves - self.moves_done % self.tc.moves
        return None

    def punch(self, elapsed: float) -> None:
        """Book a finished move that took ``elapsed`` seconds."""
        self.used += elapsed
        self.moves_done += 1
        if not self.tc.clocked:
            return
        self.remaining -= elapsed
        self.remaining += self.tc.inc
        if self.tc.moves and self.moves_done % self.tc.moves == 0:
            self.remaining += self.tc.base
