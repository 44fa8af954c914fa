"""``leyden match --cluster``: every game a task on a Dask cluster that these tests start
themselves (a scheduler and two single-thread worker processes on this machine),
Leyden against Fairy-Max at a fixed depth, so that each game is the same wherever it
is played."""
import os
import signal
import subprocess
import sys
import time

import pytest

from match import runner
from match.pgn import read_games
from tests.drivers import ROOT, find_program

GAMES = 8
MATCH = ["--variant", "capablanca", "--games", str(GAMES), "--tc", "depth=2", "--maxmoves", "20",
         "--random-plies", "4", "--seed", "11", "--grace", "1",
         "--engine", "name=leyden", f"cmd={sys.executable} -m engine",
         "--engine", "name=fairymax", "cmd=fairymax"]


needs_fairymax = pytest.mark.skipif(find_program("fairymax") is None,
                                    reason="Fairy-Max is not installed: apt-get install fairymax")


class LocalCluster:
    """``dask scheduler`` and ``dask worker --nworkers 2 --nthreads 1`` as child processes."""

    def __init__(self, folder):
        self.file = str(folder / "scheduler.json")
        self.procs = []
        common = dict(cwd=str(folder), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                      start_new_session=True)
        self.procs.append(subprocess.Popen(
            [sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1", "--port", "0",
             "--dashboard-address", "127.0.0.1:0", "--scheduler-file", self.file], **common))
        self.procs.append(subprocess.Popen(
            [sys.executable, "-m", "dask", "worker", "--scheduler-file", self.file,
             "--nworkers", "2", "--nthreads", "1", "--no-dashboard",
             "--local-directory", str(folder)], **common))
        deadline = time.monotonic() + 60
        while not os.path.exists(self.file):
            assert time.monotonic() < deadline, "the Dask scheduler did not start"
            time.sleep(0.1)
        from distributed import Client
        self.client = Client(scheduler_file=self.file, set_as_default=False)
        self.wait_for_workers()

    def wait_for_workers(self):
        self.client.wait_for_workers(2, timeout=60)

    def close(self):
        self.client.close()
        for p in reversed(self.procs):  # each in its own session: nanny, workers, their engines
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                continue
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    pytest.importorskip("distributed", reason="needs Dask: pip install 'leyden[cluster]'")
    c = LocalCluster(tmp_path_factory.mktemp("cluster"))
    yield c
    c.close()


def _games(path) -> dict:
    """Round -> (result, moves) of the finished games of a PGN file."""
    out = {}
    for g in read_games(str(path)):
        if g.result in ("1-0", "0-1", "1/2-1/2"):
            assert g.tags["Round"] not in out, f"game {g.tags['Round']} counted twice"
            out[g.tags["Round"]] = (g.result, g.moves)
    return out


@pytest.fixture(scope="module")
def local_games(tmp_path_factory):
    """The same games played here, two at a time, without a cluster."""
    if find_program("fairymax") is None:
        pytest.skip("Fairy-Max is not installed: apt-get install fairymax")
    pgn = tmp_path_factory.mktemp("local") / "local.pgn"
    assert runner.cli([*MATCH, "--concurrency", "2", "--pgn", str(pgn), "--quiet"]) == 0
    games = _games(pgn)
    assert len(games) == GAMES
    return games


