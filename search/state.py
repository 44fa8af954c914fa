"""Layout of the search state: one flat int64 array ``ss`` shared by all kernels.

Why one array: every array argument of a numba function costs a reference-count
increment and decrement (two atomic operations) per call, and the alpha-beta search
calls itself once per node. Killers, history, the principal-variation table, move
scores and the control words all live at fixed offsets of ``ss`` instead of in a
dozen separate arrays.

The control words at the start are how Python talks to a running kernel: another
thread sets ``ss[STOP] = 1`` to end the search (the kernel polls it every
``POLL_MASK + 1`` nodes), and reads ``ss[NODES]``, ``ss[ROOT_BEST]`` and so on
afterwards.
"""
import os

import numpy as np

from movegen.flat import FlatLayout
from movegen.jit import inline_kernel, kernel
from movegen.layout import MAX_MOVES, MAX_PLY, NSQ_MAX

from .network import NET_H

MAX_SPLY = 128  # deepest search ply (main search + quiescence)
CONT_TYPES, CONT_CELLS = 8, 100  # the most piece types and board cells of any game
CONT_KEYS = CONT_TYPES * CONT_CELLS  # a move's continuation key: (type - 1) * CONT_CELLS + cell
BUTTERFLY_ENTRIES = 2 * NSQ_MAX * NSQ_MAX  # [side, from, to]
CONT_TABLE = 2 * CONT_KEYS * CONT_KEYS  # entries of each of the two continuation tables
CONT_ENTRIES = 2 * CONT_TABLE  # [table, side, key before, key]
HISTORY_PER_WORD = 4  # int16 entries per int64 word of ss (see history_table)
PAWN_ENTRIES = 4096  # pawn-structure cache entries per search state (a power of two)
POLL_MASK = 1023  # the stop flag is read when nodes & POLL_MASK == 0

# scores
INF = 32000
MATE = 31000  # mate at the root; mate in n plies scores MATE - n
MATE_BOUND = MATE - 1000  # |score| >= MATE_BOUND: a forced mate (or game win)
DRAW = 0

# The evaluation's working space (a field of ss, see SS below).
SC_LIST_MAX = 192
SCRATCH_LAYOUT = FlatLayout((
    ("COUNT", (2, 16)),  # pieces per cell code
    ("NPM", 2),  # non-pawn material per colour (read by null-move pruning)
    ("PAWNS", 2),  # pawn count per colour
    ("FILE_CNT", (2, 16)),  # pawns per file
    ("FILE_LO", (2, 16)),  # lowest-ranked pawn per file (rank, 99 if none)
    ("FILE_HI", (2, 16)),  # highest-ranked pawn per file (-1 if none)
    ("LIST", SC_LIST_MAX),  # occupied squares met by the scan
    ("BATT", (2, 8)),  # Battery squares per colour
    ("NBATT", 2),
    ("SEE", (3, 32)),  # static exchange: lifted squares, their pieces, the gains (search/see.py)
    # chess-likes' mobility: the squares of the pieces that have it, and the squares each
    # colour's pawns attack, marked with the evaluation's number (none are ever cleared:
    # a mark of an earlier evaluation is not this one's)
    ("PIECES", SC_LIST_MAX),
    ("PAWN_ATT", (2, NSQ_MAX)),
    ("EVAL_NUMBER", ()),
    # chess-likes' threats: per colour, how many enemy pieces its pieces attack that are
    # worth more than the attacker, and the two largest such differences
    ("THREAT", (2, 3)),
))
(SC_COUNT, SC_NPM, SC_PAWNS, SC_FILE_CNT, SC_FILE_LO, SC_FILE_HI, SC_LIST, SC_BATT, SC_NBATT,
 SC_PIECES, SC_PAWN_ATT, SC_EVAL_NUMBER, SC_THREAT) = (
    SCRATCH_LAYOUT.offset[k] for k in (
        "COUNT", "NPM", "PAWNS", "FILE_CNT", "FILE_LO", "FILE_HI", "LIST", "BATT", "NBATT",
        "PIECES", "PAWN_ATT", "EVAL_NUMBER", "THREAT"))
SC_THREAT_SIDE = SCRATCH_LAYOUT.stride("THREAT", 0)
SC_PAWN_ATT_SIDE = SCRATCH_LAYOUT.stride("PAWN_ATT", 0)
SC_SIDE = SCRATCH_LAYOUT.stride("FILE_CNT", 0)  # per-colour rows of COUNT and the FILE_ tables
SC_SEE = SCRATCH_LAYOUT.offset["SEE"]
SEE_ROW = SCRATCH_LAYOUT.stride("SEE", 0)  # the three rows of SEE; as many swaps at most

