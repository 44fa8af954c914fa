"""The Python side of the search: limits, progress reports and the ``Searcher`` that
runs the numba iterations (search/alphabeta.py) with the GIL released.

Threads: ``search`` blocks its caller (the protocol layer runs it in a worker thread);
``stop`` may be called from any thread and sets the flag the kernel polls; a timer
thread sets the same flag at the hard time limit. With ``threads`` > 1 the search is
lazy SMP (search/smp.py): helper threads search the same root over the shared
transposition table, every thread polls its own stop flag, and ``stop`` and the timer
set all of them.
"""
from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass, field, replace

from movegen import layout as L

from . import timeman
from .evaluate import changed_eval
from .smp import Helper, SearchThread, node_share, reset_for_search
from .state import (
    ABORTED,
    AGE,
    MATE,
    MATE_BOUND,
    MAX_SPLY,
    NODES,
    NROOT,
    PROF_FIRST,
    PROF_LAST,
    PROF_NAMES,
    ROOT_BEST,
    ROOT_MOVES,
    SELDEPTH,
    STOP,
    clear_history,
)
from .tt import new_table

MAX_DEPTH = MAX_SPLY - 32  # deepest iteration (room for extensions and quiescence)
MAX_THREADS = 64  #: most search threads (each has about 25 MB of its own arrays)
ENDERS_ACTIONS_PER_TURN = 4.0  # for the clock: searches per protocol move in Ender's


@dataclass
class Limits:
    """What bounds a search; every field optional (all None: search until stopped or
    the maximum depth). Times in seconds."""

    depth: int | None = None  #: iterations to complete (plies; Ender's: actions)
    nodes: int | None = None  #: stop after about this many nodes
    movetime: float | None = None  #: think exactly this long
    wtime: float | None = None  #: White's clock
    btime: float | None = None  #: Black's clock
    winc: float = 0.0  #: White's increment per move
    binc: float = 0.0
    movestogo: int | None = None  #: moves to the next time control (None: sudden death)
    infinite: bool = False  #: analyse until stop() (search returns only then)


#: Longest time a limit may name (about 115 days); longer values are taken as this, so
#: that every clock the search computes with, and its timer, stays representable.
MAX_SECONDS = 1e7
MAX_NODES = 2**62  #: largest node limit (the kernel counts nodes in an int64)


def checked_limits(limits: Limits) -> Limits:
    """``limits`` with every number made safe for the search: times clamped into
    [0, MAX_SECONDS], node counts into [1, MAX_NODES], depth and moves-to-go to at least 1.
    NaN says nothing about a limit and is refused with ValueError."""
    changes = {}
    for name in ("movetime", "wtime", "btime", "winc", "binc"):
        value = getattr(limits, name)
        if value is None:
            continue
        if math.isnan(value):
            raise ValueError(f"{name} is not a number")
        changes[name] = min(max(float(value), 0.0), MAX_SECONDS)
    for name, top in (("nodes", MAX_NODES), ("depth", MAX_NODES), ("movestogo", MAX_NODES)):
        value = getattr(limits, name)
        if value is None:
            continue
        if isinstance(value, float) and math.isnan(value):
            raise ValueError(f"{name} is not a number")
        changes[name] = int(min(max(value, 1), top))
    return replace(limits, **changes)


@dataclass
class Info:
    """Progress report after each completed iteration."""

    depth: int
    seldepth: int
    score_cp: int | None  #: centipawns for the side to move, None when ``mate`` is set
    mate: int | None  #: mate in this many moves; negative: getting mated
    nodes: int
    time: float  #: seconds since the search started
    pv: list = field(default_factory=list)  #: principal variation: movegen ``Move`` values


def _mate_moves(score: int, pos, pv: list[int]) -> int | None:
    """Moves to mate (negative: to being mated) of a mate score; None for other scores.

    Chess-like games: ceil(plies / 2). Ender's Chess: a "move" is a turn, counted along
    the principal variation (turns of the winner until the game ends), because plies
    there are actions and a turn has any number of them."""
    if abs(score) < MATE_BOUND:
        return None
    plies = MATE - abs(score)
    moves = (plies + 1) // 2
    if pos.game.multi_action:
        probe = pos.copy()
        own, opp = 1, 0
        for code in pv:
            before = probe.turn
            probe.push_code(code)
            if probe.outcome() is not None:
                moves = own if score > 0 else max(1, opp)
                break
            if probe.turn != before:
                if probe.turn == pos.turn:
                    own += 1
                else:
                    opp += 1
    return moves if score > 0 else -moves


