"""The number of search threads over both protocols: UCI ``Threads`` (advertised, set
through python-chess), XBoard ``cores`` with ``feature smp=1``; bad values answered with
one error line; the engine process really runs that many search threads."""
from __future__ import annotations

import os
import time

import chess
import chess.engine
from tests.drivers import EngineProcess, open_engine

from movegen import Position
from search import MAX_THREADS


def os_threads(eng: EngineProcess) -> int:
    return len(os.listdir(f"/proc/{eng.proc.pid}/task"))


def test_uci_threads_option_through_python_chess():
    engine = open_engine("uci")
    try:
        option = engine.options["Threads"]
        assert (option.type, option.default, option.min, option.max) == ("spin", 1, 1, MAX_THREADS)
        engine.configure({"Threads": 2})
        board = chess.Board()
        for _ in range(4):
            result = engine.play(board, chess.engine.Limit(time=0.1))
            assert result.move in board.legal_moves
            board.push(result.move)
        info = engine.analyse(board, chess.engine.Limit(nodes=30000))
        assert 0 < info["nodes"] <= 30000 + 2 * 64  # both threads' nodes, within the limit
    finally:
        engine.quit()


def _uci_threads_while_searching(eng: EngineProcess, threads: int) -> int:
    """OS threads of the engine process during a ``go infinite`` with ``threads``."""
    eng.send(f"setoption name Threads value {threads}", "position startpos")
    eng.sync_uci()
    start = eng.mark()
    eng.send("go infinite")
    eng.expect(lambda s: s.startswith("info depth 3 "), 60, start)
    count = os_threads(eng)
    eng.send("stop")
    eng.expect("bestmove", 30, start)
    eng.mark()  # the next sync reads from here
    return count


def test_uci_threads_run_and_bad_values_get_one_error_line():
    with EngineProcess() as eng:
        eng.send("uci")
        eng.expect("uciok", 60)
        eng.sync_uci()
        one = _uci_threads_while_searching(eng, 1)
        assert _uci_threads_while_searching(eng, 3) == one + 2  # two helper threads
        for bad in ("abc", "", "nan", "2x"):
            eng.send(f"setoption name Threads value {bad}".rstrip())
            lines = eng.sync_uci()
            assert len(lines) == 1 and lines[0].startswith("info string error: Threads needs"), lines
        # the last good value (3) still holds
        assert _uci_threads_while_searching(eng, 3) == one + 2
        eng.send("setoption name Threads value 500")  # beyond the maximum: taken as it
        assert eng.sync_uci() == []


def test_xboard_cores():
    with EngineProcess() as eng:
        eng.send("xboard", "protover 2")
        eng.expect(lambda s: s == "feature done=1", 60)
        assert any(" smp=1 " in s for s in eng.lines if s.startswith("feature "))
        counts = {}
        for cores in (1, 2):
            eng.send(f"cores {cores}", "new", "force", "post")
            eng.sync_xboard(cores)
            start = eng.mark()
            eng.send("analyze")
            eng.expect(lambda s: s.startswith("3 "), 60, start)  # thinking output, depth 3
            counts[cores] = os_threads(eng)
            eng.send("exit")
            eng.sync_xboard(10 + cores)
        assert counts[2] == counts[1] + 1
        for bad in ("x", "", "-"):
            eng.send(f"cores {bad}".rstrip())
            lines = eng.sync_xboard(20)
            assert len(lines) == 1 and lines[0].startswith("Error (cores needs"), lines
        eng.send("cores 2", "new", "variant capablanca", "st 1", "go")
        move = eng.expect(lambda s: s.startswith("move "), 30)
        pos = Position("capablanca")
        assert move.split()[1] in {m.xboard_text(pos.game) for m in pos.moves()}


def test_uci_ponderhit_with_two_threads_answers_once_within_the_clock():
    with EngineProcess() as eng:
        eng.send("uci", "setoption name Threads value 2", "position startpos moves e2e4 e7e5")
        eng.sync_uci()
        for _ in range(3):
            start = eng.mark()
            eng.send("go ponder wtime 2000 btime 2000")
            eng.expect("info depth 2 ", 30, start)  # pondering, helper running
            hit = time.monotonic()
            eng.send("ponderhit")
            eng.expect("bestmove", 30, start)
            assert time.monotonic() - hit < 2.0  # the 2 s clock, counted from the ponderhit
            eng.sync_uci()
            assert sum(s.startswith("bestmove") for s in eng.lines[start:]) == 1
