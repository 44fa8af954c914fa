"""How each engine of a match spent its clock, from the match's PGN files.

    python benchmarks/time_use.py benchmarks/sprt/tm20-10s.pgn
    python benchmarks/time_use.py benchmarks/strength/capablanca-fairy-stockfish.pgn --at 30

Replays every clocked game's clocks (the ``TimeControl`` tag, the seconds each move took
from the runner's ``score/depth time`` comments, with the runner's own ``Clock``) and
prints per engine: the mean seconds a move over its first 10 moves of a game, moves 11
to 30 and the rest; the median clock left after its move at move number ``--at`` (the
PGN's move number, as a reader sees it) and after its last move of a game; the lowest
clock it reached after a move, before that move's increment (how close it came to
losing on time, and in which game); and the games it lost on time. The time
management's questions: does an engine spend its clock, and when.

The comments give each move's time to the hundredth of a second, so a long game's
clock is replayed to within a few hundredths. Games without a clock (fixed nodes,
fixed depth, fixed time a move) are counted and skipped.
"""
import argparse
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from match.pgn import TIME_FORFEIT, move_times, read_games  # noqa: E402
from match.tc import Clock, TimeControl  # noqa: E402

PHASES = ((1, 10), (11, 30), (31, None))  # an engine's own moves of a game, 1-based


@dataclass
class Use:
    """One engine's time use over the games read."""

    games: int = 0
    phase_times: dict = field(default_factory=lambda: {p: [] for p in PHASES})
    left_at: list = field(default_factory=list)  # clock after its move at move number --at
    left_end: list = field(default_factory=list)  # clock after its last move of each game
    lowest: tuple = (float("inf"), "")  # (seconds, game) before an increment
    forfeits: int = 0


def _move_number(game, index: int) -> int:
    """The PGN move number of the move at ``index`` (the FEN's full-move counter on)."""
    fen = game.tags.get("FEN", "").split()
    first = int(fen[5]) if len(fen) > 5 and fen[5].isdigit() else 1
    black_first = len(fen) > 1 and fen[1] == "b"
    return first + (index + black_first) // 2


def _phase(n: int):
    for lo, hi in PHASES:
        if n >= lo and (hi is None or n <= hi):
            return lo, hi
    raise ValueError(n)


def add_game(uses: dict, game, at: int) -> bool:
    """Book one game's clocks into ``uses`` (engine name -> Use); False if unclocked."""
    try:
        tc = TimeControl.parse(game.tags.get("TimeControl", "-"))
    except ValueError:
        return False
    if not tc.clocked:
        return False
    clocks: dict = {}
    counts: dict = {}
    label = f"{game.tags.get('White')}-{game.tags.get('Black')} round {game.tags.get('Round')}"
    for name in (game.tags.get("White"), game.tags.get("Black")):
        uses.setdefault(name, Use()).games += 1
        clocks[name] = Clock(tc)
        counts[name] = 0
    for i, name, seconds in move_times(game):
        use, clock = uses[name], clocks[name]
        counts[name] += 1
        use.phase_times[_phase(counts[name])].append(seconds)
        clock.punch(seconds)
        use.lowest = min(use.lowest, (clock.remaining - tc.inc, label))
        if _move_number(game, i) == at:
            use.left_at.append(clock.remaining)
    for name, clock in clocks.items():
        if counts[name]:
            uses[name].left_end.append(clock.remaining)
    if game.tags.get("Termination") == TIME_FORFEIT and game.result in ("1-0", "0-1"):
        loser = game.tags.get("Black" if game.result == "1-0" else "White")
        uses[loser].forfeits += 1
    return True


def _median(values) -> str:
    return f"{statistics.median(values):.2f} s" if values else "-"


def report(uses: dict, at: int) -> list[str]:
    lines = []
    for name, use in uses.items():
        phases = ", ".join(
            f"moves {lo}-{hi or ''}: {statistics.fmean(t):.3f} s ({len(t)})" if t else f"moves {lo}-{hi or ''}: -"
            for (lo, hi), t in use.phase_times.items())
        lines.append(f"{name}: {use.games} games; a move {phases}")
        lowest = f"{use.lowest[0]:.2f} s ({use.lowest[1]})" if use.lowest[1] else "-"
        lines.append(f"  clock left: at move {at} median {_median(use.left_at)} ({len(use.left_at)} games), "
                     f"at its last move {_median(use.left_end)}; lowest before an increment {lowest}; "
                     f"time forfeits {use.forfeits}")
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pgn", nargs="+", help="match PGN files")
    ap.add_argument("--at", type=int, default=30, help="the move number whose clock is reported (30)")
    args = ap.parse_args(argv)
    uses: dict = {}
    clocked = unclocked = 0
    for path in args.pgn:
        if not Path(path).is_file():
            ap.error(f"no such file: {path}")
        for game in read_games(path):
            if add_game(uses, game, args.at):
                clocked += 1
            else:
                unclocked += 1
    print(f"{clocked} clocked games" + (f" ({unclocked} without a clock skipped)" if unclocked else ""))
    for line in report(uses, args.at):
        print(line)
    return 0 if clocked else 1


if __name__ == "__main__":
    sys.exit(main())
