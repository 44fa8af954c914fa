"""Training positions from finished games in PGN: any engines' games, such as a peer
playing itself in ``leyden match``, labelled with their results.

    python -m tune.pgndata capablanca games.pgn [more.pgn ...] --out data/tune/capablanca-peer.txt

Self-play at a few thousand nodes a move (tune/datagen.py) only shows the evaluation
positions Leyden itself steers into; a stronger engine's games add the ones Leyden
misjudges (a king attack it does not see coming). Kept, as in datagen: positions of the
game's ``Variant`` after the opening (the move commented "end of opening", else the
start) and ``--skip-plies`` more, the side to move not in check, quiet by Leyden's own
quiescence search (Ender's Chess: turn starts only). Games without a result, or not
ended by the rules or an agreed adjudication (a forfeit, a crash), are skipped: their
result says nothing about the position. The output is the datagen format, one header
per game, so the tuner holds out whole games; a rerun rewrites the file.

``--exclude`` makes a file of new positions only, for scoring more games without
scoring again what an earlier file holds: a position (board, side, castling, en passant)
found in those files, or written earlier in the run, is left out, and a game left with no
position is not written.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from match.pgn import ADJUDICATION, NORMAL, comment_score, opening_plies, read_games, white_moved
from movegen import Position
from movegen.games import find_game

from . import game_argument
from .datagen import QuietTest
from .positions import RESULTS, result_text

#: PGN Termination tags whose result came from the game itself
SOUND_ENDINGS = {NORMAL, ADJUDICATION}


def position_key(fen: str) -> str:
    """A FEN without its move counters: the same position reached at another move."""
    return " ".join(fen.split()[:4])


def known_positions(paths) -> set[str]:
    """The position keys of data files (any of the tuner's formats); ValueError for a
    file that is not one."""
    keys = set()
    for path in paths:
        with open(path) as f:
            for number, line in enumerate(f, 1):
                if line.strip() and not line.startswith("#"):
                    fields = line.split()
                    if len(fields) < 5 or "/" not in fields[1]:
                        raise ValueError(f"{path}, line {number}: not a data file's position line")
                    keys.add(position_key(" ".join(fields[1:])))
    return keys


def _unseen(seen: set[str] | None, fen: str) -> bool:
    """Is the position new to ``seen`` (then it is added)? Always, without a set."""
    if seen is None:
        return True
    key = position_key(fen)
    if key in seen:
        return False
    seen.add(key)
    return True


def white_score(game, ply: int) -> int | None:
    """The score the mover's search gave the position before move ``ply`` (the match
    runner's comment on that move), in centipawns from White's view; None without one
    or for a mate (a mate score is no evaluation to learn)."""
    cp = comment_score(game.comments.get(ply, ""))
    if cp is None:
        return None
    return cp if white_moved(game, ply) else -cp


def game_lines(game, quiet: QuietTest, skip_plies: int,
               seen: set[str] | None = None, scores: bool = False) -> tuple[str, list[str]] | None:
    """(header, position lines) of one PGN game, or None when it is not usable.
    ``seen``: position keys to leave out, and to which the kept ones are added.
    ``scores``: only positions whose move has a search score, each line ending ``cp=N``."""
    tags = game.tags
    if game.result not in RESULTS or tags.get("Termination", NORMAL) not in SOUND_ENDINGS:
        return None
    pos = Position(quiet.game, tags.get("FEN"))
    first = opening_plies(game.comments) + skip_plies
    label = result_text(RESULTS[game.result])
    kept = []
    for ply, move in enumerate(game.moves):
        cp = white_score(game, ply) if scores and ply >= first else None
        if ply >= first and (cp is not None or not scores) and quiet(pos):
            fen = pos.fen()
            if _unseen(seen, fen):
                kept.append(f"{label} {fen}" + (f" cp={cp}" if scores else ""))
        pos.push(move)
    header = (f"variant {quiet.game.name} white {tags.get('White', '?')} black {tags.get('Black', '?')} "
              f"result {game.result} plies {len(game.moves)} positions {len(kept)}")
    return header, kept


def convert(game_name: str, pgns: list[str], out: Path, skip_plies: int = 8, log=print,
            exclude=None, scores: bool = False) -> int:
    """Write the positions of every usable ``game_name`` game of ``pgns`` to ``out``;
    returns the positions written. ``exclude``: data files whose positions are left out
    (and then no position is written twice). ``scores``: see ``game_lines``."""
    quiet = QuietTest(find_game(game_name))
    seen = known_positions(exclude) if exclude else None
    index = 0
    written = 0
    skipped = 0
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w") as f:
        for path in pgns:
            for game in read_games(path):
                if game.tags.get("Variant", "normal") != game_name:
                    continue
                lines = game_lines(game, quiet, skip_plies, seen, scores)
                if lines is None:
                    skipped += 1
                    continue
                header, kept = lines
                if seen is not None and not kept:
                    continue
                f.write(f"# game {index} {header}\n" + "".join(line + "\n" for line in kept))
                index += 1
                written += len(kept)
    log(f"{out}: {written} positions of {index} {game_name} games ({skipped} skipped: no result "
        f"or not ended by the rules)")
    return written


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tune.pgndata", description=__doc__.split("\n\n")[0])
    ap.add_argument("game", type=game_argument, help="the game (normal, capablanca, ...)")
    ap.add_argument("pgn", nargs="+", help="PGN files (games of other variants are ignored)")
    ap.add_argument("--out", required=True, help="the data file to write")
    ap.add_argument("--skip-plies", type=int, default=8,
                    help="plies after the opening not recorded (default 8)")
    ap.add_argument("--exclude", nargs="+", default=[], metavar="DATA",
                    help="data files whose positions are left out (new positions only)")
    ap.add_argument("--scores", action="store_true",
                    help="keep each position's search score from the move's comment (cp=N, White's "
                         "view); positions without one are left out")
    args = ap.parse_args(argv)
    missing = [p for p in args.pgn + args.exclude if not Path(p).is_file()]
    if missing:
        print(f"error: no such file: {', '.join(missing)}", file=sys.stderr)
        return 2
    if args.skip_plies < 0:
        print("error: --skip-plies must be 0 or more", file=sys.stderr)
        return 2
    try:
        convert(args.game.name, args.pgn, Path(args.out), args.skip_plies, exclude=args.exclude,
                scores=args.scores)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
