"""Move ordering: transposition-table move, winning actions (Ender's gate entry),
captures by MVV/LVA and promotions, killers, Ender's end-of-turn and drops, then quiet
moves by history (Ender's: plus progress towards the enemy gate).

Scores go to ``ss[score_slot(ply, j)]`` beside ``buf[j]`` (state.py);
``pick_next`` does one step of selection sort, so a cutoff after the first moves never
pays for sorting the rest.
"""
import numpy as np

from movegen import layout as L
from movegen.core import m_flag, m_from, m_promo, m_to, promotion, victim
from movegen.kernel import is_legal
from movegen.layout import Family

from .evaluate import EV_FAMILY, EV_VALUE, gate_distance
from .see import see_below
from movegen.jit import kernel
from .state import (CONT_CELLS, CONT_TYPES, cont_row, dropped_slot, history_slot, history_table,
                    killer_slot, score_slot)

SCORE_TT = 1 << 30
SCORE_WIN = 1 << 29  # an action that wins at once (Ender's gate entry)
SCORE_NOISY = 1 << 28
SCORE_KILLER = 1 << 27
SCORE_END_TURN = 1 << 26
SCORE_DROP = 1 << 25
SCORE_LOSING = -(1 << 24)  # a capture that loses material (SEE): after every quiet move
HIST_MAX = 1 << 14


@kernel
def hist_index(side, m):
    return history_slot(side, m_from(m), m_to(m))


@kernel
def cont_key(G, board, m):
    """The continuation-history key of move ``m`` on the board before it is made: its
    piece type and target cell (-1 in Ender's, whose turns are several actions)."""
    if G[L.GI_FAMILY] == Family.ENDERS:
        return -1
    t = np.int64(board[m_from(m)]) & L.TYPE_MASK
    c = G[L.CELL + m_to(m)]
    if t == 0 or t > CONT_TYPES or c < 0:
        return -1  # not a piece's move to a board cell (none such in these games)
    return (t - 1) * CONT_CELLS + c


@kernel
def _quiet_score(G, board, ss, side, m, r1, r2):
    """A quiet move's history: its butterfly entry plus its continuation entries as the
    answer to the moves one and two plies back (rows ``r1``, ``r2``; -1: none)."""
    hist = history_table(ss)
    s = np.int64(hist[hist_index(side, m)])
    k = cont_key(G, board, m) if r1 >= 0 or r2 >= 0 else -1
    if k >= 0:
        if r1 >= 0:
            s += hist[r1 + k]
        if r2 >= 0:
            s += hist[r2 + k]
    return s


@kernel
def scored_losing(ss, ply, i):
    """Did the picker put ``buf[i]`` of ``ply`` back as a capture that loses material
    (SCORE_LOSING, after the quiet moves)? Only for a move it scored (not the TT move)."""
    return ss[score_slot(ply, i)] < SCORE_LOSING // 2


@kernel
def losing_capture(G, board, st, ev, ss, m):
    """Does the noisy move ``m`` lose material by SEE? (Not asked of promotions, nor in
    Ender's, where see.py's bound would call too many captures losing.)"""
    return promotion(m) == 0 and ev[EV_FAMILY] != Family.ENDERS and see_below(G, board, st, ev, ss, m, 0)


