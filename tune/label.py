"""Positions scored by a stronger engine: a peer's search score for positions of a data
file, a tuning target with far less noise than the game result.

    python -m tune.label capablanca data/tune/capablanca.txt --out data/tune/capablanca-scored.txt \\
        --peer fairy-stockfish --nodes 5000 --positions 150000 --concurrency 2

Why: a game's result labels all its positions alike, so 5,000 games tell the tuner about
5,000 things however many positions they hold, and a position early in a game that was
lost much later is labelled "lost" all the same. A peer's search score says something
about each position on its own.

Which positions: each position of the input is taken with the same chance (``--positions``
of them expected, ``--seed``), grouped by the game they came from, so the tuner can still
hold out whole games. Each is searched by the peer (a UCI engine of match/peers.py, e.g.
Fairy-Stockfish) to ``--nodes`` nodes from an empty hash (``ucinewgame``), so a score does
not depend on the order or on the other positions: a rerun writes the same scores.

Output: the data file format (tune/positions.py), each position line ending with ``cp=N``,
the peer's score in its centipawns from White's point of view (a mate: +-MATE_CP). Each
game's header is the input's, with the peer and its nodes added. A rerun with the same
arguments resumes: games already in the output are skipped.
"""
from __future__ import annotations

import argparse
import random
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from match.engines import EngineConfigError, EngineFailure, make_player, parse_engine_spec
from match.tc import TimeControl

from . import game_argument
from .positions import read_data, result_text

ROOT = str(Path(__file__).resolve().parents[1])
MATE_CP = 3000  #: a mate's score: beyond any material difference, still a finite target
HANG = 60.0  #: seconds: start-up and one search, at most


def peer_tokens(peer: str, game_name: str) -> list[str]:
    """The peer's ``--engine`` tokens (match/peers.py), or ValueError."""
    if ROOT not in sys.path:  # benchmarks/ is the checkout's, not an installed package
        sys.path.insert(0, ROOT)
    from match.peers import PEERS, engine_tokens
    if peer not in PEERS:
        raise ValueError(f"unknown peer {peer!r} (peers: {', '.join(PEERS)})")
    try:
        return engine_tokens(peer, game_name)
    except KeyError:
        raise ValueError(f"{peer} does not play {game_name}") from None
    except FileNotFoundError as exc:
        raise ValueError(f"{exc} (apt-get install {peer})") from None


def sample_games(path, wanted: int, seed: int) -> tuple[list, int]:
    """(header, positions) of every game of the data file with at least one position
    drawn, each position drawn with the same chance, ``wanted`` of them expected; and the
    number of positions in the file. ValueError when it has none."""
    positions, headers, game_of = read_data(path)
    if not positions:
        raise ValueError(f"{path} holds no positions")
    share = min(1.0, wanted / len(positions))
    rng = random.Random(seed)
    chosen: dict[int, list] = {}
    for (result, fen, _), g in zip(positions, game_of):
        if rng.random() < share:
            chosen.setdefault(g, []).append((result, fen))
    return [(headers[g] if g >= 0 else "game ?", kept) for g, kept in sorted(chosen.items())], len(positions)


class Scorer:
    """One running peer that scores positions, White's view."""

    def __init__(self, tokens: list[str], game, nodes: int):
        self.tc = TimeControl(nodes=nodes)
        self.player = make_player(parse_engine_spec(tokens), game, startup_timeout=HANG)
        self.player.start()

    def score(self, fen: str) -> int:
        side = fen.split()[1]
        self.player.new_game(fen, side, self.tc)  # an empty hash: the score is the position's own
        reply = self.player.think([], None, None, HANG, HANG)
        if reply.score is None:
            raise ValueError(f"the peer gave no score for {fen}")
        cp = max(-MATE_CP, min(MATE_CP, reply.score))
        return cp if side == "w" else -cp

    def close(self) -> None:
        self.player.close(1.0)


def label(game, data: Path, out: Path, peer: str, nodes: int, positions: int,
          concurrency: int, seed: int = 1, log=print) -> int:
    """Score about ``positions`` positions of ``data`` into ``out`` (resuming it); returns
    the positions written by this run."""
    tokens = peer_tokens(peer, game.name)
    games, total = sample_games(data, positions, seed)
    suffix = f" scored-by {peer} peer-nodes {nodes}"
    done = set()
    if out.is_file():
        done = {h[:-len(suffix)] for h in read_data(out)[1] if h.endswith(suffix)}
    todo = [(h, kept) for h, kept in games if h not in done]
    log(f"{sum(len(k) for _, k in games)} positions of {len(games)} games drawn from {total}; "
        f"{len(games) - len(todo)} games already scored in {out}")
    out.parent.mkdir(parents=True, exist_ok=True)
    return score_games(todo, lambda: Scorer(tokens, game, nodes), out, suffix, concurrency, log)


def score_games(todo: list, new_scorer, out: Path, suffix: str, concurrency: int, log) -> int:
    """Score the positions of the games ``todo`` with ``concurrency`` scorers (each made by
    ``new_scorer``, one per worker thread), appending each game to ``out`` as it is done;
    returns the positions written."""
    lock = threading.Lock()
    local = threading.local()
    scorers: list[Scorer] = []
    written = [0]
    start = time.perf_counter()
    want = sum(len(k) for _, k in todo)

    def work(item):
        header, kept = item
        if not hasattr(local, "scorer"):
            local.scorer = new_scorer()
            with lock:
                scorers.append(local.scorer)
        lines = [f"{result_text(r)} {fen} cp={local.scorer.score(fen)}\n" for r, fen in kept]
        with lock:
            with open(out, "a") as f:
                f.write(f"# {header}{suffix}\n" + "".join(lines))
            before = written[0]
            written[0] += len(lines)
            if written[0] // 2000 > before // 2000 or written[0] == want:
                rate = written[0] / (time.perf_counter() - start)
                log(f"{written[0]} of {want} positions scored, {rate:.0f} a second")

    try:
        with ThreadPoolExecutor(concurrency) as pool:
            list(pool.map(work, todo))
    finally:
        for scorer in scorers:
            scorer.close()
    return written[0]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tune.label", description=__doc__.split("\n\n")[0])
    ap.add_argument("game", type=game_argument, help="the game (normal, capablanca, ...)")
    ap.add_argument("data", type=Path, help="the data file whose positions are scored")
    ap.add_argument("--out", type=Path, required=True, help="the scored data file (resumed)")
    ap.add_argument("--peer", default="fairy-stockfish", help="the peer that scores (default fairy-stockfish)")
    ap.add_argument("--nodes", type=int, default=5000, help="the peer's nodes a position (default 5000)")
    ap.add_argument("--positions", type=int, default=100000, help="about this many positions (default 100000)")
    ap.add_argument("--concurrency", type=int, default=1, help="peers running at once (default 1)")
    ap.add_argument("--seed", type=int, default=1, help="which positions are drawn (default 1)")
    args = ap.parse_args(argv)
    if args.nodes < 1 or args.positions < 1 or args.concurrency < 1:
        print("error: --nodes, --positions and --concurrency must be positive", file=sys.stderr)
        return 2
    if not args.data.is_file():
        print(f"error: no data file {args.data}", file=sys.stderr)
        return 2
    try:
        label(args.game, args.data, args.out, args.peer, args.nodes, args.positions,
              args.concurrency, args.seed, log=lambda text: print(text, flush=True))
    except (ValueError, EngineFailure, EngineConfigError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
