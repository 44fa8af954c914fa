"""Limits, stopping, special root positions, draws, progress reports and the API."""
import threading
import time
from itertools import pairwise

import pytest

from movegen import Position
from search import Info, Limits, Searcher, warmup
from search.timeman import budget
from tests.search.checks import assert_movetime_kept

MATE_IN_ONE = ("normal", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")


@pytest.fixture(scope="module")
def searcher():
    warmup()
    return Searcher(hash_mb=8)


def test_node_limit(searcher):
    pos = Position("capablanca")
    best, _ = searcher.search(pos, Limits(nodes=5000))
    assert best in pos.moves()
    assert 0 < searcher.nodes <= 5000 + 64  # the root's own moves are counted on top


def test_tiny_node_limit_still_answers(searcher):
    pos = Position("batteries")
    best, _ = searcher.search(pos, Limits(nodes=1))
    assert best in pos.moves()


def test_depth_limit_and_reports(searcher):
    infos: list[Info] = []
    pos = Position("sultan")
    best, ponder = searcher.search(pos, Limits(depth=5), on_info=infos.append)
    assert [i.depth for i in infos] == [1, 2, 3, 4, 5]
    last = infos[-1]
    assert last.pv[0] == best and ponder == last.pv[1]
    assert last.score_cp is not None and last.mate is None
    assert last.seldepth >= 5 and last.nodes == searcher.nodes and last.time >= 0
    assert all(a.nodes <= b.nodes for a, b in pairwise(infos))


def test_movetime(searcher):
    assert_movetime_kept(searcher)


def test_clock_without_movestogo(searcher):
    pos = Position("energizer")
    start = time.perf_counter()
    best, _ = searcher.search(pos, Limits(wtime=2.0, btime=2.0, winc=0.02, binc=0.02))
    assert best in pos.moves()
    assert time.perf_counter() - start < 0.8


def test_time_budget_shapes():
    sudden = budget(Limits(wtime=2.0, winc=0.02), True)
    assert 0 < sudden.soft <= sudden.hard < 0.7
    last_move = budget(Limits(wtime=1.0, movestogo=1), True)
    assert last_move.hard < 0.97
    assert budget(Limits(btime=0.01), False).hard > 0  # always a little time
    assert budget(Limits(infinite=True, wtime=5.0), True).hard is None
    assert budget(Limits(movetime=1.0), True).hard <= 1.0
    assert budget(Limits(depth=3), True).hard is None


def _answer_time(plan, history):
    """Elapsed time (in steps of 1% of the hard limit) at which ``plan`` answers, the
    iterations giving (best move, score) from ``history`` in turn, one per step."""
    step = plan.hard / 100
    for i in range(1, 101):
        best, score = history[min(i, len(history)) - 1]
        if plan.done(i * step, best, score):
            return i * step
    return None


def test_time_goes_where_the_decision_is_open():
    limits = Limits(wtime=60.0, winc=0.5)
    stable = _answer_time(budget(limits, True), [(1, 20)])
    changing = _answer_time(budget(limits, True), [(1, 20), (2, 20), (1, 20), (2, 20)] * 30)
    falling = _answer_time(budget(limits, True), [(1, 20 - 10 * i) for i in range(100)])
    plain = budget(limits, True).soft
    assert stable < plain < changing
    assert plain < falling
    # never past the point where the next iteration could not finish before the hard limit
    assert max(stable, changing, falling) <= budget(limits, True).hard / 2.5 + budget(limits, True).hard / 100
    assert not budget(Limits(movetime=1.0), True).done(0.9, 1, 0)  # fixed time: the timer ends it


def test_a_game_on_the_clock_is_not_lost_on_time(searcher):
    """2 s + 0.02 s per move: the clock never runs out over 40 moves of one side."""
    pos = Position("capablanca")
    clock = 2.0
    for _ in range(40):
        if pos.outcome() is not None:
            break
        white = pos.turn == "w"
        start = time.perf_counter()
        best, _ = searcher.search(pos, Limits(wtime=clock, btime=clock, winc=0.02, binc=0.02))
        if white:
            clock += 0.02 - (time.perf_counter() - start)
            assert clock > 0.2
        pos.push(best)


def test_stop_from_another_thread(searcher):
    pos = Position("capablanca")
    result = {}
    worker = threading.Thread(target=lambda: result.update(r=searcher.search(pos, Limits())))
    start = time.perf_counter()
    worker.start()
    time.sleep(0.3)
    searcher.stop()
    worker.join(timeout=5)
    assert not worker.is_alive()
    assert time.perf_counter() - start < 2.0
    assert result["r"][0] in pos.moves()


def test_infinite_waits_for_stop(searcher):
    """Analysis: even a position solved at once is answered only after stop()."""
    pos = Position(*MATE_IN_ONE)
    result = {}
    worker = threading.Thread(
        target=lambda: result.update(r=searcher.search(pos, Limits(infinite=True))))
    worker.start()
    worker.join(timeout=0.5)
    assert worker.is_alive()
    searcher.stop()
    worker.join(timeout=5)
    assert result["r"][0].name == "a1a8"


def test_one_legal_move(searcher):
    pos = Position("normal", "k7/8/8/8/8/8/1q6/K7 w - - 0 1")
    assert pos.legal_moves() == ["a1b2"]
    infos = []
    best, _ = searcher.search(pos, Limits(wtime=10.0, btime=10.0), on_info=infos.append)
    assert best.name == "a1b2" and infos  # answered with a report, without thinking long


@pytest.mark.parametrize("fen", [
    "8/8/8/8/8/2k5/1q6/K7 w - - 0 1",  # checkmate
    "8/8/8/8/8/8/2q5/K6k w - - 0 1",  # stalemate
])
def test_no_legal_move(searcher, fen):
    assert searcher.search(Position("normal", fen), Limits(depth=3)) == (None, None)


def test_enders_game_over_has_no_move(searcher):
    pos = Position("enders", "**1**/5/5/5/5/5/5/5/1n3/4R/**1** b - - 0 1")
    pos.push("b3c1")
    assert pos.outcome() is not None
    assert searcher.search(pos, Limits(depth=2)) == (None, None)


def test_repetition_is_a_draw(searcher):
    """A queen down, White can repeat the position: Rb1-c1 recreates one already seen."""
    pos = Position("normal", "7k/8/8/8/3q4/8/8/1R5K w - - 0 1")
    for mv in ("b1c1", "h8g8", "c1b1", "g8h8"):
        pos.push(mv)
    infos = []
    searcher.new_game()
    best, _ = searcher.search(pos, Limits(depth=4), on_info=infos.append)
    assert best.name == "b1c1"
    assert infos[-1].score_cp == 0


def test_fifty_move_rule_is_a_draw(searcher):
    """Up a rook, but the 100th quiet ply comes now: nothing to win any more."""
    fen = "7k/8/8/8/8/8/8/R6K w - - 99 80"
    infos = []
    searcher.new_game()
    searcher.search(Position("normal", fen), Limits(depth=3), on_info=infos.append)
    assert infos[-1].score_cp == 0
    searcher.search(Position("normal", fen.replace(" 99 ", " 0 ")), Limits(depth=3),
                    on_info=infos.append)
    assert infos[-1].score_cp > 300


def test_search_leaves_the_position_alone(searcher):
    pos = Position("batteries")
    fen, history = pos.fen(), pos.move_stack
    searcher.search(pos, Limits(depth=3))
    assert pos.fen() == fen and pos.move_stack == history


def test_hash_resize_and_new_game(searcher):
    s = Searcher(hash_mb=1)
    s.set_hash(2)
    s.new_game()
    best, _ = s.search(Position("normal"), Limits(depth=3))
    assert best in Position("normal").moves()
