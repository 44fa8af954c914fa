"""Staged move picking for the main search: the moves of a node one at a time, each
legal move exactly once, generating, scoring and proving only what the node gets to.

1. The transposition-table move, before anything is generated. The table's word may be
   stale, from a colliding key, or torn (helper threads write an entry's words one by
   one), so it is played only if ``is_pseudo_legal`` and ``is_legal`` say so.
2. The pseudo-legal list (without the TT move), its noisy moves (captures, promotions,
   Ender's gate entries) put first and scored by MVV-LVA: the winning and the noisy
   moves, best first. SEE is asked of a capture only when it comes up; one that loses
   material is put back with SCORE_LOSING, for the end.
3. Only then the quiet moves are scored, and the selection goes on over everything
   left: killers (found in the list, so pseudo-legal by construction, and never twice),
   Ender's end of turn and drops, quiet moves by history, and last the captures that
   lose material by SEE.

Once the search says the node's remaining quiet moves are pruned unless they are killers
or may give check (``skip``: late-move or futility pruning, which stay true once they
hold), the other quiet moves are dropped from the list, unproven: the search would only
pick them, prove them legal and pass over them one by one. They are kept behind the list
(``dropped_slot``) for ``quiet_cutoff``, which lowers the history of those that would
have come before the refuting move, as if they had been picked.

Legality is proven only for the move about to be returned; an illegal one is dropped.
The invariant the search relies on: ``buf[n0:i]`` are the moves returned so far, in
order (late-move counts, the history malus of ``quiet_cutoff``; the moves ``skip``
dropped are not among them, but behind the list), and ``buf[i]`` the one being
returned. No legal move at all, after every stage: mate or stalemate.
"""
from movegen import layout as L
from movegen.core import m_flag, m_to, promotion, victim
from movegen.jit import kernel
from movegen.kernel import gen_pseudo, gives_check_before, is_legal, is_pseudo_legal
from movegen.layout import Family

from .ordering import (SCORE_LOSING, SCORE_NOISY, best_index, losing_capture, pick_next,
                       score_moves, take)
from .state import (PROF_GEN, PROF_LEGAL, PROF_MOVES, PROF_ORDER, QUIETS, dropped_slot, killer_slot,
                    score_slot, tally)

NOT_YET = -1  # the list end before the pseudo-legal list is generated
SCORED = -1  # ss[QUIETS + ply]: no quiet move waits to be scored
FILTERED = -2  # ... and the quiet moves the search prunes are dropped (``skip``)


@kernel
def _noisy_first(G, board, st, buf, i, n):
    """Put the noisy moves of ``buf[i:n]`` first; returns where the quiet ones start."""
    enders = G[L.GI_FAMILY] == Family.ENDERS
    enemy_gate = G[L.GI_GATE_B] if st[L.S_SIDE] == 0 else G[L.GI_GATE_W]
    q = i
    for j in range(i, n):
        m = buf[j]
        if (victim(board, m) != 0 or promotion(m) != 0
                or (enders and m_flag(m) == L.F_NORMAL and m_to(m) == enemy_gate)):
            buf[j] = buf[q]
            buf[q] = m
            q += 1
    return q


@kernel
def _generate(G, board, st, buf, ss, ev, ply, n0, i, tt_mv):
    """The pseudo-legal moves at ``buf[i:]``, the TT move left out if it was already
    tried (``i > n0``), noisy moves first and scored. Returns the end index."""
    tally(ss, PROF_GEN, 1)
    n = gen_pseudo(G, board, st, buf, i)
    if i > n0:
        for j in range(i, n):
            if buf[j] == tt_mv:
                n -= 1
                buf[j] = buf[n]
                break
    q = _noisy_first(G, board, st, buf, i, n)
    tally(ss, PROF_ORDER, 1)
    tally(ss, PROF_MOVES, q - i)
    score_moves(G, board, st, buf, i, q, ss, ev, ply, 0, False)
    ss[QUIETS + ply] = q
    return n


