"""The alpha-beta search (numba): principal variation search with aspiration windows,
quiescence search, transposition table, null move, razoring, internal iterative and
late-move reductions, singular and check extensions, in-tree repetition and 50-move
draws, mate scores counted in plies.

Negamax over *actions*: in Ender's Chess a turn is several actions, one per ply, and the
side to move changes only at the end of a turn. A child's score is negated (and its
window mirrored) only when the side to move changed; otherwise it is the same player's
score. Everything else (TT, ordering, PV) works unchanged. Two piece moves of a turn
that do not meet reach the same position in either order; only the order with the
lower origin square first is searched (``reordered_turn``), which takes a third to a half
of the nodes off Ender's searches.

Entry points for the Python driver (search/__init__.py): ``prepare_root`` once per
search, ``iterate`` once per depth. Both return quickly when ``ss[STOP]`` is set
(polled every POLL_MASK + 1 nodes) and leave the best root move so far in
``ss[ROOT_BEST]``.
"""
import numpy as np

from movegen import layout as L
from movegen.layout import Family, Result
from movegen.core import encode, m_flag, m_to, promotion, victim
from movegen.enders import reordered_turn
from movegen.kernel import (gen_captures, gen_legal, gen_pseudo, gives_check, gives_check_before, in_check,
                            is_legal, make, unmake)

from .evaluate import (
    EV_VALUE,
    W_ASPIRATION,
    W_DELTA,
    W_FUTILITY,
    W_LMP_BASE,
    W_NULL_DIV,
    W_NULL_R,
    W_PRUNE_DEPTH,
    W_QS_FUTILITY,
    W_RAZOR,
    W_SINGULAR_DEPTH,
    W_SINGULAR_MARGIN,
    evaluate_node,
    lmr,
    psq_node,
)
from movegen.jit import inline_kernel, kernel
from .ordering import cont_key, hist_index, pick_next, quiet_cutoff, score_moves, scored_losing
from .picker import NOT_YET, next_move
from .see import see_below
from .state import (
    ABORTED,
    AGE,
    DRAW,
    INF,
    MATE,
    MATE_BOUND,
    MAX_MOVES,
    MAX_SPLY,
    NODE_LIMIT,
    NODES,
    NROOT,
    POLL_MASK,
    PROF_CUT,
    PROF_CUT1,
    PROF_EVAL,
    PROF_GEN,
    PROF_LEGAL,
    PROF_MAIN,
    PROF_MAKE,
    PROF_MOVES,
    PROF_NOISY,
    PROF_ORDER,
    PROF_QS,
    PROF_TT,
    PV_LEN,
    ROOT_BEST,
    ROOT_DEPTH,
    ROOT_DONE,
    ROOT_MOVES,
    ROOT_SCORE,
    EXCLUDED,
    CMKEY,
    MOVE_NO,
    SC_NPM,
    SCRATCH,
    SELDEPTH,
    STATICS,
    STOP,
    history_table,
    killer_slot,
    pv_slot,
    score_slot,
    tally,
)
from .tt import (
    BOUND_EXACT,
    BOUND_NONE,
    BOUND_LOWER,
    BOUND_UPPER,
    tt_bound,
    tt_depth,
    tt_move,
    tt_prefetch,
    tt_probe,
    tt_score,
    tt_store,
)

NULL_MOVE = encode(0, 0, 0, L.F_NULL, 0)
# The margins and depths of the pruning below are the search settings of ev (W_FUTILITY ...,
# search/weights.py SEARCH), so that a running engine can be given others (``Tune``).


# the opponent's move number above which a late-move reduction is a ply smaller (Stockfish's
# rule; +7.0 +- 4.6 points per 100 games at time odds, benchmarks/sprt.md, session 83)
MANY_MOVES = 14


@kernel
def _count_node(ss):
    """Count a node; True if the search must stop (stop flag or node limit)."""
    n = ss[NODES] + 1
    ss[NODES] = n
    if (n & POLL_MASK) == 0 and ss[STOP] != 0:
        ss[ABORTED] = 1
    if ss[NODE_LIMIT] != 0 and n >= ss[NODE_LIMIT]:
        ss[STOP] = 1
        ss[ABORTED] = 1
    return ss[ABORTED] != 0


