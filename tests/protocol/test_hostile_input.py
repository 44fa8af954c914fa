"""Hostile numbers and bad positions: each is answered by one clear error line (or a
stated clamp) and leaves the engine as it was. The random version of these is
tests/protocol/test_fuzz.py; here every defect found by hand has its own case."""
from __future__ import annotations

import math
import subprocess
import sys

import pytest

from movegen import Position
from search import MAX_NODES, MAX_SECONDS, Limits, Searcher
from search.searcher import checked_limits
from tests.drivers import ROOT, EngineProcess


# ------------------------------------------------------------------ the search's own guard
def test_limits_clamp_huge_numbers_and_refuse_nan():
    lim = checked_limits(Limits(movetime=math.inf, wtime=1e300, winc=-3, nodes=10**30, depth=0))
    assert lim.movetime == MAX_SECONDS and lim.wtime == MAX_SECONDS and lim.winc == 0
    assert lim.nodes == MAX_NODES and lim.depth == 1
    with pytest.raises(ValueError, match="movetime"):
        checked_limits(Limits(movetime=math.nan))


def test_search_with_huge_limits_searches_and_stops_at_the_depth():
    best, _ = Searcher(hash_mb=1).search(Position("normal"),
                                         Limits(depth=3, nodes=10**300, movetime=1e300))
    assert best in Position("normal").moves()


# ------------------------------------------------------------------ XBoard
def _xboard() -> EngineProcess:
    eng = EngineProcess()
    eng.send("xboard", "protover 2")
    eng.expect(lambda s: s == "feature done=1", 60)
    eng.mark()
    return eng


@pytest.mark.parametrize("command", [
    "level 40 inf 0", "level 40 nan 0", "level 40 5 nan", "level inf 5 0", "level 40 5 -1",
    "st inf", "st nan", "st 0", "st -0", "st -5", "sd nan", "time nan", "otim inf",
    "nps inf", "memory nan",
])
def test_xboard_bad_number_is_one_error_line_and_changes_nothing(command):
    with _xboard() as eng:
        eng.send("new", "force", "st 1", "sd 2", "post")
        eng.sync_xboard(1)
        eng.send(command)
        lines = eng.sync_xboard(2)
        assert len(lines) == 1 and lines[0].startswith("Error (") and command in lines[0], lines
        # the earlier settings still hold: a depth-2 search answers with a move
        eng.send("go")
        eng.expect("move ", 30)
        assert not eng.errors


@pytest.mark.parametrize("command", ["st 1e308", "time 1e300", "otim 99999999999999999999",
                                     "level 0 1e300 1e300", "nps 1e300", "memory 1e300"])
def test_xboard_huge_number_is_clamped_and_the_engine_still_searches(command):
    with _xboard() as eng:
        eng.send("new", "force", "post", "sd 3", command)
        assert eng.sync_xboard(1) == []  # accepted without complaint
        start = eng.mark()
        eng.send("go")
        eng.expect("move ", 30, start)
        # searched, not the first legal move played blind: a depth-3 report came first
        assert any(line.startswith("3 ") for line in eng.lines[start:]), eng.lines[start:]
        assert not eng.errors


def test_xboard_move_now_ends_a_long_fixed_time_search():
    with _xboard() as eng:
        eng.send("new", "st 1e308", "go")
        eng.send("?")
        eng.expect("move ", 10)


# ------------------------------------------------------------------ UCI
def _uci() -> EngineProcess:
    eng = EngineProcess()
    eng.send("uci", "isready")
    eng.expect("readyok", 60)
    return eng


@pytest.mark.parametrize("go", ["go movetime nan", "go wtime inf btime 100", "go nodes nan",
                                "go depth inf", "go movestogo nan wtime 100 btime 100"])
def test_uci_bad_number_refuses_the_go_with_one_line(go):
    with _uci() as eng:
        start = eng.mark()
        eng.send("position startpos", go, "isready")
        end = eng.wait_for("readyok", 30, start)
        lines = eng.lines[start:end]
        assert len(lines) == 1 and lines[0].startswith("info string error: go refused"), lines


@pytest.mark.parametrize("go", ["go nodes 1e300 depth 3", "go depth 3 movetime 1e300",
                                "go depth 3 wtime 99999999999999999999 btime 1e300 winc 1e300",
                                "go depth 3 movestogo 1e300 wtime 100000 btime 100000"])
def test_uci_huge_numbers_are_clamped_and_searched(go):
    with _uci() as eng:
        start = eng.mark()
        eng.send("position startpos", go)
        eng.expect("bestmove", 30, start)
        assert any(line.startswith("info depth 3 ") for line in eng.lines[start:])
        assert not eng.errors


def test_uci_go_movetime_huge_waits_for_stop():
    with _uci() as eng:
        start = eng.mark()
        eng.send("position startpos", "go movetime 1e300", "stop")
        eng.expect("bestmove", 10, start)


def test_uci_position_without_startpos_or_fen_is_refused():
    with _uci() as eng:
        start = eng.mark()
        eng.send("position startpos moves e2e4", "position moves d2d4", "d", "isready")
        end = eng.wait_for("readyok", 30, start)
        lines = eng.lines[start:end]
        assert lines[0].startswith("info string error: position needs startpos or fen")
        assert lines[1].endswith("/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")  # the earlier position is kept
        assert not eng.errors


@pytest.mark.parametrize("option", ["Seed value nan", "Move Overhead value inf", "Hash value nan"])
def test_uci_bad_option_number_is_one_error_line(option):
    with _uci() as eng:
        start = eng.mark()
        eng.send(f"setoption name {option}", "isready")
        end = eng.wait_for("readyok", 30, start)
        lines = eng.lines[start:end]
        assert len(lines) == 1 and lines[0].startswith("info string error: "), lines


# ------------------------------------------------------------------ positions
@pytest.mark.parametrize("game,fen,reason", [
    ("normal", "4k3/8/8/8/8/8/8/4K3 w - - 99999999999999999999 1", "half-move clock"),
    ("normal", "4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999999999999", "move number"),
    ("normal", "4k3/8/8/8/8/8/8/4K3 w - - \u00b2 1", "half-move clock"),
    ("enders", "**1**/5/5/5/5/5/5/5/5/5/**1**[RRBBKKNNrrbbkknnRRRR] w - - 0 1", "army"),
    ("enders", "**1**/5/5/5/5/5/5/5/5/5/**1**[" + "R" * 24 + "rrbbkknn] w - - 0 1", "army"),
    ("enders", "**1**/5/5/5/5/R4/5/5/5/5/**1**[RRBBKKNNrrbbkknn] w - - 0 1", "army"),
])
def test_bad_position_is_a_value_error_with_its_reason(game, fen, reason):
    with pytest.raises(ValueError, match=reason):
        Position(game, fen)


def test_full_ender_army_split_between_board_and_hand_is_accepted():
    pos = Position("enders", "**1**/5/5/5/5/R4/5/5/5/5/**1**[RBBKKNNrrbbkknn] w - - 0 1")
    assert pos.legal_moves()


def test_cli_bad_fen_exits_2_with_one_line():
    run = subprocess.run(
        [sys.executable, "-m", "engine", "perft", "normal", "2", "--fen",
         "4k3/8/8/8/8/8/8/4K3 w - - 99999999999999999999 1"],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [
        "error: half-move clock 99999999999999999999 is out of range (at most 10000)"]
