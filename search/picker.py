"""Staged move picking for the main search: the moves of a node one at a time, each
legal move exactly once, generating and proving only what the node gets to.

1. The transposition-table move, before anything is generated. The table's word may be
   stale, from a colliding key, or torn (helper threads write an entry's words one by
   one), so it is played only if ``is_pseudo_legal`` and ``is_legal`` say so.
2. The pseudo-legal list (without the TT move), scored once by ``score_moves``; its
   score bands are the remaining stages, best first: winning actions and noisy moves by
   MVV-LVA (SEE not losing), killers (found in the list, so they are pseudo-legal by
   construction), Ender's end of turn and drops, quiet moves by history, and the
   captures that lose material by SEE.
3. Legality is proven only for the move about to be tried; an illegal one is dropped.

The invariant the search relies on: ``buf[n0:i]`` are the moves returned so far, in
order (late-move counts, the history malus of ``quiet_cutoff``), and ``buf[i]`` the one
being returned. No legal move at all, after every stage: mate or stalemate.
"""
from movegen.kernel import gen_pseudo, is_legal, is_pseudo_legal

from movegen.jit import kernel
from .ordering import pick_next, score_moves
from .state import PROF_GEN, PROF_LEGAL, PROF_MOVES, PROF_ORDER, score_slot, tally

NOT_YET = -1  # the list end before the pseudo-legal list is generated


@kernel
def _drop(buf, ss, ply, i, n):
    """Remove ``buf[i]`` (and its score) from ``buf[:n]``, the last move taking its
    place; returns the new end."""
    n -= 1
    buf[i] = buf[n]
    ss[score_slot(ply, i)] = ss[score_slot(ply, n)]
    return n


@kernel
def _generate(G, board, st, buf, ss, ev, ply, n0, i, tt_mv):
    """The pseudo-legal moves at ``buf[i:]``, scored; the TT move left out if it was
    already tried (``i > n0``). Returns the end index."""
    tally(ss, PROF_GEN, 1)
    n = gen_pseudo(G, board, st, buf, i)
    if i > n0:
        for j in range(i, n):
            if buf[j] == tt_mv:
                n -= 1
                buf[j] = buf[n]
                break
    tally(ss, PROF_ORDER, 1)
    tally(ss, PROF_MOVES, n - i)
    score_moves(G, board, st, buf, i, n, ss, ev, ply, 0)
    return n


@kernel
def next_move(G, board, st, undo, buf, ss, ev, ply, n0, i, n, tt_mv, check):
    """The next legal move of the node at ``ply`` (0: none left), placed at ``buf[i]``
    after the ``i - n0`` moves returned before it; and the list end to pass back next
    time (``NOT_YET`` on the first call). ``check``: the side to move is in check."""
    if n == NOT_YET:
        if i == n0 and tt_mv != 0 and is_pseudo_legal(G, board, st, tt_mv, buf, n0):
            tally(ss, PROF_LEGAL, 1)
            if is_legal(G, board, st, undo, tt_mv, check):
                buf[n0] = tt_mv
                return tt_mv, n
        n = _generate(G, board, st, buf, ss, ev, ply, n0, i, tt_mv)
    while i < n:
        m = pick_next(buf, ss, ply, i, n)
        tally(ss, PROF_LEGAL, 1)
        if is_legal(G, board, st, undo, m, check):
            return m, n
        n = _drop(buf, ss, ply, i, n)
    return 0, n
