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
"""
from dataclasses import dataclass

MOVE_OVERHEAD = 0.03  # seconds kept back per move
MOVES_LEFT = 30  # sudden death: moves we plan for
LATENCY = 0.01  # how far a search overruns its hard limit, typically
MIN_THINK = 0.003


@dataclass
class Budget:
    soft: float | None  # None: no limit
    hard: float | None


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