_CONTROL = (
    "STOP",  # set to 1 by another thread, a timer or the node limit
    "NODES",
    "NODE_LIMIT",  # 0: none
    "SELDEPTH",
    "ABORTED",  # the last kernel call returned early because of STOP
    "AGE",  # transposition table generation (one per search)
    "ROOT_PLY",  # st[S_PLY] at the root
    "ROOT_BEST",  # best root move found so far (always a legal move once set)
    "ROOT_SCORE",
    "ROOT_DEPTH",  # depth of the iteration running
    "NROOT",  # number of root moves
    "ROOT_DONE",  # root moves fully searched in the running iteration
    # profile counts (benchmarks/profile.py; counted only in a LEYDEN_PROFILE=1 build)
    "PROF_MAIN",  # main-search nodes
    "PROF_QS",  # quiescence nodes
    "PROF_EVAL",  # static evaluations
    "PROF_GEN",  # pseudo-legal move lists generated (main search, quiescence in check)
    "PROF_NOISY",  # pseudo-legal noisy (quiescence) move lists generated
    "PROF_ORDER",  # move lists scored for ordering
    "PROF_MOVES",  # moves scored
    "PROF_MAKE",  # moves made (and unmade)
    "PROF_TT",  # transposition table probes
    "PROF_LEGAL",  # moves tested for legality (as they are tried; the TT move included)
    "PROF_SEE",  # static exchange evaluations
    "PROF_CUT",  # main-search nodes that failed high
    "PROF_CUT1",  # ... on the first move tried (the ordering's hit rate)
)
SS = FlatLayout([(name, ()) for name in _CONTROL] + [
    ("CONTROL_SPARE", 64 - len(_CONTROL)),
    ("KILLERS", (MAX_SPLY, 2)),
    ("PV_LEN", MAX_SPLY),  # the PV of ply p is PV[p][p:PV_LEN[p]]
    ("PV", (MAX_SPLY, MAX_SPLY)),
    ("SCRATCH", SCRATCH_LAYOUT.size),
    # the quiet-move histories, int16 entries four to a word (history_table; 5 MB instead
    # of 20, fewer cache misses on the search's path): the butterfly history by side, from
    # and to, then the continuation history: how a quiet move (its piece type and target
    # cell) did as the answer to the move one ply back (table 0) and two plies back
    # (table 1), by the side to move and that move's own piece type and target cell
    ("HISTORY", -(-(BUTTERFLY_ENTRIES + CONT_ENTRIES) // HISTORY_PER_WORD)),
    ("CMKEY", MAX_SPLY),  # the continuation key of the move made at each ply (-1: none)
    ("ROOT_MOVES", MAX_MOVES),  # root moves, best first
    ("SCORES", (MAX_SPLY, MAX_MOVES)),  # move-ordering scores per ply, beside the move buffer
    ("QUIETS", MAX_SPLY),  # staged picking: where a ply's unscored quiet moves start (-1: none)
    ("DROPPED", (MAX_SPLY, 2)),  # ... and where its pruned quiet moves were put (lo, hi)
    ("EXCLUDED", MAX_SPLY),  # singular extension: the move a ply's node searches without (0: none)
    ("STATICS", MAX_SPLY),  # a main-search node's static evaluation by ply (-INF: in check)
    ("MOVE_NO", MAX_SPLY),  # how many moves a ply's node had tried with the move it made (0: null)
    # The evaluation's incremental sums per position ply st[S_PLY] (search/evaluate.py):
    # key, middlegame and endgame piece-square sums (material included), game phase and
    # Black's share of it (so each side's non-pawn material is known without a scan).
    ("PSQ", (MAX_PLY + 1, 5)),
    # A game with an evaluation network (search/network.py): its hidden sums per position
    # ply, White's view then Black's, kept with the PSQ row of the same ply.
    ("NET_ACC", (MAX_PLY + 1, 2 * NET_H)),
    # The chess-likes' pawn-structure terms by pawn placement (search/evaluate.py):
    # key, middlegame and endgame scores, the files holding pawns of each colour.
    ("PAWN_CACHE", (PAWN_ENTRIES, 4)),
])
(STOP, NODES, NODE_LIMIT, SELDEPTH, ABORTED, AGE, ROOT_PLY, ROOT_BEST, ROOT_SCORE, ROOT_DEPTH,
 NROOT, ROOT_DONE, PROF_MAIN, PROF_QS, PROF_EVAL, PROF_GEN, PROF_NOISY, PROF_ORDER, PROF_MOVES,
 PROF_MAKE, PROF_TT, PROF_LEGAL, PROF_SEE, PROF_CUT, PROF_CUT1) = (SS.offset[name] for name in _CONTROL)
PROF_FIRST, PROF_LAST = PROF_MAIN, PROF_CUT1
#: the profile counts' names, in their order in ss: "main", "qs", ... (PROF_ dropped)
PROF_NAMES = tuple(name[5:].lower() for name in _CONTROL if name.startswith("PROF_"))

#: Count what a search does, per kind of work (benchmarks/profile.py sets it, with a numba
#: cache of its own: numba compiles the flag in and would otherwise reuse either build).
PROFILE = os.environ.get("LEYDEN_PROFILE") == "1"
(KILLERS, PV_LEN, PV, SCRATCH, HISTORY, CMKEY, ROOT_MOVES, SCORES, QUIETS, DROPPED, EXCLUDED,
 STATICS, MOVE_NO, PSQ, PAWN_CACHE) = (SS.offset[k] for k in (
    "KILLERS", "PV_LEN", "PV", "SCRATCH", "HISTORY", "CMKEY", "ROOT_MOVES", "SCORES", "QUIETS",
    "DROPPED", "EXCLUDED", "STATICS", "MOVE_NO", "PSQ", "PAWN_CACHE"))
PAWN_ROW = SS.stride("PAWN_CACHE", 0)
PAWN_KEY, PAWN_MG, PAWN_EG, PAWN_FILES = range(4)  # the fields of a PAWN_CACHE row
PSQ_ROW = SS.stride("PSQ", 0)
PSQ_KEY, PSQ_MG, PSQ_EG, PSQ_PHASE, PSQ_PHASE_B = range(5)  # the fields of a PSQ row
NET_ACC, ACC_ROW = SS.offset["NET_ACC"], SS.stride("NET_ACC", 0)
SS_SIZE = SS.size
KILLER_ROW = SS.stride("KILLERS", 0)
PV_ROW = SS.stride("PV", 0)
HISTORY_WORDS = SS.length("HISTORY")
SCORES_ROW = SS.stride("SCORES", 0)


def new_state() -> np.ndarray:
    return np.zeros(SS_SIZE, np.int64)


def history_entries(ss: np.ndarray) -> np.ndarray:
    """The histories' int16 entries (a view of ss, as ``history_table``)."""
    return SS.view(ss, "HISTORY").view(np.int16)


def clear_history(ss: np.ndarray) -> None:
    SS.view(ss, "KILLERS")[:] = 0
    SS.view(ss, "HISTORY")[:] = 0


# ------------------------------------------------------------------ kernel accessors
@kernel
def tally(ss, what, n):
    """Profile count ``ss[what] += n`` (compiled away unless PROFILE)."""
    if PROFILE:
        ss[what] += n



@kernel
def killer_slot(ply, i):
    """Index in ss of killer move ``i`` (0 or 1) of ``ply``."""
    return KILLERS + KILLER_ROW * ply + i


@kernel
def pv_slot(ply, i):
    """Index in ss of move ``i`` of the principal variation found at ``ply``."""
    return PV + PV_ROW * ply + i


@kernel
def history_slot(side, fr, to):
    """Index in ``history_table`` of the butterfly history of ``side``'s move ``fr``-``to``."""
    return NSQ_MAX * (NSQ_MAX * side + fr) + to


@inline_kernel
def history_table(ss):
    """The quiet-move histories: ss's HISTORY words seen as int16 entries (a history stays
    within +-HIST_MAX, 16384), indexed by ``history_slot``, or by ``cont_row`` plus a
    move's key. Inlined: without numba's runtime a kernel cannot return an array it made."""
    return ss[HISTORY:HISTORY + HISTORY_WORDS].view(np.int16)


@kernel
def cont_row(ss, ply, back, side):
    """Index in ``history_table`` of the continuation-history row for ``side``'s answers to
    the move made ``back`` plies (1 or 2) before ``ply``; -1 if there is none (the
    root's, a null move, Ender's)."""
    if ply < back:
        return -1
    k = ss[CMKEY + ply - back]
    if k < 0:
        return -1
    return BUTTERFLY_ENTRIES + CONT_TABLE * (back - 1) + CONT_KEYS * (CONT_KEYS * side + k)


@kernel
def dropped_slot(ply, end):
    """Index in ss of where ``ply``'s pruned quiet moves start (``end`` 0) or end (1) in
    its slice of the move buffer (search/picker.py, ``skip``)."""
    return DROPPED + 2 * ply + end


@kernel
def score_slot(ply, j):
    """Index in ss of the move-ordering score of ``buf[j]``, a move of ``ply``'s slice
    ``buf[ply * MAX_MOVES:]``."""
    return SCORES + SCORES_ROW * ply + j - MAX_MOVES * ply
