"""Shared numeric layout of positions and moves (compile-time constants for numba).

Board: a 1-D int8 padded mailbox, rows of ``files + 2`` cells with two padding rows
above and below, and LEAD more padding cells before the first row and after the last, so
leaps of up to two squares (two files and two ranks at once, from a corner) never index
outside the array: the kernels index without numba's negative-index test (movegen/jit.py).
Cell codes: 0 empty, 1..15 a White piece of that type, 17..31 a Black one, OFF for
padding and holes.

Position scalars live in one int64 array ``st`` (``ST`` below; indices S_*); make saves
``st[:NSAVE]`` on the undo stack and unmake restores it. Every flat array is declared
once as named fields (movegen/flat.py); the S_*, U_*, GI_* and table offsets are
computed from those declarations. Codes that mean something (families, results, move
flags, castling modes) are IntEnums, defined here only.

A move is one int64: from | to<<8 | promo<<16 | flag<<21 | extra<<25, where
``extra`` is the square of a victim not on ``to`` (en passant, overtaking) or the
castling rook's square.
"""
from enum import IntEnum

from .flat import FlatLayout

EMPTY = 0
BLACK_BIT = 16  # cell code of a Black piece: type | BLACK_BIT
TYPE_MASK = 15  # cell code -> piece type
OFF = 64

WHITE, BLACK = 0, 1


class Family(IntEnum):
    """Rule families: the generic table-driven chess-likes, Batteries, Ender's."""
    CHESS = 0
    BATTERIES = 1
    ENDERS = 2


class Result(IntEnum):
    """``st[S_RESULT]`` (Ender's ends its games inside make) and kernel outcomes."""
    ONGOING = 0
    WHITE_WINS = 1
    BLACK_WINS = 2
    DRAW = 3


class Why(IntEnum):
    """``st[S_WHY]``: why an Ender's game ended."""
    NONE = 0
    GATE = 1
    REPLY_GATE = 2
    ELIMINATION = 3
    REPLY_END = 4


class Castling(IntEnum):
    NONE = 0
    FIXED = 1  # the king goes to set files
    RELATIVE = 2  # the king goes two squares


class Flag(IntEnum):
    """Move flags (bits 21-24 of a move)."""
    NORMAL = 0
    DOUBLE = 1
    EP = 2
    CASTLE = 3
    DROP = 4
    OVERTAKE = 5
    END = 6  # Ender's: end of turn
    NULL = 7


# Plain-int names of the codes, for the kernels' many comparisons.
F_NORMAL, F_DOUBLE, F_EP, F_CASTLE = Flag.NORMAL, Flag.DOUBLE, Flag.EP, Flag.CASTLE
F_DROP, F_OVERTAKE, F_END, F_NULL = Flag.DROP, Flag.OVERTAKE, Flag.END, Flag.NULL
WHY_GATE, WHY_REPLY_GATE, WHY_ELIMINATION, WHY_REPLY_END = (
    Why.GATE, Why.REPLY_GATE, Why.ELIMINATION, Why.REPLY_END)

NT_MAX = 16  # piece types per colour (type 0 unused)

# ------------------------------------------------------------------ position scalars st
ST = FlatLayout((
    ("SIDE", ()),
    ("EP", ()),
    ("CR", 4),  # castling rooks: White kingside, White queenside, Black kingside, Black queenside
    ("HALF", ()),
    ("FULL", ()),
    ("HASH", ()),
    ("KING", 2),  # king square per colour
    ("PLY", ()),
    ("MOVED", ()),  # Ender's: bit mask (cell index) of pieces that moved this turn
    ("ACTIONS", ()),  # Ender's: actions taken this turn
    ("REPLY", ()),  # Ender's: White occupies Black's gate, Black is in the reply turn
    ("RESULT", ()),  # Ender's: a Result
    ("WHY", ()),  # Ender's: a Why
    ("COUNT", 2),  # Ender's: pieces per colour (board + reserve)
    ("TURN_START", ()),  # ply at which the current turn began (Ender's repetition, draws)
    # the cells each colour occupies: bit i of word i // 64 for cell number i (``CELL``), so
    # that scans for a side's pieces skip the empty cells (movegen/fields.py: flip_occupied,
    # pop_square)
    ("OCC", (2, 2)),
    ("UNSAVED", 4),  # (make saves the fields above, up to here)
    ("RES", (2, NT_MAX)),  # reserve counts [colour, type]
    ("FREE", 8),
))
S_SIDE, S_EP, S_CR, S_HALF, S_FULL, S_HASH, S_KING, S_PLY = (
    ST.offset[k] for k in ("SIDE", "EP", "CR", "HALF", "FULL", "HASH", "KING", "PLY"))
S_MOVED, S_ACTIONS, S_REPLY, S_RESULT, S_WHY, S_COUNT, S_TURN_START, S_RES, S_OCC = (
    ST.offset[k] for k in ("MOVED", "ACTIONS", "REPLY", "RESULT", "WHY", "COUNT", "TURN_START", "RES", "OCC"))
NSAVE = ST.offset["UNSAVED"]
NST = ST.size
RES_STRIDE = ST.stride("RES", 0)

# undo stack rows: the saved st, then the move and the piece it took
UNDO = FlatLayout((("SAVED", NSAVE), ("FREE", 10), ("MOVE", ()), ("CAP", ())))
U_MOVE, U_CAP, NUNDO = UNDO.offset["MOVE"], UNDO.offset["CAP"], UNDO.size

