"""``gives_check`` (movegen/kernel.py), the search's check test after a move, finds from
the move what ``in_check`` finds by looking at every line to the king: the two must agree
after every legal move of random positions of every game, and of positions chosen for
discovered checks, checks by each kind of piece, castling, en passant and promotions.
``gives_check_before``, the same question asked before the move is made, must give the
same answer wherever it answers (not -1), and answer every move but Ender's (which has no
check) and the chess-likes' castling, en passant and promotions."""
import random

import numpy as np
import pytest

from movegen import GAMES, Position
from movegen.games import CHESS, ENDERS
from movegen.kernel import gives_check, gives_check_before, in_check, make, unmake

SPECIAL = [
    ("normal", "4k3/8/8/8/1B6/8/3N4/4K3 w - - 0 1"),  # knight: direct; bishop behind it
    ("normal", "4k3/4p3/8/8/8/8/4R3/4K3 w - - 0 1"),  # rook's line blocked by a pawn
    ("normal", "4k3/8/8/8/4P3/8/8/K3R3 w - - 0 1"),  # a pawn stepping along the rook's line
    ("normal", "4k3/8/8/3Pp3/8/8/8/R3K2R w KQ e6 0 1"),  # en passant, castling into check
    ("normal", "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1"),  # castling: the rook gives check from d1
    ("normal", "3k4/1P6/8/8/8/8/8/4K3 w - - 0 1"),  # promotion with check
    ("capablanca", "4k5/10/10/10/10/10/3C6/4KA4 w - - 0 1"),  # chancellor and archbishop leaps
    ("energizer", "4k3/8/8/8/8/8/1BA5/4K3 w - - 0 1"),
    ("sultan", "5k4/10/10/10/10/10/10/5K4 w - - 0 1"),
]


def _check_every_move(pos):
    G, board, st, undo = pos.tables.G, pos.board, pos.st, pos.undo
    checks = 0
    for m in pos.legal_move_codes():
        before = gives_check_before(G, board, st, np.int64(m))
        make(G, board, st, undo, np.int64(m))
        expected = in_check(G, board, st)
        assert gives_check(G, board, st, np.int64(m)) == expected, (pos.fen(), pos.move_name(m))
        unmake(G, board, st, undo)
        assert before in (-1, int(expected)), (pos.fen(), pos.move_name(m))
        # only Ender's (no check there) and the chess-likes' special moves are left unanswered
        family = pos.game.family
        assert before != -1 or family == ENDERS or (family == CHESS and _needs_make(pos.move(m))), \
            pos.move_name(m)
        checks += expected
    return checks


def _needs_make(move):
    """Castling, en passant and promotions: the chess-likes' moves told only by making them."""
    return move.castle_rook is not None or move.captured_square is not None or move.promotion is not None


@pytest.mark.parametrize("game", sorted(GAMES))
def test_agrees_with_in_check_in_random_games(game):
    rng = random.Random(11)
    checks = 0
    for _ in range(6):
        pos = Position(game, seed=rng.randrange(960))
        for _ in range(80):
            if pos.outcome() is not None:
                break
            checks += _check_every_move(pos)
            pos.push_code(int(rng.choice(pos.legal_move_codes())))
    assert game == "enders" or checks > 20  # the checks were there to find


@pytest.mark.parametrize("game,fen", SPECIAL, ids=[f"{g}-{i}" for i, (g, _) in enumerate(SPECIAL)])
def test_agrees_with_in_check_in_chosen_positions(game, fen):
    _check_every_move(Position(game, fen))
