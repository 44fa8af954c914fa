"""One game in the browser: position, clocks, turns, and Leyden's searching thread.

A ``Session`` is shared by the request handlers (which read it and play the human's
actions) and by the engine thread (which plays Leyden's whole turn, one action per
search). One lock guards every change of the position; the search itself runs on a
copy, outside the lock, so the page can be polled while Leyden thinks.
"""
from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass

from movegen import GAMES, Position
from movegen import layout as L
from movegen.games import Game
from search import Limits, Searcher
from search import timeman
from search.searcher import ENDERS_ACTIONS_PER_TURN

HASH_MB = 16  #: per game: many tabs may be open at once


class GameError(Exception):
    """A request the game cannot carry out; ``status`` is the HTTP status to answer."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Level:
    """How hard Leyden tries: a depth, or seconds per turn (shared by an Ender's turn's actions)."""

    name: str
    label: str
    depth: int | None = None
    seconds: float | None = None


LEVELS = {lv.name: lv for lv in (
    Level("1", "1 - depth 1 (instant)", depth=1),
    Level("2", "2 - 0.3 s a turn", seconds=0.3),
    Level("3", "3 - 1 s a turn", seconds=1.0),
    Level("4", "4 - 3 s a turn", seconds=3.0),
    Level("5", "5 - 10 s a turn", seconds=10.0),
)}
DEFAULT_LEVEL = "3"
SIDES = {"w": "White", "b": "Black"}


def _other(side: str) -> str:
    return "b" if side == "w" else "w"


def describe_outcome(game: Game, result: str, reason: str) -> str:
    """The end of a game in words, for the page and the PGN Termination comment."""
    winner = {"1-0": "White", "0-1": "Black"}.get(result)
    loser = {"1-0": "Black", "0-1": "White"}.get(result)
    if game.multi_action:
        text = {
            "gate": "Black occupies White's gate",
            "reply gate": "both gates occupied: Black reached White's gate in the reply turn",
            "reply turn ended": "White held Black's gate through Black's reply turn",
            "elimination": f"{winner} eliminates {loser}",
            "repetition": "threefold repetition of a turn's start",
            "50-turn rule": "50 turns without a capture or drop",
        }.get(reason)
        if text:
            return text
    return {
        "checkmate": f"{winner} mates",
        "stalemate": "stalemate",
        "50-move rule": "50-move rule",
        "repetition": "threefold repetition",
        "bare kings": "bare kings",
    }.get(reason, reason)


class Clock:
    """Both sides' time; the increment is added when a side's *turn* ends."""

    def __init__(self, minutes: float | None, increment: float):
        self.timed = minutes is not None
        start = (minutes or 0) * 60.0
        self.base = start
        self.left = {"w": start, "b": start}
        self.increment = increment if self.timed else 0.0
        self.running: str | None = None
        self._since = time.monotonic()

    def start(self, side: str | None) -> None:
        self.running, self._since = side, time.monotonic()

    def remaining(self, side: str) -> float:
        left = self.left[side]
        if side == self.running:
            left -= time.monotonic() - self._since
        return left

    def end_turn(self, next_side: str | None) -> None:
        """The running side's turn is over: charge its time, add the increment."""
        if self.running is not None:
            self.left[self.running] = self.remaining(self.running) + self.increment
        self.start(next_side)

    def stop(self) -> None:
        if self.running is not None:
            self.left[self.running] = self.remaining(self.running)
        self.running = None

    def flagged(self) -> str | None:
        if self.timed and self.running is not None and self.remaining(self.running) <= 0:
            return self.running
        return None

    def as_dict(self) -> dict:
        return {"timed": self.timed, "increment": self.increment, "running": self.running,
                "w": round(self.remaining("w"), 2), "b": round(self.remaining("b"), 2)}

    def time_control(self) -> str:
        """PGN TimeControl tag: seconds plus increment per turn."""
        return f"{self.base:g}+{self.increment:g}" if self.timed else "-"


