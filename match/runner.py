"""``leyden match``: engine-vs-engine matches, with the runner as the referee.

    leyden match --variant capablanca --games 100 --tc 10+0.1 --pgn games.pgn \
        --engine name=leyden cmd=leyden proto=xboard \
        --engine name=fairymax "cmd=fairymax benchmarks/peers/fmax.ini" proto=xboard

(also ``python -m engine match ...`` and ``python -m match ...``).

Engines
    ``--engine KEY=VALUE ...`` once per engine: ``name``, ``cmd`` (the command line,
    split like a shell would), ``proto=xboard|uci`` (default xboard), ``dir`` (working
    directory), ``option.NAME=VALUE`` (XBoard ``option NAME=VALUE``, ``memory``/``cores``
    as their commands; UCI ``setoption``), ``tc``/``depth``/``nodes``/``st`` (this
    engine's own limits, for odds matches), ``setup=auto|setboard|edit|new`` (how an
    XBoard engine gets the start position: ``auto`` uses ``setboard`` if the engine
    has it, else ``new`` for the game's own start and ``edit`` otherwise), ``stderr=FILE``.
    ``--each KEY=VALUE ...`` applies to every engine. Two engines play a match; more
    play a round robin (``--gauntlet``: the first against each of the others).

Games and openings
    ``--games N`` per pair (default 2) or ``--rounds N`` (N openings, 2N games). Each
    opening is played twice with colours reversed. Openings: ``--openings FILE`` (FEN or
    EPD lines, or a PGN in coordinate notation; ``--openings-order random``,
    ``--opening-plies N``), ``--fen FEN``, ``--random-plies N`` (balanced random plies
    from the start), seeded shuffles for ``caparandom``/``sultanrandom`` (always) and
    ``--energizer-switch``; ``--seed`` makes them reproducible (written to the PGN).

Time
    ``--tc`` ``40/60`` (moves/seconds), ``10+0.1`` (seconds + increment), ``st=1``,
    ``depth=4``, ``nodes=N``, combined with commas. A move later than the clock plus
    ``--time-margin`` (0.2 s) loses; with no clock an engine that sends nothing for
    ``--hang-timeout`` seconds loses. XBoard gets ``level``/``st``/``sd``/``nps`` and
    ``time``/``otim`` before every move, UCI ``go wtime ... movestogo``/``movetime``/
    ``depth``/``nodes``. In Ender's Chess every action counts as a move for the clock.

Referee
    The runner plays every move on its own ``movegen.Position``: an illegal move, a
    crash, a closed pipe, a time forfeit, a resignation, a refused legal move
    (``Illegal move`` from the engine) or a result claim the rules do not confirm loses,
    with the reason in the PGN; mate, stalemate, repetition, the 50-move rule, bare kings
    and the Ender's gate rules end the game by themselves. Optional adjudication:
    ``--resign score=CP count=N`` (both engines agree for N moves each),
    ``--draw movenumber=M score=CP count=N``, ``--maxmoves N``.
    Ender's Chess under XBoard: one action per XBoard ply, the idle side passes
    (``@@@@``) in between (Leyden's convention, see README.md); the
    runner relays the opponent's passes and checks the engine's own. UCI engines get
    the actions with ``0000`` for the end of a turn.

Output and robustness
    One progress line per game (score and Elo so far), a PGN (``--pgn``, appended:
    ``[Variant]``, ``[SetUp]``, ``[FEN]``, ``[TimeControl]``, ``[Termination]``, the reason
    as a comment; moves as XBoard carries them), and a final table per pair: games,
    wins/losses/draws, score, Elo with its 95% interval, LOS. ``--sprt elo0=0 elo1=10
    alpha=0.05 beta=0.05`` stops when decided; it counts pairs of games (the two of one
    opening), ``model=trinomial`` single games instead (match/stats.py). ``--concurrency
    N`` games at once (default: the number of cores), each in its own engine processes,
    which are killed after ``--grace`` seconds if they do not quit. Ctrl-C stops the games in progress and writes
    them as unfinished (``*``); ``--resume`` skips (and counts) the games already finished in the PGN.
    ``--log FILE`` records every line exchanged with the engines.

Many machines
    ``--cluster ADDRESS`` plays every game as a task on a Dask distributed cluster
    (``match.cluster``); this process still writes the PGN, the table and the SPRT, in the
    order the games finish, and ``--resume`` works the same way.
"""
from __future__ import annotations

