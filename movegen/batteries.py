"""Chess with Batteries: the rules the piece tables cannot say. Charge, Battery
transparency, overtaking and the charged Soldier are code here; make/unmake are the
shared core's.

Which piece does what is read from the game record: each ``PieceType.role`` becomes a
role code in the table ``G[ROLE + type]`` (and the Battery's type, looked at on every
square a move passes, is ``G[GI_BATTERY]``), the Soldier's double-step rank is
``Game.pawn_double_rank`` and its promotion the first of ``Game.promotions``.
"""
from .core import encode, is_enemy, listed, m_extra, m_flag, m_from, m_promo, m_to, own_type
from .fields import occupied_words, pop_square, rank_of
from .jit import inline_kernel, kernel
from .layout import (BLACK_BIT, EMPTY, F_NORMAL, F_OVERTAKE, GI_BATTERY, GI_DOUBLE_RANK, GI_H,
                     GI_STRIDE, OFF, PROMO, ROLE, S_KING, S_OCC, S_SIDE)

# role codes; ORTHOG..AGENT are the three orthogonal sliders
PRESIDENT, BATTERY, LADY, DIAG, ORTHOG, EQUINE, AGENT, SOLDIER = 1, 2, 3, 4, 5, 6, 7, 8
ROLES = {"president": PRESIDENT, "battery": BATTERY, "lady": LADY, "diag": DIAG,
         "orthog": ORTHOG, "equine": EQUINE, "agent": AGENT, "soldier": SOLDIER}


@kernel
def _dirs(stride):
    """The 8 unit steps: orthogonal first (indices 0-3), then diagonal (4-7)."""
    return (1, -1, stride, -stride, stride + 1, stride - 1, -stride + 1, -stride - 1)


@kernel
def _knight(stride):
    return (2 * stride + 1, 2 * stride - 1, -2 * stride + 1, -2 * stride - 1,
            stride + 2, stride - 2, -stride + 2, -stride - 2)


@kernel
def is_battery(p, battery):
    """Does a cell holding ``p`` hold a Battery of either side (``battery``: its type)?"""
    return p | BLACK_BIT == battery | BLACK_BIT  # one test for both colours (OFF has bit 64)


@kernel
def charged(board, sq, colour, stride, battery):
    """Does a friendly Battery stand on one of the 8 squares around ``sq``?"""
    own = battery + BLACK_BIT * colour
    for d in _dirs(stride):
        if board[sq + d] == own:
            return True
    return False


@kernel
def _victim(q, side, battery):
    """Can a non-President of ``side`` capture what stands on a square holding ``q``?"""
    return is_enemy(q, side) and not is_battery(q, battery)


@kernel
def _slides(G, board, buf, n, s, side, stride, first, last, capture_far):
    """Slides along directions first..last-1, passing over Batteries; quiet moves to any
    empty square, a capture of the first non-Battery piece if adjacent or ``capture_far``."""
    battery = G[GI_BATTERY]
    dirs = _dirs(stride)
    for i in range(first, last):
        d = dirs[i]
        to = s + d
        dist = 1
        while True:
            q = board[to]
            if q == EMPTY:
                buf[n] = encode(s, to, 0, F_NORMAL, 0)
                n += 1
            elif not is_battery(q, battery):
                if q != OFF and _victim(q, side, battery) and (capture_far or dist == 1):
                    buf[n] = encode(s, to, 0, F_NORMAL, 0)
                    n += 1
                break
            to += d
            dist += 1
    return n


