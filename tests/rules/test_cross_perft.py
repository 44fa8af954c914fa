"""The fast numba generator against the slow plain-Python ones (slow_*.py beside this file) for the
two games no other program plays: perft from the start and from random playouts."""
import random

import pytest

from movegen import Position
from tests.rules.playout import random_playout
from tests.rules.slow_batteries import SlowBatteries
from tests.rules.slow_enders import SlowEnders


def _playout(rng, fast, slow, plies):
    """Play the same random legal moves in both generators (lists compared on the way)."""
    def same_moves():
        assert sorted(fast.legal_moves()) == sorted(slow.legal_moves()), fast.move_stack
    random_playout(rng, [fast, slow], plies, same_moves)


@pytest.mark.parametrize("seed", range(50))
def test_batteries_perft_agrees_after_random_playout(seed):
    rng = random.Random(seed)
    fast, slow = Position("batteries"), SlowBatteries()
    _playout(rng, fast, slow, rng.randint(4, 60))
    assert fast.fen() == slow.fen()
    assert fast.perft(2) == slow.perft(2), fast.fen()


@pytest.mark.parametrize("seed", range(50))
def test_enders_perft_agrees_after_random_playout(seed):
    rng = random.Random(1000 + seed)
    fast, slow = Position("enders"), SlowEnders()
    _playout(rng, fast, slow, rng.randint(5, 80))
    assert fast.turn == slow.turn and fast.outcome() == slow.outcome()
    assert [fast.perft(d) for d in (1, 2, 3, 4)] == [slow.perft(d) for d in (1, 2, 3, 4)]


def test_start_positions_agree():
    assert [Position("batteries").perft(d) for d in (1, 2, 3)] == \
        [SlowBatteries().perft(d) for d in (1, 2, 3)] == [54, 2918, 174770]
    assert [Position("enders").perft(d) for d in range(1, 8)] == \
        [SlowEnders().perft(d) for d in range(1, 8)] == [5, 22, 55, 205, 709, 2425, 10345]


@pytest.mark.slow
def test_start_position_deep_calibration():
    assert Position("batteries").perft(4) == 10_454_155
    assert [Position("enders").perft(d) for d in (8, 9, 10)] == [41_315, 169_653, 715_272]