@kernel
def _drop(buf, ss, ply, i, n):
    """Remove ``buf[i]`` (and its score) from ``buf[:n]``, keeping the unscored quiet
    moves together at the end; returns the new end."""
    q = ss[QUIETS + ply]
    n -= 1
    if q < 0:
        buf[i] = buf[n]
        ss[score_slot(ply, i)] = ss[score_slot(ply, n)]
    else:  # the last scored move takes i, the last quiet move its place
        q -= 1
        buf[i] = buf[q]
        ss[score_slot(ply, i)] = ss[score_slot(ply, q)]
        buf[q] = buf[n]
        ss[QUIETS + ply] = q
    return n


@kernel
def _drop_pruned(G, board, st, buf, ss, ply, i, n):
    """Move to the end of ``buf[i:n]`` (with their scores, the rest kept in order) the
    quiet moves that are no killer and by the board give no check; returns the new end
    of the list, and ``dropped_slot`` says where those moves lie."""
    k1 = ss[killer_slot(ply, 0)]
    k2 = ss[killer_slot(ply, 1)]
    base = score_slot(ply, 0)
    w = i
    for j in range(i, n):
        m = buf[j]
        if (victim(board, m) != 0 or promotion(m) != 0 or m == k1 or m == k2
                or gives_check_before(G, board, st, m) != 0):
            s = ss[base + j]
            buf[j] = buf[w]
            ss[base + j] = ss[base + w]
            buf[w] = m
            ss[base + w] = s
            w += 1
    ss[dropped_slot(ply, 0)] = w
    ss[dropped_slot(ply, 1)] = n
    return w


@kernel
def _pick(G, board, st, buf, ss, ev, ply, i, n, skip):
    """The best move left by the stages, moved to ``buf[i]`` (``i < n``), and the list
    end (smaller once ``skip`` drops the pruned quiet moves; 0 moves left: ``i == n``)."""
    q = ss[QUIETS + ply]
    if q >= 0:
        while i < q:
            b = best_index(ss, ply, i, q)
            k = score_slot(ply, b)
            if ss[k] < 0:
                break  # only losing captures are left of the noisy moves
            if not losing_capture(G, board, st, ev, ss, buf[b]):
                return take(buf, ss, ply, b, i), n
            ss[k] += SCORE_LOSING - SCORE_NOISY  # back, to come after the quiet moves
        tally(ss, PROF_MOVES, n - q)
        score_moves(G, board, st, buf, q, n, ss, ev, ply, 0, False)
        if skip:  # scored all the same: quiet_cutoff compares the scores
            n = _drop_pruned(G, board, st, buf, ss, ply, q, n)
        ss[QUIETS + ply] = FILTERED if skip else SCORED
    elif skip and q == SCORED:
        n = _drop_pruned(G, board, st, buf, ss, ply, i, n)
        ss[QUIETS + ply] = FILTERED
    if i == n:
        return 0, n
    return pick_next(buf, ss, ply, i, n), n


@kernel
def next_move(G, board, st, undo, buf, ss, ev, ply, n0, i, n, tt_mv, check, skip):
    """The next legal move of the node at ``ply`` (0: none left), placed at ``buf[i]``
    after the ``i - n0`` moves returned before it; and the list end to pass back next
    time (``NOT_YET`` on the first call). ``check``: the side to move is in check;
    ``skip``: the search prunes the quiet moves left but killers and checks."""
    if n == NOT_YET:
        ss[dropped_slot(ply, 0)] = ss[dropped_slot(ply, 1)] = 0  # none dropped yet
        if i == n0 and tt_mv != 0 and is_pseudo_legal(G, board, st, tt_mv, buf, n0):
            tally(ss, PROF_LEGAL, 1)
            if is_legal(G, board, st, undo, tt_mv, check):
                buf[n0] = tt_mv
                return tt_mv, n
        n = _generate(G, board, st, buf, ss, ev, ply, n0, i, tt_mv)
    while i < n:
        m, n = _pick(G, board, st, buf, ss, ev, ply, i, n, skip)
        if m == 0:
            break
        tally(ss, PROF_LEGAL, 1)
        if is_legal(G, board, st, undo, m, check):
            return m, n
        n = _drop(buf, ss, ply, i, n)
    return 0, n
