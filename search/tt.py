"""Transposition table: a numpy int64 array of 3-word entries, in buckets of two.

Entry words: the full 64-bit Zobrist key, the best move (a move code), and a packed
word with score, depth, bound and age. Slot 0 of a bucket keeps the deeper (or newer)
result, slot 1 always takes the latest one. Mate scores are stored relative to the
node (distance to mate from here) and converted back to distance from the root on
probing, so a mate found through a transposition keeps the right length.
"""
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from movegen.jit import kernel
from .state import MATE_BOUND

ENTRY_WORDS = 3
BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT = 0, 1, 2, 3
SCORE_BIAS = 1 << 20
DEPTH_BIAS = 128


def new_table(mb: int) -> np.ndarray:
    """A cleared table of at most ``mb`` MiB (a power of two entries, at least 1024)."""
    entries = max(1024, (max(1, int(mb)) << 20) // (8 * ENTRY_WORDS))
    entries = 1 << (entries.bit_length() - 1)
    return np.zeros(entries * ENTRY_WORDS, np.int64)


@kernel
def score_to_tt(score, ply):
    if score >= MATE_BOUND:
        return score + ply
    if score <= -MATE_BOUND:
        return score - ply
    return score


@kernel
def score_from_tt(score, ply):
    if score >= MATE_BOUND:
        return score - ply
    if score <= -MATE_BOUND:
        return score + ply
    return score


@kernel
def _bucket(tt, key):
    n = tt.shape[0] // ENTRY_WORDS  # entries, a power of two
    return (key & (n - 1) & ~np.int64(1)) * ENTRY_WORDS


@intrinsic
def _prefetch(typingctx, arr, idx):
    """Ask the CPU to fetch ``arr[idx]``'s cache line (LLVM's prefetch: for reading, into
    every cache level); nothing else happens."""
    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False)
        i8p, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
        kind = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        # the name without its pointer-type suffix: LLVM renames it to its own version's
        # ("p0i8" with typed pointers, "p0" with opaque ones) as it reads the code
        fn = cgutils.get_or_insert_function(builder.module, kind, "llvm.prefetch")
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()
    return types.void(arr, idx), codegen


@kernel
def tt_prefetch(tt, key):
    """Start loading ``key``'s bucket (both of its cache lines when it spans two), so
    that the probe of the node about to be searched does not wait for memory: called
    right after a move is made, the work before the child's probe hides the miss."""
    b = _bucket(tt, key)
    _prefetch(tt, b)
    _prefetch(tt, b + 2 * ENTRY_WORDS - 1)


@kernel
def tt_probe(tt, key):
    """Index of the entry holding ``key``, or -1."""
    b = _bucket(tt, key)
    if tt[b] == key:
        return b
    if tt[b + ENTRY_WORDS] == key:
        return b + ENTRY_WORDS
    return -1


@kernel
def tt_move(tt, e):
    return tt[e + 1]


@kernel
def tt_score(tt, e, ply):
    return score_from_tt((tt[e + 2] & ((1 << 21) - 1)) - SCORE_BIAS, ply)


@kernel
def tt_depth(tt, e):
    return ((tt[e + 2] >> 21) & 255) - DEPTH_BIAS


@kernel
def tt_bound(tt, e):
    return (tt[e + 2] >> 29) & 3


@kernel
def _age(tt, e):
    return (tt[e + 2] >> 31) & 255


@kernel
def tt_store(tt, key, move, score, depth, bound, ply, age):
    b = _bucket(tt, key)
    e = b
    if tt[b] == key:
        e = b
    elif tt[b + ENTRY_WORDS] == key:
        e = b + ENTRY_WORDS
    else:
        # slot 0 if empty, from an older search, or not deeper; else the always-replace slot
        if tt[b] == 0 or _age(tt, b) != age or tt_depth(tt, b) <= depth:
            e = b
            # keep the deep entry in slot 1 rather than losing it
            tt[b + ENTRY_WORDS] = tt[b]
            tt[b + ENTRY_WORDS + 1] = tt[b + 1]
            tt[b + ENTRY_WORDS + 2] = tt[b + 2]
        else:
            e = b + ENTRY_WORDS
    if tt[e] == key and move == 0:
        move = tt[e + 1]  # keep the known best move
    if tt[e] == key and bound != BOUND_EXACT and tt_depth(tt, e) > depth + 2 and _age(tt, e) == age:
        return  # a much deeper result of this search is worth more
    depth = max(depth, -DEPTH_BIAS + 1)
    tt[e] = key
    tt[e + 1] = move
    tt[e + 2] = ((score_to_tt(score, ply) + SCORE_BIAS) | ((depth + DEPTH_BIAS) << 21)
                 | (bound << 29) | ((age & 255) << 31))
