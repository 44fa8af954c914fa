"""What make keeps up to date instead of recounting it from the board: the piece-square
sums (search/evaluate.py) and the occupied cells of each colour (st's OCC words, which the
move generators and the evaluation walk). Random playouts in every game (null moves and
Ender's turn ends included), taken back part of the way and replayed, evaluated at every
ply as the search does (``evaluate_node``: the sums from the parent's and the move); at
every ply, after make and after unmake, the row of sums kept for the position equals the
sums recomputed from the board by plain Python, the OCC words name exactly the cells each
colour holds, and the evaluation equals ``evaluate`` on a fresh state (sums from the board). Some plies are left
unevaluated, as the search leaves a node in check: their children's sums come from the
board, and the ones after follow from those again.
"""
import random

import numpy as np
import pytest

from movegen import GAMES, Position
from movegen import layout as L
from movegen.core import m_flag, m_promo, victim
from movegen.kernel import gen_legal, in_check, make, unmake
from search.alphabeta import NULL_MOVE
from search.evaluate import (EV, EV_PHASE_W, EV_STAMP, build_eval, eval_table,
                             evaluate, evaluate_node, psq_sums, put_network, stamp_eval)
from search.network import NET_H, feature_table
from search.weights import weights
from search.state import (ACC_ROW, NET_ACC, PSQ, PSQ_EG, PSQ_KEY, PSQ_MG, PSQ_PHASE, PSQ_PHASE_B,
                          PSQ_ROW, new_state)

SPECIAL = {L.F_CASTLE: "castling", L.F_EP: "en passant", L.F_DROP: "drop",
           L.F_OVERTAKE: "overtaking", L.F_END: "end of turn", L.F_NULL: "null move"}
# what the playouts of each game must have met, so that every kind of update was checked
MUST_MEET = {
    "normal": {"capture", "castling", "en passant", "promotion", "null move"},
    "capablanca": {"capture", "castling", "promotion", "null move"},
    "caparandom": {"capture", "castling", "promotion", "null move"},
    "energizer": {"capture", "castling", "promotion", "null move"},
    "sultan": {"capture", "castling", "promotion", "null move"},
    "sultanrandom": {"capture", "castling", "promotion", "null move"},
    "batteries": {"capture", "overtaking", "promotion", "null move"},
    "enders": {"capture", "drop", "end of turn"},
}
# set-ups with the rare moves at hand: en passant, both castlings, promotions by capture
EXTRA_FENS = {"normal": ["r3k2r/pP4pp/8/3pP3/8/8/Pp4PP/R3K2R w KQkq d6 0 1",
                         "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"],
              "energizer": ["r3k2r/pbppppbp/1p4p1/8/8/1P4P1/PBPPPPBP/R3K2R w KQkq - 0 1"]}


def _reference(pos: Position, ev: np.ndarray) -> tuple[int, int, int, int]:
    """Middlegame and endgame piece-square sums, phase and Black's share of the phase,
    straight from the tables."""
    mg_table, eg_table = EV.view(ev, "EV_PST_MG"), EV.view(ev, "EV_PST_EG")
    mg = eg = phase = phase_b = 0
    for sq in pos.geo.valid:
        code = int(pos.board[sq])
        if code:
            mg += int(mg_table[code, sq])
            eg += int(eg_table[code, sq])
            weight = int(ev[EV_PHASE_W + (code & L.TYPE_MASK)])
            phase += weight
            phase_b += weight if code & L.BLACK_BIT else 0
    return mg, eg, phase, phase_b


