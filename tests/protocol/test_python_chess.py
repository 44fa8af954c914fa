"""python-chess's ``chess.engine`` drives Leyden in orthodox chess over UCI and XBoard:
full games, analysis, stop, ping; every move legal according to python-chess."""
from __future__ import annotations

import time

import chess
import chess.engine
import pytest

from tests.drivers import open_engine


@pytest.fixture(params=["uci", "xboard"])
def engine(request):
    eng = open_engine(request.param)
    yield eng
    eng.quit()


def play_game(engine, limit, max_plies=300) -> chess.Board:
    board = chess.Board()
    while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
        result = engine.play(board, limit)
        assert result.move in board.legal_moves, (result.move, board.fen())
        board.push(result.move)
    return board


def test_full_game_at_a_short_time_control(engine):
    inc = 0.1
    clock = {chess.WHITE: 6.0, chess.BLACK: 6.0}
    board = chess.Board()
    while not board.is_game_over(claim_draw=True) and board.ply() < 160:
        limit = chess.engine.Limit(white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                                   white_inc=inc, black_inc=inc)
        start = time.monotonic()
        result = engine.play(board, limit)
        clock[board.turn] += inc - (time.monotonic() - start)
        assert clock[board.turn] > 0, "lost on time"
        assert result.move in board.legal_moves, (result.move, board.fen())
        board.push(result.move)
    assert board.ply() > 0


def test_game_with_fixed_time_per_move(engine):
    board = play_game(engine, chess.engine.Limit(time=0.05), max_plies=60)
    assert board.ply() > 0


def test_node_limit(engine):
    """python-chess's node limit (UCI ``go nodes``; XBoard ``nps 1`` and ``st N``)."""
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3")
    result = engine.play(board, chess.engine.Limit(nodes=3000), info=chess.engine.INFO_ALL)
    assert result.move in board.legal_moves
    assert 0 < result.info["nodes"] <= 3000, result.info


def test_analysis_reports_and_stops(engine):
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3")
    with engine.analysis(board) as analysis:
        infos = []
        start = time.monotonic()
        for info in analysis:
            if "pv" in info:
                infos.append(info)
            if len(infos) >= 3 or time.monotonic() - start > 5:
                break
        analysis.stop()
        t = time.monotonic()
        best = analysis.wait()
        assert time.monotonic() - t < 10
    assert infos, "no info with a principal variation"
    for info in infos:
        assert info["pv"][0] in board.legal_moves
    assert best is None or best.move in board.legal_moves
    engine.ping()
    # mate in one is found and reported
    info = engine.analyse(board, chess.engine.Limit(depth=3))
    assert info["pv"][0] == chess.Move.from_uci("f3f7")
    assert info["score"].relative.is_mate()


def test_ping_and_options(engine):
    engine.ping()
    if "Hash" in engine.options:
        engine.configure({"Hash": 16})
    engine.ping()


def test_tune_option_through_configure(engine):
    """The Tune option as a GUI or tuner sets it: listed as a string option, taken by
    ``configure``, and the engine plays on with the changed settings, then its own."""
    assert engine.options["Tune"].type == "string"
    board = chess.Board()
    for value in ("futility_margin=95,razor_margin=280", ""):
        engine.configure({"Tune": value})
        assert engine.play(board, chess.engine.Limit(depth=4)).move in board.legal_moves