import argparse
import os
import signal
import socket
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

# game and openings load the rules kernels: they are imported where needed,
# so that registering the subcommand costs the "leyden" command line nothing.
from .engines import EngineConfigError, EngineSpec, parse_engine_spec, resolve_command
from .pgn import GameRecord, format_game, read_games
from .stats import SPRT, WHITE_SCORE, PairTally, Tally, fmt_elo
from .tc import TimeControl

if TYPE_CHECKING:  # pragma: no cover
    from .game import Adjudication, GameSettings, GameTask
    from .openings import OpeningBook


# --------------------------------------------------------------------- arguments
def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--engine", nargs="+", action="append", metavar="KEY=VALUE", default=[],
                   help="an engine: name=NAME cmd=COMMAND proto=xboard|uci [option.NAME=VALUE] "
                        "[tc=TC] [depth=N] [nodes=N] [st=S] [dir=DIR] [setup=auto|setboard|edit|new]")
    p.add_argument("--each", nargs="+", metavar="KEY=VALUE", default=[],
                   help="settings applied to every engine (before its own)")
    p.add_argument("--variant", default="normal", help="the game (default: normal)")
    p.add_argument("--games", type=int, default=None, help="games per engine pair (default 2)")
    p.add_argument("--rounds", type=int, default=None,
                   help="openings per engine pair; each is played twice (games = 2 x rounds)")
    p.add_argument("--tc", default=None,
                   help="time control: 40/60, 10+0.1, st=1, depth=4, nodes=N (combine with ',')")
    p.add_argument("--pgn", default=None, help="append the games to this PGN file")
    p.add_argument("--resume", action="store_true",
                   help="skip the games already finished in --pgn (same arguments and seed) and count them")
    p.add_argument("--concurrency", type=int, default=None,
                   help="games played at the same time (default: number of cores; with --cluster "
                        "twice the cluster's worker threads are handed out at once)")
    p.add_argument("--cluster", default=None, metavar="ADDRESS",
                   help="play every game as a task on this Dask scheduler (tcp://HOST:8786, or its "
                        "--scheduler-file); needs pip install 'leyden[cluster]'")
    p.add_argument("--gauntlet", action="store_true", help="the first engine plays each of the others")
    p.add_argument("--openings", default=None, metavar="FILE",
                   help="start positions: FEN/EPD lines, or a PGN in coordinate notation")
    p.add_argument("--openings-order", choices=("sequential", "random"), default="sequential")
    p.add_argument("--opening-plies", type=int, default=None,
                   help="with a PGN --openings file: use at most this many plies of each game")
    p.add_argument("--fen", default=None, help="start every game from this position")
    p.add_argument("--random-plies", type=int, default=0,
                   help="play this many random balanced plies from the start position")
    p.add_argument("--energizer-switch", action="store_true",
                   help="energizer: start from seeded switched setups (Grand pieces swapped)")
    p.add_argument("--seed", type=int, default=None, help="seed for shuffles, switches, random plies")
    p.add_argument("--resign", nargs="+", metavar="KEY=N", default=None,
                   help="score adjudication: score=CP count=MOVES (both engines must agree)")
    p.add_argument("--draw", nargs="+", metavar="KEY=N", default=None,
                   help="draw adjudication: movenumber=N score=CP count=MOVES")
    p.add_argument("--maxmoves", type=int, default=None, help="adjudicate a draw after this many moves")
    p.add_argument("--sprt", nargs="+", metavar="KEY=VALUE", default=None,
                   help="elo0=0 elo1=10 alpha=0.05 beta=0.05 [model=pentanomial|trinomial]: stop when "
                        "decided (two engines; by default pairs of games are the samples)")
    p.add_argument("--time-margin", type=float, default=0.2,
                   help="seconds an engine may exceed its clock before it loses (default 0.2)")
    p.add_argument("--hang-timeout", type=float, default=120.0,
                   help="seconds to wait for a move without a clock (depth/nodes) (default 120)")
    p.add_argument("--startup-timeout", type=float, default=60.0,
                   help="seconds an engine may take to start and answer (default 60)")
    p.add_argument("--restart", action="store_true",
                   help="start every engine afresh for each game (default: an engine process "
                        "plays game after game, sent new and the setup each time; restarted "
                        "after a game it lost by a failure, and never kept if it lacks ping)")
    p.add_argument("--grace", type=float, default=2.0,
                   help="seconds an engine gets to quit before it is killed (default 2)")
    p.add_argument("--event", default=None, help="PGN Event tag")
    p.add_argument("--log", dest="match_log", default=None, metavar="FILE",
                   help="write every line exchanged with the engines to this file (with "
                        "--cluster: each game's lines when it ends, timed from its start)")
    p.add_argument("--quiet", action="store_true", help="no per-game progress lines")


