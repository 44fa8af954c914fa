"""Position.parse_move finds a move by its two squares before it spells every legal move;
what it finds must be what the full table of spellings says, for every spelling."""
import random

import pytest

from movegen import GAMES, IllegalMoveError, Position
from movegen.move import aliases


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_spelling_parses_as_the_full_table_says(game):
    rng = random.Random(game)
    pos = Position(game, seed=3)
    for _ in range(20):
        moves = pos.moves()
        if not moves or pos.outcome() is not None:
            break
        table = pos._legal()
        for mv in moves:
            for text in [mv.name, *aliases(pos.game, mv)]:
                assert pos.copy().parse_move(text) == table[text], text
        pos.push(rng.choice(moves).name)


def test_a_move_of_the_right_squares_but_not_legal_is_refused():
    pos = Position("normal")
    for text in ("e2e5", "e2e4q", "e7e5", "z9z9", "e2e4e5"):
        with pytest.raises(IllegalMoveError):
            pos.parse_move(text)
