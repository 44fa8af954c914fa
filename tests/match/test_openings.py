"""Random balanced plies (match/openings.py): the openings ``--random-plies`` plays."""
import pytest

from match.openings import OpeningBook, material_balance, wins_at_once
from movegen import Position
from movegen.games import find_game


def _played(game, opening) -> Position:
    pos = Position(game, opening.start_fen)
    for move in opening.moves:
        pos.push(move)
    return pos


def test_a_mate_in_one_is_a_win_at_once():
    pos = Position(find_game("normal"))
    for move in ("f2f3", "e7e5", "g2g4"):
        pos.push(move)
    assert wins_at_once(pos)  # Qh4#
    pos.push("a7a6")
    assert not wins_at_once(pos)


@pytest.mark.parametrize("name", ["normal", "capablanca", "energizer", "sultan"])
def test_no_opening_leaves_a_win_at_once(name):
    # seed 2024, as the strength table plays: energizer's openings 24 and 114 and normal's
    # 80 let White mate at once before the side to move was asked whether it could
    game = find_game(name)
    book = OpeningBook(game, 2024, plies=6)
    for index in range(120):
        pos = _played(game, book(index))
        assert len(book(index).moves) == 6
        assert pos.outcome() is None and not pos.in_check()
        assert not wins_at_once(pos), (index, book(index).moves)
        assert material_balance(game, pos.fen()) == 0
