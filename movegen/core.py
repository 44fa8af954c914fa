"""The numba core shared by every game: move codes, make/unmake, attack tests,
legal move generation for the chess-like family, and perft.

``g`` is a ``Tables`` record (movegen/tables.py); ``board``/``st``/``undo`` are the
position arrays described in movegen/layout.py; ``buf`` is a move buffer where each
search or perft ply owns the slice ``[ply*MAX_MOVES, (ply+1)*MAX_MOVES)``.
"""

import numpy as np

from .betza import CAPTURE, MOVE
from .fields import (atom_count, atom_delta, atom_lame, atom_mode, atom_range, file_of, flip_occupied,
                     leap_delta, leap_types, occupied_words, pop_square, rank_of, ray_step,
                     slide_delta, slide_types, sliders_along, zobrist)
from .jit import kernel
from .layout import (BLACK_BIT, EMPTY, F_CASTLE, F_DOUBLE, F_DROP, F_EP, F_NORMAL, F_NULL, F_OVERTAKE,
                     GI_CASTLE, GI_H, GI_KFILE_K, GI_KFILE_Q, GI_KING, GI_NPROMO,
                     GI_PAWN, GI_ZSIDE, NSAVE, N_LK, N_SL, PAWN_DIR, PROMO, S_CR, S_EP, S_FULL,
                     S_HALF, S_HASH, S_KING, S_OCC, S_PLY, S_SIDE, TYPE_MASK, U_CAP, U_MOVE, ZC, ZEP,
                     Castling)


@kernel
def encode(fr, to, promo, flag, extra):
    return fr | (to << 8) | (promo << 16) | (flag << 21) | (extra << 25)


@kernel
def m_from(m):
    return m & 255


@kernel
def m_to(m):
    return (m >> 8) & 255


@kernel
def m_promo(m):
    return (m >> 16) & 31


@kernel
def m_flag(m):
    return (m >> 21) & 15


@kernel
def m_extra(m):
    return (m >> 25) & 255


@kernel
def victim(board, m):
    """Cell code of the piece move ``m`` captures (0: none)."""
    flag = m_flag(m)
    if flag == F_EP or flag == F_OVERTAKE:
        return np.int64(board[m_extra(m)])
    if flag == F_NORMAL or flag == F_DOUBLE:
        return np.int64(board[m_to(m)])
    return np.int64(0)


@kernel
def promotion(m):
    """Type a move promotes to (0: none; a drop's piece type is not a promotion)."""
    if m_flag(m) == F_DROP:
        return 0
    return m_promo(m)


@kernel
def own_type(p, colour):
    """Type of cell code ``p`` if it holds a piece of ``colour``, else 0."""
    t = p - BLACK_BIT * colour
    if 0 < t <= TYPE_MASK:
        return t
    return 0


@kernel
def is_enemy(p, colour):
    return own_type(p, 1 - colour) != 0


# ---------------------------------------------------------------- attack tests

@kernel
def attacked(G, board, sq, by):
    """Is ``sq`` attacked by a piece of colour ``by`` (table-driven chess-like rules)?"""
    base = BLACK_BIT * by
    for i in range(G[N_LK + by]):
        t = board[sq - leap_delta(G, by, i)] - base
        if 0 < t < 16 and (leap_types(G, by, i) >> t) & 1:
            return True
    for i in range(G[N_SL + by]):
        d = slide_delta(G, by, i)
        s = sq - d
        while board[s] == EMPTY:
            s -= d
        t = board[s] - base
        if 0 < t < 16 and (slide_types(G, by, i) >> t) & 1:
            return True
    return False


# ---------------------------------------------------------------- make / unmake

@kernel
def _drop_castle_right(G, st, sq):
    for i in range(4):
        if st[S_CR + i] == sq:
            st[S_HASH] ^= G[ZC + sq]
            st[S_CR + i] = 0


