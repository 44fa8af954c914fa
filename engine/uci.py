"""UCI for all of Leyden's games, with Fairy-Stockfish's conventions.

``setoption name UCI_Variant value GAME`` chooses the game (``chess`` is accepted as
another name of ``normal``) and is answered with an ``info string`` describing the
board, as Fairy-Stockfish does. Moves are in the rules' wire notation with ``0000``
for a pass (Ender's end of turn); castling is king-takes-rook when ``UCI_Chess960`` is
on (and in the shuffle games by default), the king's own move otherwise.

Every ``go`` is answered by exactly one ``bestmove``; after ``go infinite`` or
``go ponder`` it waits for ``stop`` or ``ponderhit``.
"""
from __future__ import annotations

import threading

from movegen import GAMES, Move, Position, find_game

from .common import (
    ENGINE_AUTHOR,
    ENGINE_NAME,
    ENGINE_VERSION,
    StartPositions,
    max_hash_mb,
    parse_int,
    parse_number,
    resize_hash,
)
from .lines import Output
from .protocol import ProtocolSession
from .searching import MAX_COUNT, MAX_SECONDS, MAX_THREADS, Limits, SearchJob

UCI_VARIANTS = ("chess",) + tuple(GAMES)


def _variant_info(game) -> str:
    pocket = len(game.pieces) if game.drops else 0
    return (f"info string variant {game.name} files {game.files} ranks {game.ranks} "
            f"pocket {pocket} template {'fairy' if game.name != 'normal' else 'chess'} "
            f"startpos {game.start_fen}")