MAX_PLY = 4096
MAX_MOVES = 2048  # move slots per ply; every game's proven bound fits (movegen/bounds.py)

# ------------------------------------------------------------------ the game table G
# One flat int64 array: the game's integers (GI_*) first, then every table.
LEAD = 2  # padding cells before a1's row and after the last row (the board's first index is 0)
NSQ_MAX = 170  # the largest padded board (Batteries: 12 x 14 + LEAD)
MAX_ATOMS = 24
RAY_SIZE = 2 * NSQ_MAX + 1  # indexed by NSQ_MAX + (to - from)
MAX_LEAPS, MAX_SLIDES = 64, 16  # capturing leap / slide directions per colour

_GI = ("FAMILY", "W", "H", "STRIDE", "NSQ", "NT",
       "PAWN",  # pawn type (0: none)
       "KING",  # royal type (0: none)
       "CASTLE",  # a Castling
       "KFILE_K", "KFILE_Q",  # fixed castling: king's file after kingside / queenside
       "NPROMO", "EP",  # promotion types; en passant exists
       "GATE_W", "GATE_B", "ZSIDE",  # Ender's gates; Zobrist key of Black to move
       "NCELLS",
       "DOUBLE_RANK",  # White's 0-based rank from which pawns may double-step (Batteries)
       "BATTERY")  # Batteries: the Battery's type (0: none)
G_LAYOUT = FlatLayout(
    [(name, ()) for name in _GI] + [("GI_SPARE", 20 - len(_GI))] + [
        ("SQUARES", 128),  # padded index of each board cell (GI_NCELLS of them)
        ("SQ_FILE", NSQ_MAX), ("SQ_RANK", NSQ_MAX),  # -1 off the board
        ("CELL", NSQ_MAX),  # compact cell number, -1 off the board
        ("ADELTA", (2, NT_MAX, MAX_ATOMS)),  # move atoms [colour, type, k]: step,
        ("ARANGE", (2, NT_MAX, MAX_ATOMS)),  # range (1 leaper, 0 unlimited),
        ("AMODE", (2, NT_MAX, MAX_ATOMS)),  # 1 move | 2 capture,
        ("ALAME", (2, NT_MAX, MAX_ATOMS)),  # step to the square that must be empty (0: none)
        ("ACOUNT", (2, NT_MAX)),  # atoms per [colour, type]
        ("LK_DELTA", (2, MAX_LEAPS)), ("LK_MASK", (2, MAX_LEAPS)),  # capturing leaps, their types
        ("SL_DELTA", (2, MAX_SLIDES)), ("SL_MASK", (2, MAX_SLIDES)),  # capturing slides, types
        ("N_LK", 2), ("N_SL", 2),
        ("PAWN_DIR", 2),  # forward step per colour
        ("PROMO", 8),  # promotion types, best first
        ("RAY", RAY_SIZE),  # unit step from a square towards another on a line, else 0
        ("SLIDE_DIR", (2, RAY_SIZE)),  # [colour, NSQ_MAX + step]: types sliding (capturing) that way
        ("ZP", (32, NSQ_MAX)),  # Zobrist [cell code, square]
        ("ZC", NSQ_MAX), ("ZEP", NSQ_MAX),  # castling rook square, en passant square
        ("ZMOVED", NSQ_MAX),  # Ender's: piece on this cell number moved this turn
        ("ZRES", (2, NT_MAX, MAX_ATOMS)),  # Ender's reserve [colour, type, count]
        ("ZMISC", 8),  # Ender's: 0 turn under way, 1 reply turn
        ("VALUES", NT_MAX),  # centipawn value per type
        ("ROLE", NT_MAX),  # the family's role code of each type (Batteries: movegen/batteries.py)
    ])
G_SIZE = G_LAYOUT.size
GI_SIZE = G_LAYOUT.offset["SQUARES"]
(GI_FAMILY, GI_W, GI_H, GI_STRIDE, GI_NSQ, GI_NT, GI_PAWN, GI_KING, GI_CASTLE, GI_KFILE_K,
 GI_KFILE_Q, GI_NPROMO, GI_EP, GI_GATE_W, GI_GATE_B, GI_ZSIDE, GI_NCELLS, GI_DOUBLE_RANK,
 GI_BATTERY) = (
    G_LAYOUT.offset[name] for name in _GI)
(SQUARES, SQ_FILE, SQ_RANK, CELL, ADELTA, ARANGE, AMODE, ALAME, ACOUNT, LK_DELTA, LK_MASK,
 SL_DELTA, SL_MASK, N_LK, N_SL, PAWN_DIR, PROMO, RAY, SLIDE_DIR, ZP, ZC, ZEP, ZMOVED, ZRES,
 ZMISC, VALUES, ROLE) = (G_LAYOUT.offset[name] for name in (
    "SQUARES", "SQ_FILE", "SQ_RANK", "CELL", "ADELTA", "ARANGE", "AMODE", "ALAME", "ACOUNT",
    "LK_DELTA", "LK_MASK", "SL_DELTA", "SL_MASK", "N_LK", "N_SL", "PAWN_DIR", "PROMO", "RAY",
    "SLIDE_DIR", "ZP", "ZC", "ZEP", "ZMOVED", "ZRES", "ZMISC", "VALUES", "ROLE"))
