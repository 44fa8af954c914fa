"""Training positions for the Texel tuner: Leyden plays itself and keeps quiet positions.

    python -m tune.datagen capablanca --games 400 --nodes 3000 --concurrency 1
    make datagen GAME=capablanca GAMES=400

Every game starts from the game's setup (a fresh shuffle for the random games) plus
``--random-plies`` random balanced plies (match/openings.py, as matches do), then both
sides search ``--nodes`` nodes per move with one thread. Kept: positions after the first
``--skip-plies`` engine plies, the side to move not in check, and quiet (the quiescence
search finds no capture that changes the static evaluation); in Ender's Chess only the
positions at the start of a turn. Each is written with the game's result from White's
view (tune/positions.py), game by game, appended to the output file. With ``--scores``
each line also ends with ``cp=N``, the score of the search that chose the move there
(White's view; positions scored as a mate are left out): training data for the
evaluation network (tune/network.py).

Games end by the rules, or are adjudicated: won when the searches of both sides have
agreed for ``ADJ_WIN_PLIES`` plies that one side leads by ``ADJ_WIN_CP`` or more, drawn
after ``ADJ_DRAW_AFTER`` plies when the score has stayed within ``ADJ_DRAW_CP`` for
``ADJ_DRAW_PLIES`` plies, or after ``--max-plies`` plies.

``--games`` is the number of games the file should hold: a second run with the same
arguments continues where the first stopped (game i always gets the same opening), so
an interrupted run loses at most the games in progress.
"""
from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from movegen import Position
from movegen import layout as L
from movegen.games import find_game

from . import game_argument
from .positions import RESULTS, read_data, result_text

ADJ_WIN_CP = 1000
ADJ_WIN_PLIES = 6
ADJ_DRAW_CP = 10
ADJ_DRAW_PLIES = 12
ADJ_DRAW_AFTER = 120
MAX_PLIES = 400
DATA_DIR = Path("data/tune")


@dataclass(frozen=True)
class Settings:
    game: str
    nodes: int = 3000
    random_plies: int = 8
    skip_plies: int = 8
    seed: int = 1
    hash_mb: int = 16
    max_plies: int = MAX_PLIES
    scores: bool = False


@dataclass
class PlayedGame:
    index: int
    header: str
    lines: list[str]


class QuietTest:
    """``quiet(pos)``: is ``pos`` a position to keep? Not in check, and Leyden's
    quiescence search finds no capture that changes its static evaluation (Ender's
    Chess: a turn's start, as mid-turn positions belong to the same turn)."""

    def __init__(self, game):
        from search.evaluate import build_eval
        from search.state import MAX_MOVES, MAX_SPLY, new_state
        from search.tt import new_table
        self.game = game
        self.ev = build_eval(game)
        self.ss = new_state()
        self.tt = new_table(1)
        self.buf = np.zeros(MAX_SPLY * MAX_MOVES, np.int64)

    def __call__(self, pos: Position) -> bool:
        from .kernels import quiescence_gap
        if self.game.multi_action:
            if pos.st[L.S_ACTIONS] != 0:
                return False
        elif pos.in_check():
            return False
        return quiescence_gap(pos.tables.G, pos.board.copy(), pos.st.copy(), pos.undo.copy(),
                              self.buf, self.tt, self.ss, self.ev) == 0


class _Player:
    """One process's searcher and quiescence test (kept from game to game)."""

    def __init__(self, settings: Settings):
        from search import Searcher
        from match.openings import OpeningBook
        self.settings = settings
        self.game = find_game(settings.game)
        self.searcher = Searcher(hash_mb=settings.hash_mb, threads=1)
        self.book = OpeningBook(self.game, settings.seed, plies=settings.random_plies)
        self.quiet = QuietTest(self.game)

    def play(self, index: int) -> PlayedGame:
        from search import Limits
        s = self.settings
        opening = self.book(index)
        pos = Position(self.game, opening.start_fen)
        for m in opening.moves:
            pos.push(m)
        self.searcher.new_game()
        kept: list[str] = []
        wins = [0, 0]  # consecutive plies with White / Black ahead by ADJ_WIN_CP
        level = 0  # consecutive plies within ADJ_DRAW_CP
        plies = 0
        result, reason = "1/2-1/2", "ply limit"
        while plies < s.max_plies:
            outcome = pos.outcome()
            if outcome is not None:
                result, reason = outcome
                break
            scores = []
            best, _ = self.searcher.search(pos, Limits(nodes=s.nodes), on_info=scores.append)
            if not scores:  # not even the first iteration finished in the nodes given
                best, _ = self.searcher.search(pos, Limits(depth=1), on_info=scores.append)
            white = 1 if pos.turn == "w" else -1
            info = scores[-1]
            score = white * (info.score_cp if info.mate is None else 100000 * info.mate)
            if plies >= s.skip_plies and (info.mate is None or not s.scores) and self.quiet(pos):
                kept.append(pos.fen() + (f" cp={score}" if s.scores else ""))
            wins = [wins[0] + 1 if score >= ADJ_WIN_CP else 0, wins[1] + 1 if score <= -ADJ_WIN_CP else 0]
            level = level + 1 if abs(score) <= ADJ_DRAW_CP else 0
            if wins[0] >= ADJ_WIN_PLIES or wins[1] >= ADJ_WIN_PLIES:
                result, reason = ("1-0" if wins[0] else "0-1"), "adjudicated win"
                break
            if plies >= ADJ_DRAW_AFTER and level >= ADJ_DRAW_PLIES:
                reason = "adjudicated draw"
                break
            pos.push(best)
            plies += 1
        label = result_text(RESULTS[result])
        header = (f"game {index} variant {s.game} opening {opening.label.replace(' ', '_')} "
                  f"nodes {s.nodes} result {result} reason {reason.replace(' ', '_')} "
                  f"plies {plies} positions {len(kept)}")
        return PlayedGame(index, header, [f"{label} {fen}" for fen in kept])


