"""The perft command line (issue 2, item 5):

    python -m engine perft GAME DEPTH [--fen FEN] [--divide]
    leyden perft GAME DEPTH [--fen FEN] [--divide]

prints, with --divide, one ``MOVE: COUNT`` line per root move, and always a last stdout
line ``Nodes: N``; exit status 0.  A bad game, FEN or depth exits 2 with one
``error: ...`` line on stderr and no traceback.  Each call is a real subprocess.
"""
import concurrent.futures
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.drivers import ROOT

PY = [sys.executable, "-m", "engine"]

ENERGIZER_EP = "rnackqnr/pbpp1pbp/1p4p1/3Pp3/8/1P4P1/PBP1PPBP/RNACKQNR w KQkq e6 0 3"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def run(args, cmd=None):
    key = (tuple(cmd or PY), tuple(args))
    if key not in _RESULTS:
        _RESULTS[key] = _start(key).result()
    return _RESULTS[key]


_RESULTS: dict = {}
_POOL = concurrent.futures.ThreadPoolExecutor(max_workers=4)
_FUTURES: dict = {}


def _start(key):
    """Start a command in the background (all of this module's commands are started at
    once by the ``prestart`` fixture: each one pays the interpreter and numba start-up)."""
    if key not in _FUTURES:
        cmd, args = key
        _FUTURES[key] = _POOL.submit(subprocess.run, list(cmd) + list(args), cwd=ROOT, check=False,
                                     capture_output=True, text=True, timeout=300)
    return _FUTURES[key]


def nodes(proc) -> int:
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-800:])
    assert "Traceback" not in proc.stderr
    lines = proc.stdout.strip().splitlines()
    m = re.fullmatch(r"Nodes: (\d+)", lines[-1])
    assert m, f"last stdout line is {lines[-1]!r}"
    return int(m.group(1))


def divide_lines(proc) -> dict:
    lines = proc.stdout.strip().splitlines()[:-1]
    out = {}
    for line in lines:
        m = re.fullmatch(r"(\S+): (\d+)", line)
        assert m, f"not a 'MOVE: COUNT' line: {line!r}"
        assert m.group(1) not in out, f"root move listed twice: {line!r}"
        out[m.group(1)] = int(m.group(2))
    return out


def single_error_line(proc):
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: "), lines[0]
    assert "Nodes:" not in proc.stdout
    return lines[0]


COUNTS = [
    (["normal", "3"], 8902),
    (["capablanca", "3"], 25228),
    (["energizer", "2", "--fen", ENERGIZER_EP], 1220),
    (["enders", "4"], 205),
    (["normal", "0"], 1),
]
ERRORS = [
    (["chess9", "1"], "unknown game"),
    (["normal", "1", "--fen", "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"], "ranks"),
    (["normal", "1", "--fen", "4k3/8/8/8/8/8/8/4K3"], "side to move"),
    (["normal", "-1"], "depth"),
    (["normal", "x"], "depth"),
    (["normal"], "required"),
]
CAPA_CASTLE = "4k5/10/10/10/10/10/10/R1K5R1 w KQ - 0 1"
DIVIDES = [
    ["perft", "normal", "2", "--divide"],
    ["perft", "normal", "3", "--fen", KIWIPETE, "--divide"],
    ["perft", "caparandom", "1", "--fen", CAPA_CASTLE, "--divide"],
]
LEYDEN_ARGS = [
    ["perft", "energizer", "1", "--divide"],
    ["perft", "sultan", "-3"],
]


@pytest.mark.parametrize("args,expected", COUNTS)
def test_perft_counts(args, expected):
    assert nodes(run(["perft"] + args)) == expected


def test_divide_normal_start():
    proc = run(DIVIDES[0])
    total = nodes(proc)
    counts = divide_lines(proc)
    assert total == 400 == sum(counts.values())
    assert len(counts) == 20 and set(counts.values()) == {20}
    assert "e2e4" in counts and "g1f3" in counts


def test_divide_with_fen_and_castling():
    proc = run(DIVIDES[1])
    total = nodes(proc)
    counts = divide_lines(proc)
    assert total == 97862 == sum(counts.values())
    assert len(counts) == 48
    assert {"e1g1", "e1c1", "e5f7"} <= counts.keys()


def test_divide_shuffle_game_names_castling_king_takes_rook():
    proc = run(DIVIDES[2])
    total = nodes(proc)
    counts = divide_lines(proc)
    assert total == len(counts) == sum(counts.values())
    assert {"c1a1", "c1i1"} <= counts.keys()


@pytest.mark.parametrize("args,word", ERRORS)
def test_errors_exit_2_with_one_line(args, word):
    line = single_error_line(run(["perft"] + args))
    assert word in line


def _console_script():
    """The ``leyden`` script pip installed for this interpreter: beside it in a virtual
    environment (whose bin directory need not be on PATH, as in CI), else on PATH."""
    return (shutil.which("leyden", path=str(Path(sys.executable).parent))
            or shutil.which("leyden"))


def test_leyden_console_script_does_the_same():
    script = _console_script()
    assert script, "no leyden console script: install the package (make test does)"
    leyden = [script]
    proc = run(LEYDEN_ARGS[0], leyden)
    assert nodes(proc) == sum(divide_lines(proc).values()) == 33
    assert "depth" in single_error_line(run(LEYDEN_ARGS[1], leyden))
