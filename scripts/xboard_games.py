"""How XBoard is started for each of Leyden's games (the README's "What to set per game").

Used by ``make play`` (scripts/play.py) and ``make screenshots`` (scripts/screenshots.py).
"""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from engine.xbvariants import XB

ROOT = Path(__file__).resolve().parents[1]
GAMES = tuple(XB)

INSTALL_HINT = ("XBoard is not installed. On Debian/Ubuntu: sudo apt-get install xboard "
                "(on Windows use WinBoard 4.9; see the README, 'Playing with XBoard').")


def find_xboard() -> str | None:
    """The xboard program: on PATH, or in /usr/games where Debian puts it."""
    return shutil.which("xboard") or next(
        (p for p in ("/usr/games/xboard",) if os.access(p, os.X_OK)), None)


def engine_command() -> str:
    """Leyden from this checkout, with the interpreter that runs this script."""
    return f"{sys.executable} -m engine"


def xboard_command(xboard: str, game: str, extra: list[str] = ()) -> list[str]:
    """XBoard against Leyden (first engine, started in the checkout) in ``game``."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; choose one of: {', '.join(GAMES)}")
    return [xboard, "-fcp", engine_command(), "-fd", str(ROOT), "-variant", game,
            *XB[game].options, *extra]
