"""Builds the numeric tables a game's numba kernels read (one ``Tables`` per game).

Passing the rules as arrays (rather than compiling a kernel per game) keeps the
number of numba specialisations to one.
"""
from functools import lru_cache

import numpy as np

from . import layout as L
from .batteries import ROLES
from .betza import CAPTURE, parse_betza
from .games import BATTERIES, CHESS, ENDERS, Game

MAX_ATOMS = L.MAX_ATOMS


class Tables:
    """A game's rules as numbers: the flat table ``G`` the kernels read, plus named
    numpy views into it for Python code (``t.zp[code, sq]``, ``t.gi[GI_KING]``...)."""

    def __init__(self, G: np.ndarray, nsq: int):
        self.G = G
        self.nsq = nsq

        def view(name):
            return L.G_LAYOUT.view(G, name)

        self.gi = G[:L.GI_SIZE]
        self.squares = view("SQUARES")[:G[L.GI_NCELLS]]
        self.zp = view("ZP")
        self.zc = view("ZC")
        self.zep = view("ZEP")
        self.zres = view("ZRES")
        self.zmisc = view("ZMISC")
        self.values = view("VALUES")


class Geometry:
    """Square numbering of a game: names <-> padded indices."""

    def __init__(self, game: Game):
        self.files, self.ranks = game.files, game.ranks
        self.stride = game.files + 2
        self.nsq = self.stride * (game.ranks + 4) + L.LEAD
        holes = set(game.holes)
        self.valid = [self.index(f, r) for r in range(self.ranks) for f in range(self.files)
                      if self.name_fr(f, r) not in holes]
        self.valid_set = set(self.valid)

    def index(self, f: int, r: int) -> int:
        return (r + 2) * self.stride + f + L.LEAD

    def file_rank(self, sq: int) -> tuple[int, int]:
        return (sq - L.LEAD) % self.stride, (sq - L.LEAD) // self.stride - 2

    @staticmethod
    def name_fr(f: int, r: int) -> str:
        return "abcdefghijklmnop"[f] + str(r + 1)

    def name(self, sq: int) -> str:
        return self.name_fr(*self.file_rank(sq))

    def parse(self, text: str) -> int:
        """Padded index of a square name like ``e4`` or ``c11``; ValueError if not a cell."""
        if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
            raise ValueError(f"bad square {text!r}")
        f, r = ord(text[0]) - ord("a"), int(text[1:]) - 1
        if not (0 <= f < self.files and 0 <= r < self.ranks):
            raise ValueError(f"square {text!r} is off the board")
        sq = self.index(f, r)
        if sq not in self.valid_set:
            raise ValueError(f"square {text!r} is a hole")
        return sq


