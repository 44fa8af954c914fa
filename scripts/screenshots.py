"""``make screenshots``: pictures of Leyden's eight games in XBoard, for the README.

Runs XBoard against Leyden for each game on the X display in $DISPLAY (the Makefile
starts one with xvfb-run) and saves the XBoard window as docs/img/GAME.png:

- every game: its start position as XBoard shows it;
- batteries: a charged Agent lifted, with the targets Leyden highlights (yellow moves,
  red captures, cyan the piece an overtaking capture jumps), docs/img/batteries-lift.png;
- enders: Leyden, playing White, drops a piece from its holdings onto its Gate,
  docs/img/enders-drop.png.

Needs xboard, xdotool and ImageMagick's ``import`` (apt-get install xboard xvfb xdotool
imagemagick).
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from xboard_games import GAMES, INSTALL_HINT, ROOT, find_xboard, xboard_command

# XBoard parses a position file before the engine has described an unknown game, so the
# file's first entry is a plain 8x8 position it can read then; "Next Position" (Shift+Page
# Down) loads the second entry once it knows the Batteries pieces.
_BATTERIES_FILE = ["4k3/8/8/8/8/8/8/4K3 w - - 0 1",
                   # a charged Agent on e4 beside its Battery on d4: it slides through the
                   # Battery, takes e7 and f5, and can overtake f5 to land on g6
                   "4k5/2d2l4/10/4o5/10/5s4/3BA5/2S7/10/4K5 w - - 0 1"]
_BATTERIES_LIFT = ("e", 4)
_COMMON = ["-boardSize", "medium", "-popupExitMessage", "false", "-popupMoveErrors", "false",
           "-ponderNextMove", "false", "-showButtonBar", "true"]


def _xdotool(*args: str) -> str:
    return subprocess.run(["xdotool", *args], capture_output=True, text=True, check=False).stdout


def _wait_for_window(proc: subprocess.Popen, timeout: float = 90.0) -> str:
    """XBoard's main window id (its title starts with "xboard:" once the engine is loaded)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        ids = _xdotool("search", "--onlyvisible", "--name", "^xboard: ").split()
        if ids:
            return ids[0]
        time.sleep(0.3)
    raise RuntimeError(f"XBoard's window did not appear (exit status {proc.poll()})")


def _capture(window: str, path: Path) -> None:
    _close_hint(window)  # (the pointer itself is not in the picture)
    subprocess.run(["import", "-window", window, str(path)], check=True)
    # 256 colours keep the board's look at a third of the size
    subprocess.run(["convert", str(path), "-strip", "-colors", "256", f"PNG8:{path}"], check=True)


def _hint_shown(window: str) -> bool:
    """XBoard's start-up hint ("Right-clicking menu item or dialog text pops up help on
    it"), an olive box over the board: is it there?"""
    width, height, rgb = _pixels(window)
    olive = sum(1 for i in range(0, len(rgb), 3 * 7)  # every 7th pixel is plenty
                if 190 <= rgb[i] <= 215 and 190 <= rgb[i + 1] <= 215 and 85 <= rgb[i + 2] <= 120)
    return olive > 200