def add_subcommand(subparsers) -> argparse.ArgumentParser:
    """Register ``match`` with the ``leyden`` command line (``engine.cli`` calls this)."""
    p = subparsers.add_parser("match", help="engine-vs-engine matches, refereed by the runner",
                              description="Engine-vs-engine matches; the runner is the referee.")
    _add_arguments(p)
    p.set_defaults(func=main)
    return p


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        print(f"error: {message}", file=sys.stderr)
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="leyden match", description="Engine-vs-engine matches; the runner is the referee.")
    _add_arguments(p)
    return p


# --------------------------------------------------------------------- the run
@dataclass
class Job:
    round: int
    opening: int
    white: int
    black: int


def _print(*a):
    print(*a, flush=True)


class _Log:
    def __init__(self, path: str):
        self.f = open(path, "a", encoding="utf-8", buffering=1)  # noqa: SIM115
        self.lock = threading.Lock()
        self.t0 = time.monotonic()

    def __call__(self, tag: str, direction: str, line: str) -> None:
        with self.lock:
            self.f.write(f"{time.monotonic() - self.t0:10.3f} {tag} {direction} {line}\n")

    def write_lines(self, lines: list[str]) -> None:
        """Lines logged elsewhere (a cluster worker), already formatted."""
        with self.lock:
            self.f.writelines(line + "\n" for line in lines)


