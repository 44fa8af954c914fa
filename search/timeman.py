"""Time management: how long one search may take.

Two limits, in seconds from the start of the search:
- ``soft``: no new iteration starts after it (an iteration usually takes longer than
  all the previous ones together, so one started late would be wasted);
- ``hard``: a timer stops the search there, whatever it is doing.

Sudden death: expect ``MOVES_LEFT`` more moves, use ``left / moves`` plus most of the
increment as the target, never more than a fraction of what is left, and always keep
``MOVE_OVERHEAD`` for the protocol, the GUI and the operating system. A search also
overruns its hard limit by the time the timer thread and the kernel take to notice it
(``LATENCY``, more on a busy machine), so the hard limit is set that much earlier, and
on a low clock the increment is spent only in part: the clock then grows back instead
of being eaten by the overrun. With 2 s plus 0.02 s per move the remaining time
shrinks geometrically and a 100-move game ends with time to spare. In Ender's Chess a protocol move is one action and a turn has
several, so the budget of a move is shared by ``actions_per_move`` searches.

The soft limit then moves with the search (``Budget.done``): less time when the best
move has stood for several iterations, more when it has just changed or its score is
falling; never past the point where the next iteration could not finish.
"""
from dataclasses import dataclass

MOVE_OVERHEAD = 0.03  # seconds kept back per move
# sudden death: moves we plan for. 20, not 30: at 10 s + 0.1 s Leyden had 5.0-5.3 s left
# at move 30 where Fairy-Stockfish had 3.2-4.0, and most games against it are decided by
# move 20; with 20 it spends 0.41 / 0.29 / 0.14 s a move in moves 1-10 / 11-30 / 31 on
# (the peer 0.43 / 0.27 / 0.13: the capablanca row of benchmarks/strength.md), and it
# gained +21 Elo in self-play (benchmarks/sprt.md)
MOVES_LEFT = 20
LATENCY = 0.01  # how far a search overruns its hard limit, typically
MIN_THINK = 0.003


STABLE_ITERATIONS = 3  # the best move stood this many iterations: spend less
STABLE_FACTOR = 0.6
CHANGED_FACTOR = 1.6  # the best move changed in the last iteration: spend more
DROP_STEP = 100  # the score fell by this much (centipawns) since the last iteration: twice the time


@dataclass
class Budget:
    soft: float | None  # None: no limit
    hard: float | None
    stable: int = 0  # iterations the best move has stood (see ``done``)
    last: tuple = (None, None)  # (best move, score) of the last iteration

    def done(self, elapsed: float, best, score: int) -> bool:
        """After an iteration with ``best`` and ``score``: is it time to answer? The soft
        limit shrinks when the best move has been stable and grows (up to the hard limit)
        when it has just changed or the score is falling, so time goes where the
        decision is open."""
        move, prev = self.last
        self.stable = self.stable + 1 if best == move else 0
        self.last = (best, score)
        if self.soft is None:
            return False
        if 2.5 * elapsed > self.hard:
            return True  # the next iteration would most likely not finish
        falling = prev is not None and score < prev
        factor = 1.0
        if move is not None and self.stable == 0:
            factor = CHANGED_FACTOR
        elif self.stable >= STABLE_ITERATIONS and not falling:
            factor = STABLE_FACTOR
        if falling:
            factor *= 1 + min(prev - score, DROP_STEP) / DROP_STEP
        return elapsed >= min(self.soft * factor, self.hard)


def budget(limits, white_to_move: bool, actions_per_move: float = 1.0) -> Budget:
    """The time budget of a search under ``limits`` (a ``search.Limits``)."""
    if limits.infinite:
        return Budget(None, None)
    if limits.movetime is not None:
        t = max(MIN_THINK, limits.movetime - MOVE_OVERHEAD / 2)
        return Budget(None, t)
    left = limits.wtime if white_to_move else limits.btime
    inc = (limits.winc if white_to_move else limits.binc) or 0.0
    if left is None:
        return Budget(None, None)
    moves = limits.movestogo if limits.movestogo else MOVES_LEFT
    moves = max(1, min(moves, 60))
    usable = max(0.0, left - MOVE_OVERHEAD)
    inc_share = 0.75 * inc * min(1.0, left / (30 * inc)) if inc > 0 else 0.0
    target = (usable / moves + inc_share) / actions_per_move
    cap = usable * (0.8 if moves == 1 else 0.3) / max(1.0, actions_per_move / 2)
    hard = max(MIN_THINK, min(3 * target, cap) - LATENCY)
    soft = max(MIN_THINK, min(0.5 * target, hard))
    return Budget(soft, hard)
