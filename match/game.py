"""One refereed game between two engine processes.

The runner keeps its own ``movegen.Position`` of the game and is the only judge:

* a move the rules do not allow, a crash, a closed pipe, a move later than the clock
  allows (plus the grace margin ``--time-margin``), a resignation, a refused legal move
  or a result claim the referee does not confirm lose the game for that engine, with
  the reason in the PGN;
* mate, stalemate, repetition, the 50-move rule, bare kings and Ender's gate,
  elimination and 50-turn rules end the game as ``Position.outcome()`` says;
* optional adjudication: resign (both engines agree one side is lost by ``score``
  centipawns for ``count`` moves each) and draw (both scores within ``score`` of zero
  for ``count`` moves each, from move ``movenumber`` on), and ``--maxmoves``.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from movegen import Move, Position
from movegen.move import to_xboard_ranks

from .engines import (
    EngineClaim,
    EngineConfigError,
    EngineFailure,
    EngineSpec,
    MATE_BASE,
    MoveRec,
    make_player,
)
from .openings import Opening
from .pgn import (
    ABANDONED,
    ADJUDICATION,
    NORMAL,
    OPENING_END,
    RULES_INFRACTION,
    TIME_FORFEIT,
    UNTERMINATED,
    GameRecord,
)
from .tc import Clock, TimeControl

#: Plies after which a game is adjudicated a draw whatever happens (the rules tables
#: hold 4096 plies).
HARD_PLY_LIMIT = 3600


@dataclass(frozen=True)
class Adjudication:
    """``--resign score=N count=M`` and ``--draw movenumber=K score=N count=M``."""

    resign_score: int | None = None
    resign_count: int = 3
    draw_score: int | None = None
    draw_count: int = 8
    draw_from: int = 40
    max_moves: int | None = None  #: full moves, then a draw

    @staticmethod
    def parse_fields(fields: list[str], allowed: tuple) -> dict:
        out = {}
        for item in fields:
            key, eq, value = item.partition("=")
            if not eq or key not in allowed:
                raise ValueError(f"bad adjudication setting {item!r} (use {', '.join(k + '=N' for k in allowed)})")
            out[key] = int(value)
        return out


@dataclass
class GameSettings:
    game: object  #: movegen Game
    tc_white: TimeControl
    tc_black: TimeControl
    time_margin: float = 0.2  #: seconds of grace beyond the clock
    hang_timeout: float = 120.0  #: longest wait for an untimed move
    startup_timeout: float = 60.0
    grace: float = 2.0  #: time to quit before a kill
    adjudication: Adjudication = field(default_factory=Adjudication)
    log: object = None
    event: str = "Leyden match"
    site: str = "?"
    extra_tags: dict = field(default_factory=dict)


@dataclass
class GameTask:
    """One game to play: all a thread of this process or a cluster worker needs."""

    round: int
    opening: Opening
    white: EngineSpec
    black: EngineSpec
    settings: GameSettings

    def play(self, stop: threading.Event | None = None, on_start=None, seats: dict | None = None) -> GameRecord:
        return play_game(self.round, self.opening, self.white, self.black, self.settings,
                         stop=stop, on_start=on_start, seats=seats)


def _wire_forms(pos: Position, move: Move, game) -> tuple[str, str, str, str]:
    """(canonical, XBoard, UCI, PGN) spellings of a legal move in ``pos``.

    XBoard: ``O-O``/``O-O-O`` for castling in the shuffle games, ``from-to;victim`` for
    an overtaking capture, ranks 0..9 on a 10-rank board. PGN: the XBoard form, but an
    overtaking capture in its two legs (``;`` would start a PGN comment).
    """
    if move.is_pass:
        return "@@@@", "@@@@", "0000", "@@@@"
    xb = to_xboard_ranks(move.xboard_text(game), game)
    pgn = to_xboard_ranks(move.name, game) if move.overtakes else xb
    return move.name, xb, move.name, pgn


def _fmt_score(score: int | None, depth: int | None, elapsed: float) -> str:
    parts = []
    if score is not None:
        if abs(score) > MATE_BASE:
            parts.append(f"{'+' if score > 0 else '-'}M{abs(score) - MATE_BASE}")
        else:
            parts.append(f"{score / 100:+.2f}" + (f"/{depth}" if depth is not None else ""))
    parts.append(f"{elapsed:.2f}s")
    return " ".join(parts)


def _seated(seats: dict | None, spec: EngineSpec, game, settings: GameSettings, round_no: int):
    """The player for ``spec``: the running one left in ``seats``, else a new one."""
    tag = f"g{round_no} {spec.name}"
    player = seats.pop(spec.name, None) if seats is not None else None
    if player is not None and player.reusable():
        player.proc.tag = tag
        return player
    if player is not None:
        player.close(settings.grace)
    return make_player(spec, game, log=settings.log, tag=tag, startup_timeout=settings.startup_timeout)


def play_game(round_no: int, opening: Opening, white: EngineSpec, black: EngineSpec,
              settings: GameSettings, stop: threading.Event | None = None,
              on_start=None, seats: dict | None = None) -> GameRecord:
    """Play one game and return its record (result "*" if ``stop`` was set meanwhile).

    ``on_start(players)`` is called with the two players once they run (used to kill
    them on Ctrl-C). Raises ``EngineConfigError`` if an engine cannot take part.
    ``seats``: engines left running by the caller's last game, by name; a game takes its
    players from there when they are still fit to play and leaves them there after a
    game that ended by the rules or adjudication (None: every game starts its own
    engines and closes them).
    """
    game = settings.game
    rec = GameRecord(round=round_no, white=white.name, black=black.name, variant=game.name,
                     start_fen=opening.start_fen, event=settings.event, site=settings.site,
                     date=time.strftime("%Y.%m.%d"))
    tcw, tcb = settings.tc_white, settings.tc_black
    same = tcw.pgn() == tcb.pgn()
    rec.time_control = tcw.pgn() if same else "-"
    if not same:
        rec.white_tc, rec.black_tc = tcw.pgn(), tcb.pgn()
    rec.extra.update(settings.extra_tags)
    if opening.label:
        rec.extra["Opening"] = opening.label
    if str(tcw) != tcw.pgn() or str(tcb) != tcb.pgn():
        rec.extra["LeydenTC"] = str(tcw) if tcw == tcb else f"{tcw} vs {tcb}"

    specs = {"w": white, "b": black}
    players = {c: _seated(seats, specs[c], game, settings, round_no) for c in "wb"}
    fresh = {c: not players[c].proc.alive for c in "wb"}
    tcs = {"w": tcw, "b": tcb}
    clocks = {c: Clock(tcs[c]) for c in "wb"}
    pos = Position(game, opening.start_fen)
    history: list[MoveRec] = []
    scores = {"w": [], "b": []}
    enders = game.multi_action

    def finish(result: str, termination: str, reason: str) -> GameRecord:
        rec.result, rec.termination, rec.reason = result, termination, reason
        return rec

    def loses(color: str) -> str:
        return "0-1" if color == "w" else "1-0"

    def cname(color: str) -> str:
        return ("White" if color == "w" else "Black") + f" ({specs[color].name})"

    xb_side = [opening.start_fen.split()[1] if len(opening.start_fen.split()) > 1 else "w"]

    def push(move_text: str, actor: str, comment: str | None = None) -> None:
        move = pos.parse_move(move_text)
        canonical, xb, uci, pgn = _wire_forms(pos, move, game)
        pos.push_code(move.code)
        history.append(MoveRec(actor, canonical, xb, uci))
        if enders and xb_side[0] != actor:  # XBoard's view: the idle side passes
            rec.moves.append("@@@@")
            xb_side[0] = actor
        rec.moves.append(pgn)
        xb_side[0] = "b" if xb_side[0] == "w" else "w"
        if comment:
            rec.comments[len(rec.moves) - 1] = comment

    started = []
    try:
        # start both engines at once (start-up can take a second or two each)
        errors: dict = {}

        def boot(color):
            try:
                if fresh[color]:
                    players[color].start()
                players[color].new_game(opening.start_fen, color, tcs[color])
            except (EngineFailure, EngineConfigError) as exc:
                errors[color] = exc
            except Exception as exc:  # noqa: BLE001 - reported as the engine's failure
                errors[color] = EngineFailure("protocol", f"{type(exc).__name__}: {exc}")

        threads = [threading.Thread(target=boot, args=(c,), daemon=True) for c in "wb"]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        started = list(players.values())
        if on_start:
            on_start(started)
        for color in "wb":
            exc = errors.get(color)
            if isinstance(exc, EngineConfigError):
                raise exc
        for color in "wb":
            exc = errors.get(color)
            if exc is not None:
                if stop is not None and stop.is_set():
                    return finish("*", UNTERMINATED, "interrupted")
                return finish(loses(color), _termination(exc.kind),
                              f"{cname(color)} failed at start-up: {exc.kind}: {exc.detail}")
        # the opening moves
        for m in opening.moves:
            push(m, pos.turn)
        if opening.moves:
            rec.comments[len(rec.moves) - 1] = OPENING_END
        adj = settings.adjudication
        while True:
            if stop is not None and stop.is_set():
                return finish("*", UNTERMINATED, "interrupted")
            out = pos.outcome()
            if out is not None:
                return finish(out[0], NORMAL, _reason_text(out[1], out[0]))
            if pos.ply >= HARD_PLY_LIMIT:
                return finish("1/2-1/2", ADJUDICATION, f"game too long ({pos.ply} plies)")
            if adj.max_moves is not None and pos.ply >= 2 * adj.max_moves:
                return finish("1/2-1/2", ADJUDICATION, f"draw by move limit ({adj.max_moves} moves)")
            side = pos.turn
            other = "b" if side == "w" else "w"
            player = players[side]
            budget = clocks[side].budget()
            limit = None if budget is None else budget + settings.time_margin
            try:
                reply = player.think(history, clocks[side], clocks[other], limit,
                                     settings.hang_timeout)
            except EngineClaim as claim:
                return finish(loses(side), RULES_INFRACTION,
                              f"{cname(side)} claims {claim.result} {{{claim.text}}}, which the rules do not confirm")
            except EngineFailure as exc:
                if stop is not None and stop.is_set():
                    return finish("*", UNTERMINATED, "interrupted")
                return finish(loses(side), _termination(exc.kind), f"{cname(side)} {_failure_text(exc)}")
            clocks[side].punch(reply.elapsed)
            if tcs[side].clocked and clocks[side].remaining + settings.time_margin < 0:
                return finish(loses(side), TIME_FORFEIT,
                              f"{cname(side)} loses on time ({reply.move} came {-clocks[side].remaining:.3f} s late)")
            if tcs[side].movetime is not None and reply.elapsed > tcs[side].movetime + settings.time_margin:
                return finish(loses(side), TIME_FORFEIT,
                              f"{cname(side)} loses on time ({reply.elapsed:.3f} s for a {tcs[side].movetime:g} s move)")
            try:
                pos.parse_move(reply.move)
            except ValueError:
                return finish(loses(side), RULES_INFRACTION,
                              f"{cname(side)} makes an illegal move: {reply.move}")
            push(reply.move, side, _fmt_score(reply.score, reply.depth, reply.elapsed))
            scores[side].append(reply.score)
            verdict = _adjudicate(adj, scores, side, pos)
            if verdict is not None:
                return finish(verdict[0], ADJUDICATION, verdict[1])
    finally:
        for p in players.values():
            try:
                p.end_game(rec.result, rec.reason)
            except Exception:  # noqa: BLE001 - the game is over anyway
                pass
        if seats is not None and rec.termination in (NORMAL, ADJUDICATION):
            for p in players.values():
                if p.reusable() and p.name not in seats:
                    seats[p.name] = p
        closers = [threading.Thread(target=p.close, args=(settings.grace,), daemon=True)
                   for p in players.values() if seats is None or seats.get(p.name) is not p]
        for t in closers:
            t.start()
        for t in closers:
            t.join()


def _termination(kind: str) -> str:
    if kind == "timeout":
        return TIME_FORFEIT
    if kind in ("crash", "disconnect"):
        return ABANDONED
    return RULES_INFRACTION


def _failure_text(exc: EngineFailure) -> str:
    if exc.kind == "timeout":
        return f"loses on time: {exc.detail}"
    if exc.kind == "crash":
        return f"crashed: {exc.detail}"
    if exc.kind == "disconnect":
        return f"disconnected: {exc.detail}"
    if exc.kind == "resign":
        return "resigns"
    if exc.kind == "rejected":
        return exc.detail
    return f"{exc.kind}: {exc.detail}"


def _reason_text(reason: str, score: str) -> str:
    winner = "White" if score == "1-0" else "Black"
    return {
        "checkmate": f"{winner} mates",
        "stalemate": "stalemate",
        "50-move rule": "50-move rule",
        "50-turn rule": "50-turn rule",
        "repetition": "3-fold repetition",
        "bare kings": "bare kings",
        "gate": "Black occupies White's gate" if score == "0-1" else "White holds Black's gate",
        "reply gate": "both gates occupied: draw",
        "reply turn ended": "White holds Black's gate after Black's reply turn",
        "elimination": f"{winner} eliminates every enemy piece",
    }.get(reason, reason)


def _adjudicate(adj: Adjudication, scores: dict, mover: str, pos: Position):
    """(result, reason) if the score adjudication ends the game, else None."""
    other = "b" if mover == "w" else "w"
    if adj.resign_score is not None:
        n = adj.resign_count
        for loser in (mover, other):
            winner = "b" if loser == "w" else "w"
            mine, theirs = scores[loser][-n:], scores[winner][-n:]
            if (len(mine) == n and len(theirs) == n and None not in mine and None not in theirs
                    and all(s <= -adj.resign_score for s in mine)
                    and all(s >= adj.resign_score for s in theirs)):
                result = "0-1" if loser == "w" else "1-0"
                return result, (f"{'White' if loser == 'w' else 'Black'} lost by adjudication "
                                f"(both engines' scores beyond {adj.resign_score} cp for {n} moves)")
    if adj.draw_score is not None and pos.ply >= 2 * adj.draw_from:
        n = adj.draw_count
        w, b = scores["w"][-n:], scores["b"][-n:]
        if (len(w) == n and len(b) == n and None not in w and None not in b
                and all(abs(s) <= adj.draw_score for s in w + b)):
            return "1/2-1/2", f"draw by adjudication (scores within {adj.draw_score} cp for {n} moves)"
    return None