def _atoms(game: Game, geo: Geometry, G: np.ndarray) -> None:
    """Move atoms of every piece (from its Betza string) and the attack tables."""
    shape = (2, L.NT_MAX, MAX_ATOMS)
    adelta, arange, amode, alame = (np.zeros(shape, np.int64) for _ in range(4))
    acount = np.zeros((2, L.NT_MAX), np.int64)
    leaps = [dict(), dict()]  # delta -> type mask, per colour
    slides = [dict(), dict()]
    for t, piece in enumerate(game.pieces, start=1):
        atoms = parse_betza(piece.betza)
        if len(atoms) > MAX_ATOMS:
            raise ValueError(f"{piece.name} of {game.name} has {len(atoms)} move atoms "
                             f"(at most {MAX_ATOMS})")
        if game.family == CHESS and not piece.pawn:
            _check_attacks(game, piece, atoms)
        for colour in (0, 1):
            sign = 1 if colour == 0 else -1  # Black's forward is down
            for atom in atoms:
                d = atom.df + sign * atom.dr * geo.stride
                k = acount[colour, t]
                adelta[colour, t, k] = d
                arange[colour, t, k] = atom.max_range
                amode[colour, t, k] = atom.mode
                if atom.lame:
                    alame[colour, t, k] = atom.lame[0] + sign * atom.lame[1] * geo.stride
                acount[colour, t] += 1
                if atom.mode & CAPTURE:
                    table = leaps if atom.max_range == 1 else slides
                    table[colour][d] = table[colour].get(d, 0) | (1 << t)
    if (max(len(leaps[0]), len(leaps[1])) > L.MAX_LEAPS
            or max(len(slides[0]), len(slides[1])) > L.MAX_SLIDES):
        raise ValueError(f"{game.name} has more capturing leaps ({L.MAX_LEAPS}) or slides "
                         f"({L.MAX_SLIDES}) than the attack tables hold")
    lk = np.zeros((2, 2, L.MAX_LEAPS), np.int64)  # [delta|mask, colour, i]
    sl = np.zeros((2, 2, L.MAX_SLIDES), np.int64)
    slide_dir = np.zeros((2, L.RAY_SIZE), np.int64)
    for c in (0, 1):
        for i, (d, m) in enumerate(sorted(leaps[c].items())):
            lk[:, c, i] = d, m
        for i, (d, m) in enumerate(sorted(slides[c].items())):
            sl[:, c, i] = d, m
            slide_dir[c, L.NSQ_MAX + d] = m
    for name, arr in (("ADELTA", adelta), ("ARANGE", arange), ("AMODE", amode),
                      ("ALAME", alame), ("ACOUNT", acount), ("LK_DELTA", lk[0]),
                      ("LK_MASK", lk[1]), ("SL_DELTA", sl[0]), ("SL_MASK", sl[1]),
                      ("N_LK", [len(x) for x in leaps]), ("N_SL", [len(x) for x in slides]),
                      ("SLIDE_DIR", slide_dir)):
        L.G_LAYOUT.put(G, name, arr)


def _check_attacks(game: Game, piece, atoms) -> None:
    """The chess-like attack test and pin test know plain leaps and unlimited slides along
    lines only; a capture they would misjudge is refused here, not played wrongly."""
    for a in atoms:
        if not a.mode & CAPTURE:
            continue
        if a.lame or (a.max_range != 1 and (a.max_range != 0 or max(abs(a.df), abs(a.dr)) != 1)):
            raise ValueError(f"{piece.name} of {game.name}: the chess-like rules cannot check "
                             f"a {'lame' if a.lame else 'limited or non-line'} capturing move "
                             f"({piece.betza!r}); make it move-only or a plain leap or slide")


def _rays(geo: Geometry) -> np.ndarray:
    ray = np.zeros(L.RAY_SIZE, np.int64)
    s = geo.stride
    for u, reach in ((1, geo.files), (-1, geo.files), (s, geo.ranks), (-s, geo.ranks),
                     (s + 1, min(geo.files, geo.ranks)), (s - 1, min(geo.files, geo.ranks)),
                     (-s + 1, min(geo.files, geo.ranks)), (-s - 1, min(geo.files, geo.ranks))):
        for k in range(1, reach):
            assert ray[L.NSQ_MAX + k * u] in (0, u), "ambiguous ray table"
            ray[L.NSQ_MAX + k * u] = u
    return ray


def _check_move_bound(game: Game, geo: Geometry) -> None:
    from .bounds import move_bound  # (bounds reads Geometry from here)
    bound = move_bound(game, geo)
    if bound > L.MAX_MOVES:
        raise ValueError(f"{game.name} may have {bound} moves in one ply; the move buffers "
                         f"hold {L.MAX_MOVES} (movegen/layout.py MAX_MOVES)")