def _coordinator(cluster, pgn):
    """``leyden match --cluster`` as a process of its own, to be interrupted or watched."""
    return subprocess.Popen([sys.executable, "-m", "match", *MATCH, "--cluster", cluster.file,
                             "--pgn", str(pgn)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)


def _wait_for_finished(pgn, count, proc, timeout=120):
    deadline = time.monotonic() + timeout
    while not (pgn.exists() and len(_games(pgn)) >= count):
        assert proc.poll() is None, proc.stdout.read()
        assert time.monotonic() < deadline, "no games came back from the cluster"
        time.sleep(0.1)


@needs_fairymax
def test_cluster_games_are_the_local_games(cluster, local_games, tmp_path, capsys):
    pgn, log = tmp_path / "cluster.pgn", tmp_path / "engines.log"
    assert runner.cli([*MATCH, "--cluster", cluster.file, "--pgn", str(pgn), "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "(2 workers, 2 threads); dashboard http://127.0.0.1:" in out
    assert len(read_games(str(pgn))) == GAMES
    assert _games(pgn) == local_games  # game by game: the same result and the same moves
    dialogue = log.read_text()  # the workers' engine dialogues, written here
    for n in range(1, GAMES + 1):
        assert f" g{n} fairymax > protover 2\n" in dialogue


@needs_fairymax
def test_a_worker_killed_mid_game_loses_only_that_game(cluster, local_games, tmp_path):
    import psutil
    pgn = tmp_path / "killed.pgn"
    proc = _coordinator(cluster, pgn)
    try:
        _wait_for_finished(pgn, 1, proc)
        victim, engines = None, []
        deadline = time.monotonic() + 30
        while victim is None:  # a worker with engine processes is in the middle of a game
            for pid in cluster.client.run(os.getpid).values():
                children = psutil.Process(pid).children(recursive=True)
                if children:
                    victim, engines = pid, children
                    break
            assert time.monotonic() < deadline, "no worker was playing"
        os.kill(victim, signal.SIGKILL)
        output, _ = proc.communicate(timeout=180)
    finally:
        proc.kill()
    assert proc.returncode == 0, output
    assert len(read_games(str(pgn))) == GAMES  # nothing written twice, nothing unfinished
    assert _games(pgn) == local_games
    _, alive = psutil.wait_procs(engines, timeout=10)  # the dead worker's engines saw EOF
    assert not alive
    cluster.wait_for_workers()  # the nanny starts a new worker process for the next test


@needs_fairymax
def test_resume_after_interrupting_the_coordinator_plays_only_the_missing_games(
        cluster, local_games, tmp_path, capsys):
    pgn = tmp_path / "resumed.pgn"
    proc = _coordinator(cluster, pgn)
    try:
        _wait_for_finished(pgn, 3, proc)
        proc.send_signal(signal.SIGTERM)  # as Ctrl-C: the running games stop unfinished
        output, _ = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, output
    before = _games(pgn)
    assert 3 <= len(before) < GAMES
    assert runner.cli([*MATCH, "--cluster", cluster.file, "--pgn", str(pgn), "--resume"]) == 0
    out = capsys.readouterr().out
    assert f"resuming: {len(before)} of {GAMES} games already played" in out
    assert len([line for line in out.splitlines() if line.startswith("[")]) == GAMES - len(before)
    assert _games(pgn) == local_games


def test_engine_crash_on_a_worker_is_scored_and_a_decided_sprt_stops_the_rest(cluster, tmp_path, capsys):
    pgn = tmp_path / "sprt.pgn"
    crasher = f"cmd={sys.executable} -c 'raise SystemExit(3)'"
    status = runner.cli(["--variant", "capablanca", "--games", "40", "--tc", "depth=1", "--seed", "5",
                         "--sprt", "elo0=0", "elo1=200", "alpha=0.05", "beta=0.05",
                         "--engine", "name=leyden", f"cmd={sys.executable} -m engine",
                         "--engine", "name=crasher", crasher,
                         "--cluster", cluster.file, "--pgn", str(pgn)])
    assert status == 0
    assert "H1 accepted" in capsys.readouterr().out
    games = read_games(str(pgn))
    assert 4 <= len(games) < 40
    assert len({g.tags["Round"] for g in games}) == len(games)  # each game once: no retries
    for g in games:
        assert g.tags["Termination"] == "abandoned"
        assert g.result == ("0-1" if g.tags["White"] == "crasher" else "1-0")
    assert "crash: exited with status 3" in pgn.read_text()


def test_cluster_without_dask_says_what_to_install():
    code = ("import sys; sys.modules['distributed'] = None\n"  # as if Dask were not installed
            "from match import runner\n"
            "sys.exit(runner.cli(['--variant', 'capablanca', '--tc', 'depth=1', '--cluster', "
            "'tcp://127.0.0.1:8786', '--engine', 'name=a', 'cmd=a', '--engine', 'name=b', 'cmd=b']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "--cluster needs Dask distributed" in done.stderr
    assert "pip install 'leyden[cluster]'" in done.stderr


def test_strength_passes_the_cluster_on_to_every_match():
    done = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "strength.py"), "--dry-run",
                           "--only", "batteries", "--cluster", "tcp://10.0.0.1:8786"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    commands = done.stdout.splitlines()
    assert len(commands) == 3  # time odds, depth odds, the baseline commit
    for line in commands:
        assert "--cluster tcp://10.0.0.1:8786" in line and "--concurrency" not in line