class Match:
    """A set of games between engines, played and scored."""

    def __init__(self, args, specs: list[EngineSpec], game, book: OpeningBook,
                 tc: TimeControl | None, seed: int, adjudication: Adjudication,
                 sprt: SPRT | None, out=_print):
        self.args = args
        self.specs = specs
        self.game = game
        self.book = book
        self.tc = tc
        self.seed = seed
        self.adjudication = adjudication
        self.sprt = sprt
        self.out = out
        self.tallies: dict = {}  # (i, j) with i < j -> Tally from i's side
        self.pair_tallies: dict = {}  # the same pairs -> PairTally: both games of an opening
        self._first_halves: dict = {}  # ((i, j), opening) -> i's score in the first to finish
        self.records: list[GameRecord] = []
        self.jobs = self._schedule()
        self.log = _Log(args.match_log) if args.match_log else None
        self.sprt_verdict = None
        self.sprt_decided = None  #: (verdict line, games) as they stood when it was reached

    # ------------------------------------------------------------ schedule
    def _schedule(self) -> list[Job]:
        n = len(self.specs)
        if self.args.gauntlet:
            pairs = [(0, j) for j in range(1, n)]
        else:
            pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
        if self.args.rounds is not None:
            per_pair = 2 * self.args.rounds
        else:
            per_pair = self.args.games if self.args.games is not None else 2
        jobs = []
        number = 0
        for k in range((per_pair + 1) // 2):
            for i, j in pairs:
                for first, second, idx in ((i, j, 2 * k), (j, i, 2 * k + 1)):
                    if idx >= per_pair:
                        continue
                    number += 1
                    jobs.append(Job(number, k, first, second))
        for i, j in pairs:
            self.tallies[(i, j)] = Tally()
            self.pair_tallies[(i, j)] = PairTally()
        return jobs

    def task(self, job: Job) -> GameTask:
        """The game ``job`` as something a thread here or a cluster worker can play."""
        from .game import GameTask
        return GameTask(job.round, self.book(job.opening), self.specs[job.white],
                        self.specs[job.black], self._settings(job))

    def _settings(self, job: Job) -> GameSettings:
        from .game import GameSettings
        a = self.args
        return GameSettings(
            game=self.game,
            tc_white=self.specs[job.white].time_control(self.tc),
            tc_black=self.specs[job.black].time_control(self.tc),
            time_margin=a.time_margin, hang_timeout=a.hang_timeout,
            startup_timeout=a.startup_timeout, grace=a.grace,
            adjudication=self.adjudication, log=self.log,
            event=a.event or f"Leyden match ({self.game.name})",
            site=socket.gethostname(), extra_tags={"MatchSeed": str(self.seed)})

    # ------------------------------------------------------------ scoring
    def _count(self, job: Job, result: str) -> tuple:
        i, j = job.white, job.black
        value = WHITE_SCORE[result]
        if i < j:
            key, v = (i, j), value
        else:
            key, v = (j, i), 1.0 - value
        self.tallies[key].add(v)
        half = self._first_halves.pop((key, job.opening), None)
        if half is None:
            self._first_halves[(key, job.opening)] = v
        else:
            self.pair_tallies[key].add(half + v)
        return key

    def _sprt_tally(self) -> Tally | PairTally:
        """What the SPRT counts, for the pair of the two engines: games or pairs of games."""
        key = (0, 1)
        return self.pair_tallies[key] if self.sprt.model == "pentanomial" else self.tallies[key]

    def _progress(self, job: Job, rec: GameRecord, done: int, total: int) -> None:
        if self.args.quiet:
            return
        key = (min(job.white, job.black), max(job.white, job.black))
        t = self.tallies[key]
        a, b = self.specs[key[0]].name, self.specs[key[1]].name
        elo, low, high = t.elo_interval()
        why = f" {{{rec.reason}}}" if rec.reason else ""
        line = (f"[{done}/{total}] game {rec.round}: {rec.white} - {rec.black} {rec.result}{why} | "
                f"{a} vs {b}: +{t.wins} -{t.losses} ={t.draws} {100 * t.score:.1f}% "
                f"Elo {fmt_elo(elo)} [{fmt_elo(low)}, {fmt_elo(high)}]")
        if self.sprt is not None:
            line += f" LLR {self.sprt.llr(self._sprt_tally()):.2f}"
        self.out(line)

    # ------------------------------------------------------------ resume
    def _resume(self) -> set:
        done = set()
        if not (self.args.resume and self.args.pgn):
            return done
        by_round = {j.round: j for j in self.jobs}
        for g in read_games(self.args.pgn):
            try:
                number = int(g.tags.get("Round", "0"))
            except ValueError:
                continue
            job = by_round.get(number)
            if job is None or number in done or g.result not in ("1-0", "0-1", "1/2-1/2"):
                continue
            if (g.tags.get("White") != self.specs[job.white].name
                    or g.tags.get("Black") != self.specs[job.black].name
                    or g.tags.get("Variant", "normal") != self.game.name):
                continue
            done.add(number)
            self._count(job, g.result)
            self.records.append(GameRecord(round=number, white=g.tags["White"], black=g.tags["Black"],
                                           variant=self.game.name, start_fen=g.tags.get("FEN", ""),
                                           result=g.result, termination=g.tags.get("Termination", "")))
        return done

    # ------------------------------------------------------------ running
    def run(self, pool) -> int:
        """Play the games not yet in the PGN and score them in the order they finish.

        ``pool`` plays them (``match.threads`` here, ``match.cluster`` on a Dask
        cluster); this process alone writes the PGN, the tallies and the SPRT.
        """
        if self.args.pgn:  # a new results directory is made, not an error after the games
            os.makedirs(os.path.dirname(os.path.abspath(self.args.pgn)), exist_ok=True)
        skip = self._resume()
        todo = [j for j in self.jobs if j.round not in skip]
        total = len(self.jobs)
        done_count = len(skip)
        if skip and not self.args.quiet:
            self.out(f"resuming: {len(skip)} of {total} games already played")
        if self.sprt and self._sprt_check():
            todo = []
        pool.start(todo)
        pending = len(todo)
        interrupted = False
        pgn = open(self.args.pgn, "a", encoding="utf-8") if self.args.pgn else None  # noqa: SIM115
        try:
            while pending:
                item = pool.next(timeout=0.25)
                if item is None:
                    continue
                pending -= 1
                job, rec = item
                if rec is None:
                    continue
                self._write(pgn, rec)
                if rec.finished:
                    self._count(job, rec.result)
                    done_count += 1
                    self._progress(job, rec, done_count, total)
                    if self.sprt and self.sprt_verdict is None and self._sprt_check():
                        pool.stop_starting()
        except KeyboardInterrupt:
            interrupted = True
            self.out("interrupted: stopping the games in progress ...")
            pool.interrupt()
            deadline = time.monotonic() + 10
            while pending and time.monotonic() < deadline:
                try:
                    item = pool.next(timeout=0.25)
                except KeyboardInterrupt:
                    break
                if item is None:
                    continue
                pending -= 1
                if item[1] is not None:
                    self._write(pgn, item[1])
        finally:
            if pgn:
                pgn.close()
            pool.close()
        if pool.error:
            print(f"error: {pool.error}", file=sys.stderr)
            self.report()
            return 2
        self.report()
        if interrupted:
            return 130
        if pool.lost:
            print(f"error: {len(pool.lost)} games could not be played (games "
                  f"{', '.join(str(j.round) for j in pool.lost)}); --resume plays them", file=sys.stderr)
            return 1
        return 0

    def _write(self, pgn, rec: GameRecord) -> None:
        if pgn:
            pgn.write(format_game(rec))
            pgn.flush()
        self.records.append(rec)

    def _sprt_check(self) -> bool:
        """Has the SPRT decided? The verdict stands once reached: the games still in
        progress then are finished and counted, but cannot take it back."""
        t = self._sprt_tally()
        games = self.tallies[(0, 1)].games
        self.sprt_verdict = self.sprt.decision(t)
        if self.sprt_verdict is not None:
            self.sprt_decided = (f"{self.sprt.describe(t)}, after {games} games", games)
        return self.sprt_verdict is not None

    # ------------------------------------------------------------ report
    def report(self) -> None:
        out = self.out
        played = [r for r in self.records if r.finished]
        tcs = {str(s.time_control(self.tc)) for s in self.specs}
        out("")
        out(f"Results: {self.game.name}, {len(played)} games, tc {' / '.join(sorted(tcs))}, seed {self.seed}")
        head = f"{'pair':32} {'games':>5} {'W':>4} {'L':>4} {'D':>4} {'score':>6} {'Elo':>7} {'95% interval':>18} {'LOS':>6}"
        out(head)
        for (i, j), t in self.tallies.items():
            if t.games == 0:
                continue
            elo, low, high = t.elo_interval()
            name = f"{self.specs[i].name} vs {self.specs[j].name}"
            out(f"{name:32} {t.games:5d} {t.wins:4d} {t.losses:4d} {t.draws:4d} {100 * t.score:5.1f}% "
                f"{fmt_elo(elo):>7} {'[' + fmt_elo(low) + ', ' + fmt_elo(high) + ']':>18} {100 * t.los():5.1f}%")
        if len(self.specs) > 2:
            out("")
            out(f"{'engine':24} {'games':>5} {'points':>7} {'score':>6}")
            totals = {k: Tally() for k in range(len(self.specs))}
            for (i, j), t in self.tallies.items():
                totals[i].wins += t.wins
                totals[i].losses += t.losses
                totals[i].draws += t.draws
                totals[j].wins += t.losses
                totals[j].losses += t.wins
                totals[j].draws += t.draws
            for k, t in sorted(totals.items(), key=lambda kv: -kv[1].points):
                out(f"{self.specs[k].name:24} {t.games:5d} {t.points:7.1f} {100 * t.score:5.1f}%")
        reasons = Counter()
        for r in played:
            if r.termination:
                reasons[r.termination] += 1
        if reasons:
            out("terminations: " + ", ".join(f"{k} {v}" for k, v in reasons.most_common()))
        odd = [r for r in played if r.termination not in ("normal", "adjudication")]
        for r in odd[:10]:
            out(f"  game {r.round}: {r.result} {r.reason}")
        if self.sprt is not None and (0, 1) in self.tallies:
            t = self._sprt_tally()
            games = self.tallies[(0, 1)].games
            out(f"{self.specs[0].name} vs {self.specs[1].name}: {self.pair_tallies[(0, 1)].describe()}")
            if self.sprt_decided is None:
                out(self.sprt.describe(t))
                return
            line, decided_at = self.sprt_decided
            out(line)
            if games > decided_at:
                out(f"  the {games - decided_at} games in progress then, finished since: "
                    f"LLR {self.sprt.llr(t):.2f} over all {games} games")


def _seed_from_pgn(path: str) -> int | None:
    for g in read_games(path):
        seed = g.tags.get("MatchSeed")
        if seed and seed.lstrip("-").isdigit():
            return int(seed)
    return None


def prepare(args):
    """Check the arguments and build the ``Match`` (ValueError with a message if bad)."""
    from movegen import find_game

    from .game import Adjudication
    from .openings import OpeningBook, load_openings
    try:
        game = find_game(args.variant)
    except (KeyError, ValueError):
        from movegen import GAMES
        raise ValueError(f"unknown variant {args.variant!r} (known: {', '.join(GAMES)})") from None
    if len(args.engine) < 2:
        raise ValueError("give at least two --engine")
    specs = [parse_engine_spec(tokens, args.each) for tokens in args.engine]
    names = [s.name for s in specs]
    if len(set(names)) != len(names):
        raise ValueError(f"engine names must differ (got {', '.join(names)}); use name=...")
    if args.cluster:
        from .cluster import require_dask
        require_dask()  # ValueError saying what to install
    else:  # a cluster's workers resolve the commands on their own machines
        for s in specs:
            resolve_command(s)
    tc = TimeControl.parse(args.tc) if args.tc else None
    for s in specs:
        s.time_control(tc)  # raises if an engine has no limits at all
    if args.games is not None and args.games < 1:
        raise ValueError("--games must be at least 1")
    if args.rounds is not None and args.rounds < 1:
        raise ValueError("--rounds must be at least 1")
    if args.concurrency is not None and args.concurrency < 1:
        raise ValueError("--concurrency must be at least 1")
    if args.resume and not args.pgn:
        raise ValueError("--resume needs --pgn")
    seed = args.seed
    if seed is None and args.resume:
        seed = _seed_from_pgn(args.pgn)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    openings = None
    if args.openings:
        openings = load_openings(args.openings, game, args.opening_plies)
    if args.fen:
        from movegen import Position
        Position(game, args.fen)  # ValueError if bad
    if args.energizer_switch and game.name != "energizer":
        raise ValueError("--energizer-switch is for --variant energizer")
    book = OpeningBook(game, seed, openings, args.openings_order, args.random_plies,
                       args.energizer_switch, args.fen)
    adj = Adjudication(max_moves=args.maxmoves)
    if args.resign:
        f = Adjudication.parse_fields(args.resign, ("score", "count"))
        if "score" not in f:
            raise ValueError("--resign needs score=CP")
        adj = Adjudication(resign_score=f["score"], resign_count=f.get("count", 3),
                           max_moves=args.maxmoves)
    if args.draw:
        f = Adjudication.parse_fields(args.draw, ("movenumber", "score", "count"))
        if "score" not in f:
            raise ValueError("--draw needs score=CP")
        adj = Adjudication(resign_score=adj.resign_score, resign_count=adj.resign_count,
                           draw_score=f["score"], draw_count=f.get("count", 8),
                           draw_from=f.get("movenumber", 40), max_moves=args.maxmoves)
    sprt = None
    if args.sprt:
        if len(specs) != 2:
            raise ValueError("--sprt needs exactly two engines")
        sprt = SPRT.parse(args.sprt)
        if args.games is None and args.rounds is None:
            args.games = 100000  # play until decided
    return Match(args, specs, game, book, tc, seed, adj, sprt)


def make_pool(args, match: Match):
    """Where the games are played: threads of this process, or a Dask cluster."""
    if args.cluster:
        from .cluster import ClusterPool
        return ClusterPool(args.cluster, match.task, args.concurrency, log=match.log)
    from .threads import ThreadPool
    return ThreadPool(match.task, args.concurrency or os.cpu_count() or 1,
                      reuse=not args.restart, grace=args.grace)


def main(args) -> int:
    """Run a match from parsed arguments; returns the exit status."""
    try:
        match = prepare(args)
        pool = make_pool(args, match)
    except (ValueError, OSError, EngineConfigError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not args.quiet:
        names = ", ".join(s.name for s in match.specs)
        print(f"match: {names}; {match.game.name}; {len(match.jobs)} games; "
              f"{pool.describe()}; seed {match.seed}", flush=True)
    previous = signal.getsignal(signal.SIGTERM)

    def on_term(signum, frame):
        raise KeyboardInterrupt

    try:
        signal.signal(signal.SIGTERM, on_term)
    except ValueError:  # not in the main thread
        previous = None
    try:
        return match.run(pool)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def cli(argv=None) -> int:
    return main(build_parser().parse_args(argv))
