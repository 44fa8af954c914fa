"""Static exchange evaluation: what a capture wins once every piece that attacks its
square, cheapest first, has joined in (and either side may stop when going on would
lose), in centipawns of the middlegame values ``ev[EV_VALUE + type]``.

Chess-like games: exact for the table-driven pieces, x-rays included (a slider behind
the piece that just captured joins next), Archbishop, Chancellor and Courier included,
since attackers are found with the same capture tables as the attack test. A royal
piece joins last and only while nothing can take it back. Promotions and en passant are
not swapped further: en passant wins a pawn at least, so it counts as its pawn.

Batteries and Ender's Chess: an exact exchange is not meaningful there (a capture
changes which pieces are charged; an Ender's recapture waits for the other side's
turn, after every piece of the mover may have moved), so ``see`` is a conservative
bound: the victim, less the capturer when the square is defended. A capture of a
piece worth at least the capturer is never called losing.
"""
from movegen import layout as L
from movegen.batteries import batteries_attacked
from movegen.core import attacked, m_flag, m_from, m_to, victim
from movegen.fields import leap_delta, leap_types, slide_delta, slide_types
from movegen.jit import kernel
from movegen.layout import Family

from .evaluate import EV_FAMILY, EV_VALUE
from .state import PROF_SEE, SC_SEE, SCRATCH, SEE_ROW, tally

KING_VALUE = 20000  # a royal capturer: taking it back ends the exchange in a win
MAX_SWAPS = SEE_ROW
_SQ, _PIECE, _GAIN = SCRATCH + SC_SEE, SCRATCH + SC_SEE + SEE_ROW, SCRATCH + SC_SEE + 2 * SEE_ROW


@kernel
def _value(G, ev, t):
    if t == G[L.GI_KING]:
        return KING_VALUE
    return ev[EV_VALUE + t]


@kernel
def _cheapest_attacker(G, ev, board, sq, by):
    """Square of ``by``'s cheapest piece that captures on ``sq`` now (0: none)."""
    base = L.BLACK_BIT * by
    best_sq, best_v = 0, 1 << 40
    for i in range(G[L.N_LK + by]):
        s = sq - leap_delta(G, by, i)
        t = board[s] - base
        if 0 < t <= L.TYPE_MASK and (leap_types(G, by, i) >> t) & 1:
            v = _value(G, ev, t)
            if v < best_v:
                best_sq, best_v = s, v
    for i in range(G[L.N_SL + by]):
        d = slide_delta(G, by, i)
        s = sq - d
        while board[s] == L.EMPTY:
            s -= d
        t = board[s] - base
        if 0 < t <= L.TYPE_MASK and (slide_types(G, by, i) >> t) & 1:
            v = _value(G, ev, t)
            if v < best_v:
                best_sq, best_v = s, v
    return best_sq


@kernel
def _swap(G, ev, board, st, ss, m):
    """The exchange on ``m``'s square, capturers lifted off the board as they capture
    (kept in ss's SEE rows and put back before returning)."""
    fr, to = m_from(m), m_to(m)
    ss[_GAIN] = _value(G, ev, victim(board, m) & L.TYPE_MASK)
    on_square = _value(G, ev, board[fr] & L.TYPE_MASK)  # what stands on ``to`` next
    ss[_SQ], ss[_PIECE] = fr, board[fr]
    board[fr] = L.EMPTY
    n = 1
    by = 1 - st[L.S_SIDE]
    while n < MAX_SWAPS:
        s = _cheapest_attacker(G, ev, board, to, by)
        if s == 0:
            break
        ss[_GAIN + n] = on_square - ss[_GAIN + n - 1]
        on_square = _value(G, ev, board[s] & L.TYPE_MASK)
        ss[_SQ + n], ss[_PIECE + n] = s, board[s]
        board[s] = L.EMPTY
        n += 1
        by = 1 - by
    for k in range(n):
        board[ss[_SQ + k]] = ss[_PIECE + k]
    # either side may stop: fold the gains back from the last capture
    for k in range(n - 1, 0, -1):
        ss[_GAIN + k - 1] = -max(-ss[_GAIN + k - 1], ss[_GAIN + k])
    return ss[_GAIN]


@kernel
def see(G, board, st, ev, ss, m):
    """Centipawns the capture ``m`` wins for the side to move (see the module's text)."""
    tally(ss, PROF_SEE, 1)
    v = victim(board, m) & L.TYPE_MASK
    if v == 0:
        return 0
    fam = ev[EV_FAMILY]
    if fam == Family.CHESS:
        if m_flag(m) == L.F_EP:
            return _value(G, ev, v)
        return _swap(G, ev, board, st, ss, m)
    gain = _value(G, ev, v)
    mover = board[m_from(m)] & L.TYPE_MASK
    if gain >= _value(G, ev, mover):
        return gain
    enemy = 1 - st[L.S_SIDE]
    defended = False
    if fam == Family.BATTERIES:
        defended = batteries_attacked(G, board, m_to(m), enemy)
    else:
        defended = attacked(G, board, m_to(m), enemy)
    return gain - _value(G, ev, mover) if defended else gain


@kernel
def see_below(G, board, st, ev, ss, m, threshold):
    """Does the capture ``m`` win less than ``threshold`` by ``see``? The exchange is
    swapped only when a cheap bound leaves it open: a capture never wins less than its
    victim less its capturer (taken back, and the exchange stopped there), which settles
    the captures of a piece worth at least the capturer."""
    gain = _value(G, ev, victim(board, m) & L.TYPE_MASK)
    if gain - _value(G, ev, board[m_from(m)] & L.TYPE_MASK) >= threshold:
        return False
    return see(G, board, st, ev, ss, m) < threshold