@kernel
def _repeated(fam, st, undo):
    """Has the current position stood before (same side to move)? Ender's compares
    positions at the start of a turn only."""
    h = st[L.S_HASH]
    ply = st[L.S_PLY]
    if fam == Family.ENDERS:
        if st[L.S_ACTIONS] != 0:
            return False
        i = ply - 1
        while i >= 0:
            if undo[i, L.S_ACTIONS] == 0 and undo[i, L.S_HASH] == h:
                return True
            if undo[i, L.S_HALF] == 0:
                break  # before that, a capture or drop made every position different
            i -= 1
        return False
    lo = max(0, ply - st[L.S_HALF])
    i = ply - 2
    while i >= lo:
        if undo[i, L.S_HASH] == h:
            return True
        i -= 2
    return False


@kernel
def _result_score(result, side, ply):
    """Score of a finished Ender's game for ``side``, the game having ended at ``ply``."""
    if result == Result.DRAW:
        return DRAW
    if (result == Result.WHITE_WINS and side == 0) or (result == Result.BLACK_WINS and side == 1):
        return MATE - ply
    return -MATE + ply


@kernel
def _bound(best, old_alpha, beta):
    """What a node's best score says: a lower bound (it failed high), exact (it raised
    alpha), or an upper bound (nothing beat alpha)."""
    if best >= beta:
        return BOUND_LOWER
    return BOUND_EXACT if best > old_alpha else BOUND_UPPER


@kernel
def _table_move(bestm, bound):
    """The move a node stores in the table: none when it failed low, whose best-scoring
    move is noise among upper bounds (the entry then keeps the move it had)."""
    return 0 if bound == BOUND_UPPER else bestm


@kernel
def _update_pv(ss, ply, m):
    ss[pv_slot(ply, ply)] = m
    end = ss[PV_LEN + ply + 1]
    end = max(end, ply + 1)
    for j in range(ply + 1, end):
        ss[pv_slot(ply, j)] = ss[pv_slot(ply + 1, j)]
    ss[PV_LEN + ply] = end


@kernel
def _noisy(G, board, st, m, fam):
    """Captures, promotions and (Ender's) gate entries: the quiescence search's moves."""
    if victim(board, m) != 0:
        return True
    pr = promotion(m)
    if pr != 0:
        return pr == G[L.PROMO]  # the best promotion only
    if fam == Family.ENDERS and m_flag(m) == L.F_NORMAL:
        gate = G[L.GI_GATE_B] if st[L.S_SIDE] == 0 else G[L.GI_GATE_W]
        return m_to(m) == gate
    return False


@kernel
def gen_noisy(G, board, st, buf, n0, fam):
    """The pseudo-legal noisy moves (see ``_noisy``) at ``buf[n0:]``; returns the end
    index. Their legality is tested as they are tried, after the pruning tests."""
    n = gen_captures(G, board, st, buf, n0)
    j = n0
    for i in range(n0, n):
        m = buf[i]
        if _noisy(G, board, st, m, fam):
            buf[j] = m
            j += 1
    return j


@kernel
def _table_decides(tscore, tbound, alpha, beta):
    """Does a table entry's score settle the node for the window (alpha, beta)? Exact, or
    a bound already beyond the window."""
    return (tbound == BOUND_EXACT or (tbound == BOUND_LOWER and tscore >= beta)
            or (tbound == BOUND_UPPER and tscore <= alpha))


@kernel
def _table_guess(fam, static, tscore, tbound):
    """The static evaluation, or the table's score where the entry's bound says the truth
    lies beyond it (a lower bound above it, an upper bound below it): the better guess
    to stand pat on and to prune by. Chess-likes only and never a mate score; in
    Batteries it hid a mate in 2 from a depth-5 search (tests/search/test_tactics.py)."""
    if fam == Family.BATTERIES or fam == Family.ENDERS or abs(tscore) >= MATE_BOUND:
        return static
    if ((tbound & BOUND_LOWER) != 0 and tscore > static) or ((tbound & BOUND_UPPER) != 0 and tscore < static):
        return tscore
    return static


@kernel
def _singular_beta(tt, e, ply, depth, margin):
    """The score every other move must fall short of for the table's move to be singular
    (-INF: the entry cannot tell: not a lower bound, too shallow, or a mate score)."""
    if e < 0 or (tt_bound(tt, e) & BOUND_LOWER) == 0 or tt_depth(tt, e) < depth - 3:
        return -INF
    s = tt_score(tt, e, ply)
    if abs(s) >= MATE_BOUND:
        return -INF
    return s - margin * depth


