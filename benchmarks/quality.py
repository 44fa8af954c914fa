"""Move quality at a fixed node count, judged by Fairy-Stockfish: a screen for search
changes before they are played in games.

Leyden (this checkout, or the build in ``--dir``) searches each position of a fixed set
to ``--nodes`` nodes from an empty hash, one thread: a fixed node count makes the run
deterministic and blind to the machine's load. Fairy-Stockfish then judges the move it
chose: the position after it, searched to ``--judge-nodes`` nodes, gives the move's value;
the same for the move Fairy-Stockfish itself plays there. A move's loss is how far its
value falls short of that best move's (0 when they are the same move; never below 0).
The judge's verdicts are cached (``data/quality/<game>-judge.json``), so a second build
costs only its own searches and the judging of the moves the first did not play.

    python benchmarks/quality.py --game capablanca                       # this checkout
    python benchmarks/quality.py --game capablanca --dir /path/to/other/checkout
    python benchmarks/quality.py --game capablanca --make-positions 300  # the position set

The positions (``benchmarks/quality/<game>.txt``) come from the strength table's games
against Fairy-Stockfish: positions it had to move in, neither side far ahead by its own
score, from the 6th move to the 60th. What the numbers say: the mean loss in centipawns
(with its 95% interval) and how often Leyden chose the judge's move. A fixed node count
does not see a change's speed: compare builds of equal speed, or at node counts in the
ratio of their speeds.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from match.engines import make_player, parse_engine_spec
from match.peers import engine_tokens, find_binary
from match.pgn import comment_score, read_games
from match.tc import TimeControl
from movegen import GAMES, Position

POSITIONS_DIR = ROOT / "benchmarks" / "quality"
CACHE_DIR = ROOT / "data" / "quality"
MATE_CP = 3000  # a mate's value: beyond any material difference, still finite
BALANCED = 300  # a position is kept when the peer's own score is within this
HANG = 1800.0  # seconds: start-up (a build compiles first) and one answer


# ------------------------------------------------------------------ the position set

def strength_games(game: str) -> Path:
    """The strength table's games of ``game`` against Fairy-Stockfish."""
    return ROOT / "benchmarks" / "strength" / "10+0.1" / f"{game}-fairy-stockfish.pgn"


def make_positions(game: str, pgn: Path, count: int, seed: int) -> list[str]:
    """``count`` positions of the games of ``pgn`` against Fairy-Stockfish (at most two a
    game): the peer to move, its score within BALANCED, moves 6 to 60."""
    rng = random.Random(seed)
    found = []
    for g in read_games(str(pgn)):
        peer_white = not g.tags["White"].startswith("leyden")
        pos = Position(game, g.tags["FEN"]) if "FEN" in g.tags else Position(game)
        kept = []
        for i, move in enumerate(g.moves):
            if (i % 2 == 0) == peer_white and 10 <= i < 120:
                score = comment_score(g.comments.get(i, ""))  # mates left out
                if score is not None and abs(score) <= BALANCED:
                    kept.append(pos.fen())
            pos.push(move)
        found += rng.sample(kept, min(2, len(kept)))
    rng.shuffle(found)
    return found[:count]


def positions_file(game: str) -> Path:
    return POSITIONS_DIR / f"{game}.txt"


def read_positions(game: str) -> list[str]:
    lines = positions_file(game).read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


# ------------------------------------------------------------------ engines

class Engine:
    """A running engine that answers one position at a time from an empty hash."""

    def __init__(self, tokens: list[str], game: str, nodes: int):
        self.game, self.tc = game, TimeControl(nodes=nodes)
        self.player = make_player(parse_engine_spec(tokens), GAMES[game], startup_timeout=HANG)
        self.player.start()

    def think(self, fen: str):
        self.player.new_game(fen, fen.split()[1], self.tc)
        self.player.color = fen.split()[1]
        return self.player.think([], None, None, HANG, HANG)

    def close(self) -> None:
        self.player.close(1.0)


def _canonical(game: str, fen: str, move: str) -> str:
    return Position(game, fen).parse_move(move).name


class Judge:
    """Fairy-Stockfish's value of moves, cached per position and move (centipawns for the
    side that moves, mates as +-MATE_CP)."""

    def __init__(self, game: str, nodes: int):
        self.game, self.nodes = game, nodes
        self.path = CACHE_DIR / f"{game}-judge.json"
        self.cache = {}
        if self.path.is_file():
            saved = json.loads(self.path.read_text())
            if saved.get("nodes") == nodes:
                self.cache = saved["positions"]
        self.engine = None
        self.searches = 0

    def _engine(self) -> Engine:
        if self.engine is None:
            self.engine = Engine(engine_tokens("fairy-stockfish", self.game), self.game, self.nodes)
        return self.engine

    def _value(self, fen: str, move: str) -> int:
        pos = Position(self.game, fen)
        pos.push(move)
        outcome = pos.outcome()
        if outcome is not None:  # the move ends the game: the rules say how it scores
            result = outcome[0]
            if result == "1/2-1/2":
                return 0
            return MATE_CP if (result == "1-0") == (fen.split()[1] == "w") else -MATE_CP
        reply = self._engine().think(pos.fen())
        self.searches += 1
        score = reply.score if reply.score is not None else 0
        return -max(-MATE_CP, min(MATE_CP, score))

    def entry(self, fen: str) -> dict:
        """{"best": the judge's own move, "values": {move: value}} for ``fen``."""
        e = self.cache.get(fen)
        if e is None:
            best = _canonical(self.game, fen, self._engine().think(fen).move)
            self.searches += 1
            e = self.cache[fen] = {"best": best, "values": {best: self._value(fen, best)}}
        return e

    def loss(self, fen: str, move: str) -> int:
        e = self.entry(fen)
        if move not in e["values"]:
            e["values"][move] = self._value(fen, move)
        return max(0, e["values"][e["best"]] - e["values"][move])

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps({"nodes": self.nodes, "positions": self.cache}))

    def close(self) -> None:
        if self.engine is not None:
            self.engine.close()


