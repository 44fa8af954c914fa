"""Engine processes for the match runner: the XBoard/CECP and UCI clients.

Every game starts its own engine processes (in their own process group, so a Ctrl-C
at the terminal reaches the runner only) and ends them: ``quit``, a grace period,
then a kill. A reader thread per process turns its output into a queue of lines, so
that every wait has a deadline.

A player is driven by the referee (``match.game``) with the list of moves
played so far and answers with its own move; the drivers keep the protocol state:

* XBoard: ``xboard``/``protover 2`` handshake (waiting for ``feature done=1`` after
  ``done=0``, each feature answered ``accepted``/``rejected``), ``new``, ``variant``,
  ``level``/``st``/``sd``/``nps``, ``setboard`` or ``edit`` (or ``new`` + moves),
  ``force`` + moves, then ``go`` once and the opponent's moves (``usermove`` if
  asked for), ``time``/``otim`` before each, ``ping`` to synchronise.
  Ender's Chess follows Leyden's convention (``engine/xboard.py``): one action per
  XBoard ply, the side that is not acting passes (``@@@@``) in between. The driver
  inserts those passes: it relays the opponent's passes and checks the engine's own.
* UCI: ``uci``, ``setoption`` (``UCI_Variant``, ``UCI_Chess960`` when the engine has
  them), ``isready``, ``ucinewgame``, ``position fen F moves ...``, ``go wtime ...``
  / ``movetime`` / ``depth`` / ``nodes``; an Ender's pass is ``0000``.
"""
from __future__ import annotations

import math
import os
import queue
import re
import shlex
import shutil
import signal
import subprocess
import threading
import time
from collections import deque
from dataclasses import dataclass, field

from .tc import Clock, TimeControl



class EngineFailure(Exception):
    """The engine lost the game by itself: ``kind`` is one of crash, disconnect,
    timeout, resign, rejected (it refused a legal move), illegal, protocol."""

    def __init__(self, kind: str, detail: str):
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


class EngineClaim(Exception):
    """The engine announced a result (``1-0 {...}`` and the like)."""

    def __init__(self, result: str, text: str):
        super().__init__(f"{result} {text}")
        self.result = result
        self.text = text


class EngineConfigError(Exception):
    """The engine cannot take part at all (no such command, variant not supported):
    the match stops."""


# --------------------------------------------------------------------- engine specs
@dataclass
class EngineSpec:
    """One ``--engine`` argument."""

    name: str
    cmd: list
    proto: str = "xboard"
    dir: str | None = None
    options: dict = field(default_factory=dict)  #: option.NAME=VALUE, in order
    tc: TimeControl | None = None  #: overrides --tc for this engine
    depth: int | None = None
    nodes: int | None = None
    movetime: float | None = None
    setup: str = "auto"  #: XBoard: auto, setboard, edit or new (see README)
    stderr: str | None = None  #: append the engine's stderr to this file

    def time_control(self, default: TimeControl | None) -> TimeControl:
        tc = self.tc or default
        if tc is None:
            if self.depth is None and self.nodes is None and self.movetime is None:
                raise ValueError(f"engine {self.name}: no time control (give --tc or tc=)")
            tc = TimeControl()
        return tc.with_limits(depth=self.depth, nodes=self.nodes, movetime=self.movetime)


ENGINE_KEYS = ("name", "cmd", "proto", "dir", "tc", "depth", "nodes", "st", "setup", "stderr")