@kernel
def qsearch(G, board, st, undo, buf, tt, ss, ev, ply, alpha, beta, in_chk):
    ss[PV_LEN + ply] = ply
    if _count_node(ss):
        return 0
    tally(ss, PROF_QS, 1)
    ss[SELDEPTH] = max(ss[SELDEPTH], ply)
    if ply >= MAX_SPLY - 2:
        return evaluate_node(G, board, st, undo, ev, ss)
    fam = G[L.GI_FAMILY]
    key = st[L.S_HASH]
    tally(ss, PROF_TT, 1)
    e = tt_probe(tt, key)
    tmove = 0
    tscore = 0
    tbound = BOUND_NONE
    if e >= 0:
        tmove = tt_move(tt, e)
        tscore = tt_score(tt, e, ply)
        tbound = tt_bound(tt, e)
        if beta - alpha == 1 and _table_decides(tscore, tbound, alpha, beta):
            return tscore
    side = st[L.S_SIDE]
    old_alpha = alpha
    if in_chk:
        stand = -INF
        best = -MATE + ply
        psq_node(G, board, st, undo, ev, ss)  # not evaluated; the children's sums follow from it
    else:
        tally(ss, PROF_EVAL, 1)
        stand = _table_guess(fam, evaluate_node(G, board, st, undo, ev, ss), tscore, tbound)
        if stand >= beta:
            return stand
        alpha = max(alpha, stand)
        best = stand
    n0 = ply * MAX_MOVES
    if in_chk:
        tally(ss, PROF_GEN, 1)
        n = gen_pseudo(G, board, st, buf, n0)
    else:
        tally(ss, PROF_NOISY, 1)
        n = gen_noisy(G, board, st, buf, n0, fam)
    tally(ss, PROF_ORDER, 1)
    tally(ss, PROF_MOVES, n - n0)
    # out of check a losing capture is skipped below, so its SEE is asked there, once
    score_moves(G, board, st, buf, n0, n, ss, ev, ply, tmove, in_chk)
    bestm = 0
    legal = 0  # legal moves tried
    delta = stand + ev[W_DELTA]  # the settings read once, not per move
    far = stand + ev[W_QS_FUTILITY]
    for i in range(n0, n):
        m = pick_next(buf, ss, ply, i, n)
        if not in_chk and fam != Family.ENDERS and promotion(m) == 0:
            if delta + ev[EV_VALUE + (victim(board, m) & L.TYPE_MASK)] <= alpha:
                continue  # delta pruning: even winning this piece leaves us below alpha
            # a losing capture: standing pat is better than the exchange; far below alpha an
            # even exchange too (alpha rises as moves are tried, so asked per move)
            if see_below(G, board, st, ev, ss, m, 1 if far <= alpha else 0):
                continue
        tally(ss, PROF_LEGAL, 1)
        if not is_legal(G, board, st, undo, m, in_chk):
            continue
        legal += 1
        ss[CMKEY + ply] = cont_key(G, board, m)
        tally(ss, PROF_MAKE, 1)
        make(G, board, st, undo, m)
        tt_prefetch(tt, st[L.S_HASH])
        res = st[L.S_RESULT]
        if res != 0:
            s = _result_score(res, side, ply + 1)
            ss[PV_LEN + ply + 1] = ply + 1
        else:
            gives = gives_check(G, board, st, m)
            if st[L.S_SIDE] != side:
                s = -qsearch(G, board, st, undo, buf, tt, ss, ev, ply + 1, -beta, -alpha, gives)
            else:
                s = qsearch(G, board, st, undo, buf, tt, ss, ev, ply + 1, alpha, beta, gives)
        unmake(G, board, st, undo)
        if ss[ABORTED] != 0:
            return 0
        if s > best:
            best = s
            bestm = m
            if s > alpha:
                alpha = s
                _update_pv(ss, ply, m)
                if s >= beta:
                    break
    if in_chk and legal == 0:
        return -MATE + ply  # every move was tried (nothing is pruned in check): mate
    bound = _bound(best, old_alpha, beta)
    tt_store(tt, key, _table_move(bestm, bound), best, 0, bound, ply, ss[AGE])
    return best


