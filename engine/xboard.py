"""XBoard / WinBoard protocol (CECP version 2) for all of Leyden's games.

The input thread (``run``) reads and executes commands one by one; searches run in a
worker thread (``engine.searching.SearchJob``) so that ``?``, ``.``, ``ping``, ``force``,
``exit`` and the rest are handled while the engine thinks. Rules of the road:

* the input thread never holds ``self.lock`` while it waits for a search to end
  (the worker takes the lock to publish its move);
* a search whose result is no longer wanted is ``cancelled`` before it is stopped,
  and the worker publishes nothing for it.

Ender's Chess under XBoard: XBoard alternates colours every ply and knows no turns of
several actions, so one Ender's action is one XBoard ply and the side that is *not*
acting fills every other ply with a pass (``@@@@``). A pass by the acting side ends its
turn. See README.md, "Ender's Chess turns under XBoard".
"""
from __future__ import annotations

import re
import threading
import time

from movegen import GAMES, PASSES, IllegalMoveError, Move, Position, find_game
from movegen.move import from_xboard_ranks, to_xboard_ranks

from . import xbvariants
from .common import (
    ENGINE_NAME,
    ENGINE_VERSION,
    StartPositions,
    max_hash_mb,
    parse_int,
    parse_number,
    resize_hash,
    result_comment,
)
from .lines import Output
from .protocol import ProtocolSession
from .searching import MAX_COUNT, MAX_SECONDS, MAX_THREADS, Limits, SearchJob

VARIANTS = ("normal", "capablanca", "caparandom", "energizer", "sultan", "sultanrandom",
            "batteries", "enders")
assert set(VARIANTS) == set(GAMES)


def _defuse(line: str) -> str:
    """XBoard takes any ``Error`` line that mentions "illegal" for a refused move (and,
    in a match, for a false illegal-move claim that forfeits the game): keep the word
    out of error lines, which may echo arbitrary input."""
    if line.startswith("Error") and "llegal" in line.lower():
        return re.sub("llegal", "llegaI", line, flags=re.IGNORECASE)
    return line


def _placement(board_field: str) -> tuple[str, str]:
    """Board and reserve of a FEN's first field, the reserve letters in a fixed order."""
    board, _, reserve = board_field.partition("[")
    return board, "".join(sorted(reserve.rstrip("]").replace("-", "")))


def _seconds(text: str) -> float | None:
    """``level`` BASE: minutes, or minutes:seconds; None unless finite and not negative."""
    minutes, _, seconds = text.partition(":")
    m = parse_number(minutes, 0, MAX_SECONDS)
    s = parse_number(seconds, 0, MAX_SECONDS) if seconds else 0.0
    if m is None or s is None or minutes.strip().startswith("-") or seconds.strip().startswith("-"):
        return None
    return min(m * 60 + s, MAX_SECONDS)


