"""The chess-likes' pawn-structure cache (search/evaluate.py ``_pawn_row``): the row an
evaluation leaves for its pawns holds what plain Python counts on the board (doubled,
isolated and passed pawns, the files each colour's pawns stand on), and an evaluation
is the same whatever the cache holds: rows of other pawns, of another game's table, or
of this table before it was edited in place.
"""
import random

import numpy as np
import pytest

from movegen import Position
from movegen import layout as L
from search.evaluate import (EV, EV_PASSED_EG, EV_PASSED_MG, EV_STAMP, PAWN_FILE_SIDE, W_DOUBLED,
                             W_ISOLATED, build_eval, evaluate, stamp_eval)
from search.state import (PAWN_CACHE, PAWN_EG, PAWN_ENTRIES, PAWN_FILES, PAWN_KEY, PAWN_MG,
                          PAWN_ROW, new_state)

CHESS_LIKES = ["normal", "capablanca", "energizer", "sultan"]


def _positions(game: str, count: int, rng: random.Random) -> list[Position]:
    """Positions of random playouts from the start, pawns often pushed and taken."""
    out = []
    while len(out) < count:
        out.append(Position(game).play_random(rng, rng.randrange(0, 70)))
    return out


def _pawn_cells(pos: Position) -> list[tuple[int, int]]:
    """(square, cell code) of every pawn on the board."""
    pawn = int(pos.tables.G[L.GI_PAWN])
    codes = ((sq, int(pos.board[sq])) for sq in pos.geo.valid)
    return [(sq, code) for sq, code in codes if code and code & L.TYPE_MASK == pawn]


def _pawns(pos: Position) -> dict[int, list[tuple[int, int]]]:
    """(file, rank) of each colour's pawns."""
    G = pos.tables.G
    found = {0: [], 1: []}
    for sq, code in _pawn_cells(pos):
        found[code >> 4].append((int(G[L.SQ_FILE + sq]), int(G[L.SQ_RANK + sq])))
    return found


def _reference(pos: Position, ev: np.ndarray) -> tuple[int, int, int]:
    """Pawn-structure middlegame and endgame scores (White's view) and the PAWN_FILES
    bits, counted pawn by pawn."""
    pawns = _pawns(pos)
    files, ranks = pos.game.files, pos.game.ranks
    mg = eg = bits = 0
    for c in (0, 1):
        sign = 1 if c == 0 else -1
        own = [f for f, _ in pawns[c]]
        for f, r in pawns[c]:
            bits |= 1 << (PAWN_FILE_SIDE * c + f)
            if own.count(f) > 1:
                mg += sign * int(ev[W_DOUBLED])
                eg += sign * int(ev[W_DOUBLED])
            if f - 1 not in own and f + 1 not in own:
                mg += sign * int(ev[W_ISOLATED])
                eg += sign * int(ev[W_ISOLATED])
            ahead = [(ff, rr) for ff, rr in pawns[1 - c]
                     if abs(ff - f) <= 1 and (rr > r if c == 0 else rr < r)]
            if not ahead:
                rank = r if c == 0 else ranks - 1 - r
                mg += sign * int(ev[EV_PASSED_MG + rank])
                eg += sign * int(ev[EV_PASSED_EG + rank])
    assert files <= PAWN_FILE_SIDE
    return mg, eg, bits


def _rows(ev: np.ndarray, ss: np.ndarray) -> dict[int, tuple[int, int, int]]:
    """The cache's filled rows by key: (middlegame, endgame, files)."""
    rows = {}
    for i in range(PAWN_ENTRIES):
        base = PAWN_CACHE + PAWN_ROW * i
        key = int(ss[base + PAWN_KEY])
        if key:
            rows[key] = tuple(int(ss[base + f]) for f in (PAWN_MG, PAWN_EG, PAWN_FILES))
    return rows


def _pawn_key(pos: Position, ev: np.ndarray) -> int:
    """The cache key of the pawns on the board: their Zobrist keys xor the table's stamp."""
    zp = L.G_LAYOUT.view(pos.tables.G, "ZP")
    key = int(ev[EV_STAMP])
    for sq, code in _pawn_cells(pos):
        key ^= int(zp[code, sq])
    return key


@pytest.mark.parametrize("game", CHESS_LIKES)
def test_rows_hold_the_counted_pawn_structure(game):
    rng = random.Random(f"pawns-{game}")
    ev = build_eval(Position(game).game, network=False)
    ss = new_state()
    for pos in _positions(game, 60, rng):
        evaluate(pos.tables.G, pos.board, pos.st, ev, ss)
        assert _rows(ev, ss)[_pawn_key(pos, ev)] == _reference(pos, ev), pos.fen()


@pytest.mark.parametrize("game", CHESS_LIKES)
def test_evaluation_does_not_depend_on_the_cache(game):
    """Each position alone in a fresh state, then all in one state in a shuffled order,
    twice (the second time every row is there), after another game's evaluations."""
    rng = random.Random(f"cache-{game}")
    ev = build_eval(Position(game).game, network=False)
    positions = _positions(game, 80, rng)
    fresh = [evaluate(p.tables.G, p.board, p.st, ev, new_state()) for p in positions]
    ss = new_state()
    other = "capablanca" if game != "capablanca" else "normal"
    other_ev = build_eval(Position(other).game, network=False)
    for p in _positions(other, 20, rng):
        evaluate(p.tables.G, p.board, p.st, other_ev, ss)
    for _ in range(2):
        order = list(range(len(positions)))
        rng.shuffle(order)
        for i in order:
            p = positions[i]
            assert evaluate(p.tables.G, p.board, p.st, ev, ss) == fresh[i], p.fen()


def test_an_edited_table_is_not_served_old_rows():
    pos = Position("normal", "4k3/p6p/8/3P4/8/8/PP6/4K3 w - - 0 1")  # isolated: 1 White, 2 Black
    G, board, st = pos.tables.G, pos.board, pos.st
    ev = build_eval(pos.game, network=False).copy()
    ss = new_state()
    before = evaluate(G, board, st, ev, ss)
    ev[W_ISOLATED] -= 40
    EV.view(ev, "EV_PASSED_EG")[:] += 30
    stamp_eval(ev)
    after = evaluate(G, board, st, ev, ss)
    assert after == evaluate(G, board, st, ev, new_state()) != before
    assert _rows(ev, ss)[_pawn_key(pos, ev)] == _reference(pos, ev)