@inline_kernel
def _child(G, board, st, undo, buf, tt, ss, ev, ply, depth, alpha, beta, gives, null_ply, flipped):
    """``negamax`` after the move made at ``ply``, as a score for the side that made it,
    within that side's window (alpha, beta). ``flipped``: the move passed the turn
    (always in chess; in Ender's only an end of turn), so the child searches from the
    other side's view, with the window mirrored and the score negated."""
    if flipped:
        return -negamax(G, board, st, undo, buf, tt, ss, ev, ply + 1, depth, -beta, -alpha,
                        gives, null_ply)
    return negamax(G, board, st, undo, buf, tt, ss, ev, ply + 1, depth, alpha, beta, gives, null_ply)


@inline_kernel
def _search_child(G, board, st, undo, buf, tt, ss, ev, ply, nd, r, alpha, beta, first, flipped,
                  gives, null_ply):
    """Principal variation search of the move just made at ``ply`` (depth ``nd``), scored
    for the side that made it: the first move gets the full window; a later one a null
    window at the reduced depth ``nd - r``, again at full depth if it beat alpha while
    reduced, and the full window if it lands inside it."""
    if first:
        return _child(G, board, st, undo, buf, tt, ss, ev, ply, nd, alpha, beta, gives, null_ply,
                      flipped)
    s = _child(G, board, st, undo, buf, tt, ss, ev, ply, nd - r, alpha, alpha + 1, gives, null_ply,
               flipped)
    if s > alpha and r > 0 and ss[ABORTED] == 0:
        s = _child(G, board, st, undo, buf, tt, ss, ev, ply, nd, alpha, alpha + 1, gives, null_ply,
                   flipped)
    if s > alpha and s < beta and ss[ABORTED] == 0:
        s = _child(G, board, st, undo, buf, tt, ss, ev, ply, nd, alpha, beta, gives, null_ply,
                   flipped)
    return s


