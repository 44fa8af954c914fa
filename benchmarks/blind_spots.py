"""Blind spots: positions of Leyden's lost games that Fairy-Stockfish saw were lost while
Leyden did not, and how many of them each engine sees at a given node count (beside
level positions, where calling the game lost is a false alarm).

    python benchmarks/blind_spots.py build benchmarks/strength*/10+0.1/capablanca-fairy-stockfish.pgn
    python benchmarks/blind_spots.py run --nodes 300000 --peer-nodes 10000

``build`` takes, from every game Leyden lost, the first position with Leyden to move
where the peer's score (its last move's comment) puts Leyden at ``--peer-below`` or
worse while Leyden's own last score was ``--leyden-above`` or better, replays the game
to it, has the peer confirm it at ``--confirm-nodes`` (it must still score the side to
move at -300 or worse) and writes the confirmed ones to ``benchmarks/blind/GAME.jsonl``
(one JSON object a line: the FEN, where it came from, both engines' scores in the game
and the peer's confirming score). A position Leyden walked into without seeing it; its
error was earlier, and seeing the danger here is what would have let it avoid it. From
every game it also takes a level position, the first at least ``LEVEL_FROM`` plies
into the game (the book's moves not counted) with Leyden to move and both engines'
scores within ``LEVEL``, which the peer must confirm as level
(``"level": true`` in the file): an evaluation that calls every position lost would
see every blind spot, and these count its false alarms.

``run`` searches the first ``--limit`` of them with Leyden (in this process, a fresh
table each, ``--nodes`` nodes) and the peer (``--peer-nodes``) and prints how many each
scores at -300 or worse for the side to move, among the blind spots and among as many
level positions (false alarms): how much of the peer's judgement Leyden's search and
evaluation reproduce, at what cost. A yardstick for evaluation and search
changes beside the games, not a replacement for them. ``run --tune "name=value ..."``
searches with weights or settings changed as the engine's ``Tune`` option changes them,
so that a term behind a weight can be tried without a build of its own.
"""
import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from depth import think  # noqa: E402
from match.engines import MATE_BASE  # noqa: E402
from match.openings import replay  # noqa: E402
from match.peers import engine_tokens, find_binary  # noqa: E402
from match.pgn import comment_score, movers, read_games  # noqa: E402
from match.tc import TimeControl  # noqa: E402
from movegen import GAMES, Position  # noqa: E402
from search import Limits, Searcher  # noqa: E402
from search.weights import parse_changes  # noqa: E402

LOST = -300  # centipawns for the side to move: "sees it is lost"
LEVEL = 100  # centipawns either way: a level position
LEVEL_FROM = 18  # plies into the game: level positions out of the opening
LEYDEN = "leyden"
PEER = "fairy-stockfish"
MATE_CP = 10000  # a mate score, in centipawns, for counting


def _scored_plies(g):
    """(move index, mover's name, its score) of every move whose comment has a score."""
    for i, mover in movers(g):
        score = comment_score(g.comments.get(i, ""), MATE_CP)
        if score is not None:
            yield i, mover, score


def candidates(games, game: str, peer_below: int, leyden_above: int):
    """Per game Leyden played: its first blind spot if it lost the game (see the
    module's doc), and its first level position (``"level": True``)."""
    for g in games:
        white = g.tags.get("White")
        if g.result not in ("1-0", "0-1", "1/2-1/2") or LEYDEN not in (white, g.tags.get("Black")):
            continue
        lost = g.result != "1/2-1/2" and (white == LEYDEN) != (g.result == "1-0")
        own = None  # Leyden's last score
        found = {}  # False (blind spot), True (level) -> (index, Leyden's score, the peer's)
        for i, mover, score in _scored_plies(g):
            if mover == LEYDEN:
                own = score
            elif own is not None:
                if lost and own >= leyden_above and -score <= peer_below:
                    found.setdefault(False, (i, own, -score))
                if i + 1 >= LEVEL_FROM and abs(own) <= LEVEL and abs(score) <= LEVEL:
                    found.setdefault(True, (i, own, -score))
        for is_level, (i, own, peer) in sorted(found.items()):
            pos, _ = replay(GAMES[game], g.tags["FEN"], g.moves[:i + 1])
            spot = {"fen": pos.fen(), "round": g.tags.get("Round"), "ply": i + 1,
                    "leyden": own, "peer": peer}
            if is_level:
                spot["level"] = True
            yield spot


