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
import numpy as np

from movegen.layout import MAX_MOVES, NSQ_MAX

MAX_SPLY = 128  # deepest search ply (main search + quiescence)
POLL_MASK = 1023  # the stop flag is read when nodes & POLL_MASK == 0

# scores
INF = 32000
MATE = 31000  # mate at the root; mate in n plies scores MATE - n
MATE_BOUND = MATE - 1000  # |score| >= MATE_BOUND: a forced mate (or game win)
DRAW = 0

# control words
STOP = 0  # set to 1 by another thread, a timer or the node limit
NODES = 1
NODE_LIMIT = 2  # 0: none
SELDEPTH = 3
ABORTED = 4  # the last kernel call returned early because of STOP
AGE = 5  # transposition table generation (one per search)
ROOT_PLY = 6  # st[S_PLY] at the root
ROOT_BEST = 7  # best root move found so far (always a legal move once set)
ROOT_SCORE = 8
ROOT_DEPTH = 9  # depth of the iteration running
NROOT = 10  # number of root moves
ROOT_DONE = 11  # root moves fully searched in the running iteration
CTRL_SIZE = 64

KILLERS = CTRL_SIZE  # [MAX_SPLY][2]
PV_LEN = KILLERS + 2 * MAX_SPLY  # [MAX_SPLY]: the PV of ply p is PV[p][p:PV_LEN[p]]
PV = PV_LEN + MAX_SPLY  # [MAX_SPLY][MAX_SPLY]
EVAL_STACK = PV + MAX_SPLY * MAX_SPLY  # [MAX_SPLY] static evaluation per ply
SCRATCH = EVAL_STACK + MAX_SPLY  # evaluation's working space
SCRATCH_SIZE = 512
HIST = SCRATCH + SCRATCH_SIZE  # [2][NSQ_MAX][NSQ_MAX] quiet-move history by side, from, to
ROOT_MOVES = HIST + 2 * NSQ_MAX * NSQ_MAX  # [MAX_MOVES] root moves, best first
SCORES = ROOT_MOVES + MAX_MOVES  # [MAX_SPLY][MAX_MOVES] move-ordering scores per ply
SS_SIZE = SCORES + MAX_SPLY * MAX_MOVES

# evaluation scratch (offsets inside SCRATCH)
SC_COUNT = 0  # [32] pieces per cell code
SC_NPM = 32  # [2] non-pawn material per colour (read by null-move pruning)
SC_PAWNS = 34  # [2] pawn count per colour
SC_FILE_CNT = 40  # [2][16] pawns per file
SC_FILE_LO = 72  # [2][16] lowest-ranked pawn per file (rank, 99 if none)
SC_FILE_HI = 104  # [2][16] highest-ranked pawn per file (-1 if none)
SC_LIST = 136  # [192] occupied squares met by the scan
SC_LIST_MAX = 192
SC_BATT = 330  # [2][8] Battery squares per colour
SC_NBATT = 346  # [2]


def new_state() -> np.ndarray:
    return np.zeros(SS_SIZE, np.int64)


def clear_history(ss: np.ndarray) -> None:
    ss[KILLERS:PV_LEN] = 0
    ss[HIST:ROOT_MOVES] = 0