@kernel
def negamax(G, board, st, undo, buf, tt, ss, ev, ply, depth, alpha, beta, in_chk, null_ply):
    """Score of the position for the side to move, searched ``depth`` plies (actions).

    ``null_ply``: ply of the last null move on the path (no two in a row). Recursive
    calls pass only run-time values: numba would type a literal ``True`` as its own
    specialisation, which its cache cannot link back (a crash when loading)."""
    if depth <= 0:
        return qsearch(G, board, st, undo, buf, tt, ss, ev, ply, alpha, beta, in_chk)
    ss[PV_LEN + ply] = ply
    if _count_node(ss):
        return 0
    tally(ss, PROF_MAIN, 1)
    ss[SELDEPTH] = max(ss[SELDEPTH], ply)
    fam = G[L.GI_FAMILY]
    if _repeated(fam, st, undo):
        return DRAW
    if st[L.S_HALF] >= 100 and not in_chk and (fam != Family.ENDERS or st[L.S_ACTIONS] == 0):
        return DRAW
    if ply >= MAX_SPLY - 2:
        return evaluate_node(G, board, st, undo, ev, ss)
    pv_node = beta - alpha > 1
    # mate distance pruning: no score here beats a mate found closer to the root
    alpha = max(alpha, -MATE + ply)
    beta = min(beta, MATE - ply - 1)
    if alpha >= beta:
        return alpha

    key = st[L.S_HASH]
    excluded = ss[EXCLUDED + ply]
    tally(ss, PROF_TT, 1)
    # a singular search (one move excluded) must not meet the table's verdict on the
    # whole node, nor leave its own there
    e = tt_probe(tt, key) if excluded == 0 else -1
    tmove = 0
    if e >= 0:
        tmove = tt_move(tt, e)
        if not pv_node and tt_depth(tt, e) >= depth:
            s = tt_score(tt, e, ply)
            if _table_decides(s, tt_bound(tt, e), alpha, beta):
                return s
    if tmove == 0 and depth >= 4 and excluded == 0:
        depth -= 1  # internal iterative reduction: no table move, a node likely new or poor
    side = st[L.S_SIDE]
    if in_chk:
        static = -INF
        psq_node(G, board, st, undo, ev, ss)  # not evaluated; the children's sums follow from it
    else:
        tally(ss, PROF_EVAL, 1)
        static = evaluate_node(G, board, st, undo, ev, ss)
    ss[STATICS + ply] = static
    # not improving: not above the static evaluation of this side's last node (not Ender's,
    # whose turns are not one ply each; ply 2's would be the root's, which is not evaluated)
    not_improving = fam != Family.ENDERS and ply >= 3 and static <= ss[STATICS + ply - 2]
    guess = static  # what the pruning tests below go by
    if e >= 0 and not in_chk:
        guess = _table_guess(fam, static, tt_score(tt, e, ply), tt_bound(tt, e))

    if not pv_node and not in_chk and fam != Family.ENDERS and abs(beta) < MATE_BOUND:
        # reverse futility: far above beta with little depth left
        if depth <= ev[W_PRUNE_DEPTH] and guess - ev[W_FUTILITY] * depth >= beta:
            return guess
        # razoring: far below alpha near the leaves, only a capture could save the node;
        # the quiescence search says whether one does (not in Batteries, where a quiet
        # move that charges a piece wins as often: it hid a mate in 2 at depth 5)
        if depth <= 2 and fam != Family.BATTERIES and guess + ev[W_RAZOR] * depth <= alpha:
            s = qsearch(G, board, st, undo, buf, tt, ss, ev, ply, alpha, alpha + 1, in_chk)
            if ss[ABORTED] != 0:
                return 0
            if s <= alpha:
                return s
        # null move: give the opponent a free move; still >= beta means a cutoff
        # (not with pawns alone, where zugzwang is common)
        if (null_ply != ply - 1 and excluded == 0 and depth >= 3 and guess >= beta
                and ss[SCRATCH + SC_NPM + side] > 0):
            r = ev[W_NULL_R] + depth // ev[W_NULL_DIV]
            ss[CMKEY + ply] = -1
            ss[MOVE_NO + ply] = 0
            make(G, board, st, undo, NULL_MOVE)
            tt_prefetch(tt, st[L.S_HASH])
            s = -negamax(G, board, st, undo, buf, tt, ss, ev, ply + 1, depth - 1 - r,
                         -beta, -beta + 1, in_chk, ply)
            unmake(G, board, st, undo)
            if ss[ABORTED] != 0:
                return 0
            if s >= beta:
                return beta if s >= MATE_BOUND else s

    n0 = ply * MAX_MOVES
    n = NOT_YET
    best = -INF
    bestm = 0
    old_alpha = alpha
    k1 = ss[killer_slot(ply, 0)]
    k2 = ss[killer_slot(ply, 1)]
    prune_quiets = not pv_node and not in_chk and fam != Family.ENDERS and depth <= ev[W_PRUNE_DEPTH]
    lmp_count = ev[W_LMP_BASE] + depth * depth  # late-move pruning after this many moves
    fut_score = guess + ev[W_FUTILITY] * depth  # futility pruning below this
    skipped = 0
    i = n0 - 1
    while True:
        i += 1
        searched = i - n0 - skipped  # moves searched before the next one
        # late-move and futility pruning, once they hold, hold for every later quiet move,
        # so the picker may drop them (those that give no check, which the chess-likes and
        # Batteries tell before the move is made; Ender's prunes nothing)
        skip = prune_quiets and searched > 0 and (searched >= lmp_count or fut_score <= alpha)
        m, n = next_move(G, board, st, undo, buf, ss, ev, ply, n0, i, n, tmove, in_chk, skip)
        if m == 0:
            if i == n0:  # no legal move, after every stage
                return -MATE + ply if in_chk else DRAW
            break
        if m == excluded or (fam == Family.ENDERS and reordered_turn(G, board, st, undo, m)):
            skipped += 1  # the singular search's excluded move, or (Ender's) the same
            continue  # position follows from the other order of two moves
        singular = False
        if m == tmove and i == n0 and depth >= ev[W_SINGULAR_DEPTH] and excluded == 0:
            rbeta = _singular_beta(tt, e, ply, depth, ev[W_SINGULAR_MARGIN])
            if rbeta > -INF:
                # singular extension: does every other move fall well short of the
                # table's score? Searched at half depth without the table's move
                ss[EXCLUDED + ply] = m
                s = negamax(G, board, st, undo, buf, tt, ss, ev, ply, depth // 2, rbeta - 1, rbeta,
                            in_chk, null_ply)
                ss[EXCLUDED + ply] = 0
                buf[n0] = m  # that search used this ply's move list
                if ss[ABORTED] != 0:
                    return 0
                if s < rbeta:
                    singular = True
                elif rbeta >= beta:
                    return rbeta  # multi-cut: even without the table's move the node holds
        quiet = victim(board, m) == 0 and promotion(m) == 0
        # late-move pruning (quiet moves this far down rarely matter) and futility pruning
        # (a quiet move will not lift the score to alpha); never a move that gives check
        prunable = (prune_quiets and quiet and searched > 0 and m != k1 and m != k2
                    and (searched >= lmp_count or fut_score <= alpha))
        if prunable and gives_check_before(G, board, st, m) == 0:
            continue  # pruned unmade: the board says it gives no check (most pruned moves)
        ss[CMKEY + ply] = cont_key(G, board, m)
        ss[MOVE_NO + ply] = searched + 1
        tally(ss, PROF_MAKE, 1)
        make(G, board, st, undo, m)
        tt_prefetch(tt, st[L.S_HASH])
        res = st[L.S_RESULT]
        if res != 0:
            s = _result_score(res, side, ply + 1)
            ss[PV_LEN + ply + 1] = ply + 1
        else:
            flipped = st[L.S_SIDE] != side
            gives = gives_check(G, board, st, m)
            if prunable and not gives:  # the chess-likes' castling, en passant, promotions
                unmake(G, board, st, undo)
                continue
            nd = depth - 1
            if (singular or gives) and ply < 2 * ss[ROOT_DEPTH]:
                nd += 1  # singular or check extension
            r = 0  # late-move reduction
            if (depth >= 3 and quiet and not in_chk and not gives and m != k1 and m != k2
                    and searched >= (3 if pv_node else 2)):
                r = lmr(ev, depth, searched)
                if pv_node:
                    r -= 1
                # by the sign of the move's history: of the reduced moves at null-window
                # nodes, those with a negative one raised alpha at 0.3-0.4%, those with a
                # positive one at 1.6-2.2% (the bench positions, 100,000 nodes); the
                # picker's score of a quiet move is its butterfly and continuation
                # history (Ender's adds its gate distance, so there the butterfly alone)
                if fam == Family.ENDERS:
                    h = history_table(ss)[hist_index(side, m)]
                else:
                    h = ss[score_slot(ply, i)]
                if h < 0:
                    r += 1
                elif h > 0:
                    r -= 1
                # and a ply more at a node that is not improving: there the reduced moves
                # raised alpha a third as often, whatever their history's sign
                if not_improving:
                    r += 1
                # and a ply less where the opponent's node had tried many moves before
                # this one's: there a late answer of ours is likelier to matter (not
                # Ender's, whose ply before may be this side's own)
                if fam != Family.ENDERS and ply >= 1 and ss[MOVE_NO + ply - 1] > MANY_MOVES:
                    r -= 1
                r = max(min(r, nd - 1), 0)
            elif (depth >= 3 and not quiet and not pv_node and not in_chk and not gives
                    and searched >= 2 and fam != Family.BATTERIES
                    and scored_losing(ss, ply, i)):
                # a capture that loses material by SEE is reduced a ply (nd >= 2 here):
                # at null-window nodes these raised alpha at 0.19%, as rarely as the
                # latest quiet moves (not in Batteries, whose SEE is only a bound)
                r = 1
            s = _search_child(G, board, st, undo, buf, tt, ss, ev, ply, nd, r, alpha, beta,
                              searched == 0, flipped, gives, null_ply)
        unmake(G, board, st, undo)
        if ss[ABORTED] != 0:
            return 0
        if s > best:
            best = s
            bestm = m
            if s > alpha:
                alpha = s
                _update_pv(ss, ply, m)
                if s >= beta:
                    tally(ss, PROF_CUT, 1)
                    tally(ss, PROF_CUT1, searched == 0)
                    if quiet and m_flag(m) != L.F_END:
                        quiet_cutoff(G, board, st, undo, buf, ss, ply, n0, i, depth, in_chk)
                    break
    if excluded != 0:
        return alpha if best == -INF else best  # the excluded move was the only one
    bound = _bound(best, old_alpha, beta)
    tt_store(tt, key, _table_move(bestm, bound), best, depth, bound, ply, ss[AGE])
    return best