@kernel
def _gen_soldier(G, board, buf, n, s, side, stride, ch):
    battery = G[GI_BATTERY]
    fwd = stride if side == 0 else -stride
    rank = rank_of(G, s)
    h = G[GI_H]
    last = h - 1 if side == 0 else 0
    start = G[GI_DOUBLE_RANK] if side == 0 else h - 1 - G[GI_DOUBLE_RANK]
    promotion = G[PROMO]  # a Soldier on the last rank must become this (the Agent)
    one = s + fwd
    if board[one] == EMPTY:
        promo = promotion if rank_of(G, one) == last else 0
        buf[n] = encode(s, one, promo, F_NORMAL, 0)
        n += 1
    # two straight: from the start rank, or anywhere when charged; passes over a Battery
    two = s + 2 * fwd
    if (rank == start or ch) and board[two] == EMPTY and (
            board[one] == EMPTY or is_battery(board[one], battery)):
        promo = promotion if rank_of(G, two) == last else 0
        buf[n] = encode(s, two, promo, F_NORMAL, 0)
        n += 1
    for dx in (-1, 1):
        to = s + fwd + dx
        if _victim(board[to], side, battery):
            promo = promotion if rank_of(G, to) == last else 0
            buf[n] = encode(s, to, promo, F_NORMAL, 0)
            n += 1
        far = to + fwd + dx
        mid = board[to]
        if ch and (mid == EMPTY or is_battery(mid, battery)) and _victim(board[far], side, battery):
            promo = promotion if rank_of(G, far) == last else 0
            buf[n] = encode(s, far, promo, F_NORMAL, 0)
            n += 1
    return n


@kernel
def _gen_agent_extras(G, board, buf, n, s, side, stride):
    """A charged Agent's diagonal steps and its jumps (overtaking, or over a Battery)."""
    battery = G[GI_BATTERY]
    dirs = _dirs(stride)
    for i in range(4, 8):  # diagonal steps (orthogonal ones are the Rook slide's)
        to = s + dirs[i]
        q = board[to]
        if q == EMPTY or _victim(q, side, battery):
            buf[n] = encode(s, to, 0, F_NORMAL, 0)
            n += 1
    for i in range(8):
        mid = s + dirs[i]
        to = mid + dirs[i]
        if board[to] != EMPTY:
            continue
        q = board[mid]
        if _victim(q, side, battery):
            buf[n] = encode(s, to, 0, F_OVERTAKE, mid)
            n += 1
        elif is_battery(q, battery) and i >= 4:
            # over a Battery: a plain move; straight ones equal the Rook slide already
            buf[n] = encode(s, to, 0, F_NORMAL, 0)
            n += 1
    return n


@inline_kernel
def gen_batteries_square(G, board, buf, n, s, t, side):
    """The pseudo-legal moves of ``side``'s piece of type ``t`` on ``s`` at ``buf[n:]``
    (copied into its callers, like the loop body it was)."""
    stride = G[GI_STRIDE]
    battery = G[GI_BATTERY]
    dirs = _dirs(stride)
    role = G[ROLE + t]
    if role == PRESIDENT:
        for d in dirs:
            q = board[s + d]
            if q == EMPTY or is_enemy(q, side):
                buf[n] = encode(s, s + d, 0, F_NORMAL, 0)
                n += 1
    elif role == BATTERY:
        for d in dirs:
            to = s + d
            while board[to] != OFF:
                if board[to] == EMPTY:
                    buf[n] = encode(s, to, 0, F_NORMAL, 0)
                    n += 1
                to += d
    else:
        ch = charged(board, s, side, stride, battery)
        if role == SOLDIER:
            n = _gen_soldier(G, board, buf, n, s, side, stride, ch)
        elif role == LADY:
            n = _slides(G, board, buf, n, s, side, stride, 0, 8, ch)
        elif role == DIAG:
            n = _slides(G, board, buf, n, s, side, stride, 4, 8, ch)
        else:  # Orthog, Equine, Agent
            n = _slides(G, board, buf, n, s, side, stride, 0, 4, ch)
            if ch and role == EQUINE:
                for d in _knight(stride):
                    if _victim(board[s + d], side, battery):
                        buf[n] = encode(s, s + d, 0, F_NORMAL, 0)
                        n += 1
            elif ch and role == AGENT:
                n = _gen_agent_extras(G, board, buf, n, s, side, stride)
    return n