class UCIEngine(ProtocolSession):
    def __init__(self, out: Output, loader: threading.Thread | None = None, log=None):
        super().__init__(out, loader, log)
        self.chess960 = False
        self.move_overhead = 0.03
        self.starts = StartPositions()
        self.game = find_game("normal")
        self.pos = Position(self.game)
        self.job: SearchJob | None = None
        self.go_limits: Limits | None = None
        self.waiting = threading.Event()  # released by stop/ponderhit after infinite/ponder

    # ------------------------------------------------------------------ loop
    def line_too_long(self, line: str) -> str:
        return f"info string error: line too long, ignored ({line[:40]}...)"

    def dispatch(self, line: str, cmd: str, arg: str) -> None:
        method = getattr(self, "cmd_" + cmd, None) if cmd.isidentifier() else None
        if method is None:
            self.send(f"info string error: unknown command: {line[:200]}")
        else:
            method(arg)

    def error_line(self, exc: BaseException, line: str) -> str:
        return f"info string error {type(exc).__name__}: {str(exc)[:150]} in: {line[:100]}"

    def finish(self) -> None:
        self._finish_search()

    # ------------------------------------------------------------------ search
    def _finish_search(self) -> None:
        """Stop any search and wait until its bestmove has been sent."""
        job = self.job
        if job is None:
            return
        self.waiting.set()
        job.stop_and_wait()
        with self.lock:
            if self.job is job:
                self.job = None

    def _wire(self, move: Move | None) -> str:
        if move is None:
            return "(none)"
        return move.uci(self.chess960 or self.game.chess960)

    def _on_info(self, info) -> None:
        if info.mate is not None:
            score = f"mate {info.mate}"
        else:
            score = f"cp {info.score_cp if info.score_cp is not None else 0}"
        ms = max(0, int(info.time * 1000))
        nps = int(info.nodes / info.time) if info.time > 0 else 0
        pv = self._pv_text(info.pv)
        line = (f"info depth {info.depth} seldepth {info.seldepth} score {score} "
                f"nodes {info.nodes} nps {nps} time {ms}")
        if pv:
            line += " pv " + pv
        self.send(line)

    def _pv_text(self, pv) -> str:
        return " ".join(self._wire(move) for move in pv)

    def _on_done(self, job: SearchJob, best, ponder) -> None:
        if job.limits.infinite or job.kind == "ponder":
            self.waiting.wait()
        with self.lock:
            if job.cancelled:
                return
            if self.job is job:
                self.job = None
            if best is None:
                moves = job.pos.moves()
                best = moves[0] if moves else None
            text = "bestmove " + self._wire(best)
            if best is not None and ponder is not None:
                text += " ponder " + self._wire(ponder)
            self.send(text)

    # ------------------------------------------------------------------ commands
    def cmd_uci(self, arg):
        combo = " ".join(f"var {v}" for v in UCI_VARIANTS)
        self.send(
            f"id name {ENGINE_NAME} {ENGINE_VERSION}",
            f"id author {ENGINE_AUTHOR}",
            "option name Hash type spin default 64 min 1 max 65536",
            f"option name Threads type spin default 1 min 1 max {MAX_THREADS}",
            "option name Clear Hash type button",
            "option name Ponder type check default false",
            "option name Move Overhead type spin default 30 min 0 max 5000",
            f"option name UCI_Variant type combo default chess {combo}",
            "option name UCI_Chess960 type check default false",
            "option name Seed type spin default 0 min 0 max 2000000000",
            "option name StrictShuffle type check default false",
            "option name EnergizerSwitch type check default false",
            "option name Tune type string default <empty>",
            "uciok",
        )

    def cmd_isready(self, arg):
        if self.job is None:
            self._ensure_searcher()  # waits for the kernels
        self.send("readyok")

    def cmd_debug(self, arg):
        pass

    def cmd_register(self, arg):
        pass

    def cmd_setoption(self, arg):
        # setoption name NAME [value VALUE]; NAME may contain spaces
        words = arg.split()
        if not words or words[0].lower() != "name":
            self.send(f"info string error: setoption needs 'name': {arg[:80]}")
            return
        lower = [w.lower() for w in words]
        if "value" in lower[1:]:
            i = lower.index("value", 1)
            name, value = " ".join(words[1:i]), " ".join(words[i + 1:])
        else:
            name, value = " ".join(words[1:]), ""
        key = name.lower()
        if key == "uci_variant":
            v = value.lower()
            if v == "chess":
                v = "normal"
            if v not in GAMES:
                self.send(f"info string error: unknown variant {value[:40]}")
                return
            self._finish_search()
            self.game = find_game(v)
            self.pos = Position(self.game)
            self.send(_variant_info(self.game))
        elif key == "hash":
            mb = parse_int(value, 1, 65536)
            if mb is None:
                self.send(f"info string error: Hash needs megabytes: {value[:40]}")
                return
            self._finish_search()
            self.hash_mb = min(mb, max_hash_mb())
            if self.searcher is not None:
                problem = resize_hash(self.searcher, self.hash_mb)
                if problem:
                    self.send(f"info string error: Hash: {problem}")
        elif key == "threads":
            n = parse_int(value, 1, MAX_THREADS)
            if n is None:
                self.send(f"info string error: Threads needs a number from 1 to {MAX_THREADS}: {value[:40]}")
                return
            self.set_threads(n)  # from the next search on
        elif key == "clear hash":
            self._finish_search()
            if self.searcher is not None:
                self.searcher.new_game()
        elif key == "uci_chess960":
            self.chess960 = value.lower() == "true"
        elif key == "move overhead":
            ms = parse_int(value, 0, 5000)
            if ms is None:
                self.send(f"info string error: Move Overhead needs milliseconds: {value[:40]}")
                return
            self.move_overhead = ms / 1000.0
        elif key == "seed":
            seed = parse_int(value, 0, 2**31)
            if seed is None:
                self.send(f"info string error: Seed needs a number: {value[:40]}")
                return
            self.starts.set_seed(seed)
        elif key == "strictshuffle":
            self.starts.strict = value.lower() == "true"
        elif key == "energizerswitch":
            self.starts.set_switch(value.lower() == "true")
        elif key == "tune":
            problem = self.set_tune("" if value == "<empty>" else value)
            if problem:
                self.send(f"info string error: Tune: {problem[:200]}")
        elif key in ("ponder", "uci_analysemode", "multipv"):
            pass
        else:
            self.send(f"info string error: unknown option {name[:60]}")

    def cmd_ucinewgame(self, arg):
        self._finish_search()
        self._ensure_searcher().new_game()
        self.pos = Position(self.game)

    def cmd_position(self, arg):
        self._finish_search()
        words = arg.split()
        if "moves" in words:
            i = words.index("moves")
            spec, moves = words[:i], words[i + 1:]
        else:
            spec, moves = words, []
        if not spec:
            self.send(f"info string error: position needs startpos or fen: {arg[:80]}")
            return
        if spec[0] == "startpos":
            fen = None
        elif spec[0] == "fen" and len(spec) > 1:
            fen = " ".join(spec[1:])
        else:
            self.send(f"info string error: bad position command: {arg[:80]}")
            return
        try:
            pos = Position(self.game, fen)
        except ValueError as exc:
            self.send(f"info string error: illegal position: {str(exc)[:150]}")
            return
        for move in moves:
            try:
                pos.push(move)
            except ValueError:
                self.send(f"info string error: illegal move {move[:20]} in {pos.fen()}; "
                          f"ignoring it and the moves after it")
                break
        self.pos = pos

    def _parse_go(self, arg):
        """(limits, ponder) of a ``go`` command; ValueError names a number it cannot read.

        Times are milliseconds (a negative clock counts as 0), counts are clamped into
        [1, 2**62], as every protocol number is (engine.common.parse_number)."""
        words = arg.split()
        lim = Limits()
        ponder = False
        i = 0
        while i < len(words):
            w = words[i]
            nxt = words[i + 1] if i + 1 < len(words) else None
            if w in ("wtime", "btime", "winc", "binc", "movetime") and nxt is not None:
                ms = parse_number(nxt, 0, MAX_SECONDS * 1000)
                if ms is None:
                    raise ValueError(f"{w} needs milliseconds, not {nxt[:30]}")
                value = ms / 1000.0
                if w not in ("winc", "binc"):
                    value = max(0.001, value - self.move_overhead)
                setattr(lim, w, value)
                i += 2
            elif w in ("depth", "nodes", "movestogo", "mate") and nxt is not None:
                n = parse_int(nxt, 1, MAX_COUNT)
                if n is None:
                    raise ValueError(f"{w} needs a number, not {nxt[:30]}")
                if w == "mate":
                    lim.depth = 2 * n
                else:
                    setattr(lim, w, n)
                i += 2
            elif w == "infinite":
                lim.infinite = True
                i += 1
            elif w == "ponder":
                ponder = True
                i += 1
            elif w == "searchmoves":
                i = len(words)  # not supported: search all moves
            else:
                i += 1
        return lim, ponder

    def cmd_go(self, arg):
        self._finish_search()
        try:
            limits, ponder = self._parse_go(arg)
        except ValueError as exc:
            self.send(f"info string error: go refused, {exc}")
            return
        self.go_limits = limits
        searcher = self._ensure_searcher()
        pos = self.pos.copy()
        self.waiting.clear()
        if pos.outcome() is not None or not pos.legal_moves():
            self.send("bestmove (none)")
            return
        if ponder:
            search_limits = Limits(infinite=True)
            kind = "ponder"
        else:
            search_limits = limits
            kind = "go"
            if limits.infinite:
                self.waiting.clear()
        job = SearchJob(searcher, pos, search_limits, kind=kind, on_info=self._on_info,
                        on_done=self._on_done, on_error=self.on_search_error)
        self.job = job
        job.start()

    def cmd_stop(self, arg):
        # Waits for the bestmove: it is out before the next command is read, so a
        # `quit` right behind the `stop` cannot swallow it.
        self._finish_search()

    def cmd_ponderhit(self, arg):
        job = self.job
        if job is None or job.kind != "ponder":
            return
        with self.lock:
            job.cancelled = True
        self.waiting.set()
        job.stop_and_wait()
        self.waiting.clear()
        limits = self.go_limits or Limits()
        new = SearchJob(self._ensure_searcher(), job.pos, limits, kind="go",
                        on_info=self._on_info, on_done=self._on_done, on_error=self.on_search_error)
        self.job = new
        new.start()

    def cmd_quit(self, arg):
        self.quit = True
        job = self.job
        if job is not None:
            job.cancelled = True
            self.waiting.set()
            job.stop()

    def cmd_d(self, arg):
        self.send(f"info string variant {self.game.name} fen {self.pos.fen()}")


def run(reader, out: Output, first_line: str | None, loader=None, log=None) -> None:
    UCIEngine(out, loader=loader, log=log).run(reader, first_line)
