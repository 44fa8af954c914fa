"""The staged move picker (search/picker.py) yields exactly the legal moves, each once,
in random positions of every game: with no TT move, with the position's own moves as TT
move and killers, and with bogus ones (moves of other positions, corrupted codes), which
must never come out unless they are legal here. The search's invariant holds:
``buf[n0:i]`` are the moves returned so far, in order; and the stages come in order
(TT move, good captures, killers before the other quiet moves, losing captures last)."""
import random

import numpy as np
import pytest

from movegen import GAMES, Position
from movegen import layout as L
from movegen.core import m_flag, m_to, promotion, victim
from movegen.layout import Family
from movegen.kernel import in_check
from search.evaluate import build_eval
from search.ordering import hist_index, quiet_cutoff
from search.picker import NOT_YET, next_move
from search.see import see
from search.state import (MAX_MOVES, MAX_SPLY, dropped_slot, history_entries, killer_slot, new_state,
                          score_slot)

PLY = 3  # any ply of the search: the picker works in that ply's slice of the buffer
PLAYOUTS, PLIES = 2, 50


def _pick_all(pos, ev, ss, buf, tt_mv, killers, skip_from=None) -> list[int]:
    """The moves picked; from the ``skip_from``-th on, with the search's pruning of the
    quiet moves left (``skip``)."""
    G, board, st, undo = pos.tables.G, pos.board, pos.st, pos.undo
    ss[killer_slot(PLY, 0)], ss[killer_slot(PLY, 1)] = killers
    chk = bool(in_check(G, board, st))
    n0 = PLY * MAX_MOVES
    out: list[int] = []
    i, n = n0, NOT_YET
    while True:
        skip = skip_from is not None and len(out) >= skip_from
        m, n = next_move(G, board, st, undo, buf, ss, ev, PLY, n0, i, n, np.int64(tt_mv), chk, skip)
        if m == 0:
            break
        out.append(int(m))
        i += 1
        assert [int(x) for x in buf[n0:i]] == out
    return out


def _quiet(pos, m) -> bool:
    return victim(pos.board, np.int64(m)) == 0 and promotion(np.int64(m)) == 0


def _wins(pos, m) -> bool:
    G = pos.tables.G
    gate = G[L.GI_GATE_B] if pos.st[L.S_SIDE] == 0 else G[L.GI_GATE_W]
    return pos.game.family == Family.ENDERS and m_flag(m) == L.F_NORMAL and m_to(m) == gate


def _check_bands(pos, ev, out, tt_mv):
    """Captures that keep their material (SEE >= 0) come before every quiet move, those
    that lose it after every quiet move."""
    if pos.game.family == Family.ENDERS:
        return  # no SEE there: every capture counts as good
    quiet_at = [k for k, m in enumerate(out) if _quiet(pos, m) and m != tt_mv]
    if not quiet_at:
        return
    for k, m in enumerate(out):
        if m == tt_mv or victim(pos.board, np.int64(m)) == 0 or promotion(np.int64(m)) != 0:
            continue
        if see(pos.tables.G, pos.board, pos.st, ev, new_state(), np.int64(m)) < 0:
            assert k > quiet_at[-1], (pos.fen(), m, "a losing capture before a quiet move")
        else:
            assert k < quiet_at[0], (pos.fen(), m, "a good capture after a quiet move")


def _gives_check(pos, m) -> bool:
    child = pos.copy()
    child.push_code(m)
    return bool(in_check(child.tables.G, child.board, child.st))


def _check_skip(pos, ev, ss, buf, tt_mv, killers, full, skip_from):
    """With ``skip`` from the ``skip_from``-th move on, the picker gives the same moves
    up to there, then every move left but the quiet ones that are no killer and give no
    check (some of those may still come: the board's check test is only a bound)."""
    out = _pick_all(pos, ev, ss, buf, tt_mv, killers, skip_from)
    assert out[:skip_from] == full[:skip_from]
    assert len(set(out)) == len(out) and set(out) <= set(full)
    dropped = set(full) - set(out)
    if pos.game.family == Family.ENDERS:
        return 0  # Ender's search prunes no quiet moves; its bound says "may check" often
    for m in dropped:
        assert _quiet(pos, m) and m not in killers, (pos.fen(), m)
        assert not _gives_check(pos, m), (pos.fen(), m, "a checking move dropped")
    return len(dropped)


def _check(pos, rng, pool, ev, ss, buf) -> tuple[int, int]:
    """Cases tried, and quiet moves the ``skip`` runs dropped."""
    legal = [int(m) for m in pos.legal_move_codes()]
    legal_set = set(legal)
    board0, st0 = pos.board.copy(), pos.st.copy()
    bogus = [m for m in rng.sample(pool, min(len(pool), 8)) if m not in legal_set]
    bogus += [m ^ (1 << rng.randrange(34)) for m in legal[:4]] + [-5, 1 << 40]
    own = rng.sample(legal, min(len(legal), 3))
    cases = [(0, (0, 0))]
    cases += [(m, (0, 0)) for m in own]
    cases += [(m, (0, 0)) for m in bogus[:6]]
    quiets = [m for m in legal if _quiet(pos, m)]
    if len(quiets) >= 2:
        cases.append((own[0], tuple(rng.sample(quiets, 2))))
    cases.append((0, tuple((bogus + [0, 0])[:2])))
    dropped = 0
    for tt_mv, killers in cases:
        out = _pick_all(pos, ev, ss, buf, tt_mv, killers)
        assert sorted(out) == sorted(legal), (pos.game.name, pos.fen(), tt_mv, killers)
        assert len(set(out)) == len(out)
        if tt_mv in legal_set:
            assert out[0] == tt_mv  # tried first, before anything was generated
        # killers that are legal quiet moves come before every other quiet move (but an
        # Ender's entry into the enemy gate, which wins at once)
        for k in killers:
            if k in legal_set and k != tt_mv and _quiet(pos, k) and not _wins(pos, k):
                later = out[out.index(k) + 1:]
                others = [m for m in quiets if m not in killers and m != tt_mv and not _wins(pos, m)]
                assert all(m in later for m in others), (pos.fen(), k)
        _check_bands(pos, ev, out, tt_mv)
        dropped += _check_skip(pos, ev, ss, buf, tt_mv, killers, out, rng.randrange(1, 6))
    assert (pos.board == board0).all() and (pos.st == st0).all()
    pool.extend(legal)
    return len(cases), dropped


