"""Multi-threaded search (lazy SMP, search/smp.py): legal answers, every limit and stop
obeyed by all threads, helper threads really searching and always finished on return."""
import threading
import time

import pytest

from movegen import Position
from search import MAX_THREADS, Info, Limits, Searcher, warmup
from tests.search.checks import assert_movetime_kept


@pytest.fixture(scope="module")
def searcher():
    warmup()
    return Searcher(hash_mb=8, threads=2)


def helper_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("search-helper")]


@pytest.mark.parametrize("game", ["capablanca", "batteries", "enders"])
def test_two_threads_answer_legally(searcher, game):
    pos = Position(game)
    infos: list[Info] = []
    best, _ = searcher.search(pos, Limits(depth=6), on_info=infos.append)
    assert best in pos.moves()
    assert [i.depth for i in infos] == list(range(1, 7))  # the main thread's iterations
    # (the helper may not have been scheduled at all in so short a search on a busy machine)
    main, helper = searcher.thread_nodes
    assert main > 0 and searcher.nodes == main + helper >= infos[-1].nodes
    assert not helper_threads()


def test_a_helpers_deeper_iteration_is_played_when_time_runs_out(monkeypatch):
    """Cut short on the clock, the search answers with the deepest finished iteration,
    a helper's if it got further than the main thread (here a helper said to have
    finished depth 40 with the PV a2a3)."""
    searcher = Searcher(hash_mb=8, threads=2)
    pos = Position("capablanca")
    a2a3 = pos.parse_move("a2a3").code

    class Deeper:
        completed, result, ss = 40, (17, [a2a3]), searcher._ss

    monkeypatch.setattr(searcher, "_deeper_helper", lambda depth: Deeper if depth < 40 else None)
    infos: list[Info] = []
    best, _ = searcher.search(pos, Limits(movetime=0.3), on_info=infos.append)
    assert best.name == "a2a3" and infos[-1].depth == 40 and infos[-1].score_cp == 17
    assert infos[-2].depth < 40 and infos[-2].pv[0].name != "a2a3"  # the main thread's own


def test_stop_ends_every_thread(searcher):
    pos = Position("capablanca")
    result = {}
    worker = threading.Thread(target=lambda: result.update(
        best=searcher.search(pos, Limits(infinite=True), armed=True)[0]))
    searcher.arm()
    worker.start()
    time.sleep(0.3)
    assert len(helper_threads()) == 1  # the helper runs beside the main thread
    searcher.stop()
    worker.join(10)
    assert not worker.is_alive() and result["best"] in pos.moves()
    assert not helper_threads()
    assert all(n > 0 for n in searcher.thread_nodes)  # both threads searched


def test_stop_before_the_search_starts(searcher):
    pos = Position("sultan")
    searcher.arm()
    searcher.stop()
    best, _ = searcher.search(pos, Limits(infinite=True), armed=True)
    assert best in pos.moves() and not helper_threads()


def test_movetime_with_two_threads(searcher):
    assert_movetime_kept(searcher)
    assert not helper_threads()


def test_node_limit_counts_all_threads(searcher):
    pos = Position("capablanca")
    best, _ = searcher.search(pos, Limits(nodes=20000))
    assert best in pos.moves()
    # each thread gets its share of the limit; the roots' own moves come on top
    assert 0 < searcher.nodes <= 20000 + 2 * 64
    assert searcher.thread_nodes[0] <= 10000 + 64


def test_thread_count_changes_between_searches():
    s = Searcher(hash_mb=1, threads=3)
    pos = Position("normal")
    s.search(pos, Limits(depth=5))
    assert len(s.thread_nodes) == 3
    s.set_threads(1)
    s.search(pos, Limits(depth=5))
    assert len(s.thread_nodes) == 1
    s.set_threads(2)
    best, _ = s.search(pos, Limits(depth=5))
    assert len(s.thread_nodes) == 2 and best in pos.moves()


@pytest.mark.parametrize("bad", [0, -1, MAX_THREADS + 1])
def test_thread_count_out_of_range_is_refused(bad):
    s = Searcher(hash_mb=1)
    with pytest.raises(ValueError):
        s.set_threads(bad)
    assert s.threads == 1


def test_one_thread_is_deterministic():
    """The bench's premise: one thread, fresh tables, same nodes every time."""
    pos = Position("energizer")
    counts = set()
    for _ in range(2):
        s = Searcher(hash_mb=4, threads=1)
        s.search(pos, Limits(depth=6))
        counts.add(s.nodes)
    assert len(counts) == 1


def test_a_failing_helper_is_reported_not_hidden(monkeypatch):
    from search import smp

    reached = threading.Event()

    def broken(self, depth, prev):
        reached.set()
        raise RuntimeError("helper bug")

    searching = smp.SearchThread.iterate

    def main_waits(self, depth, prev):
        # the main thread could otherwise finish depth 4 and stop the helper before its
        # first iteration: a race the test must not depend on
        reached.wait(30)
        return searching(self, depth, prev)

    monkeypatch.setattr(smp.SearchThread, "iterate", main_waits)
    monkeypatch.setattr(smp.Helper, "iterate", broken)
    s = Searcher(hash_mb=1, threads=2)
    with pytest.raises(RuntimeError, match="helper bug"):
        s.search(Position("capablanca"), Limits(depth=4))
    assert not helper_threads()