@kernel
def score_moves(G, board, st, buf, n0, n, ss, ev, ply, tt_mv, with_see):
    """Score ``buf[n0:n]`` for ``pick_next``. ``with_see``: a capture that loses material
    gets SCORE_LOSING at once; else every noisy move is SCORE_NOISY and a caller that
    cares asks ``losing_capture`` when the capture comes up (see picker.py)."""
    side = st[L.S_SIDE]
    k1 = ss[killer_slot(ply, 0)]
    k2 = ss[killer_slot(ply, 1)]
    enders = ev[EV_FAMILY] == Family.ENDERS
    enemy_gate = G[L.GI_GATE_B] if side == 0 else G[L.GI_GATE_W]
    base = score_slot(ply, 0)
    r1 = cont_row(ss, ply, 1, side)
    r2 = cont_row(ss, ply, 2, side)
    for i in range(n0, n):
        m = buf[i]
        if m == tt_mv:
            s = SCORE_TT
        else:
            v = victim(board, m)
            pr = promotion(m)
            flag = m_flag(m)
            if enders and flag == L.F_NORMAL and m_to(m) == enemy_gate:
                s = SCORE_WIN + (ev[EV_VALUE + (v & L.TYPE_MASK)] if v != 0 else 0)
            elif v != 0 or pr != 0:
                attacker = np.int64(board[m_from(m)]) & L.TYPE_MASK
                s = 16 * ev[EV_VALUE + (v & L.TYPE_MASK)] - ev[EV_VALUE + attacker] // 16
                if pr != 0:
                    s += 16 * ev[EV_VALUE + pr]
                if with_see and losing_capture(G, board, st, ev, ss, m):
                    s += SCORE_LOSING
                else:
                    s += SCORE_NOISY
            elif m == k1:
                s = SCORE_KILLER + 2
            elif m == k2:
                s = SCORE_KILLER + 1
            elif flag == L.F_END:
                s = SCORE_END_TURN
            elif flag == L.F_DROP:
                s = SCORE_DROP + ev[EV_VALUE + m_promo(m)]
            else:
                s = _quiet_score(G, board, ss, side, m, r1, r2)
                if enders:
                    p = np.int64(board[m_from(m)])
                    t = p & L.TYPE_MASK
                    d0 = gate_distance(ev, side, t, m_from(m))
                    d1 = gate_distance(ev, side, t, m_to(m))
                    s += 2048 * (d0 - d1)
        ss[base + i] = s


@kernel
def best_index(ss, ply, i, n):
    """Index of the first best-scored move of ``buf[i:n]`` (``i < n``)."""
    base = score_slot(ply, 0)
    best = i
    bs = ss[base + i]
    for j in range(i + 1, n):
        if ss[base + j] > bs:
            bs = ss[base + j]
            best = j
    return best


@kernel
def take(buf, ss, ply, b, i):
    """Swap ``buf[b]`` (and its score) to ``i`` and return it."""
    if b != i:
        base = score_slot(ply, 0)
        m = buf[b]
        buf[b] = buf[i]
        buf[i] = m
        s = ss[base + b]
        ss[base + b] = ss[base + i]
        ss[base + i] = s
    return buf[i]


@kernel
def pick_next(buf, ss, ply, i, n):
    """Move the best-scored move of ``buf[i:n]`` to ``i`` and return it."""
    return take(buf, ss, ply, best_index(ss, ply, i, n), i)


@kernel
def _hist_update(table, k, bonus):
    """Move ``table[k]`` by ``bonus``, less the more it already leans that way (a history
    stays within +-HIST_MAX)."""
    h = np.int64(table[k])
    table[k] = h + bonus - h * abs(bonus) // HIST_MAX


@kernel
def _quiet_update(G, board, ss, side, m, r1, r2, bonus):
    """Move ``m``'s butterfly and continuation entries by ``bonus``."""
    hist = history_table(ss)
    _hist_update(hist, hist_index(side, m), bonus)
    k = cont_key(G, board, m) if r1 >= 0 or r2 >= 0 else -1
    if k >= 0:
        if r1 >= 0:
            _hist_update(hist, r1 + k, bonus)
        if r2 >= 0:
            _hist_update(hist, r2 + k, bonus)


@kernel
def quiet_cutoff(G, board, st, undo, buf, ss, ply, n0, i, depth, check):
    """``buf[i]``, a quiet move, refuted the node: killers up, history up for it and
    down for the quiet moves tried before it (``buf[n0:i]``) and for the legal ones the
    picker dropped as pruned that would have come before it, scored higher (``check``:
    the side to move is in check)."""
    m = buf[i]
    side = st[L.S_SIDE]
    if ss[killer_slot(ply, 0)] != m:
        ss[killer_slot(ply, 1)] = ss[killer_slot(ply, 0)]
        ss[killer_slot(ply, 0)] = m
    bonus = min(depth * depth, 400)
    r1 = cont_row(ss, ply, 1, side)
    r2 = cont_row(ss, ply, 2, side)
    _quiet_update(G, board, ss, side, m, r1, r2, bonus)
    for j in range(n0, i):
        q = buf[j]
        if victim(board, q) == 0 and promotion(q) == 0 and m_flag(q) != L.F_END:
            _quiet_update(G, board, ss, side, q, r1, r2, -bonus)
    score = ss[score_slot(ply, i)]
    for j in range(ss[dropped_slot(ply, 0)], ss[dropped_slot(ply, 1)]):
        q = buf[j]
        if ss[score_slot(ply, j)] > score and is_legal(G, board, st, undo, q, check):
            _quiet_update(G, board, ss, side, q, r1, r2, -bonus)