def parse_engine_spec(tokens: list, defaults: list | None = None) -> EngineSpec:
    """``name=X cmd="prog args" proto=xboard option.Hash=64 tc=10+0.1 depth=4 ...``."""
    values: dict = {}
    options: dict = {}
    for token in list(defaults or []) + list(tokens):
        key, eq, value = token.partition("=")
        if not eq:
            raise ValueError(f"engine argument {token!r} is not KEY=VALUE")
        if key.startswith("option."):
            options[key[7:]] = value
        elif key in ENGINE_KEYS:
            values[key] = value
        else:
            raise ValueError(f"unknown engine key {key!r} (known: {', '.join(ENGINE_KEYS)}, option.NAME)")
    if "cmd" not in values:
        raise ValueError("engine needs cmd=COMMAND")
    cmd = shlex.split(values["cmd"])
    if not cmd:
        raise ValueError("empty engine command")
    proto = values.get("proto", "xboard").lower()
    if proto in ("cecp", "winboard"):
        proto = "xboard"
    if proto not in ("xboard", "uci"):
        raise ValueError(f"proto must be xboard or uci, not {proto!r}")
    setup = values.get("setup", "auto")
    if setup not in ("auto", "setboard", "edit", "new"):
        raise ValueError("setup must be auto, setboard, edit or new")
    spec = EngineSpec(name=values.get("name") or os.path.basename(cmd[0]), cmd=cmd, proto=proto,
                      dir=values.get("dir"), options=options, setup=setup,
                      stderr=values.get("stderr"))
    if "tc" in values:
        spec.tc = TimeControl.parse(values["tc"])
    if "depth" in values:
        spec.depth = int(values["depth"])
    if "nodes" in values:
        spec.nodes = int(values["nodes"])
    if "st" in values:
        spec.movetime = float(values["st"])
    return spec


# --------------------------------------------------------------------- processes
_TIMEOUT = object()


def resolve_command(spec: EngineSpec) -> None:
    """Check that the engine's program exists here (Debian's /usr/games also when not on
    PATH); on a cluster every worker does this for itself."""
    prog = spec.cmd[0]
    if os.sep in prog:
        path = prog if os.path.isabs(prog) or not spec.dir else os.path.join(spec.dir, prog)
        if not os.path.exists(path):
            raise EngineConfigError(f"engine {spec.name}: {prog} not found")
    elif shutil.which(prog) is None:
        games = os.path.join("/usr/games", prog)
        if not os.access(games, os.X_OK):
            raise EngineConfigError(f"engine {spec.name}: command {prog!r} not found on PATH")
        spec.cmd[0] = games


class EngineProcess:
    """A child process speaking a line protocol, with deadlines on every read."""

    def __init__(self, spec: EngineSpec, log=None, tag: str = ""):
        self.spec = spec
        self.log = log
        self.tag = tag or spec.name
        self.proc: subprocess.Popen | None = None
        self.lines: queue.Queue = queue.Queue()
        self.stderr_tail: deque = deque(maxlen=20)

    def start(self) -> None:
        err = subprocess.PIPE
        self._err_file = None
        if self.spec.stderr:
            self._err_file = open(self.spec.stderr, "a", encoding="utf-8")  # noqa: SIM115
            err = self._err_file
        try:
            self.proc = subprocess.Popen(
                self.spec.cmd, cwd=self.spec.dir, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=err, text=True, encoding="utf-8", errors="replace", bufsize=1,
                start_new_session=True)
        except (FileNotFoundError, PermissionError, NotADirectoryError) as exc:
            raise EngineConfigError(f"engine {self.spec.name}: cannot start {self.spec.cmd[0]!r}: {exc}") from None
        threading.Thread(target=self._pump, name=f"{self.tag}-out", daemon=True).start()
        if err is subprocess.PIPE:
            threading.Thread(target=self._pump_err, name=f"{self.tag}-err", daemon=True).start()

    def _pump(self) -> None:
        try:
            for line in self.proc.stdout:
                line = line.rstrip("\r\n")
                if self.log:
                    self.log(self.tag, "<", line)
                self.lines.put(line)
        except (OSError, ValueError):
            pass
        self.lines.put(None)

    def _pump_err(self) -> None:
        try:
            for line in self.proc.stderr:
                line = line.rstrip("\r\n")
                self.stderr_tail.append(line)
                if self.log:
                    self.log(self.tag, "!", line)
        except (OSError, ValueError):
            pass

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def send(self, line: str) -> None:
        if self.log:
            self.log(self.tag, ">", line)
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self.gone() from None

    def readline(self, timeout: float | None):
        """The next line; None at end of output; ``_TIMEOUT`` after ``timeout`` seconds."""
        try:
            return self.lines.get(timeout=None if timeout is None else max(0.0, timeout))
        except queue.Empty:
            return _TIMEOUT

    def gone(self) -> EngineFailure:
        """The failure to report when the engine's pipes closed."""
        code = None
        if self.proc is not None:
            try:
                code = self.proc.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                code = None
        tail = ""
        if self.stderr_tail:
            tail = f"; stderr: {self.stderr_tail[-1][:160]}"
        if code is None:
            return EngineFailure("disconnect", f"closed its output but keeps running{tail}")
        if code < 0:
            try:
                signame = signal.Signals(-code).name
            except ValueError:
                signame = str(-code)
            return EngineFailure("crash", f"killed by {signame}{tail}")
        return EngineFailure("crash", f"exited with status {code}{tail}")

    def close(self, grace: float, quit_line: str | None = "quit") -> None:
        """Ask the engine to quit; kill its process group after ``grace`` seconds."""
        if self.proc is None:
            return
        if self.proc.poll() is None and quit_line:
            try:
                self.send(quit_line)
            except EngineFailure:
                pass
        try:
            self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.kill()
        for stream in (self.proc.stdin,):
            try:
                stream.close()
            except (OSError, ValueError):
                pass
        if self._err_file:
            self._err_file.close()

    def kill(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)  # our own child's group (new session)
        except (ProcessLookupError, PermissionError):
            try:
                self.proc.kill()
            except OSError:
                pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass


