"""Ender's Chess: a turn is a sequence of actions (drop, piece moves, end of turn).

One action per ply; the side to move changes only when a turn ends. The pieces' own
moves come from the shared table-driven generator (``gen_piece``); this module adds
the turn state: the drop at the start of a turn, each piece moving at most once,
the gates, the reply turn and elimination.
"""

from .core import (encode, gen_piece, listed, m_flag, m_from, m_promo, m_to, own_type,
                   restore_state, save_state)
from .fields import cell_of, flip_occupied, pop_square, reserve_slot, zobrist, zobrist_reserve
from .jit import kernel
from .layout import (BLACK_BIT, EMPTY, F_DROP, F_END, F_NORMAL, GI_GATE_B, GI_GATE_W, GI_NT,
                     GI_ZSIDE, S_ACTIONS, S_COUNT, S_FULL, S_HALF, S_HASH, S_MOVED, S_OCC, S_PLY,
                     S_REPLY, S_RESULT, S_SIDE, S_TURN_START, S_WHY, U_CAP, U_MOVE,
                     WHY_ELIMINATION, WHY_GATE, WHY_REPLY_END, WHY_REPLY_GATE, ZMISC, ZMOVED,
                     Result)

END_TURN = encode(0, 0, 0, F_END, 0)


@kernel
def gate(G, colour):
    return G[GI_GATE_W] if colour == 0 else G[GI_GATE_B]


@kernel
def gen_enders(G, board, st, buf, n):
    """All legal actions (there is no check in this game: every action is legal)."""
    if st[S_RESULT] != 0:
        return n
    side = st[S_SIDE]
    buf[n] = END_TURN
    n += 1
    own_gate = gate(G, side)
    if st[S_ACTIONS] == 0 and board[own_gate] == EMPTY:
        for t in range(1, G[GI_NT] + 1):
            if st[reserve_slot(side, t)] > 0:
                buf[n] = encode(0, own_gate, t, F_DROP, 0)
                n += 1
    # the own pieces that have not moved this turn (Ender's boards have at most 64 cells,
    # so one OCC word and the MOVED mask cover them)
    bits = st[S_OCC + 2 * side] & ~st[S_MOVED]
    while bits != 0:
        s, bits = pop_square(G, bits, 0)
        n = gen_piece(G, board, buf, n, s, board[s] - BLACK_BIT * side, side)
    return n


@kernel
def _clear_turn_state(G, st):
    """The turn is over: forget which pieces moved, start counting actions anew."""
    h = st[S_HASH]
    moved = st[S_MOVED]
    i = 0
    while moved != 0:
        if moved & 1:
            h ^= G[ZMOVED + i]
        moved >>= 1
        i += 1
    if st[S_ACTIONS] != 0:
        h ^= G[ZMISC + 0]
    st[S_MOVED] = 0
    st[S_ACTIONS] = 0
    st[S_HASH] = h


@kernel
def _pass_turn(G, st):
    side = st[S_SIDE]
    _clear_turn_state(G, st)
    st[S_SIDE] = 1 - side
    st[S_HASH] ^= G[GI_ZSIDE]
    if side == 1:
        st[S_FULL] += 1
    st[S_TURN_START] = st[S_PLY] + 1


@kernel
def _finish(st, result, why):
    st[S_RESULT] = result
    st[S_WHY] = why