@lru_cache(maxsize=None)
def build_tables(game: Game) -> Tables:
    """The tables of ``game`` (cached on the record: they never change)."""
    if len(game.pieces) >= L.NT_MAX:
        raise ValueError(f"{game.name} has {len(game.pieces)} piece types (at most {L.NT_MAX - 1})")
    geo = geometry(game)
    if geo.nsq > L.NSQ_MAX:
        raise ValueError(f"{game.name}'s {game.files}x{game.ranks} board is too large")
    _check_move_bound(game, geo)
    G = np.zeros(L.G_SIZE, np.int64)
    gi = G[:L.GI_SIZE]
    gi[L.GI_FAMILY] = game.family
    gi[L.GI_W], gi[L.GI_H], gi[L.GI_STRIDE], gi[L.GI_NSQ] = game.files, game.ranks, geo.stride, geo.nsq
    gi[L.GI_NT] = len(game.pieces)
    for t, p in enumerate(game.pieces, start=1):
        if p.pawn:
            gi[L.GI_PAWN] = t
        if p.royal:
            gi[L.GI_KING] = t
    gi[L.GI_CASTLE] = L.Castling[game.castling.upper()]
    if game.castling == "fixed":
        gi[L.GI_KFILE_K], gi[L.GI_KFILE_Q] = game.castle_king_files
    L.G_LAYOUT.put(G, "PROMO", [game.letters.index(letter) + 1 for letter in game.promotions])
    gi[L.GI_NPROMO] = len(game.promotions)
    gi[L.GI_EP] = int(game.en_passant and game.family == CHESS)
    if game.family == CHESS and game.pawn_double_rank != 2:
        raise ValueError(f"{game.name}: chess-like pawns double-step from the 2nd rank only")
    gi[L.GI_DOUBLE_RANK] = game.pawn_double_rank - 1
    if game.gates:
        gi[L.GI_GATE_W], gi[L.GI_GATE_B] = (geo.parse(s) for s in game.gates)
    gi[L.GI_NCELLS] = len(geo.valid)
    L.G_LAYOUT.put(G, "SQUARES", geo.valid)
    files, ranks, cells = (np.full(L.NSQ_MAX, -1, np.int64) for _ in range(3))
    for i, sq in enumerate(geo.valid):
        files[sq], ranks[sq] = geo.file_rank(sq)
        cells[sq] = i
    L.G_LAYOUT.put(G, "SQ_FILE", files)
    L.G_LAYOUT.put(G, "SQ_RANK", ranks)
    L.G_LAYOUT.put(G, "CELL", cells)
    _atoms(game, geo, G)
    L.G_LAYOUT.put(G, "PAWN_DIR", [geo.stride, -geo.stride])
    # Ender's needs no rays (nothing is royal), and its narrow board makes them ambiguous.
    if game.family != ENDERS:
        L.G_LAYOUT.put(G, "RAY", _rays(geo))
    rng = np.random.default_rng(20261122 + sum(map(ord, game.name)))
    for key in ("ZP", "ZC", "ZEP", "ZMOVED", "ZRES", "ZMISC"):
        size = L.G_LAYOUT.length(key)
        L.G_LAYOUT.put(G, key, rng.integers(1, 2**63 - 1, size=size, dtype=np.int64))
    gi[L.GI_ZSIDE] = rng.integers(1, 2**63 - 1, dtype=np.int64)
    L.G_LAYOUT.put(G, "VALUES", [0] + [p.value for p in game.pieces])
    if game.family == BATTERIES:
        roles = [0] + [_role(game, p) for p in game.pieces]
        L.G_LAYOUT.put(G, "ROLE", roles)
        if roles.count(ROLES["battery"]) != 1:
            raise ValueError(f"{game.name} needs exactly one piece with the role 'battery'")
        gi[L.GI_BATTERY] = roles.index(ROLES["battery"])
    elif any(p.role for p in game.pieces):
        raise ValueError(f"{game.name}: piece roles belong to Batteries; this family has none")
    return Tables(G, geo.nsq)


def _role(game: Game, piece) -> int:
    try:
        return ROLES[piece.role]
    except KeyError:
        raise ValueError(f"{piece.name} of {game.name} has role {piece.role!r}; "
                         f"the Batteries rules know {', '.join(ROLES)}") from None


@lru_cache(maxsize=None)
def geometry(game: Game) -> Geometry:
    """The square numbering of ``game`` (cached on the record)."""
    return Geometry(game)
