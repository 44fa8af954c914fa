"""The numba core shared by every game: move codes, make/unmake, attack tests,
legal move generation for the chess-like family, and perft.

``g`` is a ``Tables`` record (movegen/tables.py); ``board``/``st``/``undo`` are the
position arrays described in movegen/layout.py; ``buf`` is a move buffer where each
search or perft ply owns the slice ``[ply*MAX_MOVES, (ply+1)*MAX_MOVES)``.
"""
from numba import njit

from .layout import (BLACK_BIT, EMPTY, F_CASTLE, F_DOUBLE, F_DROP, F_END, F_EP, F_NORMAL,
                     F_NULL, F_OVERTAKE, GI_CASTLE, GI_EP, GI_FAMILY, GI_KFILE_K, GI_KFILE_Q,
                     GI_KING, GI_NPROMO, GI_NSQ, GI_PAWN, GI_STRIDE, GI_ZSIDE, MAX_MOVES, NSAVE,
                     OFF, S_CR, S_EP, S_FULL, S_HALF, S_HASH, S_KING, S_PLY, S_RESULT, S_SIDE,
                     U_CAP, U_MOVE)

FAMILY_CHESS, FAMILY_BATTERIES, FAMILY_ENDERS = 0, 1, 2


@njit(cache=True, nogil=True)
def encode(fr, to, promo, flag, extra):
    return fr | (to << 8) | (promo << 16) | (flag << 21) | (extra << 25)


@njit(cache=True, nogil=True)
def m_from(m):
    return m & 255


@njit(cache=True, nogil=True)
def m_to(m):
    return (m >> 8) & 255


@njit(cache=True, nogil=True)
def m_promo(m):
    return (m >> 16) & 31


@njit(cache=True, nogil=True)
def m_flag(m):
    return (m >> 21) & 15


@njit(cache=True, nogil=True)
def m_extra(m):
    return (m >> 25) & 255


@njit(cache=True, nogil=True)
def own_type(p, colour):
    """Type of cell code ``p`` if it holds a piece of ``colour``, else 0."""
    t = p - BLACK_BIT * colour
    if 0 < t < 16:
        return t
    return 0


@njit(cache=True, nogil=True)
def is_enemy(p, colour):
    return own_type(p, 1 - colour) != 0


# ---------------------------------------------------------------- attack tests

@njit(cache=True, nogil=True)
def attacked(g, board, sq, by):
    """Is ``sq`` attacked by a piece of colour ``by`` (table-driven chess-like rules)?"""
    base = BLACK_BIT * by
    for i in range(g.n_lk[by]):
        t = board[sq - g.lk_delta[by, i]] - base
        if 0 < t < 16 and (g.lk_mask[by, i] >> t) & 1:
            return True
    for i in range(g.n_sl[by]):
        d = g.sl_delta[by, i]
        s = sq - d
        while board[s] == EMPTY:
            s -= d
        t = board[s] - base
        if 0 < t < 16 and (g.sl_mask[by, i] >> t) & 1:
            return True
    return False


# ---------------------------------------------------------------- make / unmake

@njit(cache=True, nogil=True)
def _drop_castle_right(g, st, sq):
    for i in range(4):
        if st[S_CR + i] == sq:
            st[S_HASH] ^= g.zc[sq]
            st[S_CR + i] = 0


@njit(cache=True, nogil=True)
def castle_rook_target(fr, to, rook):
    """The castling rook lands next to the king's target, on the side away from its start."""
    if rook > fr:
        return to - 1
    return to + 1