@kernel
def make_action(G, board, st, undo, m):
    ply = save_state(st, undo, m)
    side = st[S_SIDE]
    flag = m_flag(m)
    if flag == F_END:
        st[S_HALF] += 1
        if st[S_REPLY] != 0:
            _finish(st, Result.WHITE_WINS, WHY_REPLY_END)  # Black's reply turn ends without reaching c1
        else:
            _pass_turn(G, st)
        st[S_PLY] = ply + 1
        return
    h = st[S_HASH]
    if st[S_ACTIONS] == 0:
        h ^= G[ZMISC + 0]
    st[S_ACTIONS] += 1
    to = m_to(m)
    if flag == F_DROP:
        t = m_promo(m)
        k = reserve_slot(side, t)
        h ^= zobrist_reserve(G, side, t, st[k]) ^ zobrist_reserve(G, side, t, st[k] - 1)
        st[k] -= 1
        p = t + BLACK_BIT * side
        board[to] = p
        flip_occupied(G, st, side, to)
        h ^= zobrist(G, p, to)
        st[S_HALF] = 0
        st[S_HASH] = h
        st[S_PLY] = ply + 1
        return
    fr = m_from(m)
    p = board[fr]
    cap = board[to]
    undo[ply, U_CAP] = cap
    h ^= zobrist(G, p, fr) ^ zobrist(G, p, to) ^ G[ZMOVED + cell_of(G, to)]
    board[fr] = EMPTY
    board[to] = p
    flip_occupied(G, st, side, fr)
    flip_occupied(G, st, side, to)
    st[S_MOVED] |= 1 << cell_of(G, to)
    if cap != EMPTY:
        flip_occupied(G, st, 1 - side, to)
        h ^= zobrist(G, cap, to)
        st[S_COUNT + 1 - side] -= 1
        st[S_HALF] = 0
    st[S_HASH] = h
    st[S_PLY] = ply + 1
    if st[S_COUNT + 1 - side] == 0:  # elimination comes before the gate rules
        _finish(st, Result.WHITE_WINS + side, WHY_ELIMINATION)
    elif to == gate(G, 1 - side):
        if side == 0:
            _pass_turn(G, st)  # White occupies Black's gate: Black's reply turn
            st[S_REPLY] = 1
            st[S_HASH] ^= G[ZMISC + 1]
        elif st[S_REPLY] != 0:
            _finish(st, Result.DRAW, WHY_REPLY_GATE)
        else:
            _finish(st, Result.BLACK_WINS, WHY_GATE)


@kernel
def unmake_action(G, board, st, undo):
    ply = restore_state(st, undo)
    m = undo[ply, U_MOVE]
    flag = m_flag(m)
    if flag == F_DROP:
        board[m_to(m)] = EMPTY
        st[reserve_slot(st[S_SIDE], m_promo(m))] += 1
    elif flag == F_NORMAL:
        fr, to = m_from(m), m_to(m)
        board[fr] = board[to]
        board[to] = undo[ply, U_CAP]


@kernel
def enders_pseudo_legal(G, board, st, m, buf, at):
    """Would ``gen_enders`` list ``m``? Drops and the end of turn are tested by their
    conditions; a piece move by generating that piece's moves at ``buf[at:]``."""
    if st[S_RESULT] != 0:
        return False
    side = st[S_SIDE]
    flag = m_flag(m)
    if flag == F_END:
        return m == END_TURN
    if flag == F_DROP:
        t = m_promo(m)
        own_gate = gate(G, side)
        return (m == encode(0, own_gate, t, F_DROP, 0) and 1 <= t <= G[GI_NT]
                and st[S_ACTIONS] == 0 and board[own_gate] == EMPTY
                and st[reserve_slot(side, t)] > 0)
    if flag != F_NORMAL:
        return False
    fr = m_from(m)
    t = own_type(board[fr], side)
    if t == 0 or (st[S_MOVED] >> cell_of(G, fr)) & 1:
        return False
    return listed(buf, at, gen_piece(G, board, buf, at, fr, t, side), m)


@kernel
def _passes(fr, to):
    """The square a two-square step passes over (a Bishop's, which it blocks), else -1.
    Any even difference yields a square; for a leap that square is harmless extra
    caution: it only makes two moves look dependent."""
    return (fr + to) // 2 if (to - fr) % 2 == 0 else -1


@kernel
def _touches(a, b, c, d):
    """Do the squares of the move a->b (with the one it passes) meet those of c->d?"""
    ab = (a, b, _passes(a, b))
    cd = (c, d, _passes(c, d))
    for x in ab:
        for y in cd:
            if x == y and x >= 0:
                return True
    return False


@kernel
def reordered_turn(G, board, st, undo, m):
    """Is ``m`` a piece move that commutes with the previous action of this turn (also a
    piece move; neither captures nor enters the enemy gate, and their squares, the ones
    a Bishop passes included, are all different) and starts on a lower square than it?
    Then playing ``m`` first and the previous action second reaches the same position,
    so a search may skip this order: of the orders of independent moves it keeps only the
    one with rising origin squares, and every position of the turn stays reachable."""
    if st[S_ACTIONS] == 0 or m_flag(m) != F_NORMAL:
        return False
    last = st[S_PLY] - 1
    prev = undo[last, U_MOVE]
    if m_flag(prev) != F_NORMAL or undo[last, U_CAP] != EMPTY:
        return False
    a, c, d = m_from(prev), m_from(m), m_to(m)
    if c > a or board[d] != EMPTY or d == gate(G, 1 - st[S_SIDE]):
        return False
    return not _touches(a, m_to(prev), c, d)
