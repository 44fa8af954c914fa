"""One entry point per operation for every game family (what search and the Python
API call): legal moves, make, unmake, check, perft, and one move's pseudo-legality and
legality (the search's staged move picking tries moves before or without lists)."""

from .batteries import (batteries_gives_check, batteries_in_check, batteries_move_legal,
                        batteries_pseudo_legal, gen_batteries_pseudo)
from .core import (chess_move_legal, chess_pseudo_legal, filter_chess_legal, gen_chess_captures, gen_chess_pseudo,
                   gives_check_before_chess, gives_check_chess, in_check_chess, m_from, m_to, make_move, unmake_move)
from .enders import enders_pseudo_legal, gen_enders, make_action, unmake_action
from .jit import kernel
from .layout import GI_FAMILY, MAX_MOVES, S_RESULT, Family


@kernel
def make(G, board, st, undo, m):
    if G[GI_FAMILY] == Family.ENDERS:
        make_action(G, board, st, undo, m)
    else:
        make_move(G, board, st, undo, m)


@kernel
def unmake(G, board, st, undo):
    if G[GI_FAMILY] == Family.ENDERS:
        unmake_action(G, board, st, undo)
    else:
        unmake_move(G, board, st, undo)


@kernel
def in_check(G, board, st):
    fam = G[GI_FAMILY]
    if fam == Family.CHESS:
        return in_check_chess(G, board, st)
    if fam == Family.BATTERIES:
        return batteries_in_check(G, board, st)
    return False


@kernel
def gives_check(G, board, st, m):
    """``in_check`` right after ``make(m)``, found faster where the move tells."""
    fam = G[GI_FAMILY]
    if fam == Family.CHESS:
        return gives_check_chess(G, board, st, m)
    if fam == Family.BATTERIES:
        return batteries_in_check(G, board, st)
    return False


@kernel
def gives_check_before(G, board, st, m):
    """``gives_check`` of the legal ``m`` asked before it is made, where that is cheap: 1
    or 0, and -1 when only making it tells (Ender's, which has no check, and the
    chess-likes' castling, en passant and promotions)."""
    fam = G[GI_FAMILY]
    if fam == Family.CHESS:
        return gives_check_before_chess(G, board, st, m)
    if fam == Family.BATTERIES:
        return 1 if batteries_gives_check(G, board, st, m) else 0
    return -1


@kernel
def gen_pseudo(G, board, st, buf, n0):
    """Write the pseudo-legal moves at ``buf[n0:]`` (Ender's: its actions, which are all
    legal); return the end index."""
    fam = G[GI_FAMILY]
    if fam == Family.CHESS:
        return gen_chess_pseudo(G, board, st, buf, n0)
    if fam == Family.BATTERIES:
        return gen_batteries_pseudo(G, board, st, buf, n0)
    return gen_enders(G, board, st, buf, n0)


@kernel
def gen_captures(G, board, st, buf, n0):
    """At least every capture, en passant and promotion of ``gen_pseudo`` at ``buf[n0:]``,
    in its order, and fewer quiet moves where the family can skip them (chess-likes);
    returns the end index."""
    if G[GI_FAMILY] == Family.CHESS:
        return gen_chess_captures(G, board, st, buf, n0)
    return gen_pseudo(G, board, st, buf, n0)


@kernel
def filter_legal(G, board, st, undo, buf, n0, n):
    """Keep the moves of ``buf[n0:n]`` that leave the own royal piece safe; return the
    new end index."""
    fam = G[GI_FAMILY]
    if fam == Family.CHESS:
        return filter_chess_legal(G, board, st, undo, buf, n0, n)
    if fam == Family.BATTERIES:
        return _filter_batteries_legal(G, board, st, buf, n0, n)
    return n


@kernel
def _filter_batteries_legal(G, board, st, buf, n0, n):
    j = n0
    for i in range(n0, n):
        m = buf[i]
        if batteries_move_legal(G, board, st, m):
            buf[j] = m
            j += 1
    return j


@kernel
def is_pseudo_legal(G, board, st, m, buf, at):
    """Would ``gen_pseudo`` list the move code ``m`` here? Any int64 is a fair question
    (a stale, colliding or torn transposition-table word): the answer is exact and costs
    the moves of one piece at most, generated at ``buf[at:]`` (overwritten)."""
    if m < 0 or m_from(m) >= board.shape[0] or m_to(m) >= board.shape[0]:
        return False
    fam = G[GI_FAMILY]
    if fam == Family.CHESS:
        return chess_pseudo_legal(G, board, st, m, buf, at)
    if fam == Family.BATTERIES:
        return batteries_pseudo_legal(G, board, st, m, buf, at)
    return enders_pseudo_legal(G, board, st, m, buf, at)


@kernel
def is_legal(G, board, st, undo, m, check):
    """Is the pseudo-legal ``m`` legal (leaves the own royal piece safe)? ``check``: the
    side to move is in check now (``in_check``)."""
    fam = G[GI_FAMILY]
    if fam == Family.CHESS:
        return chess_move_legal(G, board, st, undo, m, check)
    if fam == Family.BATTERIES:
        return batteries_move_legal(G, board, st, m)
    return True


@kernel
def gen_legal(G, board, st, undo, buf, n0):
    """Write the legal moves (Ender's: actions) at ``buf[n0:]``; return the end index."""
    return filter_legal(G, board, st, undo, buf, n0, gen_pseudo(G, board, st, buf, n0))


@kernel
def perft(G, board, st, undo, buf, depth, ply):
    """Leaf count at ``depth``; a game-ending action (Ender's) is a leaf of its own depth only."""
    n0 = ply * MAX_MOVES
    n = gen_legal(G, board, st, undo, buf, n0)
    if depth <= 1:
        return n - n0
    total = 0
    for i in range(n0, n):
        make(G, board, st, undo, buf[i])
        if st[S_RESULT] == 0:  # a game-ending action adds nothing deeper
            total += perft(G, board, st, undo, buf, depth - 1, ply + 1)
        unmake(G, board, st, undo)
    return total
