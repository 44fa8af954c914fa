"""A stop that cannot be lost: ``stop`` (UCI) and ``?`` (XBoard) sent at any moment
after ``go`` — before the search thread starts, while it starts, while it runs — end
that search with exactly one answer.

Each search is unbounded (``go infinite``, ``st 300``), so a lost stop shows as a
missing answer within ``ANSWER_WAIT`` seconds instead of a slow test. Both with one
search thread and with two (the helper thread must see the stop as well).
"""
from __future__ import annotations

import random
import time

import pytest

from tests.drivers import EngineProcess

ROUNDS = 300
ANSWER_WAIT = 10.0  # seconds; an answered stop takes milliseconds
UCI_GOS = ["go infinite", "go ponder", "go movetime 300000", "go depth 60",
           "go wtime 300000 btime 300000"]


def _pause(rng: random.Random) -> None:
    """0 to 5 ms, a quarter of the time none at all (the stop then races the start)."""
    if rng.random() >= 0.25:
        time.sleep(rng.uniform(0, 0.005))


@pytest.mark.parametrize("threads", [1, 2])
def test_uci_stop_after_go_always_answers_once(threads):
    rng = random.Random(7)
    with EngineProcess() as eng:
        eng.send("uci")
        eng.expect("uciok", 60)
        eng.send(f"setoption name Threads value {threads}", "isready")
        eng.expect("readyok", 60)
        for n in range(ROUNDS):
            start = eng.mark()
            game = rng.choice(["chess", "capablanca", "batteries", "enders"])
            eng.send(f"setoption name UCI_Variant value {game}", "position startpos",
                     rng.choice(UCI_GOS))
            _pause(rng)
            eng.send("stop")
            got = eng.wait_for("bestmove", ANSWER_WAIT, start)
            assert got is not None, f"round {n}: no bestmove after stop; last lines {eng.lines[-4:]}"
        eng.send("isready")
        end = eng.wait_for("readyok", 30, start)
        assert end is not None
        bestmoves = [line for line in eng.lines if line.startswith("bestmove")]
        assert len(bestmoves) == ROUNDS, f"{len(bestmoves)} bestmoves for {ROUNDS} searches"
        assert all(line != "bestmove (none)" for line in bestmoves)


@pytest.mark.parametrize("threads", [1, 2])
def test_xboard_move_now_after_go_always_answers_once(threads):
    rng = random.Random(8)
    with EngineProcess() as eng:
        eng.send("xboard", "protover 2")
        eng.expect(lambda s: s == "feature done=1", 60)
        eng.send(f"cores {threads}")
        for n in range(ROUNDS):
            game = rng.choice(["normal", "capablanca", "sultan", "batteries"])
            eng.send("new", f"variant {game}", "force", "st 300")
            eng.sync_xboard(1000 + n)
            start = eng.mark()
            eng.send("go")
            _pause(rng)
            eng.send("?", f"ping {n}")
            pong = eng.wait_for(lambda s, n=n: s == f"pong {n}", ANSWER_WAIT, start)
            assert pong is not None, f"round {n}: '?' was lost; last lines {eng.lines[-4:]}"
            moves = [line for line in eng.lines[start:pong] if line.startswith("move ")]
            assert len(moves) == 1, f"round {n}: {moves}"


def test_uci_quit_right_after_stop_keeps_the_bestmove():
    """``stop`` answers before the next command is read, so ``quit`` cannot swallow it."""
    for _ in range(5):
        with EngineProcess() as eng:
            eng.send("uci", "isready")
            eng.expect("readyok", 60)
            eng.send("position startpos", "go infinite", "stop", "quit")
            assert eng.proc.wait(30) == 0
            assert sum(line.startswith("bestmove") for line in eng.lines) == 1
