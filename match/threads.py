"""Games played in threads of this process (``--concurrency N`` at once).

One of the two places a match's games are played (the other is ``match.cluster``);
both give the coordinator (``match.runner.Match.run``) the same interface:

    describe()         where the games are played, for the first line of a match
    start(jobs)        play these jobs
    next(timeout)      (job, record) of the next game to finish, or None after
                       ``timeout`` seconds; record None: the job was not played
    stop_starting()    start no more games (SPRT decided); running ones finish
    interrupt()        end the running games now (they come back as unfinished)
    close()
    error              a message if an engine could not be set up or a bug stopped the run
    lost               games that could not be played (a cluster's workers died on them)
"""
from __future__ import annotations

import queue
import threading
import traceback

from .engines import EngineConfigError


class GamePool:
    """What both pools share: the queue of finished games and the stop flags."""

    def __init__(self, make_task):
        self.make_task = make_task  #: Job -> GameTask
        self.results: queue.Queue = queue.Queue()  #: (job, record or None)
        self.no_more = threading.Event()
        self.error: str | None = None
        self.lost: list = []

    def next(self, timeout: float):
        try:
            return self.results.get(timeout=timeout)
        except queue.Empty:
            return None

    def stop_starting(self) -> None:
        self.no_more.set()


class ThreadPool(GamePool):
    """Each game in a thread of its own (``concurrency`` worker threads); a worker keeps its
    engine processes from game to game unless ``reuse`` is off."""

    def __init__(self, make_task, concurrency: int, reuse: bool = True, grace: float = 2.0):
        super().__init__(make_task)
        self.concurrency = concurrency
        self.reuse = reuse  #: an engine process plays game after game in its worker
        self.grace = grace
        self.work: queue.Queue = queue.Queue()
        self.abort = threading.Event()
        self.live: list = []  #: players of the running games, killed on interrupt
        self.live_lock = threading.Lock()
        self.workers: list[threading.Thread] = []

    def describe(self) -> str:
        return f"concurrency {self.concurrency}"

    def start(self, jobs: list) -> None:
        for job in jobs:
            self.work.put(job)
        for k in range(max(1, min(self.concurrency, len(jobs)))):
            worker = threading.Thread(target=self._worker, daemon=True, name=f"match-worker-{k}")
            self.workers.append(worker)
            worker.start()

    def interrupt(self) -> None:
        self.abort.set()
        self.no_more.set()
        with self.live_lock:
            for p in list(self.live):
                p.kill()

    def close(self) -> None:
        """Wait for the workers to close the engines they kept."""
        for worker in self.workers:
            worker.join(self.grace + 5)

    def _worker(self) -> None:
        # a worker's engines, left running between its games (reuse): starting a
        # process costs about a second of CPU, which a game at a fast time control
        # cannot spare, and it takes that CPU from the other games being played
        seats: dict | None = {} if self.reuse else None
        try:
            self._work(seats)
        finally:
            closers = [threading.Thread(target=p.close, args=(self.grace,), daemon=True)
                       for p in (seats or {}).values()]
            for t in closers:
                t.start()
            for t in closers:
                t.join()

    def _work(self, seats: dict | None) -> None:
        while not self.no_more.is_set():
            try:
                job = self.work.get_nowait()
            except queue.Empty:
                return
            try:
                rec = self._play(job, seats)
            except EngineConfigError as exc:
                self.error = str(exc)
                self.no_more.set()
                rec = None
            except Exception as exc:  # noqa: BLE001 - a bug must not hang the run
                traceback.print_exc()
                self.error = f"internal error in game {job.round}: {exc}"
                self.no_more.set()
                rec = None
            self.results.put((job, rec))
        # drain: the jobs left are reported as not played
        while True:
            try:
                job = self.work.get_nowait()
            except queue.Empty:
                return
            self.results.put((job, None))

    def _play(self, job, seats: dict | None):
        mine: list = []

        def register(players):
            with self.live_lock:
                mine.extend(players)
                self.live.extend(players)
                if self.abort.is_set():
                    for p in players:
                        p.kill()
        try:
            return self.make_task(job).play(stop=self.abort, on_start=register, seats=seats)
        finally:
            with self.live_lock:
                for p in mine:
                    if p in self.live:
                        self.live.remove(p)
