"""Games as tasks on a Dask distributed cluster: ``leyden match --cluster ADDRESS``.

The coordinating process (``match.runner``) keeps everything a local run keeps: the
schedule, the only writer of the PGN, the tallies and the SPRT, ``--resume``. Each game
goes to the cluster as one task, ``play_task``: the worker resolves the engines' command
lines on its own machine, plays the game with the same referee as a local run
(``match.game``) and returns the finished record. Records are scored in the order
their tasks finish, exactly as a local run scores games in the order they end.

Faults:

* a worker that dies or disconnects mid-game: the scheduler hands the task to another
  worker, which plays that game again from its start; the coordinator counts a game
  when its task's single result arrives, so nothing counts twice. A game whose task
  has brought down ``distributed.scheduler.allowed-failures`` workers (3 by default)
  is reported as not played; ``--resume`` plays it;
* an engine that crashes on a worker: the referee scores the crash, as locally; the
  task itself succeeded and is not retried;
* an SPRT decision: no more tasks are submitted, the queued ones come back unplayed
  (a cluster-wide Event tells them), the running games finish and count, as locally;
* Ctrl-C (or SIGTERM): a second Event stops the running games, which come back
  unfinished (``*``), as locally.

Only a window of tasks is on the cluster at a time (``--concurrency``, default twice
the cluster's worker threads, so that a worker finding a game done starts the next at
once): an SPRT of 100000 games never floods the scheduler, and stops promptly.
"""
from __future__ import annotations

import os
import socket
import sys
import threading
import time
import traceback
import uuid
from collections import deque
from dataclasses import dataclass, replace

from .engines import EngineConfigError, resolve_command
from .threads import GamePool

INSTALL = "pip install 'leyden[cluster]' (that is Dask: pip install 'dask[distributed]')"
CONNECT_TIMEOUT = 30.0  #: seconds to reach the scheduler


