"""Balanced opening books for matches and SPRTs.

    python -m match.book capablanca --count 1000      # -> benchmarks/books/capablanca.epd
    leyden match --variant capablanca --openings benchmarks/books/capablanca.epd ...

An opening is the game's start position (a seeded shuffle in the random games) plus
``--plies`` random plies chosen as the runner's ``--random-plies`` chooses them (no game
end, no side in check, material level), kept only if Leyden's own search to ``--depth``
scores it within ``--margin`` centipawns. Material alone does not see a piece the random
moves left hanging; the search does. With the runner's random plies White scored 58.8%
in 1,896 capablanca games between two nearly equal Leydens: the openings, not the
engines, decided a share of the games.

The book is a file of FEN lines, each with a comment saying where it came from and what
the search scored; the same arguments give the same file.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from movegen import Game, Position, shuffled_fen
from movegen.games import GAMES

from .openings import derived_seed, material_balance, random_plies

BOOK_DIR = Path("benchmarks/books")
MAX_TRIES_PER_OPENING = 100  # a margin nothing meets should fail, not loop


def _start_fen(game: Game, seed: int, index: int) -> str:
    return shuffled_fen(game, derived_seed(seed, "book-shuffle", index)) if game.shuffle else game.start_fen


def _score(searcher, pos: Position, depth: int) -> int | None:
    """Centipawns for the side to move after a search to ``depth`` from a fresh table;
    None for a mate score or no legal move."""
    from search import Limits
    last = []
    searcher.new_game()
    best, _ = searcher.search(pos, Limits(depth=depth), on_info=last.append)
    if best is None or not last or last[-1].score_cp is None:
        return None
    return last[-1].score_cp


def candidate(game: Game, plies: int, seed: int, index: int) -> Position | None:
    """Try ``index``'s position: start + random plies, or None if it is not level
    (material, check) after them."""
    fen = _start_fen(game, seed, index)
    moves = random_plies(game, fen, plies, random.Random(derived_seed(seed, "book", index)))
    pos = Position(game, fen)
    for m in moves:
        pos.push(m)
    if pos.outcome() is not None or material_balance(game, pos.fen()) != 0:
        return None
    if not game.multi_action and pos.in_check():
        return None
    return pos


def balanced_openings(game: Game, count: int, plies: int = 6, depth: int = 7, margin: int = 50,
                      seed: int = 2026, progress=None) -> list[tuple[str, int, int]]:
    """``count`` openings as (FEN, score, try index), in the order found."""
    from search import Searcher
    searcher = Searcher(hash_mb=16)
    out: list[tuple[str, int, int]] = []
    index = 0
    while len(out) < count:
        if index >= MAX_TRIES_PER_OPENING * count:
            raise ValueError(f"{len(out)} of {count} openings within {margin} cp after {index} tries")
        pos = candidate(game, plies, seed, index)
        if pos is not None:
            score = _score(searcher, pos, depth)
            if score is not None and abs(score) <= margin:
                out.append((pos.fen(), score, index))
                if progress is not None:
                    progress(len(out), index + 1)
        index += 1
    return out


def write_book(path: Path, openings, header: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"# {header}\n")
        for fen, score, index in openings:
            f.write(f"{fen}  # try {index}, {score:+d} cp\n")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m match.book", description=__doc__.split("\n\n")[0])
    p.add_argument("game", choices=sorted(GAMES))
    p.add_argument("--count", type=int, default=1000, help="openings (default 1000)")
    p.add_argument("--plies", type=int, default=6, help="random plies (default 6)")
    p.add_argument("--depth", type=int, default=7, help="search depth of the balance test (default 7)")
    p.add_argument("--margin", type=int, default=50, help="largest |score| kept, centipawns (default 50)")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--out", type=Path, default=None, help="default benchmarks/books/<game>.epd")
    a = p.parse_args(argv)
    if a.count < 1 or a.plies < 1 or a.depth < 1 or a.margin < 0:
        p.error("--count, --plies and --depth must be at least 1, --margin at least 0")
    game = GAMES[a.game]
    out = a.out or BOOK_DIR / f"{a.game}.epd"
    start = time.time()

    def progress(found: int, tried: int) -> None:
        if found % 50 == 0 or found == a.count:
            print(f"{found}/{a.count} openings from {tried} tries, {time.time() - start:.0f} s",
                  file=sys.stderr, flush=True)

    try:
        book = balanced_openings(game, a.count, a.plies, a.depth, a.margin, a.seed, progress)
    except ValueError as exc:
        print(f"match.book: {exc}", file=sys.stderr)
        return 1
    header = (f"{a.game}: {a.plies} random plies, Leyden depth {a.depth} within {a.margin} cp, "
              f"seed {a.seed} (python -m match.book {a.game} --count {a.count} --plies {a.plies} "
              f"--depth {a.depth} --margin {a.margin} --seed {a.seed})")
    write_book(out, book, header)
    print(f"{out}: {len(book)} openings", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
