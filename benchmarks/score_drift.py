"""How the games against a peer are lost: both engines' scores as the games go on.

    python benchmarks/score_drift.py benchmarks/strength/10+0.1/capablanca-fairy-stockfish.pgn
    python benchmarks/score_drift.py GAMES.pgn --first leyden --at 8 12 16 20

Splits the games by result for ``--first`` (lost, not lost) and prints, per group, at
each move number of ``--at`` (the PGN's move number, as a reader sees it), the median of
the opponent's score after its own move there and of ``--first``'s score there, both from
the opponent's side (the runner's ``score/depth time`` comments; a mate counts as 10
pawns), and in how many games the opponent already claimed a pawn or more. Then, of the
lost games, how many had a blunder the opponent saw at once: its score rising by 1.5
pawns or more from one of its moves to the next, from below 2 pawns. The question it
answers: are the games lost by one tactical oversight (search) or by a drift the
opponent sees early and ``--first`` does not (evaluation, or depth in quiet positions)?
"""
import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from match.pgn import comment_score, movers, read_games  # noqa: E402
from match.stats import WHITE_SCORE  # noqa: E402

MATE_CP = 1000
JUMP_CP = 150  # a rise this large across one of our moves: a blunder seen at once
JUMP_BELOW_CP = 200  # ... from a score still this close to level


def _move_number(game, index: int) -> int:
    """The PGN move number of move ``index`` (0-based) of ``game``."""
    fen = game.tags.get("FEN", "").split()
    black_first = len(fen) > 1 and fen[1] == "b"
    first = int(fen[5]) if len(fen) > 5 else 1
    return first + (index + black_first) // 2


def _scores(game, first: str):
    """(move number, the opponent's score, ``first``'s score negated) per scored move:
    both from the opponent's side; the side not moving has None."""
    for i, name in movers(game):
        cp = comment_score(game.comments.get(i, ""), MATE_CP)
        if cp is None:
            continue
        n = _move_number(game, i)
        yield (n, None, -cp) if name == first else (n, cp, None)


def _lost(game, first: str) -> bool:
    score = WHITE_SCORE.get(game.result)
    if score is None:
        return False
    return (score if game.tags.get("White") == first else 1 - score) == 0


def _blundered(rows) -> bool:
    theirs = [cp for _, cp, _ in rows if cp is not None]
    return any(b - a >= JUMP_CP and a < JUMP_BELOW_CP for a, b in zip(theirs, theirs[1:]))


def report(path: str, first: str, at: list[int]) -> list[str]:
    games = [g for g in read_games(path) if first in (g.tags.get("White"), g.tags.get("Black"))]
    out = [f"{path}: {len(games)} games of {first}"]
    for label, group in (("lost", [g for g in games if _lost(g, first)]),
                         ("not lost", [g for g in games if not _lost(g, first)])):
        out.append(f"{label}: {len(group)} games")
        rows = [list(_scores(g, first)) for g in group]
        for n in at:
            theirs = [cp for game in rows for m, cp, _ in game if m == n and cp is not None]
            ours = [cp for game in rows for m, _, cp in game if m == n and cp is not None]
            if not theirs or not ours:
                continue
            claimed = sum(cp >= 100 for cp in theirs)
            out.append(f"  move {n:3}: opponent {statistics.median(theirs) / 100:+.2f}, "
                       f"{first} {statistics.median(ours) / 100:+.2f} (medians, opponent's side); "
                       f"opponent at +1.00 or more in {claimed} of {len(theirs)}")
        if label == "lost":
            jumps = sum(_blundered(game) for game in rows)
            out.append(f"  a blunder seen at once (the opponent's score up {JUMP_CP / 100:.1f} "
                       f"from below {JUMP_BELOW_CP / 100:.1f} between two of its moves) in "
                       f"{jumps} of {len(group)}")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--first", default="leyden", help="the engine whose games are split by result")
    ap.add_argument("--at", type=int, nargs="+", default=[8, 12, 16, 20, 25, 30],
                    help="move numbers to report")
    args = ap.parse_args(argv)
    for path in args.pgn:
        print("\n".join(report(path, args.first, args.at)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