@kernel
def gen_batteries_pseudo(G, board, st, buf, n):
    side = st[S_SIDE]
    for w in range(occupied_words(G)):
        bits = st[S_OCC + 2 * side + w]
        while bits != 0:
            s, bits = pop_square(G, bits, w)
            n = gen_batteries_square(G, board, buf, n, s, board[s] - BLACK_BIT * side, side)
    return n


@kernel
def batteries_attacked(G, board, sq, by):
    """Is ``sq`` attacked by ``by``, with each attacker's charge as it stands now?"""
    stride = G[GI_STRIDE]
    battery = G[GI_BATTERY]
    dirs = _dirs(stride)
    fwd = stride if by == 0 else -stride
    for i in range(8):
        d = dirs[i]
        s = sq + d
        dist = 1
        while board[s] == EMPTY or is_battery(board[s], battery):  # Batteries never block
            s += d
            dist += 1
        t = own_type(board[s], by)
        if t == 0:
            continue
        role = G[ROLE + t]
        diagonal = i >= 4
        if role == PRESIDENT:
            if dist == 1:
                return True
        elif role == SOLDIER:
            # the Soldier steps from s towards sq: -d must be one of its forward diagonals
            if -d == fwd + 1 or -d == fwd - 1:
                if dist == 1 or (dist == 2 and charged(board, s, by, stride, battery)):
                    return True
        elif role == LADY or (role == DIAG and diagonal) or (
                ORTHOG <= role <= AGENT and not diagonal):
            if dist == 1 or charged(board, s, by, stride, battery):
                return True
        elif role == AGENT and dist == 1 and charged(board, s, by, stride, battery):
            return True  # a charged Agent's diagonal step (its overtaking is no wider)
    for d in _knight(stride):
        s = sq + d
        t = own_type(board[s], by)
        if t != 0 and G[ROLE + t] == EQUINE and charged(board, s, by, stride, battery):
            return True
    return False


@kernel
def batteries_in_check(G, board, st):
    side = st[S_SIDE]
    return batteries_attacked(G, board, st[S_KING + side], 1 - side)


@kernel
def batteries_pseudo_legal(G, board, st, m, buf, at):
    """Would ``gen_batteries_pseudo`` list ``m``? The moves of the piece on its
    from-square are generated at ``buf[at:]`` and compared whole."""
    side = st[S_SIDE]
    fr = m_from(m)
    t = own_type(board[fr], side)
    if t == 0:
        return False
    return listed(buf, at, gen_batteries_square(G, board, buf, at, fr, t, side), m)


@inline_kernel
def _attacked_after(G, board, st, m, colour):
    """Is ``colour``'s President attacked once the side to move has played ``m``? Tried
    on the board: a move changes which pieces are charged, so no pin or line test can
    tell. Only the board's cells change for the trial (the attack test reads nothing
    else; Batteries has no castling and no en passant), not the hash, the saved scalars
    and the rest of ``make_move``: a lighter trial than make and unmake. Copied into its
    callers: as a call of its own in the legal-list filter it slowed perft by 6%."""
    side = st[S_SIDE]
    fr, to, promo = m_from(m), m_to(m), m_promo(m)
    capsq = m_extra(m) if m_flag(m) == F_OVERTAKE else to
    piece, there, cap = board[fr], board[to], board[capsq]
    board[capsq] = EMPTY
    board[fr] = EMPTY
    board[to] = piece if promo == 0 else promo + BLACK_BIT * side
    king = to if fr == st[S_KING + colour] else st[S_KING + colour]
    hit = batteries_attacked(G, board, king, 1 - colour)
    board[to] = there
    board[capsq] = cap
    board[fr] = piece
    return hit


@inline_kernel
def batteries_move_legal(G, board, st, m):
    """Does the pseudo-legal ``m`` leave the own President safe?"""
    return not _attacked_after(G, board, st, m, st[S_SIDE])


@kernel
def batteries_gives_check(G, board, st, m):
    """Does the legal ``m`` attack the enemy President? Asked before it is made."""
    return _attacked_after(G, board, st, m, 1 - st[S_SIDE])
