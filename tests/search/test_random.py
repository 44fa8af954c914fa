"""Self-consistency: over 500 random positions of every game the search always answers
with a legal move, whether it completes its iterations or is cut off by a node limit
in the middle of one."""
import random

import pytest

from movegen import GAMES, Position
from search import Limits, Searcher


def _random_positions(game, count, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = Position(game, seed=rng.randrange(1000) if game.endswith("random") else None)
        for _ in range(rng.randrange(2, 60)):
            if pos.outcome() is not None:
                break
            pos.push(rng.choice(pos.legal_moves()))
        if pos.outcome() is None:
            out.append(pos)
    return out


@pytest.mark.parametrize("game", list(GAMES))
def test_random_positions_get_legal_moves(game):
    searcher = Searcher(hash_mb=4)
    for i, pos in enumerate(_random_positions(game, 63, seed=sum(map(ord, game)))):
        limits = Limits(depth=4) if i % 2 else Limits(nodes=300 + 97 * i)
        best, ponder = searcher.search(pos, limits)
        assert best in pos.moves(), (pos.fen(), best)
        if ponder is not None:
            pos.push(best)
            assert ponder in pos.moves(), (pos.fen(), ponder)