class XBoardEngine(ProtocolSession):
    """State and commands of one CECP session."""

    def __init__(self, out: Output, loader: threading.Thread | None = None, log=None):
        super().__init__(out, loader, log)
        self.starts = StartPositions()
        self.job: SearchJob | None = None
        self.pending_pongs: list[str] = []
        self.protover = 1
        self.post = False
        self.ponder = False
        self.analyzing = False
        self.last_score: int | None = None
        self.hint: str | None = None
        # time control
        self.mps = 0
        self.base = 300.0
        self.inc = 0.0
        self.st: float | None = None
        self.sd: int | None = None
        self.nps: int | None = None
        self.my_time: float | None = None
        self.opp_time: float | None = None
        self.game_over = False
        self._lifted: str | None = None
        self._legs: dict[str, list[str]] = {}
        self.force = False
        self.engine_color = "b"
        self.handshake_sent = False
        self._think_start = time.perf_counter()
        self._new_game("normal")

    # ------------------------------------------------------------------ plumbing
    def send(self, *lines: str) -> None:
        self.out.send(*(_defuse(line) for line in lines))

    def _new_game(self, name: str, fen: str | None = None) -> None:
        self.game = find_game(name)
        self.start_fen = fen or self.starts.fen(self.game)
        self.pos = Position(self.game, self.start_fen)
        self.xb_start_side = self.pos.turn
        self.xb_moves: list[str | None] = []  # per XBoard ply: action pushed, or None (a pass filler)
        self.game_over = False
        self.hint = None
        self.last_score = None

    def to_xb(self, text: str) -> str:
        return to_xboard_ranks(text, self.game)

    def from_xb(self, text: str) -> str:
        return from_xboard_ranks(text, self.game)

    @property
    def enders(self) -> bool:
        return self.game.multi_action

    def xb_side(self) -> str:
        """Whose move it is in XBoard's eyes (plies alternate strictly)."""
        if not self.enders:
            return self.pos.turn
        if len(self.xb_moves) % 2 == 0:
            return self.xb_start_side
        return "b" if self.xb_start_side == "w" else "w"

    # ------------------------------------------------------------------ search control
    def _halt(self) -> None:
        """Cancel any search and wait for its worker; then answer deferred pings.

        Loops because a finishing search may have started the next one (pondering)
        just before it was cancelled.
        """
        while True:
            with self.lock:
                job = self.job
                if job is None:
                    self._flush_pongs()
                    return
                job.cancelled = True
            job.stop_and_wait()
            with self.lock:
                if self.job is job:
                    self.job = None

    def _flush_pongs(self) -> None:
        while self.pending_pongs:
            self.send(f"pong {self.pending_pongs.pop(0)}")

    def _limits(self) -> Limits:
        """Limits of a move search from the clocks and the time control. After ``nps N``
        time is counted in nodes, N to a second (CECP): the move's time becomes a node
        limit and the wall clock no longer ends the search."""
        lim = Limits(depth=self.sd)
        mine = self.my_time if self.my_time is not None else self.base
        movestogo = None
        if self.st is not None:
            lim.movetime = self.st
        else:
            theirs = self.opp_time if self.opp_time is not None else self.base
            if self.mps > 0:
                done = (len(self.xb_moves) if self.enders else self.pos.ply) // 2
                movestogo = self.mps - done % self.mps
            if self.engine_side() == "w":
                lim.wtime, lim.btime, lim.winc, lim.binc = mine, theirs, self.inc, self.inc
            else:
                lim.btime, lim.wtime, lim.binc, lim.winc = mine, theirs, self.inc, self.inc
            lim.movestogo = movestogo
        if self.nps:
            seconds = self.st if self.st is not None else mine / (movestogo or 30) + self.inc * 0.8
            lim.nodes = max(1, int(self.nps * seconds))
            lim.movetime = lim.wtime = lim.btime = None
        return lim

    def engine_side(self) -> str:
        return self.engine_color

    def _start(self, kind: str) -> None:
        """Start thinking ("think"), pondering ("ponder") or analysing ("analyze")."""
        searcher = self._ensure_searcher()
        pos = self.pos.copy()
        if kind == "think":
            limits = self._limits()
        else:
            limits = Limits(infinite=True)
        self._think_start = time.perf_counter()
        job = SearchJob(searcher, pos, limits, kind=kind, on_info=self._on_info,
                        on_done=self._on_done, on_error=self.on_search_error)
        self.job = job
        job.start()

    def _on_info(self, info) -> None:
        if info.mate is not None:
            score = 100000 + info.mate if info.mate > 0 else -100000 + info.mate
        else:
            score = info.score_cp if info.score_cp is not None else 0
        job = self.job
        if job is not None and job.kind == "think":
            self.last_score = score
        if not (self.post or self.analyzing):
            return
        pv = self.to_xb(" ".join(move.xboard_text(self.game) for move in info.pv))
        cs = round(info.time * 100)
        self.send(f"{info.depth} {score} {cs} {info.nodes} {info.seldepth}\t{pv}")

    def _on_done(self, job: SearchJob, best, ponder) -> None:
        with self.lock:
            if job.cancelled or job is not self.job:
                return
            self.job = None
            if job.kind != "think":
                self._flush_pongs()
                return
            if best is None:
                moves = self.pos.moves()
                best = moves[0] if moves else None
            if best is None:
                self._claim_if_over()
                self._flush_pongs()
                return
            self._play_own(best)
            self.hint = ponder
            self._flush_pongs()
            if self.ponder and ponder and not self.game_over and not self.enders:
                self._start_ponder(ponder)

    def _start_ponder(self, move: Move) -> None:
        """Think on the position after the expected reply (warms the hash table)."""
        try:
            probe = self.pos.copy()
            probe.push(move)
            if probe.outcome() is not None:
                return
        except ValueError:
            return
        searcher = self._ensure_searcher()
        job = SearchJob(searcher, probe, Limits(infinite=True), kind="ponder",
                        on_info=None, on_done=self._on_done, on_error=self.on_search_error)
        self.job = job
        job.start()

    # ------------------------------------------------------------------ moves
    def _play_own(self, move: Move) -> None:
        """Publish the engine's move (caller holds the lock). A multi-leg move goes one
        leg per line, the first ending in ','; castling in the shuffle games is O-O."""
        self.starts.played(self.game)
        try:
            played = self.pos.push(move)
        except IllegalMoveError as exc:
            self.send(f"# search returned an illegal move {move}: {exc}")
            moves = self.pos.moves()
            if not moves:
                return
            played = self.pos.push(moves[0])
        if self.enders:
            self.xb_moves.append(played.name)
        for line in played.xboard_lines(self.game):
            self.send(f"move {line}")
        self._claim_if_over()

    def _send_filler(self) -> None:
        """Ender's: pass for the side that is not acting (caller holds the lock)."""
        self.xb_moves.append(None)
        self.send("move @@@@")

    def _claim_if_over(self) -> bool:
        out = self.pos.outcome()
        if out is None:
            return False
        self.game_over = True
        self.send(result_comment(self.pos, *out))
        return True

    def _maybe_move(self) -> None:
        """After a position change: start thinking if it is the engine's turn."""
        if self.force or self.game_over or self.analyzing:
            return
        if self.xb_side() != self.engine_color:
            return
        if self.pos.outcome() is not None:
            with self.lock:
                self._claim_if_over()
            return
        if self.enders and self.pos.turn != self.engine_color:
            with self.lock:
                self._send_filler()
            return
        self._start("think")

    def _apply_user_move(self, xb_text: str) -> bool:
        """Play the opponent's move; answer ``Illegal move`` if it is not legal."""
        text = self.from_xb(xb_text)
        if self.enders:
            if self.xb_side() != self.pos.turn:
                if text in PASSES:
                    self.xb_moves.append(None)
                    return True
                self.send(f"Illegal move (it is {'White' if self.pos.turn == 'w' else 'Black'}'s "
                          f"turn in Ender's Chess; pass with @@@@): {xb_text}")
                return False
            if self.pos.outcome() is not None:
                self.send(f"Illegal move (the game is over): {xb_text}")
                return False
        self.starts.played(self.game)
        try:
            played = self.pos.push(text)
        except IllegalMoveError:
            reason = "the game is over" if self.pos.outcome() is not None else "not legal in this position"
            self.send(f"Illegal move ({reason}): {xb_text}")
            return False
        if self.enders:
            self.xb_moves.append(played.name)
        return True

    def _undo_one(self) -> bool:
        if self.enders:
            if not self.xb_moves:
                return False
            if self.xb_moves.pop() is not None:
                self.pos.pop()
            return True
        if self.pos.ply == 0:
            return False
        self.pos.pop()
        return True

    # ------------------------------------------------------------------ main loop
    def line_too_long(self, line: str) -> str:
        return f"Error (line too long, cut to {len(line)} characters): {line[:40]}..."

    def dispatch(self, line: str, cmd: str, arg: str) -> None:
        method = _COMMANDS.get(cmd)
        if method is not None:
            method(self, arg)
        elif self._looks_like_move(cmd) and not arg:
            self.cmd_usermove(cmd)
        else:
            self.send(f"Error (unknown command): {line[:200]}")

    def error_line(self, exc: BaseException, line: str) -> str:
        return f"Error ({type(exc).__name__}: {str(exc)[:120]}): {line[:200]}"

    def finish(self) -> None:
        self._halt()

    def _looks_like_move(self, text: str) -> bool:
        if text in PASSES:
            return True
        if len(text) < 4 or len(text) > 24:
            return False
        return any(c.isdigit() for c in text) and (text[0].isalpha() or text[0] == "@")

    # ------------------------------------------------------------------ commands
    def cmd_xboard(self, arg):
        pass  # we print no prompt, so there is nothing to switch off

    def cmd_protover(self, arg):
        self.protover = parse_int(arg, 1, 2) or 2
        if not self.handshake_sent:
            self.send("feature done=0")
        self.handshake_sent = False
        self.send(
            'feature ping=1 setboard=1 playother=1 san=0 usermove=1 time=1 draw=1 '
            'sigint=0 sigterm=0 reuse=1 analyze=1 colors=0 ics=0 name=0 pause=0 nps=1 '
            'debug=1 memory=1 smp=1 exclude=0 setscore=0 highlight=1',
            f'feature myname="{ENGINE_NAME} {ENGINE_VERSION}"',
            f'feature variants="{",".join(VARIANTS)}"',
            'feature option="Seed -spin 0 0 2000000000"',
            'feature option="StrictShuffle -check 0"',
            'feature option="EnergizerSwitch -check 0"',
            'feature option="Tune -string "',
        )
        self._ensure_searcher()  # waits for the kernels
        self.send("feature done=1")

    def cmd_accepted(self, arg):
        pass

    def cmd_rejected(self, arg):
        pass

    def cmd_new(self, arg):
        self._halt()
        with self.lock:
            self.analyzing = False
            self._new_game("normal")
            self.force = False
            self.engine_color = "b"
            self.sd = None
            self.nps = None  # CECP: nps lasts until the next new
            self.my_time = self.opp_time = None
            if self.searcher is not None:
                self.searcher.new_game()

    def cmd_variant(self, arg):
        name = arg.split()[0].lower() if arg else ""
        if name not in GAMES:
            self.send(f"Error (unsupported variant): variant {arg[:60]}")
            return
        self._halt()
        with self.lock:
            self._new_game(name)
            self.send(*xbvariants.describe(self.game, self.start_fen))
            if self.analyzing:
                self._start("analyze")

    def cmd_force(self, arg):
        self._halt()
        self.force = True

    def cmd_go(self, arg):
        self._halt()
        with self.lock:
            self.force = False
            self.analyzing = False
            self.engine_color = self.xb_side()
            self.game_over = False
        self._maybe_move()

    def cmd_playother(self, arg):
        self._halt()
        with self.lock:
            self.force = False
            self.engine_color = "b" if self.xb_side() == "w" else "w"
            if self.ponder and self.hint and not self.enders:
                self._start_ponder(self.hint)

    def cmd_white(self, arg):  # protocol 1 relics (colors=0 turns them off)
        self._halt()
        self.engine_color = "b"

    def cmd_black(self, arg):
        self._halt()
        self.engine_color = "w"

    def cmd_level(self, arg):
        fields = arg.split()
        if len(fields) != 3:
            self.send(f"Error (level needs MPS BASE INC): level {arg[:80]}")
            return
        mps = parse_int(fields[0], 0, 10**6)
        base = _seconds(fields[1])
        inc = parse_number(fields[2], -1, MAX_SECONDS)
        if mps is None or base is None or inc is None or inc < 0:
            self.send(f"Error (bad level: MPS BASE INC need counts and times >= 0): level {arg[:80]}")
            return
        self.mps, self.base, self.inc, self.st = mps, base, inc, None

    def cmd_st(self, arg):
        value = parse_number(arg, 0, MAX_SECONDS)
        if not value:
            self.send(f"Error (st needs a number of seconds above 0): st {arg[:40]}")
            return
        self.st = max(0.01, value)

    def cmd_sd(self, arg):
        value = parse_int(arg, 1, 200)
        if value is None:
            self.send(f"Error (sd needs a depth): sd {arg[:40]}")
            return
        self.sd = value

    def cmd_nps(self, arg):
        value = parse_int(arg, 0, MAX_COUNT)
        if value is None:
            self.send(f"Error (nps needs a number): nps {arg[:40]}")
            return
        self.nps = value or None

    def cmd_time(self, arg):
        value = parse_number(arg, 0, MAX_SECONDS * 100)
        if value is None:
            self.send(f"Error (time needs centiseconds): time {arg[:40]}")
            return
        self.my_time = value / 100.0

    def cmd_otim(self, arg):
        value = parse_number(arg, 0, MAX_SECONDS * 100)
        if value is None:
            self.send(f"Error (otim needs centiseconds): otim {arg[:40]}")
            return
        self.opp_time = value / 100.0

    def cmd_usermove(self, arg):
        text = arg.strip()
        if not text:
            self.send("Error (usermove needs a move): usermove")
            return
        self._halt()  # a ponder hit simply finds a warm hash table
        with self.lock:
            if not self._apply_user_move(text):
                return
            self.hint = None
            if self.analyzing:
                self._start("analyze")
                return
            if self.force:
                return
            if self._claim_if_over():
                return
        self._maybe_move()

    def cmd_question(self, arg):  # "?": move now
        job = self.job
        if job is not None and job.kind == "think":
            job.stop()

    def cmd_ping(self, arg):
        token = arg.split()[0] if arg else ""
        with self.lock:
            job = self.job
            if job is not None and job.kind == "think" and job.running and not job.cancelled:
                self.pending_pongs.append(token)
            else:
                self.send(f"pong {token}")

    def cmd_draw(self, arg):
        if self.last_score is not None and self.last_score <= -150:
            self.send("offer draw")

    def cmd_result(self, arg):
        self._halt()
        self.game_over = True
        self.force = True

    def _null_move_setboard(self, fen: str) -> bool:
        """Is ``fen`` our position after a pass by XBoard's side to move?

        XBoard 4.9 cannot send ``@@@@`` to an engine: it sends the position after the
        pass with ``setboard`` instead. In Ender's Chess that is how the opponent's
        passes (fillers and ends of turn) arrive.
        """
        if not self.enders:
            return False
        fields = fen.split()
        if len(fields) < 2:
            return False
        other = "b" if self.xb_side() == "w" else "w"
        return fields[1] == other and _placement(fields[0]) == _placement(self.pos.fen().split()[0])

    def cmd_setboard(self, arg):
        if self._null_move_setboard(arg):
            self.cmd_usermove("@@@@")
            return
        self._halt()
        with self.lock:
            try:
                pos = Position(self.game, arg)
            except Exception as exc:  # noqa: BLE001 - any bad FEN
                # (no "Error (...)" line: XBoard reads any error mentioning "illegal"
                # as a refused move, and in a match as a false illegal-move claim)
                self.send(f"tellusererror Illegal position: {str(exc)[:150]}")
                return
            self.pos = pos
            self.start_fen = arg
            self.xb_start_side = pos.turn
            self.xb_moves = []
            self.game_over = False
            self.hint = None
            if self.analyzing:
                self._start("analyze")

    def cmd_edit(self, arg):
        self.send("Error (not supported, use setboard): edit")

    def cmd_undo(self, arg):
        self._halt()
        with self.lock:
            if not self._undo_one():
                self.send("Error (command not legal now): undo")
                return
            self.game_over = False
            if self.analyzing:
                self._start("analyze")

    def cmd_remove(self, arg):
        self._halt()
        with self.lock:
            if not (self._undo_one() and self._undo_one()):
                self.send("Error (command not legal now): remove")
            self.game_over = False
            if self.analyzing:
                self._start("analyze")

    def cmd_hard(self, arg):
        self.ponder = True

    def cmd_easy(self, arg):
        job = self.job
        if job is not None and job.kind == "ponder":
            self._halt()
        self.ponder = False

    def cmd_post(self, arg):
        self.post = True

    def cmd_nopost(self, arg):
        self.post = False

    def cmd_hint(self, arg):
        if self.hint:
            self.send(f"Hint: {self.to_xb(self.hint.xboard_text(self.game))}")

    def cmd_bk(self, arg):
        self.send(" Leyden has no opening book", "")

    def cmd_analyze(self, arg):
        self._halt()
        with self.lock:
            self.analyzing = True
            self.force = True
            self.game_over = False
            if self.pos.outcome() is None:
                self._start("analyze")

    def cmd_exit(self, arg):
        self._halt()
        self.analyzing = False

    def cmd_dot(self, arg):  # "." in analysis: status
        job = self.job
        if not self.analyzing or job is None:
            return
        info = job.last_info
        elapsed = int((time.perf_counter() - self._think_start) * 100)
        if info is None:
            self.send(f"stat01: {elapsed} 0 0 0 0")
        else:
            total = len(self.pos.legal_moves())
            first = self.to_xb(info.pv[0].xboard_text(self.game)) if info.pv else ""
            self.send(f"stat01: {elapsed} {info.nodes} {info.depth} 0 {total} {first}".rstrip())

    def cmd_memory(self, arg):
        mb = parse_int(arg, 1, MAX_COUNT)
        if mb is None:
            self.send(f"Error (memory needs megabytes): memory {arg[:40]}")
            return
        self._halt()
        self.hash_mb = max(1, min(mb, max_hash_mb()))
        if self.searcher is not None:
            problem = resize_hash(self.searcher, self.hash_mb)
            if problem:
                self.send(f"Error ({problem}): memory {arg[:40]}")

    def cmd_cores(self, arg):
        n = parse_int(arg, 1, MAX_THREADS)
        if n is None:
            self.send(f"Error (cores needs a number of threads, 1 to {MAX_THREADS}): cores {arg[:40]}")
            return
        self.set_threads(n)  # from the next search on

    def cmd_option(self, arg):
        name, _, value = arg.partition("=")
        name = name.strip()
        value = value.strip()
        key = name.lower()
        if key == "seed":
            seed = parse_int(value, 0, 2**31)
            if seed is None:
                self.send(f"Error (Seed needs a number): option {arg[:60]}")
                return
            self.starts.set_seed(seed)
        elif key == "strictshuffle":
            self.starts.strict = value not in ("0", "false", "")
        elif key == "energizerswitch":
            self.starts.set_switch(value not in ("0", "false", ""))
        elif key == "tune":
            problem = self.set_tune(value)
            if problem:
                self.send(f"Error (Tune: {problem[:200]}): option {arg[:60]}")
        else:
            self.send(f"Error (unknown option): option {arg[:60]}")

    def cmd_quit(self, arg):
        self.quit = True
        job = self.job
        if job is not None:
            job.cancelled = True
            job.stop()

    def cmd_noop(self, arg):
        pass

    # --------------------------------------------------------------- highlighting
    def _square_names(self):
        g = self.game
        return [[f"{chr(97 + f)}{r + 1}" for f in range(g.files)] for r in range(g.ranks)]

    def _highlight(self, marks: dict[str, str]) -> str:
        g = self.game
        rows = []
        for r in range(g.ranks - 1, -1, -1):
            row, run = "", 0
            for f in range(g.files):
                c = marks.get(f"{chr(97 + f)}{r + 1}")
                if c is None:
                    run += 1
                    continue
                if run:
                    row += str(run)
                    run = 0
                row += c
            if run:
                row += str(run)
            rows.append(row)
        return "highlight " + "/".join(rows)

    def _holdings_piece(self, square: str) -> str | None:
        """The piece letter of an XBoard holdings square (``lift`` of a reserve piece)."""
        g = self.game
        if not g.drops or len(square) < 2:
            return None
        xb = xbvariants.XB[g.name]
        order = sorted(xb.slots, key=lambda k: xb.slots[k])
        col = square[0]
        row = parse_int(square[1:], -1, 99)
        if row is None:
            return None
        if col == chr(ord("a") + g.files + 1):  # White's holdings column
            n = row - 1
        elif col == chr(ord("a") - 2):  # Black's holdings column
            n = g.ranks - row
        else:
            return None
        return order[n] if 0 <= n < len(order) else None

    def _targets(self, square: str):
        """Legal moves of the piece on ``square``: (dest, kind, victim, move) tuples.

        kind: "move", "capture", "promo", "drop", "castle", "overtake".
        """
        pos = self.pos
        try:
            name = pos.geo.name(pos.geo.parse(square))
        except ValueError:
            name = None
        letter = self._holdings_piece(square)
        out = []
        for mv in pos.moves():
            if mv.drop is not None:
                if mv.drop == letter:
                    out.append((mv.to_square, "drop", None, mv))
            elif mv.is_pass or name is None or mv.from_square != name:
                continue
            elif mv.overtakes:
                out.append((mv.to_square, "overtake", mv.captured_square, mv))
            elif mv.castle_rook is not None:
                out.append((mv.to_square, "castle", mv.castle_rook, mv))
            elif mv.promotion is not None:
                out.append((mv.to_square, "promo", None, mv))
            elif pos.piece_at(mv.to_square) is not None or mv.captured_square is not None:
                out.append((mv.to_square, "capture", None, mv))
            else:
                out.append((mv.to_square, "move", None, mv))
        return out

    def cmd_lift(self, arg):
        square = self.from_xb(arg.split()[0]) if arg else ""
        with self.lock:
            marks: dict[str, str] = {}
            if self._lifted and square in self._legs:
                # second leg of an overtaking move: XBoard reports the victim square
                for dest in self._legs[square]:
                    marks[dest] = "R"
                self.send(self._highlight(marks))
                return
            self._lifted, self._legs = square, {}
            for dest, kind, victim, _ in self._targets(square):
                if kind == "overtake":
                    self._legs.setdefault(victim, []).append(dest)
                    marks[victim] = "C"
                elif kind == "promo":
                    marks[dest] = "M"
                elif kind == "castle":
                    marks.setdefault(dest, "Y")
                    if self.game.chess960:
                        marks.setdefault(victim, "Y")  # king onto own rook
                else:
                    marks.setdefault(dest, "R" if kind == "capture" else "Y")
            self.send(self._highlight(marks))

    def cmd_put(self, arg):
        square = self.from_xb(arg.split()[0]) if arg else ""
        with self.lock:
            if self._lifted and square in self._legs:
                return  # first leg of an overtaking move; XBoard sends "lift" next
            letters = "".join(mv.promotion for dest, kind, _, mv in self._targets(self._lifted or "")
                              if kind == "promo" and dest == square)
            if letters:
                self.send("choice " + letters)
            self._lifted, self._legs = None, {}

    def cmd_hover(self, arg):
        pass