@kernel
def castle_rook_target(fr, to, rook):
    """The castling rook lands next to the king's target, on the side away from its start."""
    if rook > fr:
        return to - 1
    return to + 1


@kernel
def save_state(st, undo, m):
    """Push the scalars and the move on the undo stack; returns the ply."""
    ply = st[S_PLY]
    for i in range(NSAVE):
        undo[ply, i] = st[i]
    undo[ply, U_MOVE] = m
    undo[ply, U_CAP] = 0
    return ply


@kernel
def restore_state(st, undo):
    """Pop the scalars saved by ``save_state``; returns the ply of the undone move."""
    ply = st[S_PLY] - 1
    for i in range(NSAVE):
        st[i] = undo[ply, i]
    return ply


@kernel
def make_move(G, board, st, undo, m):
    """Play move ``m`` (chess-like and Batteries families); undo with ``unmake_move``."""
    ply = save_state(st, undo, m)
    side = st[S_SIDE]
    fr, to, promo, flag, ex = m_from(m), m_to(m), m_promo(m), m_flag(m), m_extra(m)
    h = st[S_HASH] ^ G[GI_ZSIDE]
    if st[S_EP] != 0:
        h ^= G[ZEP + st[S_EP]]
        st[S_EP] = 0
    st[S_HALF] += 1
    cap = 0
    if flag == F_CASTLE:
        king = board[fr]
        rook = board[ex]
        rdest = castle_rook_target(fr, to, ex)
        h ^= zobrist(G, king, fr) ^ zobrist(G, rook, ex) ^ zobrist(G, king, to) ^ zobrist(G, rook, rdest)
        board[fr] = EMPTY
        board[ex] = EMPTY
        board[to] = king
        board[rdest] = rook
        # toggled off then on: a square both left and reached (Chess960) stays occupied
        flip_occupied(G, st, side, fr)
        flip_occupied(G, st, side, ex)
        flip_occupied(G, st, side, to)
        flip_occupied(G, st, side, rdest)
        st[S_KING + side] = to
        st[S_HASH] = h
        for i in range(2):
            r = st[S_CR + 2 * side + i]
            if r != 0:
                st[S_HASH] ^= G[ZC + r]
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
            h ^= zobrist(G, cap, capsq)
            board[capsq] = EMPTY
            flip_occupied(G, st, cap >> 4, capsq)  # by its own colour (a Battery's too)
            st[S_HALF] = 0
        t = p - BLACK_BIT * side
        h ^= zobrist(G, p, fr)
        board[fr] = EMPTY
        flip_occupied(G, st, side, fr)
        flip_occupied(G, st, side, to)
        if promo != 0:
            p = promo + BLACK_BIT * side
        board[to] = p
        h ^= zobrist(G, p, to)
        if t == G[GI_PAWN]:
            st[S_HALF] = 0
            if flag == F_DOUBLE:
                epsq = (fr + to) // 2
                # Record the e.p. square only when an enemy pawn could take, so that
                # equal positions hash equally (repetitions).
                enemy_pawn = G[GI_PAWN] + BLACK_BIT * (1 - side)
                if board[to - 1] == enemy_pawn or board[to + 1] == enemy_pawn:
                    st[S_EP] = epsq
                    h ^= G[ZEP + epsq]
        st[S_HASH] = h
        if t == G[GI_KING]:
            st[S_KING + side] = to
            for i in range(2):
                r = st[S_CR + 2 * side + i]
                if r != 0:
                    st[S_HASH] ^= G[ZC + r]
                    st[S_CR + 2 * side + i] = 0
        if G[GI_CASTLE] != 0:
            _drop_castle_right(G, st, fr)
            _drop_castle_right(G, st, capsq)
    undo[ply, U_CAP] = cap
    if side == 1:
        st[S_FULL] += 1
    st[S_SIDE] = 1 - side
    st[S_PLY] = ply + 1