@njit(cache=True, nogil=True)
def make_move(g, board, st, undo, m):
    """Play move ``m`` (chess-like and Batteries families); undo with ``unmake_move``."""
    ply = st[S_PLY]
    for i in range(NSAVE):
        undo[ply, i] = st[i]
    undo[ply, U_MOVE] = m
    side = st[S_SIDE]
    fr, to, promo, flag, ex = m_from(m), m_to(m), m_promo(m), m_flag(m), m_extra(m)
    zp = g.zp
    h = st[S_HASH] ^ g.gi[GI_ZSIDE]
    if st[S_EP] != 0:
        h ^= g.zep[st[S_EP]]
        st[S_EP] = 0
    st[S_HALF] += 1
    cap = 0
    if flag == F_CASTLE:
        king = board[fr]
        rook = board[ex]
        rdest = castle_rook_target(fr, to, ex)
        h ^= zp[king, fr] ^ zp[rook, ex] ^ zp[king, to] ^ zp[rook, rdest]
        board[fr] = EMPTY
        board[ex] = EMPTY
        board[to] = king
        board[rdest] = rook
        st[S_KING + side] = to
        st[S_HASH] = h
        for i in range(2):
            r = st[S_CR + 2 * side + i]
            if r != 0:
                st[S_HASH] ^= g.zc[r]
                st[S_CR + 2 * side + i] = 0
    elif flag == F_NULL:
        st[S_HASH] = h
    else:
        p = board[fr]
        capsq = to
        if flag == F_EP or flag == F_OVERTAKE:
            capsq = ex
        cap = board[capsq]
        if cap != EMPTY:
            h ^= zp[cap, capsq]
            board[capsq] = EMPTY
            st[S_HALF] = 0
        t = p - BLACK_BIT * side
        h ^= zp[p, fr]
        board[fr] = EMPTY
        if promo != 0:
            p = promo + BLACK_BIT * side
        board[to] = p
        h ^= zp[p, to]
        if t == g.gi[GI_PAWN]:
            st[S_HALF] = 0
            if flag == F_DOUBLE:
                epsq = (fr + to) // 2
                # Record the e.p. square only when an enemy pawn could take, so that
                # equal positions hash equally (repetitions).
                enemy_pawn = g.gi[GI_PAWN] + BLACK_BIT * (1 - side)
                if board[to - 1] == enemy_pawn or board[to + 1] == enemy_pawn:
                    st[S_EP] = epsq
                    h ^= g.zep[epsq]
        st[S_HASH] = h
        if t == g.gi[GI_KING]:
            st[S_KING + side] = to
            for i in range(2):
                r = st[S_CR + 2 * side + i]
                if r != 0:
                    st[S_HASH] ^= g.zc[r]
                    st[S_CR + 2 * side + i] = 0
        if g.gi[GI_CASTLE] != 0:
            _drop_castle_right(g, st, fr)
            _drop_castle_right(g, st, capsq)
    undo[ply, U_CAP] = cap
    if side == 1:
        st[S_FULL] += 1
    st[S_SIDE] = 1 - side
    st[S_PLY] = ply + 1


@njit(cache=True, nogil=True)
def unmake_move(g, board, st, undo):
    ply = st[S_PLY] - 1
    m = undo[ply, U_MOVE]
    cap = undo[ply, U_CAP]
    for i in range(NSAVE):
        st[i] = undo[ply, i]
    side = st[S_SIDE]
    fr, to, promo, flag, ex = m_from(m), m_to(m), m_promo(m), m_flag(m), m_extra(m)
    if flag == F_CASTLE:
        rdest = castle_rook_target(fr, to, ex)
        king = board[to]
        rook = board[rdest]
        board[to] = EMPTY
        board[rdest] = EMPTY
        board[fr] = king
        board[ex] = rook
    elif flag != F_NULL:
        p = board[to]
        if promo != 0:
            p = g.gi[GI_PAWN] + BLACK_BIT * side
        board[to] = EMPTY
        board[fr] = p
        if flag == F_EP or flag == F_OVERTAKE:
            board[ex] = cap
        else:
            board[to] = cap


# ---------------------------------------------------------------- chess-like generation

@njit(cache=True, nogil=True)
def _add_pawn_move(g, buf, n, fr, to, flag, ex, last_rank):
    if last_rank:
        for i in range(g.gi[GI_NPROMO]):
            buf[n] = encode(fr, to, g.promo[i], flag, ex)
            n += 1
        return n
    buf[n] = encode(fr, to, 0, flag, ex)
    return n + 1


@njit(cache=True, nogil=True)
def gen_pawn(g, board, st, buf, n, s, side):
    fwd = g.pawn_dir[side]
    rank = g.sq_rank[s]
    h = g.gi[2]
    last = h - 1 if side == 0 else 0
    to = s + fwd
    if board[to] == EMPTY:
        n = _add_pawn_move(g, buf, n, s, to, F_NORMAL, 0, g.sq_rank[to] == last)
        start = 1 if side == 0 else h - 2
        if rank == start and board[to + fwd] == EMPTY:
            buf[n] = encode(s, to + fwd, 0, F_DOUBLE, 0)
            n += 1
    for dx in (-1, 1):
        to = s + fwd + dx
        q = board[to]
        if is_enemy(q, side):
            n = _add_pawn_move(g, buf, n, s, to, F_NORMAL, 0, g.sq_rank[to] == last)
        elif q == EMPTY and to == st[S_EP] and st[S_EP] != 0:
            buf[n] = encode(s, to, 0, F_EP, to - fwd)
            n += 1
    return n


