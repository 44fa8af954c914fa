"""Small kernels that read the multi-dimensional fields of the game table ``G`` and the
position scalars ``st`` (declared in movegen/layout.py), in the style of search/tt.py:
the strides live here, once, and callers name what they want. numba inlines them."""
import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from .jit import kernel
from .layout import (ACOUNT, ADELTA, ALAME, AMODE, ARANGE, CELL, G_LAYOUT, GI_NCELLS, LK_DELTA,
                     LK_MASK, NSQ_MAX, RAY, RES_STRIDE, S_OCC, S_RES, SL_DELTA, SL_MASK, SLIDE_DIR,
                     SQ_FILE, SQ_RANK, SQUARES, ZP, ZRES)

_ATOM_SIDE = G_LAYOUT.stride("ADELTA", 0)
_ATOM_TYPE = G_LAYOUT.stride("ADELTA", 1)
_ACOUNT_SIDE = G_LAYOUT.stride("ACOUNT", 0)
_LEAP_SIDE = G_LAYOUT.stride("LK_DELTA", 0)
_SLIDE_SIDE = G_LAYOUT.stride("SL_DELTA", 0)
_SLIDE_DIR_SIDE = G_LAYOUT.stride("SLIDE_DIR", 0)
_ZP_CODE = G_LAYOUT.stride("ZP", 0)
_ZRES_SIDE = G_LAYOUT.stride("ZRES", 0)
_ZRES_TYPE = G_LAYOUT.stride("ZRES", 1)


# ------------------------------------------------------------------ board geometry
@kernel
def cell_of(G, sq):
    """Compact cell number of a padded square (-1 off the board)."""
    return G[CELL + sq]


# ------------------------------------------------------------------ occupied cells
# st's OCC words: a bit per cell a colour occupies. make keeps them in every family (unmake
# restores them with the other saved scalars); the move generators' and evaluations' scans
# for pieces walk their set bits, lowest cell first as a loop over the cells would, so
# they visit the pieces in the same order.

@kernel
def flip_occupied(G, st, colour, sq):
    """A piece of ``colour`` arrives on or leaves ``sq``."""
    c = G[CELL + sq]
    st[S_OCC + 2 * colour + (c >> 6)] ^= np.int64(1) << (c & 63)


@kernel
def occupied_words(G):
    """How many OCC words a colour's cells fill in this game (1 or 2)."""
    return (G[GI_NCELLS] + 63) >> 6


@kernel
def pop_square(G, bits, w):
    """One step of a walk over occupied cells: the square of the lowest cell in ``bits``
    (not 0; bits of the ``w``-th OCC word), and ``bits`` without it."""
    return G[SQUARES + (w << 6) + trailing_zeros(bits)], bits & (bits - 1)


@kernel
def rank_of(G, sq):
    return G[SQ_RANK + sq]


@kernel
def file_of(G, sq):
    return G[SQ_FILE + sq]


@kernel
def ray_step(G, fr, to):
    """Unit step from ``fr`` towards ``to`` if they share a line, else 0."""
    return G[RAY + NSQ_MAX + to - fr]


# ------------------------------------------------------------------ piece moves
@kernel
def atom_count(G, side, t):
    """Number of move atoms of a piece of type ``t`` and colour ``side``."""
    return G[ACOUNT + _ACOUNT_SIDE * side + t]


@kernel
def _atom(side, t, k):
    return _ATOM_SIDE * side + _ATOM_TYPE * t + k


@kernel
def atom_delta(G, side, t, k):
    """Step of atom ``k``."""
    return G[ADELTA + _atom(side, t, k)]


@kernel
def atom_range(G, side, t, k):
    """Steps atom ``k`` may repeat: 1 a leaper, 0 unlimited."""
    return G[ARANGE + _atom(side, t, k)]


@kernel
def atom_mode(G, side, t, k):
    """1 move | 2 capture (movegen.betza.MOVE, CAPTURE)."""
    return G[AMODE + _atom(side, t, k)]


@kernel
def atom_lame(G, side, t, k):
    """Step to the square that must be empty for atom ``k`` (0: none)."""
    return G[ALAME + _atom(side, t, k)]


@kernel
def leap_delta(G, by, i):
    """Capturing leap ``i`` of colour ``by``: from the attacker to the target."""
    return G[LK_DELTA + _LEAP_SIDE * by + i]


@kernel
def leap_types(G, by, i):
    """Bit mask of the piece types that capture by leap ``i``."""
    return G[LK_MASK + _LEAP_SIDE * by + i]


@kernel
def slide_delta(G, by, i):
    return G[SL_DELTA + _SLIDE_SIDE * by + i]


@kernel
def slide_types(G, by, i):
    return G[SL_MASK + _SLIDE_SIDE * by + i]


@kernel
def sliders_along(G, side, step):
    """Bit mask of ``side``'s piece types that capture by sliding along ``step``."""
    return G[SLIDE_DIR + _SLIDE_DIR_SIDE * side + NSQ_MAX + step]


# ------------------------------------------------------------------ hashing, reserves
@kernel
def zobrist(G, code, sq):
    """Zobrist key of cell code ``code`` (a piece of a colour) on square ``sq``."""
    return G[ZP + _ZP_CODE * code + sq]


@kernel
def zobrist_reserve(G, side, t, count):
    """Zobrist key of ``side`` holding ``count`` pieces of type ``t``."""
    return G[ZRES + _ZRES_SIDE * side + _ZRES_TYPE * t + count]


@kernel
def reserve_slot(side, t):
    """Index in ``st`` of ``side``'s count of type ``t`` in hand."""
    return S_RES + RES_STRIDE * side + t
