"""Ender's Chess: the search skips one of the two orders of two commuting piece moves of
a turn (``movegen.enders.reordered_turn``). Each pair is kept in one order only, and no
position a turn can reach is lost."""
import random

import pytest

from movegen import Position
from movegen import kernel
from movegen import layout as L
from movegen.core import m_flag
from movegen.enders import reordered_turn
from tests.rules.board_text import placement

HOLES = {f + r for f in "abde" for r in ("1", "11")}


def _skipped(pos: Position, move: str) -> bool:
    m = pos.parse_move(move).code
    return bool(reordered_turn(pos.tables.G, pos.board, pos.st, pos.undo, m))


def _after(fen: str, *moves: str) -> Position:
    pos = Position("enders", fen)
    for mv in moves:
        pos.push(mv)
    return pos


# White: Rooks on a3 and e8, a Bishop on c5; Black: Knights on b6 and c9; no reserves
FEN = "**1**/5/2n2/4R/5/1n3/2B2/5/R4/5/**1**[] w - - 0 1"


def test_independent_moves_are_searched_in_one_order_only():
    # the two Rooks are far apart: the order with the lower origin square first is kept
    assert _skipped(_after(FEN, "e8e10"), "a3a5")
    assert not _skipped(_after(FEN, "a3a5"), "e8e10")
    # the quiet Bishop move after the e8 Rook's is skipped too (c5 is below e8) ...
    assert _skipped(_after(FEN, "e8e10"), "c5d6")
    # ... but not its capture of the Knight: a capture can end the game, so it is never
    # put first
    assert not _skipped(_after(FEN, "e8e10"), "c5b6")


def test_moves_that_meet_are_searched_in_both_orders():
    # the Bishop lands where the Rook stood
    assert not _skipped(_after(FEN, "a3a5"), "c5a3")
    # the Bishop's step c5e3 passes d4: the square a Rook left, or the one it lands on
    fen = "**1**/5/2n2/5/5/5/2B2/3R1/5/5/**1**[] w - - 0 1"  # Rook d4
    assert not _skipped(_after(fen, "d4d2"), "c5e3")
    fen = "**1**/5/2n2/5/5/5/2B2/5/5/3R1/**1**[] w - - 0 1"  # Rook d2
    assert not _skipped(_after(fen, "c5e3"), "d2d4")
    # the same Rook's step d2c2 meets none of those squares: one order only (d2 first)
    assert _skipped(_after(fen, "c5e3"), "d2c2")
    assert not _skipped(_after(fen, "d2c2"), "c5e3")


def test_gate_entries_and_first_actions_are_never_reordered():
    # a Knight entering the enemy gate ends the turn: never put first
    fen = "**1**/4R/1N3/5/5/5/5/5/5/n4/**1**[] w - - 0 1"  # Rook e10, Knight b9, Black a2
    assert not _skipped(_after(fen, "e10e8"), "b9c11")
    assert _skipped(_after(fen, "e10e8"), "b9a7")
    # the first action of a turn has nothing before it
    pos = Position("enders", FEN)
    assert not any(_skipped(pos, mv) for mv in pos.legal_moves())


def _reachable(pos: Position, actions: int, prune: bool) -> tuple[set, int]:
    """Hashes of the positions ``actions`` more actions of this turn reach (not ending
    it), following every legal action or only those ``reordered_turn`` keeps; and how
    many moves it skipped."""
    G, board, st, undo = pos.tables.G, pos.board, pos.st, pos.undo
    side = st[L.S_SIDE]
    seen = set()
    skipped = 0

    def walk(left):
        nonlocal skipped
        seen.add((left, int(st[L.S_HASH])))
        if left == 0:
            return
        for m in pos.legal_move_codes():
            if m_flag(m) == L.F_END:
                continue
            if prune and reordered_turn(G, board, st, undo, m):
                skipped += 1
                continue
            kernel.make(G, board, st, undo, m)
            if st[L.S_RESULT] == 0 and st[L.S_SIDE] == side:
                walk(left - 1)
            kernel.unmake(G, board, st, undo)

    walk(actions)
    return seen, skipped


def _random_position(rng) -> Position:
    """White to move at the start of a turn with six of its pieces on random cells
    (gates excluded) and two in reserve, Black with four and four."""
    cells = rng.sample([f + str(r) for f in "abcde" for r in range(2, 11)], 10)
    white, black = rng.sample("RRBBKKNN", 8), rng.sample("rrbbkknn", 8)
    pieces = dict(zip(cells, white[:6] + black[:4]))
    reserve = "".join(white[6:]) + "".join(black[4:])
    return Position("enders", "%s[%s] w - - 0 1" % (placement(pieces, 5, 11, HOLES), reserve))


@pytest.mark.parametrize("seed", range(4))
def test_no_position_of_the_turn_is_lost(seed):
    pos = _random_position(random.Random(seed))
    full, _ = _reachable(pos, 3, False)
    kept, skipped = _reachable(pos, 3, True)
    assert kept == full
    assert skipped > 0  # and some orders were skipped