# --------------------------------------------------------------------- moves
@dataclass(frozen=True)
class MoveRec:
    """A move (Ender's: an action) as the referee played it, in each protocol's spelling."""

    actor: str  #: 'w' or 'b'
    canonical: str
    xboard: str
    uci: str


#: XBoard's thinking output writes "mate in N moves" as 100000 + N and "mated in N" as
#: -100000 - N; UCI's ``score mate N`` is stored the same way.
MATE_BASE = 100000


def mate_score(moves: int) -> int:
    """The XBoard score of UCI's ``score mate moves`` (negative: the mover is mated)."""
    return MATE_BASE + moves if moves > 0 else -MATE_BASE + moves


@dataclass
class Reply:
    """An engine's move and what it said about it."""

    move: str
    elapsed: float
    score: int | None = None  #: centipawns from the mover's side; mates as MATE_BASE + N
    depth: int | None = None
    nodes: int | None = None  #: nodes of the last thinking line (the engine's own count)
    seconds: float | None = None  #: search time of that line, as the engine reports it


_PROMO = re.compile(r"^([a-z]\d+[a-z]\d+)=?([A-Za-z])$")


def normalise_move(text: str) -> str:
    """Small spelling differences: ``e7e8Q``/``e7e8=q`` -> ``e7e8q``; check marks dropped."""
    text = text.strip().rstrip("+#!?")
    m = _PROMO.match(text)
    if m:
        return m.group(1) + m.group(2).lower()
    return text


def _other(side: str) -> str:
    return "b" if side == "w" else "w"


class Player:
    """Common part of the protocol drivers."""

    def __init__(self, spec: EngineSpec, game, log=None, tag: str = "",
                 startup_timeout: float = 60.0):
        self.spec = spec
        self.game = game
        self.name = spec.name
        self.proc = EngineProcess(spec, log=log, tag=tag or spec.name)
        self.startup_timeout = startup_timeout
        self.color = "w"
        self.tc = TimeControl()
        self.start_fen = game.start_fen

    def _line(self, deadline: float | None):
        timeout = None if deadline is None else deadline - time.monotonic()
        line = self.proc.readline(timeout)
        if line is None:
            raise self.proc.gone()
        return line

    def close(self, grace: float) -> None:
        self.proc.close(grace)

    def kill(self) -> None:
        self.proc.kill()

    def reusable(self) -> bool:
        """Can this running engine play another game? Only where ``new_game`` ends with a
        handshake that consumes whatever the last game left unread."""
        return self.proc.alive


# --------------------------------------------------------------------- XBoard
_FEATURE = re.compile(r'(\w+)=("[^"]*"|\S+)')
_THINKING = re.compile(r"^\s*(\d+)[.&]?\s+(-?\d+)\s+(\d+)\s+(\d+)")
_CLAIM = re.compile(r"^(1-0|0-1|1/2-1/2)\s*(\{.*)?$")
_KNOWN_FEATURES = {
    "ping", "setboard", "playother", "san", "usermove", "time", "draw", "sigint", "sigterm",
    "reuse", "analyze", "myname", "variants", "colors", "ics", "name", "pause", "nps",
    "debug", "memory", "smp", "egt", "option", "done", "exclude", "setscore", "highlight",
    "xedit", "myversion", "sjef", "pairs", "oneline",
}


