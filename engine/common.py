"""Pieces shared by the XBoard and UCI loops: start positions, results, options."""
from __future__ import annotations

import math
import os
import random
import time

from movegen import Game, Position, energizer_switched_fen, shuffled_fen

ENGINE_NAME = "Leyden"
ENGINE_VERSION = "0.1"
ENGINE_AUTHOR = "the Leyden authors"

#: Rough resident memory of the process besides the transposition table (Python,
#: numpy, numba and the compiled kernels); documented in README.md (Memory).
BASE_MEMORY_MB = 180

def max_hash_mb() -> int:
    """The largest hash table we agree to allocate: a quarter of the machine's memory."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        return max(16, int(total / 2**20 / 4))
    except (ValueError, OSError, AttributeError):
        return 4096


def resize_hash(searcher, mb: int) -> str | None:
    """Size the searcher's table; on failure keep a working (smaller) one.

    Returns None on success, else the reason.
    """
    try:
        searcher.set_hash(mb)
        return None
    except MemoryError:
        for fallback in (mb // 4, 64, 16):
            try:
                searcher.set_hash(max(1, fallback))
                return f"not enough memory for {mb} MB; using {max(1, fallback)} MB"
            except MemoryError:
                continue
        return f"not enough memory for {mb} MB"


class StartPositions:
    """Draws the engine's own start positions (shuffle games, Energizer's switch).

    ``seed`` 0 means a fresh random sequence; any other value gives the same
    sequence of setups every time the engine starts.
    """

    def __init__(self):
        self.seed = 0
        self._strict = False
        self.energizer_switch = False
        self._rng = random.Random(time.time_ns())
        self._unused: dict[str, str] = {}  # game -> drawn setup not played yet

    def set_seed(self, seed: int) -> None:
        self.seed = seed
        self._rng = random.Random(seed if seed else time.time_ns())
        self._unused.clear()

    def fen(self, game: Game) -> str:
        """The setup for the next game of ``game``.

        A drawn setup is handed out again until ``played`` says a game began from it:
        GUIs (XBoard) may announce the same new game twice before it starts.
        """
        if game.name not in self._unused:
            self._unused[game.name] = self._draw(game)
        return self._unused[game.name]

    @property
    def strict(self) -> bool:
        """Draw only strict Capablanca Random setups (see movegen.shuffle)."""
        return self._strict

    @strict.setter
    def strict(self, value: bool) -> None:
        self._strict = bool(value)
        self._unused.clear()

    def set_switch(self, value: bool) -> None:
        self.energizer_switch = bool(value)
        self._unused.clear()

    def played(self, game: Game) -> None:
        self._unused.pop(game.name, None)

    def _draw(self, game: Game) -> str:
        if game.shuffle:
            return shuffled_fen(game, self._rng.randrange(2**62), strict=self.strict)
        if game.name == "energizer" and self.energizer_switch:
            return energizer_switched_fen(self._rng.randrange(2**62))
        return game.start_fen


def result_comment(pos: Position, score: str, reason: str) -> str:
    """The ``RESULT {comment}`` line for a finished game (XBoard's conventions)."""
    if reason == "checkmate":
        text = "White mates" if score == "1-0" else "Black mates"
    elif reason == "stalemate":
        text = "Stalemate"
    elif reason == "50-move rule":
        text = "50 move rule"
    elif reason == "50-turn rule":
        text = "50 turn rule"
    elif reason == "repetition":
        text = "3-fold repetition"
    elif reason == "bare kings":
        text = "insufficient mating material"
    elif reason == "gate":
        text = ("Black occupies White's gate" if score == "0-1"
                else "White wins: Black cannot reach White's gate")
    elif reason == "reply gate":
        text = "both gates occupied"
    elif reason == "reply turn ended":
        text = "White held Black's gate"
    elif reason == "elimination":
        text = "White eliminates Black" if score == "1-0" else "Black eliminates White"
    else:
        text = reason
    return f"{score} {{{text}}}"


def parse_number(text: str, lo: float, hi: float) -> float | None:
    """``text`` as a finite number, clamped into [lo, hi]; None if it is not one.

    The rule for every number a protocol reads: words, ``nan`` and ``inf`` are refused
    (the command answers with an error and changes nothing); a finite number beyond a
    bound (``1e300``, a 20-digit integer) is taken as that bound."""
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    if not math.isfinite(value):
        return None
    return min(max(value, lo), hi)


def parse_int(text: str, lo: int, hi: int) -> int | None:
    """``parse_number`` for counts: the number, rounded toward zero, clamped into [lo, hi]."""
    value = parse_number(text, lo, hi)
    return None if value is None else int(value)