@pytest.mark.parametrize("game", sorted(GAMES))
def test_staged_picker_yields_the_legal_moves_once(game):
    rng = random.Random(f"picker-{game}")
    pool: list[int] = []
    ss = new_state()
    buf = np.zeros(MAX_SPLY * MAX_MOVES, np.int64)
    ev = None
    cases = dropped = 0
    for k in range(PLAYOUTS):
        pos = Position(game, seed=k + 1) if game.endswith("random") else Position(game)
        ev = build_eval(pos.game) if ev is None else ev
        for _ in range(PLIES):
            if pos.outcome() is not None:
                break
            c, d = _check(pos, rng, pool, ev, ss, buf)
            cases, dropped = cases + c, dropped + d
            moves = pos.legal_move_codes()
            pos.push_code(int(moves[rng.randrange(len(moves))]))
    assert cases > 300
    # the chess-likes and Batteries tell a check before a move is made; Ender's has no
    # check, and its search prunes nothing, so nothing is dropped there
    assert (dropped > 0) == (GAMES[game].family != Family.ENDERS)


def test_no_legal_move_means_nothing_is_picked():
    """Mate and stalemate: every stage runs dry, even with a TT move and a killer that
    were legal in a position before (the king's step, now onto an attacked square)."""
    ev = build_eval(Position("normal").game)
    ss, buf = new_state(), np.zeros(MAX_SPLY * MAX_MOVES, np.int64)
    for fen, step in (("6k1/6Q1/8/8/8/8/8/K5R1 b - - 0 1", "g8h8"),  # mate
                      ("7k/5Q2/8/8/8/8/8/K5R1 b - - 0 1", "h8g8")):  # stalemate
        before = Position("normal", fen.split("/")[0] + "/8/8/8/8/8/8/K7 b - - 0 1")
        tt_mv = before.parse_move(step).code
        pos = Position("normal", fen)
        assert pos.legal_move_codes().size == 0
        assert _pick_all(pos, ev, ss, buf, tt_mv, (tt_mv, 0)) == []


def _dropped_case(pos, ev, cutter_score):
    """Pick a position's moves with ``skip`` after the first, its two first quiet moves
    as killers; then the first killer refutes the node with the given score. Returns
    the dropped moves, which of them are legal, and each one's history afterwards."""
    G, board, st, undo = pos.tables.G, pos.board, pos.st, pos.undo
    legal = [int(m) for m in pos.legal_move_codes()]
    killers = tuple(m for m in legal if _quiet(pos, m))[:2]
    ss, buf = new_state(), np.zeros(MAX_SPLY * MAX_MOVES, np.int64)
    n0 = PLY * MAX_MOVES
    out = _pick_all(pos, ev, ss, buf, 0, killers, skip_from=1)
    dropped = [int(m) for m in buf[ss[dropped_slot(PLY, 0)]:ss[dropped_slot(PLY, 1)]]]
    i = n0 + out.index(killers[0])
    ss[score_slot(PLY, i)] = cutter_score
    quiet_cutoff(G, board, st, undo, buf, ss, PLY, n0, i, np.int64(5), False)
    side = int(st[L.S_SIDE])
    return dropped, set(legal), [int(history_entries(ss)[hist_index(side, np.int64(m))]) for m in dropped]


def test_a_cutoff_lowers_the_dropped_moves_that_would_have_come_first():
    """The quiet moves ``skip`` dropped keep the history malus they had when the search
    picked them: a refutation lowers the legal ones scored above it (by depth 5: 25),
    and no illegal one; scored below it, none."""
    ev = build_eval(Position("capablanca").game)
    rng = random.Random("dropped")
    pos = Position("capablanca")
    lowered = spared = 0
    for _ in range(60):
        if pos.outcome() is not None:
            break
        if not in_check(pos.tables.G, pos.board, pos.st):
            dropped, legal, hist = _dropped_case(pos, ev, -(1 << 40))
            assert hist == [-25 if m in legal else 0 for m in dropped], pos.fen()
            lowered += sum(m in legal for m in dropped)
            spared += sum(m not in legal for m in dropped)
            dropped, legal, hist = _dropped_case(pos, ev, 1 << 40)
            assert not any(hist), pos.fen()
        moves = pos.legal_move_codes()
        pos.push_code(int(moves[rng.randrange(len(moves))]))
    assert lowered > 100 and spared > 0