@kernel
def unmake_move(G, board, st, undo):
    ply = restore_state(st, undo)
    m = undo[ply, U_MOVE]
    cap = undo[ply, U_CAP]
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
            p = G[GI_PAWN] + BLACK_BIT * side
        board[to] = EMPTY
        board[fr] = p
        if flag == F_EP or flag == F_OVERTAKE:
            board[ex] = cap
        else:
            board[to] = cap


# ---------------------------------------------------------------- chess-like generation

@kernel
def _add_pawn_move(G, buf, n, fr, to, flag, ex, last_rank):
    if last_rank:
        for i in range(G[GI_NPROMO]):
            buf[n] = encode(fr, to, G[PROMO + i], flag, ex)
            n += 1
        return n
    buf[n] = encode(fr, to, 0, flag, ex)
    return n + 1


@kernel
def gen_pawn(G, board, st, buf, n, s, side):
    fwd = G[PAWN_DIR + side]
    rank = rank_of(G, s)
    h = G[GI_H]
    last = h - 1 if side == 0 else 0
    to = s + fwd
    if board[to] == EMPTY:
        n = _add_pawn_move(G, buf, n, s, to, F_NORMAL, 0, rank_of(G, to) == last)
        start = 1 if side == 0 else h - 2
        if rank == start and board[to + fwd] == EMPTY:
            buf[n] = encode(s, to + fwd, 0, F_DOUBLE, 0)
            n += 1
    for dx in (-1, 1):
        to = s + fwd + dx
        q = board[to]
        if is_enemy(q, side):
            n = _add_pawn_move(G, buf, n, s, to, F_NORMAL, 0, rank_of(G, to) == last)
        elif q == EMPTY and to == st[S_EP] and st[S_EP] != 0:
            buf[n] = encode(s, to, 0, F_EP, to - fwd)
            n += 1
    return n


@kernel
def gen_piece(G, board, buf, n, s, t, side):
    """Moves of a table-driven (non-pawn) piece of type ``t`` on ``s``."""
    return _gen_piece(G, board, buf, n, s, t, side, True)


@kernel
def _gen_piece(G, board, buf, n, s, t, side, quiets):
    """``gen_piece``; only its captures unless ``quiets``."""
    for k in range(atom_count(G, side, t)):
        d = atom_delta(G, side, t, k)
        rng = atom_range(G, side, t, k)
        mode = atom_mode(G, side, t, k)
        lame = atom_lame(G, side, t, k)
        if lame != 0 and board[s + lame] != EMPTY:
            continue
        to = s + d
        steps = 1
        while True:
            q = board[to]
            if q == EMPTY:
                if quiets and mode & MOVE:
                    buf[n] = encode(s, to, 0, F_NORMAL, 0)
                    n += 1
            else:
                if mode & CAPTURE and is_enemy(q, side):
                    buf[n] = encode(s, to, 0, F_NORMAL, 0)
                    n += 1
                break
            if rng == 1 or (rng > 1 and steps == rng):
                break
            steps += 1
            to += d
    return n


@kernel
def gen_castling(G, board, st, buf, n, side):
    k = st[S_KING + side]
    enemy = 1 - side
    if attacked(G, board, k, enemy):
        return n
    back = rank_of(G, k)
    for i in range(2):
        r = st[S_CR + 2 * side + i]
        if r == 0:
            continue
        step = 1 if r > k else -1
        if G[GI_CASTLE] == Castling.FIXED:
            f = G[GI_KFILE_K] if r > k else G[GI_KFILE_Q]
            kdest = k - file_of(G, k) + f
        else:
            kdest = k + 2 * step
        rdest = castle_rook_target(k, kdest, r)
        lo = min(min(k, r), min(kdest, rdest))
        hi = max(max(k, r), max(kdest, rdest))
        ok = rank_of(G, lo) == back and rank_of(G, hi) == back
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
            if s != kdest and attacked(G, board, s, enemy):
                ok = False
        if ok:
            buf[n] = encode(k, kdest, 0, F_CASTLE, r)
            n += 1
    return n