class Session:
    """A game of ``game`` between the human (``human``: "w", "b" or "none" to watch) and Leyden."""

    def __init__(self, game: str, *, fen: str | None = None, seed: int | None = None,
                 human: str = "w", level: str = DEFAULT_LEVEL,
                 minutes: float | None = 10.0, increment: float = 5.0):
        if game not in GAMES:
            raise GameError(f"unknown game {game!r}; known: {', '.join(GAMES)}")
        if human not in ("w", "b", "none"):
            raise GameError("human must be 'w', 'b' or 'none'")
        if level not in LEVELS:
            raise GameError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
        if minutes is not None and not 0 < minutes <= 600:
            raise GameError("minutes must be more than 0 and at most 600 (or null: no clock)")
        if not 0 <= increment <= 600:
            raise GameError("increment must be 0 to 600 seconds")
        g = GAMES[game]
        if seed is not None and not g.shuffle:
            raise GameError(f"{game} has no shuffled setup; a seed is for caparandom or sultanrandom")
        if fen is None and g.shuffle and seed is None:
            seed = random.randrange(1, 1_000_000)  # shown on the page: the setup can be replayed
        try:
            self.pos = Position(game, fen) if fen else Position(game, seed=seed)
        except ValueError as exc:
            raise GameError(f"bad FEN: {exc}") from None
        self.game = g
        self.seed = seed if fen is None else None
        self.start_fen = self.pos.fen()
        self.human = human
        self.level = level
        self.clock = Clock(minutes, increment)
        self.actions: list[str] = []  #: side that played each action of the history
        self.forced: tuple[str, str] | None = None  #: (result, text): time forfeit, resignation
        self.engine_info: dict | None = None
        self.lock = threading.RLock()
        self.searcher = Searcher(hash_mb=HASH_MB)
        self._job: _EngineTurn | None = None
        self.version = 0  #: goes up at every change (the page polls for it)
        self.touched = time.monotonic()
        self.clock.start(self.pos.turn if self.pos.outcome() is None else None)
        self._engine_if_its_turn()

    # ------------------------------------------------------------ reading
    @property
    def thinking(self) -> bool:
        return self._job is not None and self._job.alive

    def outcome(self) -> tuple[str, str] | None:
        """(result, reason in words), or None while the game goes on."""
        if self.forced:
            return self.forced
        out = self.pos.outcome()
        if out is None:
            return None
        return out[0], describe_outcome(self.game, *out)

    def _check_flag(self) -> None:
        flagged = self.clock.flagged() if self.forced is None and self.pos.outcome() is None else None
        if flagged:
            self.forced = ("0-1" if flagged == "w" else "1-0", f"{SIDES[flagged]} lost on time")
            self.clock.stop()
            self.version += 1

    def turns(self) -> list[dict]:
        """The history grouped into turns: [{"number", "side", "actions"}] (chess: one action each)."""
        out: list[dict] = []
        fields = self.start_fen.split()
        number = int(fields[-1]) if fields[-1].isdigit() else 1
        prev_side = None
        for side, move in zip(self.actions, self.pos.move_stack):
            if side != prev_side or not self.game.multi_action:
                if out and side == "w":
                    number += 1
                out.append({"number": number, "side": side, "actions": []})
                prev_side = side
            out[-1]["actions"].append(move)
        return out

    @staticmethod
    def turn_text(actions: list[str]) -> str:
        """README notation of a turn: its actions joined by commas, the closing pass left out."""
        shown = actions[:-1] if len(actions) > 1 and actions[-1] == "@@@@" else actions
        return ",".join(shown)

    def state(self) -> dict:
        """Everything the page draws, as JSON-ready data."""
        with self.lock:
            self._check_flag()
            self.touched = time.monotonic()
            pos, geo = self.pos, self.pos.geo
            outcome = self.outcome()
            human_to_move = outcome is None and not self.thinking and pos.turn == self.human
            board = {}
            for sq in geo.valid:
                name = geo.name(sq)
                piece = pos.piece_at(name)
                if piece:
                    board[name] = piece
            holdings = {}
            if self.game.drops:
                for colour, side in enumerate("wb"):
                    holdings[side] = {p.letter: int(L.ST.view(pos.st, "RES")[colour, i + 1])
                                      for i, p in enumerate(self.game.pieces)}
            check = None
            if outcome is None and not self.game.multi_action and pos.in_check():
                check = geo.name(int(pos.st[L.S_KING + (0 if pos.turn == "w" else 1)]))
            return {
                "version": self.version, "game": self.game.name, "fen": pos.fen(),
                "start_fen": self.start_fen, "seed": self.seed, "turn": pos.turn,
                "human": self.human, "level": self.level, "board": board, "holdings": holdings,
                "moved": self._moved_squares(), "check": check,
                "legal": pos.legal_moves() if human_to_move else [],
                "turns": self.turns(), "thinking": self.thinking,
                "outcome": None if outcome is None else {"result": outcome[0], "reason": outcome[1]},
                "clock": self.clock.as_dict(), "engine": self.engine_info,
                "can_take_back": self._can_take_back(),
            }

    def _moved_squares(self) -> list[str]:
        """Ender's: squares of the pieces that moved this turn (they may not move again)."""
        if not self.game.multi_action:
            return []
        pos, G = self.pos, self.pos.tables.G
        mask = int(pos.st[L.S_MOVED])
        return [pos.geo.name(sq) for sq in pos.geo.valid if (mask >> int(G[L.CELL + sq])) & 1]

    # ------------------------------------------------------------ the human's actions
    def play(self, move: str) -> None:
        """Play the human's action ``move`` (README notation); GameError if it cannot be."""
        with self.lock:
            self._check_flag()
            self._refuse_if_busy()
            if self.human == "none":
                raise GameError("you are watching: Leyden plays both sides", 409)
            if self.pos.turn != self.human:
                raise GameError("it is Leyden's turn", 409)
            try:
                legal = self.pos.parse_move(move)
            except ValueError as exc:
                raise GameError(str(exc)) from None
            self._push(legal.code)
            self._engine_if_its_turn()

    def _refuse_if_busy(self) -> None:
        if self.outcome() is not None:
            raise GameError(f"the game is over: {self.outcome()[1]}", 409)
        if self.thinking:
            raise GameError("Leyden is thinking; wait for its move", 409)

    def _push(self, code: int) -> None:
        side = self.pos.turn
        self.pos.push_code(code)
        self.actions.append(side)
        if self.pos.outcome() is not None:
            self.clock.stop()
        elif self.pos.turn != side:
            self.clock.end_turn(self.pos.turn)
        self.version += 1

    def take_back(self) -> None:
        """Back to the start of the human's previous turn (or of the current one, if it has
        actions already); stops Leyden if it is thinking."""
        with self.lock:
            if self.human == "none":
                raise GameError("take-back needs a human side (you are watching)", 409)
            if not self._can_take_back():
                raise GameError("nothing to take back", 409)
            self._cancel_engine()
            self.forced = None
            self._pop()
            while self.pos.move_stack and not self._turn_start_of_human():
                self._pop()
            self.clock.start(self.pos.turn)
            self.version += 1
            self._engine_if_its_turn()  # taken back to the very start with Leyden to move

    def _can_take_back(self) -> bool:
        return self.human != "none" and self.human in self.actions

    def _turn_start_of_human(self) -> bool:
        return self.pos.turn == self.human and int(self.pos.st[L.S_ACTIONS]) == 0

    def _pop(self) -> None:
        self.pos.pop()
        self.actions.pop()

    def resign(self) -> None:
        with self.lock:
            if self.human == "none":
                raise GameError("you are watching: there is nobody to resign", 409)
            if self.outcome() is not None:
                raise GameError(f"the game is over: {self.outcome()[1]}", 409)
            self._cancel_engine()
            self.forced = ("0-1" if self.human == "w" else "1-0", f"{SIDES[self.human]} resigns")
            self.clock.stop()
            self.version += 1

    def set_level(self, level: str) -> None:
        if level not in LEVELS:
            raise GameError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
        with self.lock:
            self.level = level
            self.version += 1

    def close(self) -> None:
        with self.lock:
            self._cancel_engine()

    # ------------------------------------------------------------ Leyden's turn
    def _engine_if_its_turn(self) -> None:
        if self.outcome() is None and self.pos.turn != self.human and not self.thinking:
            self._job = _EngineTurn(self)
            self._job.start()

    def _cancel_engine(self) -> None:
        if self._job is not None:
            self._job.cancel()
            self._job = None

    def engine_limits(self) -> Limits:
        """Limits of Leyden's next search: the level, never more than its clock allows."""
        level = LEVELS[self.level]
        if level.depth is not None:
            return Limits(depth=level.depth)
        actions = ENDERS_ACTIONS_PER_TURN if self.game.multi_action else 1
        seconds = level.seconds / actions
        if self.clock.timed:
            side = self.pos.turn
            clock = Limits(wtime=self.clock.remaining("w"), btime=self.clock.remaining("b"),
                           winc=self.clock.increment, binc=self.clock.increment)
            plan = timeman.budget(clock, side == "w", actions)
            seconds = min(seconds, plan.hard)
        return Limits(movetime=max(0.01, seconds))


