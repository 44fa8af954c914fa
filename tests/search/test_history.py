"""The quiet-move histories (search/ordering.py). An entry stays within +-HIST_MAX whatever
run of bonuses it gets, so the histories' 16-bit entries (search/state.py
``history_table``) hold every value exactly; an update lands in the entries a move's score
reads and nowhere else; a new search halves every entry, rounding down as before."""
import random

import numpy as np

from movegen import Position
from search.ordering import (HIST_MAX, _hist_update, _quiet_score, _quiet_update, cont_key,
                             hist_index)
from search.smp import reset_for_search
from search.state import CMKEY, cont_row, history_entries, new_state


def test_an_entry_stays_within_hist_max_and_int16_holds_it_exactly():
    rng = random.Random(5)
    wide = np.zeros(1, np.int64)
    narrow = np.zeros(1, np.int16)
    for _ in range(40):  # runs of one sign, as a move that keeps cutting (or failing) gets
        sign = rng.choice((-1, 1))
        for _ in range(rng.randrange(1, 300)):
            bonus = sign * rng.randrange(1, 401)  # min(depth * depth, 400)
            _hist_update(wide, 0, bonus)
            _hist_update(narrow, 0, bonus)
            assert abs(wide[0]) <= HIST_MAX and narrow[0] == wide[0]
    assert abs(wide[0]) > HIST_MAX // 2  # the runs did reach the bound's region


def test_an_update_lands_in_the_entries_the_score_reads():
    pos = Position("capablanca",
                   "r2bqkb2r/ppp1pppppp/2n2c1n2/10/3pP5/3N2CNP1/PPPP1PPP1P/R2BQKB2R w KQkq - 0 10")
    G, board = pos.tables.G, pos.board
    ss = new_state()
    ply, side = 5, 0
    ss[CMKEY + ply - 1], ss[CMKEY + ply - 2] = 123, 456  # the keys of the two moves before
    r1, r2 = cont_row(ss, ply, 1, side), cont_row(ss, ply, 2, side)
    m = int(next(code for code in pos.legal_move_codes() if cont_key(G, board, code) > 0))
    _quiet_update(G, board, ss, side, m, r1, r2, 300)
    assert _quiet_score(G, board, ss, side, m, r1, r2) == 3 * 300  # butterfly + both tables
    entries = history_entries(ss)
    k = cont_key(G, board, m)
    where = [hist_index(side, np.int64(m)), r1 + k, r2 + k]
    assert np.flatnonzero(entries).tolist() == sorted(where)
    assert entries[where].tolist() == [300, 300, 300]


def test_a_new_search_halves_every_entry_rounding_down():
    ss = new_state()
    entries = history_entries(ss)
    values = np.array([7, -7, 1, -1, HIST_MAX, -HIST_MAX], np.int16)
    where = np.array([0, 1, 12345, len(entries) // 2, len(entries) - 2, len(entries) - 1])
    entries[where] = values
    reset_for_search(ss, 0, 1)
    assert history_entries(ss)[where].tolist() == (values.astype(np.int64) // 2).tolist()