@kernel
def _gen_men(G, board, st, buf, n, quiets):
    """Every own piece's moves (only captures of the table-driven pieces unless
    ``quiets``; a pawn's all), square by square."""
    side = st[S_SIDE]
    pawn = G[GI_PAWN]
    for w in range(occupied_words(G)):
        bits = st[S_OCC + 2 * side + w]
        while bits != 0:
            s, bits = pop_square(G, bits, w)
            t = board[s] - BLACK_BIT * side
            if t == pawn:
                n = gen_pawn(G, board, st, buf, n, s, side)
            else:
                n = _gen_piece(G, board, buf, n, s, t, side, quiets)
    return n


@kernel
def gen_chess_pseudo(G, board, st, buf, n):
    n = _gen_men(G, board, st, buf, n, True)
    side = st[S_SIDE]
    if G[GI_CASTLE] != 0 and (st[S_CR + 2 * side] != 0 or st[S_CR + 2 * side + 1] != 0):
        n = gen_castling(G, board, st, buf, n, side)
    return n


@kernel
def gen_chess_captures(G, board, st, buf, n):
    """``gen_chess_pseudo`` without the pieces' quiet moves and castling, in the same
    order: captures, en passant and every pawn move (a pawn's pushes are few, and its
    promotions are noisy too; the caller keeps what it wants)."""
    return _gen_men(G, board, st, buf, n, False)


@kernel
def in_check_chess(G, board, st):
    side = st[S_SIDE]
    return attacked(G, board, st[S_KING + side], 1 - side)


@kernel
def _move_checks(G, board, k, by, fr, to, t):
    """Does ``by``'s piece of type ``t`` going from ``fr`` to ``to`` check the king on
    ``k``, by itself or by uncovering a slider behind ``fr``? Asked of the board before
    the move or after it alike: ``fr`` is passed over as empty, ``to`` blocks."""
    d = k - to
    for i in range(G[N_LK + by]):  # the moved piece, by a leap
        if leap_delta(G, by, i) == d and (leap_types(G, by, i) >> t) & 1:
            return True
    u = ray_step(G, to, k)
    if u != 0 and (sliders_along(G, by, u) >> t) & 1:  # the moved piece, by a slide
        s = to + u
        while board[s] == EMPTY or s == fr:
            s += u
        if s == k:
            return True
    u = ray_step(G, k, fr)
    if u != 0:  # a slider behind the square it left, unless it stays on the line
        s = k + u
        while (board[s] == EMPTY or s == fr) and s != to:
            s += u
        if s != to:
            p = own_type(board[s], by)
            if p != 0 and (sliders_along(G, by, -u) >> p) & 1:
                return True
    return False


@kernel
def gives_check_chess(G, board, st, m):
    """After ``make(m)``: is the side to move in check? The same answer as
    ``in_check_chess``, found from the move, which cannot have left its opponent in check
    (a legal position): only the moved piece, or a slider uncovered on a line through its
    square of departure, can give it. Castling, en passant and promotions, rare, take
    the full test."""
    flag = m_flag(m)
    if (flag != F_NORMAL and flag != F_DOUBLE) or m_promo(m) != 0:
        return in_check_chess(G, board, st)
    side = st[S_SIDE]
    by = 1 - side
    fr, to = m_from(m), m_to(m)
    return _move_checks(G, board, st[S_KING + side], by, fr, to, own_type(board[to], by))


@kernel
def gives_check_before_chess(G, board, st, m):
    """``gives_check_chess`` of ``m`` asked before the move is made: 1 it gives check, 0
    it does not, -1 the move must be made to tell (castling, en passant, promotions)."""
    flag = m_flag(m)
    if (flag != F_NORMAL and flag != F_DOUBLE) or m_promo(m) != 0:
        return -1
    side = st[S_SIDE]
    fr, to = m_from(m), m_to(m)
    checks = _move_checks(G, board, st[S_KING + 1 - side], side, fr, to, own_type(board[fr], side))
    return 1 if checks else 0


