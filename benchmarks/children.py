"""The evaluation timed as the search meets it, shared by benchmarks/evaluation.py and
benchmarks/profile.py: a position's children made, evaluated, unmade, in a compiled
loop. Kept apart from both because profile.py must choose its counting build (an
environment variable) before any kernel is imported, and evaluation.py must not.
"""
from numba import njit

from movegen.kernel import make, unmake
from search.evaluate import evaluate_node, psq_sums


@njit(nogil=True)
def evaluate_children(G, board, st, undo, ev, ss, moves, reps, score, weight0):
    """Each of ``moves`` made from the position, evaluated (if ``score``) with its
    piece-square sums following from the parent's as in the search, and unmade; ``reps``
    times. Returns the scores weighted by their order, the j-th move's by ``weight0 + j
    + 1`` (a checksum; 0 without ``score``: then only make and unmake are timed)."""
    total = 0
    psq_sums(G, board, st, ev, ss)  # the parent's sums, known as in the search
    for _ in range(reps):
        for j in range(moves.shape[0]):
            make(G, board, st, undo, moves[j])
            if score:
                total += evaluate_node(G, board, st, undo, ev, ss) * (weight0 + j + 1)
            unmake(G, board, st, undo)
    return total