def _level_base(seconds: float) -> str:
    """``level`` BASE: minutes, or minutes:seconds (whole seconds, rounded down; the
    ``time`` command before every move gives the exact clock)."""
    seconds = max(1, int(seconds))
    if seconds % 60 == 0:
        return str(seconds // 60)
    return f"{seconds // 60}:{seconds % 60:02d}"


class XBoardPlayer(Player):
    proto = "xboard"

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.features: dict = {}
        self.ping_counter = 0
        self.running = False
        self.sent: list = []

    # -------------------------------------------------------------- start-up
    def start(self) -> None:
        self.proc.start()
        self.proc.send("xboard")
        self.proc.send("protover 2")
        begin = time.monotonic()
        deadline = begin + 2.0
        while True:
            line = self._line(deadline)
            if line is _TIMEOUT:
                if self.features.get("done") == "0":
                    raise EngineFailure("timeout", f"no 'feature done=1' within {self.startup_timeout:g} s")
                break  # protocol 1 engine, or it sent no done=...
            if not line.startswith("feature"):
                continue
            finished = False
            for key, raw in _FEATURE.findall(line[7:]):
                value = raw[1:-1] if raw.startswith('"') else raw
                if key == "option":
                    self.features.setdefault("options", []).append(value)
                else:
                    self.features[key] = value
                ok = key in _KNOWN_FEATURES and not (key == "san" and value == "1")
                self.proc.send(f"{'accepted' if ok else 'rejected'} {key}")
                if key == "done":
                    if value == "0":
                        deadline = begin + self.startup_timeout
                    else:
                        finished = True
            if finished:
                break
        if self.features.get("san") == "1":
            raise EngineConfigError(f"engine {self.name} wants SAN moves (feature san=1), which the runner does not send")
        declared = [o.split(" -")[0].strip() for o in self.features.get("options", [])]
        for key, value in self.spec.options.items():
            if key.lower() in ("memory", "cores"):
                self.proc.send(f"{key.lower()} {value}")
                continue
            if declared and key not in declared:
                raise EngineConfigError(
                    f"engine {self.name} has no option {key!r} (its options: {', '.join(declared)}; "
                    "XBoard engines take threads as option.cores=N and hash as option.memory=MB)")
            self.proc.send(f"option {key}={value}")
        self._sync(time.monotonic() + self.startup_timeout)

    def reusable(self) -> bool:
        return super().reusable() and self.features.get("ping") == "1"

    def _sync(self, deadline: float) -> None:
        """``ping`` and wait for the matching ``pong`` (if the engine does ping)."""
        if self.features.get("ping") != "1":
            return
        self.ping_counter += 1
        token = str(self.ping_counter)
        self.proc.send(f"ping {token}")
        while True:
            line = self._line(deadline)
            if line is _TIMEOUT:
                raise EngineFailure("timeout", f"no 'pong {token}' within {deadline - time.monotonic() + 0:.0f} s")
            if line.strip() == f"pong {token}":
                return
            self._check_setup_line(line)

    def _check_setup_line(self, line: str) -> None:
        if line.startswith("Error") and re.search(r"\b(option|cores|memory)\b", line):
            raise EngineConfigError(f"engine {self.name} refused a setting: {line.strip()[:160]}")
        if line.startswith("Illegal move"):
            raise EngineFailure("rejected", f"refused a move of the opening or setup ({line.strip()})")
        if line.startswith("tellusererror") or line.startswith("Error (illegal position"):
            raise EngineFailure("rejected", f"refused the start position ({line.strip()[:160]})")

    # -------------------------------------------------------------- a game
    def new_game(self, start_fen: str, color: str, tc: TimeControl) -> None:
        g = self.game
        self.color, self.tc, self.start_fen = color, tc, start_fen
        self.start_side = start_fen.split()[1] if len(start_fen.split()) > 1 else "w"
        self.sent, self.running = [], False
        variants = self.features.get("variants")
        if g.name != "normal" and variants is not None and g.name not in variants.split(","):
            raise EngineConfigError(f"engine {self.name} does not play {g.name} (its variants: {variants})")
        send = self.proc.send
        send("new")
        if g.name != "normal":
            send(f"variant {g.name}")
        send("easy")
        send("post")
        if tc.nodes is not None:
            send("st 1")
            send(f"nps {tc.nodes}")
        elif tc.movetime is not None:
            send(f"st {max(1, int(math.ceil(tc.movetime - 1e-9)))}")
        elif tc.clocked:
            send(f"level {tc.moves} {_level_base(tc.base)} {tc.inc:g}")
        else:  # depth only: a clock that never matters
            send("level 0 999 0")
        if tc.depth is not None:
            send(f"sd {tc.depth}")
        send("force")
        self._setup(start_fen)
        self._sync(time.monotonic() + self.startup_timeout)

    def _setup(self, fen: str) -> None:
        mode = self.spec.setup
        if mode == "auto":
            if self.features.get("setboard") == "1":
                mode = "setboard"
            elif fen == self.game.start_fen:
                mode = "new"
            else:
                mode = "edit"
        if mode == "setboard":
            self.proc.send(f"setboard {fen}")
        elif mode == "edit":
            self._edit(fen)
        elif fen != self.game.start_fen:
            raise EngineConfigError(f"engine {self.name} cannot be given the position {fen} (setup=new)")

    def _edit(self, fen: str) -> None:
        """The old ``edit`` command (for engines without ``setboard``, e.g. Fairy-Max)."""
        fields = fen.split()
        board = fields[0].split("[")[0]
        if len(fields) > 1 and fields[1] == "b":
            self._send_move("a2a3")  # the protocol's idiom for "Black to move"
        white, black = [], []
        ranks = board.split("/")
        for r, row in enumerate(ranks):
            rank = len(ranks) - r
            f = 0
            digits = ""
            for ch in row + " ":
                if ch.isdigit():
                    digits += ch
                    continue
                if digits:
                    f += int(digits)
                    digits = ""
                if ch == " ":
                    break
                if ch == "*":
                    f += 1
                    continue
                square = f"{chr(97 + f)}{rank}"
                (white if ch.isupper() else black).append(f"{ch.upper()}{square}")
                f += 1
        send = self.proc.send
        send("edit")
        send("#")
        for item in white:
            send(item)
        send("c")
        for item in black:
            send(item)
        send(".")

    def _send_move(self, text: str) -> None:
        if self.features.get("usermove") == "1":
            self.proc.send(f"usermove {text}")
        else:
            self.proc.send(text)

    def _send_clocks(self, mine: Clock, theirs: Clock) -> None:
        if not self.tc.clocked or self.features.get("time") == "0":
            return
        self.proc.send(f"time {max(0, int(mine.remaining * 100))}")
        self.proc.send(f"otim {max(0, int(theirs.remaining * 100))}")

    def _target_plies(self, history: list) -> list:
        """The XBoard plies of the game so far, passes of the non-acting side included."""
        enders = self.game.multi_action
        plies, side = [], self.start_side
        for rec in history:
            if enders and side != rec.actor:
                plies.append((side, "@@@@"))
                side = _other(side)
            plies.append((side, rec.xboard))
            side = _other(side)
        if enders and side != self.color:
            plies.append((side, "@@@@"))  # the opponent's pass: our engine acts again
        return plies

    def think(self, history: list, mine: Clock, theirs: Clock, limit: float | None,
              hang: float) -> Reply:
        plies = self._target_plies(history)
        new = plies[len(self.sent):]
        start = None
        if not self.running:
            for _, text in new:
                self._send_move(text)
            self.sent.extend(new)
            self._sync(time.monotonic() + self.startup_timeout)
            self._send_clocks(mine, theirs)
            start = time.monotonic()
            self.proc.send("go")
            self.running = True
        else:
            for i, (side, text) in enumerate(new):
                if side == self.color:  # our engine's own pass (Ender's): it sends it by itself
                    reply = self._read_move(time.monotonic(), hang)
                    from movegen import PASSES  # here: movegen loads numba (see _read_move)
                    if reply.move not in PASSES:
                        raise EngineFailure("illegal", f"played {reply.move} when it had to pass (@@@@)")
                else:
                    if i == len(new) - 1:
                        self._send_clocks(mine, theirs)
                        start = time.monotonic()
                    self._send_move(text)
                self.sent.append((side, text))
            if start is None:
                start = time.monotonic()
        reply = self._read_move(start, limit if limit is not None else hang)
        self.sent.append((self.color, reply.move))
        return reply

    def _read_move(self, start: float, limit: float) -> Reply:
        deadline = start + limit
        legs = []
        score = depth = nodes = seconds = None
        while True:
            line = self._line(deadline)
            if line is _TIMEOUT:
                raise EngineFailure("timeout", f"no move within {limit:.2f} s")
            text = line.strip()
            if not text:
                continue
            if text.startswith("move "):
                move = text[5:].strip()
                if move.endswith(","):
                    legs.append(move[:-1])
                    continue
                legs.append(move)
                # imported here, not at the top: ``leyden`` builds its command line with
                # this module, and an engine must answer XBoard before numba has loaded
                from movegen.move import from_xboard_ranks
                move = from_xboard_ranks(normalise_move(",".join(legs)), self.game)
                return Reply(move, time.monotonic() - start, score, depth, nodes, seconds)
            m = _THINKING.match(text)
            if m:  # depth score time(centiseconds) nodes pv
                depth, score = int(m.group(1)), int(m.group(2))
                seconds, nodes = int(m.group(3)) / 100, int(m.group(4))
                continue
            if text == "resign" or text.startswith("resign "):
                raise EngineFailure("resign", "resigns")
            m = _CLAIM.match(text)
            if m:
                raise EngineClaim(m.group(1), (m.group(2) or "").strip("{} "))
            if text.startswith("Illegal move"):
                raise EngineFailure("rejected", f"refused a legal move ({text[:160]})")
            if text.startswith("feature"):
                for key, _ in _FEATURE.findall(text[7:]):
                    self.proc.send(f"{'accepted' if key in _KNOWN_FEATURES else 'rejected'} {key}")

    def end_game(self, result: str, reason: str) -> None:
        try:
            self.proc.send(f"result {result} {{{reason}}}")
            self.proc.send("force")
        except EngineFailure:
            pass


# --------------------------------------------------------------------- UCI
def _info_int(words: list, key: str, default):
    """The integer after ``key`` in a UCI info line, or ``default``."""
    if key not in words:
        return default
    try:
        return int(words[words.index(key) + 1])
    except (IndexError, ValueError):
        return default


_UCI_OPTION = re.compile(r"^option name (.+?) type (\w+)(.*)$")


class UCIPlayer(Player):
    proto = "uci"

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.options: dict = {}  # name -> (type, rest of line)
        self._expect_variant: str | None = None

    def start(self) -> None:
        self.proc.start()
        self.proc.send("uci")
        deadline = time.monotonic() + self.startup_timeout
        while True:
            line = self._line(deadline)
            if line is _TIMEOUT:
                raise EngineFailure("timeout", f"no 'uciok' within {self.startup_timeout:g} s")
            if line.strip() == "uciok":
                break
            m = _UCI_OPTION.match(line.strip())
            if m:
                self.options[m.group(1)] = (m.group(2), m.group(3))
        names = {name.lower(): name for name in self.options}
        for key, value in self.spec.options.items():
            if key.lower() not in names:
                raise EngineConfigError(f"engine {self.name} has no UCI option {key!r} "
                                        f"(its options: {', '.join(self.options) or 'none'})")
            self.proc.send(f"setoption name {names[key.lower()]} value {value}")
        g = self.game
        if g.name != "normal" or "UCI_Variant" in self.options:
            if "UCI_Variant" not in self.options:
                raise EngineConfigError(f"engine {self.name} has no UCI_Variant option: cannot play {g.name}")
            name = g.name
            vars_ = self.options["UCI_Variant"][1].split(" var ")[1:]
            if name == "normal" and "normal" not in vars_ and "chess" in vars_:
                name = "chess"
            self.proc.send(f"setoption name UCI_Variant value {name}")
            if name not in (v.strip() for v in vars_):
                # not in the list printed at "uci": it may come from a variants file
                # (Fairy-Stockfish's VariantPath); such engines confirm the variant with
                # "info string variant NAME ..."; an unknown one is silently ignored.
                self._expect_variant = name
        if "UCI_Chess960" in self.options:
            self.proc.send(f"setoption name UCI_Chess960 value {'true' if g.chess960 else 'false'}")
        self._ready(time.monotonic() + self.startup_timeout)

    def _ready(self, deadline: float) -> None:
        self.proc.send("isready")
        while True:
            line = self._line(deadline)
            if line is _TIMEOUT:
                raise EngineFailure("timeout", "no 'readyok'")
            if line.startswith(f"info string variant {self._expect_variant} "):
                self._expect_variant = None
            if line.strip() == "readyok":
                if self._expect_variant:
                    raise EngineConfigError(
                        f"engine {self.name} does not know the variant {self._expect_variant} "
                        "(not in its UCI_Variant list, not confirmed after loading; check VariantPath)")
                return
            if "variant" in line and "not" in line and line.startswith("info string"):
                raise EngineConfigError(f"engine {self.name}: {line.strip()}")

    def new_game(self, start_fen: str, color: str, tc: TimeControl) -> None:
        self.color, self.tc, self.start_fen = color, tc, start_fen
        self.proc.send("ucinewgame")
        self._ready(time.monotonic() + self.startup_timeout)

    def think(self, history: list, mine: Clock, theirs: Clock, limit: float | None,
              hang: float) -> Reply:
        moves = " ".join(rec.uci for rec in history)
        self.proc.send(f"position fen {self.start_fen}" + (f" moves {moves}" if moves else ""))
        tc = self.tc
        parts = ["go"]
        if tc.movetime is not None:
            parts.append(f"movetime {max(1, int(tc.movetime * 1000))}")
        elif tc.clocked:
            w, b = (mine, theirs) if self.color == "w" else (theirs, mine)
            parts += [f"wtime {max(1, int(w.remaining * 1000))}", f"btime {max(1, int(b.remaining * 1000))}",
                      f"winc {int(w.tc.inc * 1000)}", f"binc {int(b.tc.inc * 1000)}"]
            togo = mine.moves_to_go()
            if togo:
                parts.append(f"movestogo {togo}")
        if tc.depth is not None:
            parts.append(f"depth {tc.depth}")
        if tc.nodes is not None:
            parts.append(f"nodes {tc.nodes}")
        start = time.monotonic()
        self.proc.send(" ".join(parts))
        limit = limit if limit is not None else hang
        deadline = start + limit
        score = depth = nodes = seconds = None
        while True:
            line = self._line(deadline)
            if line is _TIMEOUT:
                raise EngineFailure("timeout", f"no bestmove within {limit:.2f} s")
            words = line.split()
            if not words:
                continue
            if words[0] == "bestmove":
                if len(words) < 2:
                    raise EngineFailure("illegal", "sent 'bestmove' without a move")
                return Reply(normalise_move(words[1]), time.monotonic() - start, score, depth,
                             nodes, seconds)
            if words[0] == "info":
                depth = _info_int(words, "depth", depth)
                nodes = _info_int(words, "nodes", nodes)
                ms = _info_int(words, "time", None)
                seconds = ms / 1000 if ms is not None else seconds
                if "score" in words:
                    i = words.index("score")
                    try:
                        kind, value = words[i + 1], int(words[i + 2])
                        if kind == "cp":
                            score = value
                        elif kind == "mate":
                            score = mate_score(value)
                    except (IndexError, ValueError):
                        pass

    def end_game(self, result: str, reason: str) -> None:
        pass


def make_player(spec: EngineSpec, game, log=None, tag: str = "",
                startup_timeout: float = 60.0) -> Player:
    cls = UCIPlayer if spec.proto == "uci" else XBoardPlayer
    return cls(spec, game, log=log, tag=tag, startup_timeout=startup_timeout)