class _EngineTurn:
    """Leyden plays its whole turn (Ender's: action after action) in a thread; in watch mode
    it goes on with the other side's turns until the game ends or it is cancelled.

    ``cancel`` is called with the session lock held, so the thread never waits for its
    caller: it only checks ``cancelled`` under the lock, and ``idle`` tells when no
    search is running (the Searcher serves one search at a time)."""

    def __init__(self, session: Session):
        self.s = session
        self.cancelled = False
        self.idle = threading.Event()
        self.idle.set()
        self.thread = threading.Thread(target=self._run, name="leyden-turn", daemon=True)

    @property
    def alive(self) -> bool:
        return self.thread.is_alive() and not self.cancelled

    def start(self) -> None:
        self.thread.start()

    def _run(self) -> None:
        s = self.s
        while True:
            with s.lock:
                s._check_flag()
                if self.cancelled or s.outcome() is not None or s.pos.turn == s.human:
                    return
                pos = s.pos.copy()
                limits = s.engine_limits()
                self.idle.clear()
            started = time.monotonic()
            try:
                best, _ = s.searcher.search(pos, limits, self._info)
            except Exception as exc:  # noqa: BLE001 - reported on the page, the server goes on
                s.engine_info = {"error": f"search failed: {exc!r}"}
                return
            finally:
                self.idle.set()
            with s.lock:
                if self.cancelled or best is None:
                    return
                s._check_flag()
                if s.outcome() is not None:
                    return
                s._push(s.pos.parse_move(best).code)
                if s.engine_info is not None:
                    s.engine_info["seconds"] = round(time.monotonic() - started, 3)
                    s.engine_info["move"] = best.name

    def _info(self, info) -> None:
        score = f"mate {info.mate}" if info.mate is not None else f"{info.score_cp / 100:+.2f}"
        self.s.engine_info = {"depth": info.depth, "score": score, "nodes": info.nodes,
                              "pv": " ".join(map(str, info.pv[:8]))}

    def cancel(self) -> None:
        """Stop the search and wait until it has returned (a stop made just before a search
        begins is lost, so it is repeated)."""
        self.cancelled = True
        while not self.idle.wait(0.05):
            self.s.searcher.stop()