# ------------------------------------------------------------------ the run

def mean_interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval (normal approximation)."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / max(1, n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def run(game: str, leyden_dir: Path, nodes: int, judge_nodes: int, limit: int | None, log=print) -> dict:
    fens = read_positions(game)[:limit]
    tokens = ["name=leyden", f"cmd={sys.executable} -m engine", f"dir={leyden_dir}", "proto=uci",
              "option.Threads=1"]
    leyden, judge = Engine(tokens, game, nodes), Judge(game, judge_nodes)
    losses, same, moves = [], 0, {}
    start = time.perf_counter()
    try:
        for i, fen in enumerate(fens, 1):
            move = _canonical(game, fen, leyden.think(fen).move)
            moves[fen] = move
            losses.append(judge.loss(fen, move))
            same += move == judge.entry(fen)["best"]
            if i % 25 == 0 or i == len(fens):
                judge.save()
                log(f"{i}/{len(fens)} positions, mean loss so far {sum(losses) / i:.1f} cp, "
                    f"{judge.searches} judge searches, {time.perf_counter() - start:.0f} s")
    finally:
        judge.save()
        leyden.close()
        judge.close()
    mean, half = mean_interval(losses)
    return {"positions": len(fens), "mean_loss": mean, "interval": half,
            "agreement": same / len(fens), "moves": moves, "losses": losses}


def paired(result: dict, other: dict, name) -> str:
    """This run's losses less another build's, on the positions both searched: the mean
    difference with its 95% interval (paired, so the positions' own spread cancels)."""
    mine = dict(zip(result["moves"], result["losses"]))
    theirs = dict(zip(other["moves"], other["losses"]))
    common = [f for f in mine if f in theirs]
    diff = [mine[f] - theirs[f] for f in common]
    changed = sum(result["moves"][f] != other["moves"][f] for f in common)
    mean, half = mean_interval(diff)
    return (f"against {name}: {len(common)} positions, {changed} moves differ; loss difference "
            f"{mean:+.1f} +- {half:.1f} cp (negative: this build chose better)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="capablanca")
    ap.add_argument("--dir", type=Path, default=ROOT, help="the Leyden checkout to measure (default: this one)")
    ap.add_argument("--nodes", type=int, default=100_000, help="Leyden's nodes a position (default 100000)")
    ap.add_argument("--judge-nodes", type=int, default=500_000,
                    help="Fairy-Stockfish's nodes a judgement (default 500000)")
    ap.add_argument("--limit", type=int, help="only the first N positions")
    ap.add_argument("--make-positions", type=int, metavar="N", help="write the position set (N positions) and stop")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, help="also write the result (every move and loss) as JSON")
    ap.add_argument("--against", type=Path, metavar="JSON",
                    help="compare with another build's --out file, position by position")
    args = ap.parse_args(argv)
    if args.game not in GAMES:
        ap.error(f"unknown game {args.game!r}")
    if args.make_positions:
        pgn = strength_games(args.game)
        fens = make_positions(args.game, pgn, args.make_positions, args.seed)
        path = positions_file(args.game)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# {len(fens)} positions of {pgn.relative_to(ROOT)}, "
                        f"made by: python benchmarks/quality.py --game {args.game} "
                        f"--make-positions {args.make_positions} --seed {args.seed}\n" + "\n".join(fens) + "\n")
        print(f"{len(fens)} positions written to {path}")
        return 0
    if find_binary("fairy-stockfish") is None:
        print("Fairy-Stockfish is not installed (apt-get install fairy-stockfish)", file=sys.stderr)
        return 1
    result = run(args.game, args.dir.resolve(), args.nodes, args.judge_nodes, args.limit)
    print(f"{args.game}, {result['positions']} positions, Leyden {args.nodes} nodes ({args.dir}), "
          f"judge {args.judge_nodes} nodes: mean loss {result['mean_loss']:.1f} "
          f"+- {result['interval']:.1f} cp, the judge's move {100 * result['agreement']:.1f}%")
    if args.out:
        args.out.write_text(json.dumps(result, indent=1))
    if args.against:
        print(paired(result, json.loads(args.against.read_text()), args.against))
    return 0


if __name__ == "__main__":
    sys.exit(main())
