"""Singular extension's exclusion search (search/alphabeta.py): a node searched with one
move excluded scores as if that move did not exist, never plays it, and stores no
verdict of its own in the node's transposition-table entry (a node's verdict covers
every move, the exclusion search's does not); the same node without the exclusion finds
the move."""
import numpy as np
import pytest

from movegen import Position
from search.alphabeta import negamax
from search.evaluate import build_eval
from search.smp import SearchThread, reset_for_search
from search.state import EXCLUDED, INF, ROOT_DEPTH, pv_slot
from search.tt import new_table, tt_depth, tt_probe

PLY = 1  # the node sits one ply below the root, where the search meets it first
DEPTH = 4

# (game, FEN, the one move that wins: the exclusion search must do without it)
ONLY_MOVES = [
    # the rook takes the queen that attacks it; anything else loses the rook
    ("capablanca", "5k4/10/10/4q5/10/10/4R5/5K4 w - - 0 1", "e2e5"),
    ("normal", "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", "d2d5"),
]


def _search_node(pos, excluded: int):
    """Score of ``pos`` searched to DEPTH as the node at PLY (full window) with
    ``excluded`` left out (0: none), the best move it found, and its table."""
    thread = SearchThread()
    tt = new_table(1)
    thread.set_position(pos, tt, build_eval(pos.game, network=False))
    reset_for_search(thread.ss, 0, 1)
    thread.prepare_root()
    G, board, st, undo, buf, tt, ss, ev = thread._args
    ss[ROOT_DEPTH] = DEPTH
    ss[EXCLUDED + PLY] = excluded
    score = negamax(G, board, st, undo, buf, tt, ss, ev, np.int64(PLY), np.int64(DEPTH),
                    np.int64(-INF), np.int64(INF), False, np.int64(-2))
    return int(score), int(ss[pv_slot(PLY, PLY)]), tt


@pytest.mark.parametrize("game,fen,move", ONLY_MOVES)
def test_exclusion_search_does_without_the_move(game, fen, move):
    pos = Position(game, fen)
    code = pos.parse_move(move).code
    key = np.int64(pos.hash)
    full, full_best, full_tt = _search_node(pos, 0)
    assert full_best == code and full > 500  # the queen is won
    without, best, tt = _search_node(pos, code)
    assert best != code
    assert without < 0  # the rook is lost, or the queen keeps attacking it
    assert tt_probe(full_tt, key) >= 0  # an ordinary node leaves its verdict ...
    # ... the exclusion search does not. An entry of a shallower search may stand there:
    # deeper in the tree the kings can walk back to this position, whose quiescence
    # search then stores its own depth-0 entry under the same key.
    e = tt_probe(tt, key)
    assert e < 0 or tt_depth(tt, e) < DEPTH
