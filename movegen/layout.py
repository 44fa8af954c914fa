"""Shared numeric layout of positions and moves (compile-time constants for numba).

Board: a 1-D int8 padded mailbox, rows of ``files + 2`` cells with two padding rows
above and below, so leaps of up to two squares never index outside the array.
Cell codes: 0 empty, 1..15 a White piece of that type, 17..31 a Black one, OFF for
padding and holes.

Position scalars live in one int64 array ``st`` (indices S_*); make saves
``st[:NSAVE]`` on the undo stack and unmake restores it.

A move is one int64: from | to<<8 | promo<<16 | flag<<21 | extra<<25, where
``extra`` is the square of a victim not on ``to`` (en passant, overtaking) or the
castling rook's square.
"""
EMPTY = 0
BLACK_BIT = 16
OFF = 64

WHITE, BLACK = 0, 1

# st indices
S_SIDE = 0
S_EP = 1
S_CR = 2  # 4 castling rooks: White kingside, White queenside, Black kingside, Black queenside
S_HALF = 6
S_FULL = 7
S_HASH = 8
S_KING = 9  # 9 White king square, 10 Black
S_PLY = 11
S_MOVED = 12  # Ender's: bit mask (cell index) of pieces that moved this turn
S_ACTIONS = 13  # Ender's: actions taken this turn
S_REPLY = 14  # Ender's: White occupies Black's gate, Black is in the reply turn
S_RESULT = 15  # Ender's: 0 on, 1 White won, 2 Black won, 3 draw
S_WHY = 16  # Ender's: reason code of the result
S_COUNT = 17  # Ender's: 17 White pieces (board + reserve), 18 Black
S_TURN_START = 19  # ply at which the current turn began (Ender's repetition, draw counting)
NSAVE = 20
S_RES = 24  # reserve counts: S_RES + 16*colour + type
NST = 64

# undo stack columns beyond the saved st copy
U_MOVE = 30
U_CAP = 31
NUNDO = 32

MAX_PLY = 4096
MAX_MOVES = 1024

# move flags
F_NORMAL = 0
F_DOUBLE = 1
F_EP = 2
F_CASTLE = 3
F_DROP = 4
F_OVERTAKE = 5
F_END = 6  # Ender's: end of turn
F_NULL = 7

# Ender's result reasons
WHY_GATE, WHY_REPLY_GATE, WHY_ELIMINATION, WHY_REPLY_END = 1, 2, 3, 4

# gi (game integers): the first GI_SIZE entries of the game table G
GI_FAMILY = 0
GI_W = 1
GI_H = 2
GI_STRIDE = 3
GI_NSQ = 4
GI_NT = 5
GI_PAWN = 6  # pawn type (0: none)
GI_KING = 7  # royal type (0: none)
GI_CASTLE = 8  # 0 none, 1 fixed files, 2 king two squares
GI_KFILE_K = 9  # fixed castling: king's file after kingside / queenside
GI_KFILE_Q = 10
GI_NPROMO = 11
GI_EP = 12  # en passant exists
GI_GATE_W = 13
GI_GATE_B = 14
GI_ZSIDE = 15  # Zobrist key of Black to move
GI_NCELLS = 16
GI_DOUBLE_RANK = 17  # White's 0-based rank from which pawns may double-step (Batteries)
GI_BATTERY = 18  # Batteries: the type whose role is "battery" (checked on every square walked)
GI_SIZE = 20

# The game table G: one flat int64 array holding every table at a fixed offset.
# (numba pays a reference-count round trip per member for a tuple of arrays passed to a
# function; one flat array costs nothing, so the kernels take G.)
NSQ_MAX = 168  # the largest padded board (Batteries: 12 x 14)
NT_MAX = 16  # piece types per colour (type 0 unused)
MAX_ATOMS = 24
RAY_SIZE = 2 * NSQ_MAX + 1  # indexed by NSQ_MAX + (to - from)

