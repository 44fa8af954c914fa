"""The figures of a row of benchmarks/sprt.md, from the test's PGN file.

    python benchmarks/sprt_summary.py benchmarks/sprt/lmrnotimp-100k.pgn
    python benchmarks/sprt_summary.py games.pgn --first new --sprt elo0=0 elo1=20 --every 40
    python benchmarks/sprt_summary.py new-vs-peer.pgn --first leyden --against old-vs-peer.pgn

Counts only the games of complete pairs (both colours of an opening finished), as the
pentanomial SPRT does: a test stopped in the middle of a pair, or a game left unfinished
(``*``) by a stop, is not counted. Prints the first engine's wins, losses and draws, its
score, Elo with the 95% interval, the LLR, the pairs by points, the Elo after every
``--every`` games of the file (the trend the row quotes), and the mean depth each side
reported for its moves (from the runner's ``score/depth time`` comments).

``--against OTHER.pgn`` compares two gauntlets against the same peer over the same book
openings (a new and an old Leyden, each named ``--first`` in its file): per opening both
played with both colours, the difference of the first engine's points, its mean per game
with a 95% interval, and how many openings went better, worse or the same. Two runs'
files joined into one (``cat``) pool them: an opening in both runs counts twice, paired
by its order of appearance.
"""
import argparse
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from match.pgn import move_depths, opening_plies, read_games  # noqa: E402
from match.stats import SPRT, WHITE_SCORE, PairTally, Tally, fmt_elo  # noqa: E402


def _opening(game) -> tuple:
    """The opening a game was played from: its book line and position, and the moves
    played for it before the engines took over (random plies; none from a book line)."""
    moves = tuple(game.moves[:opening_plies(game.comments)])
    # the book by its file name and line: the same book given by another path (a
    # worktree's, an absolute one) is the same opening
    book = game.tags.get("Opening")
    return book and Path(book).name, game.tags.get("FEN"), moves


def complete_pairs(games):
    """The finished games grouped by opening (its book line and position), in the order
    of the file's first game of each pair; only pairs with both games."""
    pairs: dict = {}
    for g in games:
        if g.result in WHITE_SCORE:
            key = (*_opening(g), g.tags.get("MatchSeed"))
            pairs.setdefault(key, []).append(g)
    for key, two in pairs.items():
        if len(two) > 2:
            raise SystemExit(f"more than two finished games for the opening {key[0]} "
                             f"{' '.join(key[2])}".rstrip())
    return [two for two in pairs.values() if len(two) == 2]


def score_of(game, first: str) -> float:
    value = WHITE_SCORE[game.result]
    return value if game.tags.get("White") == first else 1.0 - value


def summary(path: str, first: str, sprt: SPRT, every: int) -> list[str]:
    games = read_games(path)
    pairs = complete_pairs(games)
    tally, pair_tally, trend = Tally(), PairTally(), []
    depths: dict = {}
    for two in pairs:
        for g in two:
            tally.add(score_of(g, first))
            if every and tally.games % every == 0:
                trend.append(f"{tally.games}: {fmt_elo(tally.elo())}")
            for mover, depth in move_depths(g):
                depths.setdefault(mover, []).append(depth)
        pair_tally.add(sum(score_of(g, first) for g in two))
    if not pairs:
        return [f"{path}: no complete pair of finished games"]
    elo, lo, hi = tally.elo_interval()
    wins = sum(1 for two in pairs for g in two if score_of(g, first) == 1.0)
    losses = sum(1 for two in pairs for g in two if score_of(g, first) == 0.0)
    lines = [
        f"{path}: {tally.games} games in complete pairs (of {len(games)} in the file)",
        f"{first}: +{wins} -{losses} ={tally.games - wins - losses}, {100 * tally.score:.1f}%, "
        f"Elo {fmt_elo(elo)} [{fmt_elo(lo)}, {fmt_elo(hi)}]",
        sprt.describe(pair_tally),
        pair_tally.describe(),
    ]
    if trend:
        lines.append("Elo after " + ", ".join(trend))
    for name in sorted(depths, key=lambda n: n != first):
        d = depths[name]
        lines.append(f"mean depth {name}: {sum(d) / len(d):.2f} plies over {len(d)} moves")
    return lines


def paired(path: str, other: str, first: str) -> list[str]:
    """Two gauntlets over the same openings, opening by opening (see the docstring)."""
    def points(p):
        # an opening played again (two runs' files joined, whose books overlap) is paired
        # by its order in each file: the first time with the first time, and so on
        seen: dict = {}
        out = {}
        for two in complete_pairs(read_games(p)):
            key = _opening(two[0])
            seen[key] = seen.get(key, 0) + 1
            out[key, seen[key]] = sum(score_of(g, first) for g in two)
        return out
    a, b = points(path), points(other)
    both = [key for key in a if key in b]
    if len(both) < 2:
        return [f"{path} and {other}: fewer than two openings complete in both"]
    diff = [(a[key] - b[key]) / 2 for key in both]  # per game
    mean = sum(diff) / len(diff)
    sd = math.sqrt(sum((d - mean) ** 2 for d in diff) / (len(diff) - 1))
    half = 1.96 * sd / math.sqrt(len(diff))
    score_a = sum(a[key] for key in both) / (2 * len(both))
    score_b = sum(b[key] for key in both) / (2 * len(both))
    return [
        f"{len(both)} openings complete in both ({2 * len(both)} games each)",
        f"{first}: {100 * score_a:.1f}% in {path}, {100 * score_b:.1f}% in {other}",
        f"difference {100 * mean:+.1f} points per 100 games (95%: +- {100 * half:.1f}); "
        f"openings better {sum(d > 0 for d in diff)}, worse {sum(d < 0 for d in diff)}, "
        f"the same {sum(d == 0 for d in diff)}",
    ]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pgn", nargs="+", help="the test's PGN file(s)")
    ap.add_argument("--first", default="new", help="the engine scored (default: new)")
    ap.add_argument("--sprt", nargs="+", default=["elo0=0", "elo1=20"],
                    help="SPRT bounds as for `leyden match --sprt` (default: elo0=0 elo1=20)")
    ap.add_argument("--every", type=int, default=40, help="Elo after every N games (0: none)")
    ap.add_argument("--against", metavar="OTHER", help="compare with this gauntlet, opening by opening")
    args = ap.parse_args(argv)
    try:
        sprt = SPRT.parse(args.sprt)
    except ValueError as exc:
        ap.error(str(exc))
    for path in args.pgn:
        if not Path(path).is_file():
            ap.error(f"no such file: {path}")
        print("\n".join(summary(path, args.first, sprt, args.every)))
        if args.against:
            if not Path(args.against).is_file():
                ap.error(f"no such file: {args.against}")
            print("\n".join(paired(path, args.against, args.first)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