def _occupied(pos: Position) -> tuple[set, set]:
    """The cell numbers each colour holds: by the board, and by st's OCC words."""
    by_board, by_words = (set(), set()), (set(), set())
    for cell, sq in enumerate(pos.geo.valid):
        code = int(pos.board[sq])
        if code:
            by_board[code // L.BLACK_BIT].add(cell)
    words = L.ST.view(pos.st, "OCC").view(np.uint64)
    for colour in range(2):
        for w in range(2):
            by_words[colour].update(64 * w + b for b in range(64) if (int(words[colour, w]) >> b) & 1)
    return by_board, by_words


def _row(pos: Position) -> int:
    return PSQ + PSQ_ROW * int(pos.st[L.S_PLY])


def _known(pos: Position, ev: np.ndarray, ss: np.ndarray) -> bool:
    return int(ss[_row(pos) + PSQ_KEY]) == int(pos.st[L.S_HASH]) ^ int(ev[EV_STAMP])


def _check(pos: Position, ev: np.ndarray, ss: np.ndarray) -> None:
    """Evaluated as the search does, the position scores as from scratch, and the row
    kept for its ply holds its sums."""
    G, board, st, undo = pos.tables.G, pos.board, pos.st, pos.undo
    score = evaluate_node(G, board, st, undo, ev, ss)
    assert score == evaluate(G, board, st, ev, new_state()), pos.fen()
    row = _row(pos)
    assert _known(pos, ev, ss), "the row is not keyed to this position"
    kept = tuple(int(ss[row + f]) for f in (PSQ_MG, PSQ_EG, PSQ_PHASE, PSQ_PHASE_B))
    assert kept == _reference(pos, ev), pos.fen()
    assert psq_sums(G, board, st, ev, ss) == row  # known: not recomputed
    by_board, by_words = _occupied(pos)
    assert by_words == by_board, pos.fen()


def _kind(pos: Position, m: int) -> str | None:
    flag = m_flag(m)
    if flag in SPECIAL:
        return SPECIAL[flag]
    if flag != L.F_DROP and m_promo(m):
        return "promotion"
    if victim(pos.board, m):
        return "capture"
    return None


def _pick(pos: Position, rng: random.Random, moves: np.ndarray) -> int:
    """A random move, leaning to the ones that change the sums in unusual ways."""
    kinds = [_kind(pos, int(m)) for m in moves]
    rare = [int(m) for m, k in zip(moves, kinds) if k not in (None, "capture", "end of turn")]
    captures = [int(m) for m, k in zip(moves, kinds) if k == "capture"]
    if rare and rng.random() < 0.7:
        return rng.choice(rare)
    if captures and rng.random() < 0.4:
        return rng.choice(captures)
    if pos.game.family == L.Family.ENDERS and rng.random() < 0.25:
        return int(moves[0])  # the end of turn comes first in Ender's action list
    pawn = pos.tables.G[L.GI_PAWN]
    pawns = [int(m) for m in moves if int(pos.board[int(m) & 255]) & L.TYPE_MASK == pawn]
    if pawns and rng.random() < 0.3:  # pawns forward, towards promotions
        return rng.choice(pawns)
    return int(moves[rng.randrange(len(moves))])


def _playout(pos, ev, ss, rng, plies, met, paths) -> None:
    G, board, st, undo = pos.tables.G, pos.board, pos.st, pos.undo
    buf = np.zeros(L.MAX_MOVES, np.int64)
    start = int(st[L.S_PLY])
    chess_like = pos.game.family != L.Family.ENDERS
    for _ in range(plies):
        if st[L.S_RESULT] != 0:
            break
        n = gen_legal(G, board, st, undo, buf, 0)
        if n == 0:
            break
        if chess_like and rng.random() < 0.08 and not in_check(G, board, st):
            m = int(NULL_MOVE)
        else:
            m = _pick(pos, rng, buf[:n])
        met.add(_kind(pos, m))
        make(G, board, st, undo, np.int64(m))
        if rng.random() < 0.1:
            continue  # not evaluated, like a node in check
        ply = int(st[L.S_PLY]) - 1  # the parent's
        parent_key = int(ss[PSQ + PSQ_ROW * ply + PSQ_KEY])
        paths.add(parent_key == int(undo[ply, L.S_HASH]) ^ int(ev[EV_STAMP]))
        _check(pos, ev, ss)
        if st[L.S_PLY] - start > 4 and rng.random() < 0.1:
            for _ in range(rng.randrange(1, 4)):  # take back a few, then play on
                unmake(G, board, st, undo)
                _check(pos, ev, ss)
    while st[L.S_PLY] > start:
        unmake(G, board, st, undo)
        _check(pos, ev, ss)


@pytest.mark.parametrize("game", list(GAMES))
def test_sums_follow_every_move(game):
    _follow_every_move(game, build_eval(Position(game).game))


def _random_network(game: str) -> np.ndarray:
    """``game``'s evaluation table with a random network in it (what the network is
    trained to does not matter here: only that its sums follow the moves)."""
    g = Position(game).game
    ev = eval_table(g, weights(g)).copy()
    n = feature_table(g, len(g.pieces))[1]
    rng = np.random.default_rng(7)
    put_network(ev, g, {"w1": rng.normal(0, 0.3, (n, NET_H)), "b1": rng.uniform(0, 1, NET_H),
                        "w2": rng.normal(0, 40, 2 * NET_H), "b2": np.array([3.0])})
    return ev


@pytest.mark.parametrize("game", ["normal", "capablanca", "sultan"])
def test_network_sums_follow_every_move(game):
    """A network's hidden sums (search/network.py) follow the moves as the piece-square
    sums do: the score from the parent's sums equals the score from the board, and the
    sums kept for the ply equal the ones computed from the board."""
    ev = _random_network(game)
    _follow_every_move(game, ev)
    pos = Position(game, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
                   if game == "normal" else None)
    kept, fresh = new_state(), new_state()
    G, st = pos.tables.G, pos.st
    evaluate_node(G, pos.board, st, pos.undo, ev, kept)
    pos.push(pos.legal_moves()[3])
    evaluate_node(G, pos.board, st, pos.undo, ev, kept)
    evaluate(G, pos.board, st, ev, fresh)
    acc = NET_ACC + ACC_ROW * int(st[L.S_PLY])
    assert np.array_equal(kept[acc:acc + 2 * NET_H], fresh[acc:acc + 2 * NET_H])
    assert np.any(kept[acc:acc + 2 * NET_H] != 0)


def _follow_every_move(game: str, ev: np.ndarray) -> None:
    rng = random.Random(f"psq-{game}")
    met = set()
    paths = set()  # True: from the parent's sums, False: from the board
    starts = [Position(game, seed=seed) for seed in range(6)]  # shuffled in the random games
    starts += [Position(game, fen) for fen in EXTRA_FENS.get(game, [])]
    for pos in starts:
        ss = new_state()
        _check(pos, ev, ss)
        _playout(pos, ev, ss, rng, 160, met, paths)
    assert MUST_MEET[game] <= met, f"never met: {MUST_MEET[game] - met}"
    assert paths == {True, False}


def test_sums_from_the_parent():
    """A child's sums are the parent's plus the move's change, not a new board scan: the
    parent's row, falsified on purpose, shows through in the child's."""
    pos = Position("capablanca")
    ev = build_eval(pos.game)
    ss = new_state()
    G, board, st, undo = pos.tables.G, pos.board, pos.st, pos.undo
    evaluate_node(G, board, st, undo, ev, ss)
    ss[_row(pos) + PSQ_MG] += 1000
    pos.push("e2e4")
    evaluate_node(G, board, st, undo, ev, ss)
    assert int(ss[_row(pos) + PSQ_MG]) == _reference(pos, ev)[0] + 1000
    pos.pop()
    ss[_row(pos) + PSQ_KEY] += 1  # the parent's row no longer known: the child's from the board
    pos.push("d2d4")
    _check(pos, ev, ss)


def test_stamp_follows_an_edited_table():
    """A table edited in place and stamped again is not served the old table's sums."""
    pos = Position("normal")
    ev = build_eval(pos.game).copy()
    G, board, st = pos.tables.G, pos.board, pos.st
    ss = new_state()
    before = evaluate(G, board, st, ev, ss)
    EV.view(ev, "EV_PST_MG")[G[L.GI_PAWN], :] += 10  # every White pawn 10 more in the middlegame
    stamp_eval(ev)
    after = evaluate(G, board, st, ev, ss)
    assert after == evaluate(G, board, st, ev, new_state()) != before
    _check(pos, ev, ss)