@njit(cache=True, nogil=True)
def gen_piece(g, board, buf, n, s, t, side):
    """Moves of a table-driven (non-pawn) piece of type ``t`` on ``s``."""
    for k in range(g.acount[side, t]):
        d = g.adelta[side, t, k]
        rng = g.arange[side, t, k]
        mode = g.amode[side, t, k]
        lame = g.alame[side, t, k]
        if lame != 0 and board[s + lame] != EMPTY:
            continue
        to = s + d
        steps = 1
        while True:
            q = board[to]
            if q == EMPTY:
                if mode & 1:
                    buf[n] = encode(s, to, 0, F_NORMAL, 0)
                    n += 1
            else:
                if mode & 2 and is_enemy(q, side):
                    buf[n] = encode(s, to, 0, F_NORMAL, 0)
                    n += 1
                break
            if rng == 1 or (rng > 1 and steps == rng):
                break
            steps += 1
            to += d
    return n


@njit(cache=True, nogil=True)
def gen_castling(g, board, st, buf, n, side):
    k = st[S_KING + side]
    enemy = 1 - side
    if attacked(g, board, k, enemy):
        return n
    back = g.sq_rank[k]
    for i in range(2):
        r = st[S_CR + 2 * side + i]
        if r == 0:
            continue
        step = 1 if r > k else -1
        if g.gi[GI_CASTLE] == 1:
            f = g.gi[GI_KFILE_K] if r > k else g.gi[GI_KFILE_Q]
            kdest = k - g.sq_file[k] + f
        else:
            kdest = k + 2 * step
        rdest = castle_rook_target(k, kdest, r)
        lo = min(min(k, r), min(kdest, rdest))
        hi = max(max(k, r), max(kdest, rdest))
        ok = g.sq_rank[lo] == back and g.sq_rank[hi] == back
        s = lo
        while ok and s <= hi:
            if s != k and s != r and board[s] != EMPTY:
                ok = False
            s += 1
        if not ok:
            continue
        # the squares the king crosses (its target is tested by the legality check)
        s = k
        while ok and s != kdest:
            s += 1 if kdest > k else -1
            if s != kdest and attacked(g, board, s, enemy):
                ok = False
        if ok:
            buf[n] = encode(k, kdest, 0, F_CASTLE, r)
            n += 1
    return n


@njit(cache=True, nogil=True)
def gen_chess_pseudo(g, board, st, buf, n):
    side = st[S_SIDE]
    pawn = g.gi[GI_PAWN]
    for s in g.squares:
        t = own_type(board[s], side)
        if t == 0:
            continue
        if t == pawn:
            n = gen_pawn(g, board, st, buf, n, s, side)
        else:
            n = gen_piece(g, board, buf, n, s, t, side)
    if g.gi[GI_CASTLE] != 0 and (st[S_CR + 2 * side] != 0 or st[S_CR + 2 * side + 1] != 0):
        n = gen_castling(g, board, st, buf, n, side)
    return n


@njit(cache=True, nogil=True)
def in_check_chess(g, board, st):
    side = st[S_SIDE]
    return attacked(g, board, st[S_KING + side], 1 - side)


@njit(cache=True, nogil=True)
def filter_chess_legal(g, board, st, undo, buf, n0, n):
    """Keep the moves of ``buf[n0:n]`` that do not leave the own king attacked."""
    side = st[S_SIDE]
    k = st[S_KING + side]
    check = attacked(g, board, k, 1 - side)
    nsq = g.gi[GI_NSQ]
    j = n0
    for i in range(n0, n):
        m = buf[i]
        fr = m_from(m)
        flag = m_flag(m)
        # A piece off every line through its king cannot expose it (leaps are not blocked).
        if not check and fr != k and flag != F_EP and flag != F_CASTLE and g.ray[k - fr + nsq] == 0:
            buf[j] = m
            j += 1
            continue
        make_move(g, board, st, undo, m)
        ok = not attacked(g, board, st[S_KING + side], 1 - side)
        unmake_move(g, board, st, undo)
        if ok:
            buf[j] = m
            j += 1
    return j