_PLAYER: _Player | None = None


def _init_worker(settings: Settings) -> None:
    global _PLAYER
    _PLAYER = _Player(settings)


def _play(index: int) -> PlayedGame:
    return _PLAYER.play(index)


def games_done(path: Path) -> set[int]:
    """Indices of the games already in the output file."""
    if not path.exists():
        return set()
    _, headers, _ = read_data(path)
    return {int(h.split()[1]) for h in headers if h.startswith("game ")}


def generate(settings: Settings, games: int, out: Path, concurrency: int = 1, log=print) -> int:
    """Play the games of ``range(games)`` not yet in ``out`` and append them; returns the
    positions written. ``concurrency`` processes play one game each at a time."""
    out.parent.mkdir(parents=True, exist_ok=True)
    done = games_done(out)  # read once: the file can hold a hundred thousand lines
    todo = [i for i in range(games) if i not in done]
    if not todo:
        log(f"{out}: all {games} games done")
        return 0
    log(f"{out}: {games - len(todo)} games done, playing {len(todo)} ({settings.game}, "
        f"{settings.nodes} nodes per move, {concurrency} process(es))")
    start = time.perf_counter()
    written = 0
    if concurrency <= 1:
        _init_worker(settings)
        results = map(_play, todo)
        pool = None
    else:
        pool = ProcessPoolExecutor(concurrency, initializer=_init_worker, initargs=(settings,))
        results = pool.map(_play, todo)
    try:
        with open(out, "a") as f:
            for n, played in enumerate(results, start=1):
                f.write(f"# {played.header}\n" + "".join(line + "\n" for line in played.lines))
                f.flush()  # whole games only: an interrupted run leaves a readable file
                written += len(played.lines)
                elapsed = time.perf_counter() - start
                eta = elapsed / n * (len(todo) - n)
                log(f"game {played.index}: {played.header.split(' result ')[1].split(' positions')[0]}, "
                    f"{len(played.lines)} positions | {n}/{len(todo)} games, {written} positions, "
                    f"{elapsed / n:.1f} s/game, {written / elapsed:.1f} positions/s, ETA {eta / 60:.1f} min")
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return written


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tune.datagen", description=__doc__.split("\n\n")[0])
    ap.add_argument("game", type=game_argument, help="the game (normal, capablanca, ...)")
    ap.add_argument("--games", type=int, default=100, help="games the output file should hold (default 100)")
    ap.add_argument("--nodes", type=int, default=3000, help="nodes per move (default 3000)")
    ap.add_argument("--random-plies", type=int, default=8, help="random opening plies (default 8)")
    ap.add_argument("--skip-plies", type=int, default=8,
                    help="engine plies after the opening not recorded (default 8)")
    ap.add_argument("--max-plies", type=int, default=MAX_PLIES,
                    help=f"engine plies after which a game is a draw (default {MAX_PLIES})")
    ap.add_argument("--seed", type=int, default=1, help="seed of the openings (default 1)")
    ap.add_argument("--concurrency", type=int, default=1, help="processes (default 1)")
    ap.add_argument("--out", help=f"output file (default {DATA_DIR}/GAME.txt)")
    ap.add_argument("--scores", action="store_true",
                    help="end each position line with its search score, cp=N (White's view): "
                         "data for python -m tune.network")
    args = ap.parse_args(argv)
    for name in ("games", "nodes", "concurrency", "max_plies"):
        if getattr(args, name) < 1:
            print(f"error: --{name.replace('_', '-')} must be 1 or more", file=sys.stderr)
            return 2
    if args.random_plies < 0 or args.skip_plies < 0:
        print("error: --random-plies and --skip-plies must be 0 or more", file=sys.stderr)
        return 2
    settings = Settings(args.game.name, args.nodes, args.random_plies, args.skip_plies, args.seed,
                        max_plies=args.max_plies, scores=args.scores)
    out = Path(args.out) if args.out else DATA_DIR / f"{args.game.name}.txt"
    generate(settings, args.games, out, args.concurrency, log=lambda text: print(text, flush=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