_COMMANDS = {name[4:]: fn for name, fn in vars(XBoardEngine).items() if name.startswith("cmd_")}
_COMMANDS.update({
    "?": XBoardEngine.cmd_question,
    ".": XBoardEngine.cmd_dot,
    "random": XBoardEngine.cmd_noop,
    "computer": XBoardEngine.cmd_noop,
    "name": XBoardEngine.cmd_noop,
    "rating": XBoardEngine.cmd_noop,
    "ics": XBoardEngine.cmd_noop,
    "egtpath": XBoardEngine.cmd_noop,
    "include": XBoardEngine.cmd_noop,
    "exclude": XBoardEngine.cmd_noop,
    "pause": XBoardEngine.cmd_noop,
    "resume": XBoardEngine.cmd_noop,
})
for _k in ("question", "dot", "noop"):
    _COMMANDS.pop(_k, None)


def run(reader, out: Output, pending: list[str], answered: bool, loader=None, log=None) -> None:
    """An XBoard session whose first lines were ``pending`` (``xboard`` and, when it
    came at once, ``protover``); ``answered``: ``feature done=0`` has been sent for that
    ``protover`` (engine/cli.py does it before this module loads), so that XBoard waits
    for us instead of timing out; ``feature done=1`` follows when the engine is ready."""
    engine = XBoardEngine(out, loader=loader, log=log)
    engine.handshake_sent = answered
    for p in pending[:-1]:
        engine.handle(p)
    engine.run(reader, pending[-1])