_SIZES = (
    ("GI", GI_SIZE),
    ("SQUARES", 128),  # padded index of each board cell (GI_NCELLS of them)
    ("SQ_FILE", NSQ_MAX), ("SQ_RANK", NSQ_MAX),  # -1 off the board
    ("CELL", NSQ_MAX),  # compact cell number, -1 off the board
    ("ADELTA", 2 * NT_MAX * MAX_ATOMS),  # move atoms [colour, type, k]: step,
    ("ARANGE", 2 * NT_MAX * MAX_ATOMS),  # range (1 leaper, 0 unlimited),
    ("AMODE", 2 * NT_MAX * MAX_ATOMS),  # 1 move | 2 capture,
    ("ALAME", 2 * NT_MAX * MAX_ATOMS),  # step to the square that must be empty (0: none)
    ("ACOUNT", 2 * NT_MAX),  # atoms per [colour, type]
    ("LK_DELTA", 2 * 64), ("LK_MASK", 2 * 64),  # capturing leaps [colour, i] and their types
    ("SL_DELTA", 2 * 16), ("SL_MASK", 2 * 16),  # capturing slides [colour, i] and their types
    ("N_LK", 2), ("N_SL", 2),
    ("PAWN_DIR", 2),  # forward step per colour
    ("PROMO", 8),  # promotion types, best first
    ("RAY", RAY_SIZE),  # unit step from a square towards another on a line, else 0
    ("SLIDE_DIR", 2 * RAY_SIZE),  # [colour, NSQ_MAX + step]: types sliding (capturing) that way
    ("ZP", 32 * NSQ_MAX),  # Zobrist [cell code, square]
    ("ZC", NSQ_MAX), ("ZEP", NSQ_MAX),  # castling rook square, en passant square
    ("ZMOVED", NSQ_MAX),  # Ender's: piece on this cell number moved this turn
    ("ZRES", 2 * NT_MAX * MAX_ATOMS),  # Ender's reserve [colour, type, count]
    ("ZMISC", 8),  # Ender's: 0 turn under way, 1 reply turn
    ("VALUES", NT_MAX),  # centipawn value per type
    ("ROLE", NT_MAX),  # the family's role code of each type (Batteries: movegen/batteries.py)
)
_offset = 0
OFFSETS = {}
for _name, _size in _SIZES:
    OFFSETS[_name] = _offset
    _offset += _size
G_SIZE = _offset
SQUARES = OFFSETS["SQUARES"]
SQ_FILE = OFFSETS["SQ_FILE"]
SQ_RANK = OFFSETS["SQ_RANK"]
CELL = OFFSETS["CELL"]
ADELTA = OFFSETS["ADELTA"]
ARANGE = OFFSETS["ARANGE"]
AMODE = OFFSETS["AMODE"]
ALAME = OFFSETS["ALAME"]
ACOUNT = OFFSETS["ACOUNT"]
LK_DELTA = OFFSETS["LK_DELTA"]
LK_MASK = OFFSETS["LK_MASK"]
SL_DELTA = OFFSETS["SL_DELTA"]
SL_MASK = OFFSETS["SL_MASK"]
N_LK = OFFSETS["N_LK"]
N_SL = OFFSETS["N_SL"]
PAWN_DIR = OFFSETS["PAWN_DIR"]
PROMO = OFFSETS["PROMO"]
RAY = OFFSETS["RAY"]
SLIDE_DIR = OFFSETS["SLIDE_DIR"]
ZP = OFFSETS["ZP"]
ZC = OFFSETS["ZC"]
ZEP = OFFSETS["ZEP"]
ZMOVED = OFFSETS["ZMOVED"]
ZRES = OFFSETS["ZRES"]
ZMISC = OFFSETS["ZMISC"]
VALUES = OFFSETS["VALUES"]
ROLE = OFFSETS["ROLE"]