# ---------------------------------------------------------------- root

@kernel
def prepare_root(G, board, st, undo, buf, tt, ss, ev):
    """Generate and order the root moves (ss[ROOT_MOVES], best guess first); returns
    their number. ss[ROOT_BEST] becomes the first of them: a legal answer even if the
    search is stopped at once."""
    n = gen_legal(G, board, st, undo, buf, 0)
    tmove = 0
    e = tt_probe(tt, st[L.S_HASH])
    if e >= 0:
        tmove = tt_move(tt, e)
    score_moves(G, board, st, buf, 0, n, ss, ev, 0, tmove, True)
    for i in range(n):
        ss[ROOT_MOVES + i] = pick_next(buf, ss, 0, i, n)
    ss[NROOT] = n
    ss[ROOT_BEST] = ss[ROOT_MOVES] if n > 0 else 0
    ss[ROOT_SCORE] = -INF
    return n


@kernel
def search_root(G, board, st, undo, buf, tt, ss, ev, depth, alpha, beta):
    """One pass over the root moves with window (alpha, beta); a move that raises alpha
    becomes ss[ROOT_BEST] at once and moves to the front of the root list."""
    ply = 0
    ss[PV_LEN] = 0
    ss[ROOT_DONE] = 0
    fam = G[L.GI_FAMILY]
    side = st[L.S_SIDE]
    in_chk = fam != Family.ENDERS and in_check(G, board, st)
    best = -INF
    bestm = 0
    old_alpha = alpha
    nroot = ss[NROOT]
    # Run-time values, not literals, for the recursive kernel (see negamax).
    null_ply = np.int64(-2)  # no null move on the path yet
    zero = np.int64(0)
    for i in range(nroot):
        m = ss[ROOT_MOVES + i]
        quiet = victim(board, m) == 0 and promotion(m) == 0
        ss[NODES] += 1
        ss[CMKEY] = cont_key(G, board, m)
        ss[MOVE_NO] = i + 1
        tally(ss, PROF_MAKE, 1)
        make(G, board, st, undo, m)
        tt_prefetch(tt, st[L.S_HASH])
        res = st[L.S_RESULT]
        if res != 0:
            s = _result_score(res, side, 1)
            ss[PV_LEN + 1] = 1
        else:
            flipped = st[L.S_SIDE] != side
            gives = gives_check(G, board, st, m)
            nd = depth - 1 + (1 if gives else 0)
            r = 1 if (depth >= 4 and quiet and not in_chk and not gives and i >= 4) else 0
            s = _search_child(G, board, st, undo, buf, tt, ss, ev, zero, nd, r, alpha, beta,
                              i == 0, flipped, gives, null_ply)
        unmake(G, board, st, undo)
        if ss[ABORTED] != 0:
            break
        ss[ROOT_DONE] = i + 1
        best = max(best, s)
        if s > alpha:
            alpha = s
            bestm = m
            _update_pv(ss, ply, m)
            ss[ROOT_BEST] = m
            ss[ROOT_SCORE] = s
            for j in range(i, 0, -1):
                ss[ROOT_MOVES + j] = ss[ROOT_MOVES + j - 1]
            ss[ROOT_MOVES] = m
            if s >= beta:
                break
    if ss[ABORTED] == 0:
        bound = _bound(best, old_alpha, beta)
        tt_store(tt, st[L.S_HASH], bestm if bestm != 0 else ss[ROOT_BEST], best, depth, bound, 0, ss[AGE])
    return best


@kernel
def iterate(G, board, st, undo, buf, tt, ss, ev, depth, prev):
    """Search the root to ``depth`` with an aspiration window around ``prev`` (the last
    iteration's score), widening it on failure. Returns the score (exact unless
    ss[ABORTED])."""
    ss[ROOT_DEPTH] = depth
    delta = ev[W_ASPIRATION]
    if depth >= 4 and abs(prev) < MATE_BOUND:
        alpha = max(prev - delta, -INF)
        beta = min(prev + delta, INF)
    else:
        alpha = -INF
        beta = INF
    while True:
        s = search_root(G, board, st, undo, buf, tt, ss, ev, depth, alpha, beta)
        if ss[ABORTED] != 0:
            return s
        if s <= alpha and alpha > -INF:
            beta = (alpha + beta) // 2
            alpha = max(s - delta, -INF)
        elif s >= beta and beta < INF:
            beta = min(s + delta, INF)
        else:
            return s
        delta += delta
        if delta > 1000:
            alpha = -INF
            beta = INF