def _close_hint(window: str) -> None:
    """The hint goes when a piece is picked up: click a square of White's first rank twice
    (lift and put back its piece): a1, else c1 (Batteries, whose a1 is empty)."""
    width, height, _ = _pixels(window)
    for x in (width // 20, width * 5 // 20):
        if not _hint_shown(window):
            return
        for _ in range(2):
            _xdotool("mousemove", "--window", window, str(x), str(height - 24), "click", "1")
            time.sleep(0.5)


def _pixels(window: str):
    """(width, height, rgb bytes) of the window, through ImageMagick's PPM output."""
    ppm = subprocess.run(["import", "-window", window, "-depth", "8", "ppm:-"], capture_output=True,
                         check=True).stdout
    fields = ppm.split(maxsplit=4)  # P6 width height maxval data
    width, height = int(fields[1]), int(fields[2])
    return width, height, fields[4][-width * height * 3:]


def _board_geometry(window: str, files: int, ranks: int):
    """(left, top, pitch) of the board: found from its black frame, not from XBoard's
    layout, which depends on fonts and version."""
    width, height, rgb = _pixels(window)

    def black(x, y):
        i = (y * width + x) * 3
        return rgb[i] < 40 and rgb[i + 1] < 40 and rgb[i + 2] < 40

    middle = height - 40  # inside the lowest rank, below any clock or menu
    xs = [x for x in range(width) if black(x, middle)]
    left, right = xs[0], xs[-1]
    pitch = (right - left) / files
    column = int(left + pitch / 2)
    bottom = max(y for y in range(height) if black(column, y))
    return left, bottom - ranks * pitch, pitch


def _click_square(window: str, game_size: tuple[int, int], square: tuple[str, int]) -> None:
    """Click a square (the pointer stays there: XBoard keeps the piece lifted)."""
    files, ranks = game_size
    left, top, pitch = _board_geometry(window, files, ranks)
    file, rank = square
    x = int(left + (ord(file) - ord("a") + 0.5) * pitch)
    y = int(top + (ranks - rank + 0.5) * pitch)
    _xdotool("mousemove", "--window", window, str(x), str(y), "click", "1")


def _run_xboard(xboard: str, game: str, extra: list[str], scene, settle: float = 4.0,
                tries: int = 2) -> None:
    """Start XBoard, play ``scene(window)``, close it; start again once if XBoard quit
    before showing its window (seen now and then on a busy machine)."""
    try:
        _run_xboard_once(xboard, game, extra, scene, settle)
    except RuntimeError as exc:
        if tries <= 1:
            raise
        print(f"{game}: {exc}; trying again", file=sys.stderr)
        _run_xboard(xboard, game, extra, scene, settle, tries - 1)


def _run_xboard_once(xboard: str, game: str, extra: list[str], scene, settle: float) -> None:
    proc = subprocess.Popen(xboard_command(xboard, game, _COMMON + extra), cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        window = _wait_for_window(proc)
        time.sleep(settle)  # the engine describes the game; XBoard redraws the board
        scene(window)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def shoot(xboard: str, game: str, out: Path) -> list[Path]:
    saved = []

    def start(window):
        saved.append(out / f"{game}.png")
        _capture(window, saved[-1])

    _run_xboard(xboard, game, [], start)
    if game == "batteries":
        with tempfile.NamedTemporaryFile("w", suffix=".fen", delete=False) as fh:
            fh.write("\n".join(_BATTERIES_FILE) + "\n")

        def lift(window):
            _xdotool("key", "--window", window, "shift+Next")
            time.sleep(2)
            _close_hint(window)  # before the lift: the click that closes it would drop the piece
            _click_square(window, (10, 10), _BATTERIES_LIFT)
            time.sleep(2)  # XBoard asks Leyden ("lift e3") and draws its highlights
            saved.append(out / "batteries-lift.png")
            _capture(window, saved[-1])

        _run_xboard(xboard, game, ["-lpf", fh.name], lift)
        Path(fh.name).unlink()
    if game == "enders":
        def drop(window):
            time.sleep(6)  # Leyden, as White, thinks and drops its first piece
            saved.append(out / "enders-drop.png")
            _capture(window, saved[-1])

        _run_xboard(xboard, game, ["-initialMode", "MachineWhite", "-autoFlipView", "false",
                                    "-tc", "0:20", "-inc", "0"],
                    drop)
    return saved


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help="default: all eight")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    args = parser.parse_args(argv)
    unknown = [g for g in args.games if g not in GAMES]
    if unknown:
        parser.error(f"unknown game {unknown[0]!r}; choose from: {' '.join(GAMES)}")
    xboard = find_xboard()
    missing = [tool for tool in ("xdotool", "import", "convert") if not shutil.which(tool)]
    if xboard is None or missing:
        print(f"error: {INSTALL_HINT if xboard is None else ''} missing: {' '.join(missing)} "
              "(apt-get install xboard xvfb xdotool imagemagick)", file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    for game in args.games or GAMES:
        for path in shoot(xboard, game, args.out):
            print(f"{game}: {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