def peer_score(game: str, fen: str, nodes: int) -> int:
    """The peer's score of ``fen`` for the side to move after ``nodes`` nodes."""
    reply = think(engine_tokens(PEER, game), game, fen, TimeControl(nodes=nodes))
    if reply.score is None:
        raise RuntimeError(f"{PEER} gave no score for {fen}")
    if abs(reply.score) > MATE_BASE:
        return MATE_CP if reply.score > 0 else -MATE_CP
    return reply.score


def leyden_score(searcher: Searcher, game: str, fen: str, nodes: int) -> tuple:
    """Leyden's (score for the side to move, depth) after ``nodes`` nodes, a fresh table."""
    searcher.new_game()
    infos = []
    searcher.search(Position.from_fen(game, fen), Limits(nodes=nodes), on_info=infos.append)
    last = infos[-1]
    if last.mate is not None:
        return (MATE_CP if last.mate > 0 else -MATE_CP), last.depth
    return last.score_cp, last.depth


def build(args) -> int:
    out = ROOT / "benchmarks" / "blind" / f"{args.game}.jsonl"
    out.parent.mkdir(exist_ok=True)
    kept = 0
    with open(out, "w", encoding="utf-8") as f:
        for path in args.pgn:
            found = list(candidates(read_games(path), args.game, args.peer_below, args.leyden_above))
            for spot in found:
                spot["source"] = path
                spot["confirm"] = peer_score(args.game, spot["fen"], args.confirm_nodes)
                if (abs(spot["confirm"]) <= LEVEL) if spot.get("level") else (spot["confirm"] <= LOST):
                    f.write(json.dumps(spot) + "\n")
                    kept += 1
            print(f"{path}: {len(found)} candidates; {kept} kept so far", flush=True)
    print(f"{kept} positions in {out.relative_to(ROOT)}")
    return 0 if kept else 1


def run(args) -> int:
    path = ROOT / "benchmarks" / "blind" / f"{args.game}.jsonl"
    if not path.is_file():
        raise SystemExit(f"no {path.relative_to(ROOT)}: run `build` first")
    spots = [json.loads(line) for line in path.read_text().splitlines()]
    sets = {"blind spots": [s for s in spots if not s.get("level")][:args.limit],
            "level positions": [s for s in spots if s.get("level")][:args.limit]}
    searcher = Searcher(hash_mb=64)
    searcher.changes = args.tune
    for name, chosen in sets.items():
        leyden = peer = 0
        depths = []
        for spot in chosen:
            score, depth = leyden_score(searcher, args.game, spot["fen"], args.nodes)
            leyden += score <= LOST
            depths.append(depth)
            if args.peer_nodes:
                peer += peer_score(args.game, spot["fen"], args.peer_nodes) <= LOST
        mean = f"{sum(depths) / len(depths):.2f}" if depths else "-"
        print(f"{name}: called lost by Leyden at {args.nodes} nodes {leyden} of {len(chosen)} "
              f"(mean depth {mean})" + (f", by {PEER} at {args.peer_nodes} nodes {peer}"
                                        if args.peer_nodes else ""), flush=True)
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="collect the positions from match PGNs")
    b.add_argument("pgn", nargs="+")
    b.add_argument("--peer-below", type=int, default=-500)
    b.add_argument("--leyden-above", type=int, default=-50)
    b.add_argument("--confirm-nodes", type=int, default=1_000_000)
    r = sub.add_parser("run", help="count the positions each engine sees lost")
    r.add_argument("--nodes", type=int, default=300_000)
    r.add_argument("--peer-nodes", type=int, default=0, help="0: Leyden only")
    r.add_argument("--limit", type=int, default=100)
    r.add_argument("--tune", default="",
                   help="weight or search-setting changes, as the engine's Tune option takes them")
    for p in (b, r):
        p.add_argument("--game", default="capablanca")
    args = ap.parse_args(argv)
    if args.cmd == "run":
        try:
            args.tune = parse_changes(args.tune)
        except ValueError as exc:
            ap.error(f"--tune: {exc}")
    if (args.cmd == "build" or args.peer_nodes) and find_binary(PEER) is None:
        raise SystemExit(f"{PEER} is not installed (apt-get install {PEER})")
    return build(args) if args.cmd == "build" else run(args)


if __name__ == "__main__":
    sys.exit(main())
