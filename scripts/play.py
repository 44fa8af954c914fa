"""``make play VARIANT=GAME``: open XBoard with Leyden in that game (you play White).

Exits with a message saying what to install when XBoard is missing, or what to do when
there is no display to open it on.
"""
from __future__ import annotations

import os
import subprocess
import sys

from xboard_games import GAMES, INSTALL_HINT, find_xboard, xboard_command


def main(argv: list[str]) -> int:
    game = argv[0] if argv else "capablanca"
    if game not in GAMES:
        print(f"error: unknown game {game!r}; VARIANT is one of: {' '.join(GAMES)}", file=sys.stderr)
        return 2
    xboard = find_xboard()
    if xboard is None:
        print(f"error: {INSTALL_HINT}", file=sys.stderr)
        return 1
    if not os.environ.get("DISPLAY"):
        print("error: no X display to open XBoard on (DISPLAY is not set); run it from a "
              "desktop session, or headless under xvfb-run", file=sys.stderr)
        return 1
    command = xboard_command(xboard, game, argv[1:])
    print("starting:", " ".join(command), flush=True)
    return subprocess.run(command, check=False).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
