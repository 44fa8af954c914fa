"""The move buffers give each ply MAX_MOVES slots and the generators write unchecked, so
every game's proven bound (movegen/bounds.py) must fit, and no position may exceed it."""
import random

import pytest

from movegen import GAMES, Position
from movegen import layout as L
from movegen.bounds import move_bound
from movegen.tables import Geometry


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_bound_fits_the_buffers(name):
    game = GAMES[name]
    assert 0 < move_bound(game, Geometry(game)) <= L.MAX_MOVES


@pytest.mark.parametrize("name", list(GAMES))
def test_random_games_never_exceed_the_bound(name):
    bound = move_bound(GAMES[name], Geometry(GAMES[name]))
    rng = random.Random(11)
    most = 0
    for _ in range(5):
        pos = Position(name, seed=rng.randrange(1000))
        for _ in range(150):
            moves = pos.legal_moves()
            most = max(most, len(moves))
            if not moves or pos.outcome() is not None:
                break
            pos.push(rng.choice(moves))
    assert most <= bound


# A crowded Batteries position: every piece beside a Battery, so every one is charged.
CROWDED = "k9/10/10/1ALALAL3/1DBDBDB3/1OEOEOE3/1ALALAL3/10/10/K9 w - - 0 1"


def test_a_crowded_batteries_position_stays_under_the_bound():
    pos = Position("batteries", CROWDED)
    n = len(pos.legal_moves())
    assert 150 < n <= move_bound(GAMES["batteries"], Geometry(GAMES["batteries"]))
    assert n == len(set(pos.legal_moves()))