def require_dask() -> None:
    """ValueError saying what to install when Dask distributed is missing."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise ValueError(f"--cluster needs Dask distributed, which is not installed: {INSTALL}") from None


@dataclass(frozen=True)
class Flags:
    """What a task needs to know of its match besides its game."""

    stop: str  #: name of the Event that ends the running games now
    no_more: str  #: name of the Event that tells queued tasks not to start
    log: bool  #: return the engine dialogue with the record (``--log``)


# --------------------------------------------------------------------- on a worker
def play_task(task, flags: Flags):
    """Play one game on a worker: (record, log lines). The record is None when the
    match stopped starting games before this task began."""
    from distributed import Event, get_client

    client = get_client()
    if Event(flags.no_more, client=client).is_set():
        return None, []
    lines: list[str] = []
    task = _localise(task, lines if flags.log else None)
    stop = threading.Event()
    players: list = []
    lock = threading.Lock()
    finished = threading.Event()

    def on_start(started):
        with lock:
            players.extend(started)
            if stop.is_set():
                for p in started:
                    p.kill()

    def watch():
        event = Event(flags.stop, client=client)
        while not finished.is_set():
            if event.wait(timeout=1.0):
                with lock:
                    stop.set()
                    for p in players:
                        p.kill()
                return

    threading.Thread(target=watch, daemon=True, name=f"stop-watch-{task.round}").start()
    try:
        return task.play(stop=stop, on_start=on_start), lines
    finally:
        finished.set()


def _localise(task, lines: list | None):
    """The task as this machine plays it: its own engine paths, its host as the PGN's
    Site, the rules from its own ``movegen``, and a log that collects ``lines``."""
    from movegen import find_game

    host = socket.gethostname()
    specs = []
    for spec in (task.white, task.black):
        spec = replace(spec, cmd=list(spec.cmd))
        try:
            resolve_command(spec)
        except EngineConfigError as exc:
            raise EngineConfigError(f"{exc} (on worker {host})") from None
        specs.append(spec)
    settings = replace(task.settings, game=find_game(task.settings.game.name), site=host,
                       log=None if lines is None else _collector(lines))
    return replace(task, white=specs[0], black=specs[1], settings=settings)


def _collector(lines: list):
    """A match log (``tag direction line``) that appends to ``lines``, timed from now."""
    start = time.monotonic()
    lock = threading.Lock()

    def log(tag, direction, line):
        with lock:
            lines.append(f"{time.monotonic() - start:10.3f} {tag} {direction} {line}")
    return log


# --------------------------------------------------------------------- the coordinator
class ClusterPool(GamePool):
    """Plays a match's games on a Dask cluster (the interface: ``match.threads``)."""

    def __init__(self, address: str, make_task, limit: int | None, log=None):
        super().__init__(make_task)
        self.client = _connect(address)
        run = uuid.uuid4().hex[:12]
        self.run = run
        self.flags = Flags(stop=f"leyden-stop-{run}", no_more=f"leyden-no-more-{run}",
                           log=log is not None)
        self.limit = limit
        self.log = log
        self.jobs: deque = deque()
        self.running: dict = {}  #: task key -> (job, future)
        self.lock = threading.Lock()

    def describe(self) -> str:
        threads = self.client.nthreads()
        text = (f"cluster {self.client.scheduler.address} ({len(threads)} workers, "
                f"{sum(threads.values())} threads)")
        dashboard = _dashboard(self.client)
        return f"{text}; dashboard {dashboard}" if dashboard else f"{text}; no dashboard (needs bokeh)"

    def start(self, jobs: list) -> None:
        self.jobs.extend(jobs)
        threading.Thread(target=self._feed, daemon=True, name="cluster-feeder").start()

    def stop_starting(self) -> None:
        super().stop_starting()
        self._set(self.flags.no_more)

    def interrupt(self) -> None:
        self.stop_starting()
        self._set(self.flags.stop)

    def close(self) -> None:
        self.no_more.set()
        with self.lock:
            left = [future for _, future in self.running.values()]
        try:
            if left:
                self.client.cancel(left)
            from distributed import Event
            for name in (self.flags.stop, self.flags.no_more):  # the scheduler keeps set Events
                Event(name, client=self.client).clear()
        except Exception:  # noqa: BLE001 - a lost scheduler has nothing to clean up
            pass
        self.client.close()

    # ------------------------------------------------------------ feeding the cluster
    def _feed(self) -> None:
        from distributed import as_completed

        try:
            done = as_completed(loop=self.client.loop)
            self._top_up(done)
            for future in done:
                with self.lock:
                    job, _ = self.running.pop(future.key)
                self.results.put((job, self._collect(job, future)))
                self._top_up(done)
        except Exception as exc:  # noqa: BLE001 - the scheduler went away: report, end the run
            if not self.no_more.is_set():
                self.error = f"lost the cluster: {type(exc).__name__}: {exc}"
            self.no_more.set()
        with self.lock:
            left = [job for job, _ in self.running.values()] + list(self.jobs)
            self.running.clear()
            self.jobs.clear()
        for job in left:  # not played
            self.results.put((job, None))

    def _top_up(self, done) -> None:
        if self.no_more.is_set() or not self.jobs:
            return
        window = self.limit or max(1, 2 * sum(self.client.nthreads().values()))
        while self.jobs and not self.no_more.is_set() and len(self.running) < window:
            job = self.jobs.popleft()
            task = self.make_task(job)
            # the coordinator's log file stays here; the worker collects the lines
            task = replace(task, settings=replace(task.settings, log=None))
            future = self.client.submit(play_task, task, self.flags, pure=False,
                                        key=f"leyden-game-{job.round}-{self.run}")
            with self.lock:
                self.running[future.key] = (job, future)
            done.add(future)

    def _collect(self, job, future):
        """The record of a finished task, or None (not played; the reason is noted)."""
        from distributed import CancelledError
        from distributed.scheduler import KilledWorker

        try:
            rec, lines = future.result()
        except CancelledError:
            return None
        except KilledWorker as exc:
            print(f"game {job.round} not played: {exc}", file=sys.stderr, flush=True)
            self.lost.append(job)
            return None
        except EngineConfigError as exc:
            self.error = str(exc)
            self.stop_starting()
            return None
        except Exception as exc:  # noqa: BLE001 - a bug must not hang the run
            traceback.print_exception(exc)
            self.error = f"internal error in game {job.round} (on the cluster): {exc}"
            self.stop_starting()
            return None
        if lines and self.log is not None:
            self.log.write_lines(lines)
        return rec

    def _set(self, name: str) -> None:
        from distributed import Event
        try:
            Event(name, client=self.client).set()
        except Exception:  # noqa: BLE001 - without a scheduler there is nothing to stop
            pass


def _connect(address: str):
    """A client of the scheduler at ``address`` (or named by a ``--scheduler-file``)."""
    from distributed import Client

    try:
        if os.path.isfile(address):
            return Client(scheduler_file=address, timeout=CONNECT_TIMEOUT, set_as_default=False)
        return Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ValueError(f"cannot reach the Dask scheduler at {address}: {exc}") from None


def _dashboard(client) -> str | None:
    """The scheduler's dashboard address, if it serves one."""
    if "dashboard" not in client.scheduler_info().get("services", {}):
        return None
    return client.dashboard_link