@kernel
def _pinned(G, board, k, fr, side):
    """Does the piece on ``fr`` shield its king on ``k`` from an enemy slider?"""
    u = ray_step(G, k, fr)
    if u == 0:
        return False
    s = k + u
    while s != fr:
        if board[s] != EMPTY:
            return False
        s += u
    s = fr + u
    while board[s] == EMPTY:
        s += u
    t = own_type(board[s], 1 - side)
    return t != 0 and (sliders_along(G, 1 - side, -u) >> t) & 1 != 0


@kernel
def _legal_by_trial(G, board, st, undo, m, side):
    make_move(G, board, st, undo, m)
    ok = not attacked(G, board, st[S_KING + side], 1 - side)
    unmake_move(G, board, st, undo)
    return ok


@kernel
def filter_chess_legal(G, board, st, undo, buf, n0, n):
    """Keep the moves of ``buf[n0:n]`` that do not leave the own king attacked.

    Out of check, only king moves, en passant, castling and pinned pieces need a
    closer look; everything else is legal as generated."""
    side = st[S_SIDE]
    k = st[S_KING + side]
    king = board[k]
    check = attacked(G, board, k, 1 - side)
    j = n0
    last_fr = -1
    pinned = False
    for i in range(n0, n):
        m = buf[i]
        fr = m_from(m)
        flag = m_flag(m)
        if check or flag == F_EP or flag == F_CASTLE:
            ok = _legal_by_trial(G, board, st, undo, m, side)
        elif fr == k:
            board[k] = EMPTY  # lifted, so that it does not hide the squares behind it
            ok = not attacked(G, board, m_to(m), 1 - side)
            board[k] = king
        else:
            if fr != last_fr:
                last_fr = fr
                pinned = _pinned(G, board, k, fr, side)
            ok = not pinned or _legal_by_trial(G, board, st, undo, m, side)
        if ok:
            buf[j] = m
            j += 1
    return j


# ---------------------------------------------------------------- one move at a time

@kernel
def listed(buf, n0, n, m):
    """Is ``m`` one of ``buf[n0:n]``?"""
    for i in range(n0, n):
        if buf[i] == m:
            return True
    return False


@kernel
def chess_pseudo_legal(G, board, st, m, buf, at):
    """Would ``gen_chess_pseudo`` list ``m``? Only the moves of the piece on its
    from-square (or the castlings) are generated, at ``buf[at:]``, and compared whole:
    exactly the generator's answer, whatever bits a corrupt code carries."""
    side = st[S_SIDE]
    fr = m_from(m)
    t = own_type(board[fr], side)
    if t == 0:
        return False
    if m_flag(m) == F_CASTLE:
        if G[GI_CASTLE] == 0 or fr != st[S_KING + side]:
            return False
        n = gen_castling(G, board, st, buf, at, side)
    elif t == G[GI_PAWN]:
        n = gen_pawn(G, board, st, buf, at, fr, side)
    else:
        n = gen_piece(G, board, buf, at, fr, t, side)
    return listed(buf, at, n, m)


@kernel
def chess_move_legal(G, board, st, undo, m, check):
    """Does the pseudo-legal ``m`` leave the own king safe? ``check``: the side to move is
    in check now. The per-move form of ``filter_chess_legal``: a trial only where a pin
    test cannot decide."""
    side = st[S_SIDE]
    k = st[S_KING + side]
    flag = m_flag(m)
    if check or flag == F_EP or flag == F_CASTLE:
        return _legal_by_trial(G, board, st, undo, m, side)
    fr = m_from(m)
    if fr == k:
        king = board[k]
        board[k] = EMPTY  # lifted, so that it does not hide the squares behind it
        ok = not attacked(G, board, m_to(m), 1 - side)
        board[k] = king
        return ok
    return not _pinned(G, board, k, fr, side) or _legal_by_trial(G, board, st, undo, m, side)