class Searcher:
    """Alpha-beta search over any game's ``movegen.Position``; one search at a time."""

    def __init__(self, hash_mb: int = 64, threads: int = 1):
        self._tt = new_table(hash_mb)
        self._main = SearchThread()
        self._ss = self._main.ss
        self._helpers: list[Helper] = []
        self._states = [self._ss]  # every thread's state: the stop flags to set
        self._stopped = threading.Event()
        self.nodes = 0  #: nodes of the last search, all threads together
        self.thread_nodes: list[int] = []  #: nodes of the last search per thread, main first
        self.hash_mb = hash_mb
        self.threads = 1  #: threads of the next search (see set_threads)
        #: weights or search settings changed from the game's (weights.parse_changes:
        #: the ``Tune`` option), from the next search on
        self.changes: tuple = ()
        self.set_threads(threads)
        self._apply_threads()

    def set_threads(self, n: int) -> None:
        """Search with ``n`` threads (1 to MAX_THREADS) from the next search on; a
        running search is not disturbed. ValueError outside that range."""
        if not 1 <= n <= MAX_THREADS:
            raise ValueError(f"threads must be 1 to {MAX_THREADS}, not {n}")
        self.threads = n

    def _apply_threads(self) -> None:
        """Add or drop helpers to match ``threads``; only between searches (``arm``)."""
        del self._helpers[self.threads - 1:]
        self._helpers += [Helper(i) for i in range(len(self._helpers) + 1, self.threads)]
        self._states = [self._ss] + [h.ss for h in self._helpers]

    def set_hash(self, mb: int) -> None:
        """Resize (and clear) the transposition table."""
        self.hash_mb = mb
        self._tt = new_table(mb)

    def new_game(self) -> None:
        """Forget everything learnt: transposition table, killers, history."""
        # A fresh table instead of zeroing the old one: the system hands out zeroed
        # pages on first touch, so clearing gigabytes costs nothing here (zeroing a 3 GB
        # table in place took 3 s, with the protocol waiting).
        self._tt = None
        self._tt = new_table(self.hash_mb)
        for ss in self._states:
            clear_history(ss)

    def work_counts(self) -> dict[str, int]:
        """What the last search did, by kind (all zero unless built with LEYDEN_PROFILE=1;
        see benchmarks/profile.py)."""
        return {k: int(v) for k, v in zip(PROF_NAMES, self._ss[PROF_FIRST:PROF_LAST + 1])}

    def arm(self) -> None:
        """Clear the stop request for the next search.

        A caller that runs the search in another thread calls this before starting that
        thread and passes ``armed=True`` to ``search``: a ``stop()`` made at any moment
        after ``arm()`` (even before the worker has begun) then ends that search.
        A changed number of threads takes effect here."""
        self._apply_threads()
        for ss in self._states:
            ss[STOP] = 0
        self._stopped.clear()

    def stop(self) -> None:
        """End the running (or the armed, not yet started) search soon; thread-safe.
        The search returns its best move so far."""
        self._timer_stop()
        self._stopped.set()

    def _timer_stop(self) -> None:
        for ss in self._states:
            ss[STOP] = 1

    def _nodes(self) -> int:
        return sum(int(ss[NODES]) for ss in self._states)

    def _start_helpers(self, pos, ev, max_depth: int) -> None:
        for helper in self._helpers:
            helper.start(pos, self._tt, ev, max_depth)

    def _report(self, on_info, pos, depth: int, ss, score: int, pv: list[int], elapsed: float) -> None:
        """Tell ``on_info`` (if any) of a finished iteration of the thread with state ``ss``."""
        if on_info is None:
            return
        mate = _mate_moves(score, pos, pv)
        on_info(Info(depth=depth, seldepth=int(max(ss[SELDEPTH], depth)),
                     score_cp=None if mate is not None else score, mate=mate,
                     nodes=self._nodes(), time=elapsed, pv=[pos.move(m) for m in pv]))

    def _deeper_helper(self, depth: int):
        """The helper whose finished iteration is the deepest, if deeper than ``depth``."""
        best = max(self._helpers, key=lambda h: h.completed, default=None)
        return best if best is not None and best.completed > depth and best.result[1] else None

    def _finish_helpers(self) -> None:
        """Stop the helpers and wait for them; their nodes stay counted."""
        for helper in self._helpers:
            helper.stop()
        errors = [helper.join() for helper in self._helpers]
        for error in errors:
            if error is not None:
                raise error  # a bug in a helper: not to be hidden behind the main result

    # ------------------------------------------------------------------ search
    def search(self, pos, limits: Limits | None = None, on_info=None, *, armed: bool = False):
        """Search ``pos`` (not modified) within ``limits``; blocking. Returns (best move,
        expected reply) as movegen ``Move`` values; best is None only when there is no
        legal move, the reply None when the principal variation has none.
        ``on_info(Info)`` is called after every completed iteration. ``armed``: the
        caller has called ``arm()`` and a stop since then must count (see ``arm``).
        Raises ValueError for limits that are not numbers (NaN)."""
        limits = checked_limits(limits or Limits())
        if not armed:
            self.arm()
        start = time.perf_counter()
        ss, main = self._ss, self._main
        ev = changed_eval(pos.game, self.changes)
        age = (ss[AGE] + 1) & 255  # one table generation per search, the same in every thread
        for i, state in enumerate(self._states):
            reset_for_search(state, node_share(limits.nodes, len(self._states), i), age)
        main.set_position(pos, self._tt, ev)
        n = main.prepare_root()
        self.nodes, self.thread_nodes = 0, [0] * len(self._states)
        if n == 0:
            return None, None
        enders = pos.game.multi_action
        plan = timeman.budget(limits, pos.st[L.S_SIDE] == 0,
                              ENDERS_ACTIONS_PER_TURN if enders else 1.0)
        timer = None
        if plan.hard is not None:
            timer = threading.Timer(plan.hard, self._timer_stop)
            timer.daemon = True
            timer.start()
        max_depth = MAX_DEPTH if not limits.depth else max(1, min(int(limits.depth), MAX_DEPTH))
        timed = plan.hard is not None and not limits.infinite
        if n == 1 and timed:
            max_depth = 1  # nothing to choose: answer at once (still with a score)
        prev = 0
        last_pv: list[int] = []
        finished = 0  # the main thread's deepest finished iteration
        try:
            if max_depth > 1:
                self._start_helpers(pos, ev, MAX_DEPTH)
            for depth in range(1, max_depth + 1):
                if depth > 1 and ss[STOP]:
                    break  # stopped between iterations (or before the search began)
                score = main.iterate(depth, prev)
                if ss[ABORTED]:
                    break
                prev, finished = score, depth
                last_pv = main.principal_variation()
                elapsed = time.perf_counter() - start
                self._report(on_info, pos, depth, ss, score, last_pv, elapsed)
                if limits.infinite:
                    continue
                if plan.done(elapsed, last_pv[0], score):
                    break
                if abs(score) >= MATE_BOUND and depth >= (MATE - abs(score)) + 2 and not limits.depth:
                    break  # a mate is found and cannot get shorter
        finally:
            if timer is not None:
                timer.cancel()
            self._finish_helpers()
        if limits.infinite:
            self._stopped.wait()  # analysis: answer only when told to stop
        self.thread_nodes = [int(state[NODES]) for state in self._states]
        self.nodes = sum(self.thread_nodes)
        best = int(ss[ROOT_BEST])
        deeper = self._deeper_helper(finished) if not limits.depth else None
        if deeper is not None:  # cut short on the clock or a stop, a helper got further
            score, last_pv = deeper.result
            best = last_pv[0]
            self._report(on_info, pos, deeper.completed, deeper.ss, score, last_pv,
                         time.perf_counter() - start)
        legal = {int(m) for m in ss[ROOT_MOVES:ROOT_MOVES + ss[NROOT]]}
        if best not in legal:  # cannot happen; never answer with an illegal move
            best = int(ss[ROOT_MOVES])
        ponder = None
        if len(last_pv) >= 2 and last_pv[0] == best:
            probe = pos.copy()
            probe.push_code(best)
            if probe.turn != pos.turn and probe.outcome() is None:
                ponder = probe.move(last_pv[1])
        return pos.move(best), ponder


def warmup() -> None:
    """Compile (first run) or load from numba's cache every search kernel."""
    from movegen import Position
    s = Searcher(hash_mb=1)
    for name in ("capablanca", "batteries", "enders"):
        s.search(Position(name), Limits(depth=2))
