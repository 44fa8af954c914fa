"""Builds the numeric tables a game's numba kernels read (one ``Tables`` per game).

Passing the rules as arrays (rather than compiling a kernel per game) keeps the
number of numba specialisations to one.
"""
from collections import namedtuple
from functools import lru_cache

import numpy as np

from . import layout as L
from .betza import CAPTURE, parse_betza
from .games import CHESS, ENDERS, Game, find_game

Tables = namedtuple("Tables", [
    "gi",  # int64[GI_SIZE] game scalars
    "squares",  # int64[n] padded indices of the board's cells
    "sq_file", "sq_rank",  # int64[nsq], -1 off the board
    "cell",  # int64[nsq] compact cell number (0..n-1), -1 off the board
    "adelta", "arange", "amode", "alame",  # int64[2,16,24] move atoms per colour and type
    "acount",  # int64[2,16]
    "lk_delta", "lk_mask",  # int64[2,64] leaps that capture, with a bit mask of types
    "sl_delta", "sl_mask",  # int64[2,16] unlimited slides that capture
    "n_lk", "n_sl",  # int64[2]
    "pawn_dir",  # int64[2] forward step
    "promo",  # int64[8] promotion types, best first
    "ray",  # int64[2*nsq+1]: unit step from a square towards another on a line, else 0
    "zp",  # int64[32, nsq] Zobrist keys of pieces
    "zc", "zep", "zmoved",  # int64[nsq] castling rook, en passant, Ender's moved-this-turn
    "zres",  # int64[2,16,24] reserve counts
    "zmisc",  # int64[8] Ender's turn state
    "values",  # int64[16] centipawn values of the types
])

MAX_ATOMS = 24


class Geometry:
    """Square numbering of a game: names <-> padded indices."""

    def __init__(self, game: Game):
        self.files, self.ranks = game.files, game.ranks
        self.stride = game.files + 2
        self.nsq = self.stride * (game.ranks + 4)
        holes = set(game.holes)
        self.valid = [self.index(f, r) for r in range(self.ranks) for f in range(self.files)
                      if self.name_fr(f, r) not in holes]
        self.valid_set = set(self.valid)

    def index(self, f: int, r: int) -> int:
        return (r + 2) * self.stride + f

    def file_rank(self, sq: int) -> tuple[int, int]:
        return sq % self.stride, sq // self.stride - 2

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


def _atoms(game: Game, geo: Geometry):
    nt = len(game.pieces)
    adelta = np.zeros((2, 16, MAX_ATOMS), np.int64)
    arange = np.zeros_like(adelta)
    amode = np.zeros_like(adelta)
    alame = np.zeros_like(adelta)
    acount = np.zeros((2, 16), np.int64)
    leaps = [dict(), dict()]  # delta -> type mask, per colour
    slides = [dict(), dict()]
    for t, piece in enumerate(game.pieces, start=1):
        for colour in (0, 1):
            sign = 1 if colour == 0 else -1  # Black's forward is down
            for atom in parse_betza(piece.betza):
                d = atom.df + sign * atom.dr * geo.stride
                k = acount[colour, t]
                adelta[colour, t, k] = d
                arange[colour, t, k] = atom.max_range
                amode[colour, t, k] = atom.mode
                if atom.lame:
                    alame[colour, t, k] = atom.df // 2 + sign * (atom.dr // 2) * geo.stride
                acount[colour, t] += 1
                if atom.mode & CAPTURE:
                    table = leaps if atom.max_range == 1 else slides
                    table[colour][d] = table[colour].get(d, 0) | (1 << t)
    assert nt < 16
    lk_delta = np.zeros((2, 64), np.int64)
    lk_mask = np.zeros_like(lk_delta)
    sl_delta = np.zeros((2, 16), np.int64)
    sl_mask = np.zeros_like(sl_delta)
    n_lk = np.zeros(2, np.int64)
    n_sl = np.zeros(2, np.int64)
    for c in (0, 1):
        for i, (d, m) in enumerate(sorted(leaps[c].items())):
            lk_delta[c, i], lk_mask[c, i] = d, m
        for i, (d, m) in enumerate(sorted(slides[c].items())):
            sl_delta[c, i], sl_mask[c, i] = d, m
        n_lk[c], n_sl[c] = len(leaps[c]), len(slides[c])
    return adelta, arange, amode, alame, acount, lk_delta, lk_mask, sl_delta, sl_mask, n_lk, n_sl


def _rays(geo: Geometry) -> np.ndarray:
    ray = np.zeros(2 * geo.nsq + 1, np.int64)
    s = geo.stride
    for u, reach in ((1, geo.files), (-1, geo.files), (s, geo.ranks), (-s, geo.ranks),
                     (s + 1, min(geo.files, geo.ranks)), (s - 1, min(geo.files, geo.ranks)),
                     (-s + 1, min(geo.files, geo.ranks)), (-s - 1, min(geo.files, geo.ranks))):
        for k in range(1, reach):
            assert ray[geo.nsq + k * u] in (0, u), "ambiguous ray table"
            ray[geo.nsq + k * u] = u
    return ray


@lru_cache(maxsize=None)
def build_tables(name: str) -> Tables:
    """The tables of game ``name`` (cached: they never change)."""
    game = find_game(name)
    geo = Geometry(game)
    gi = np.zeros(L.GI_SIZE, np.int64)
    gi[L.GI_FAMILY] = game.family
    gi[L.GI_W], gi[L.GI_H], gi[L.GI_STRIDE], gi[L.GI_NSQ] = game.files, game.ranks, geo.stride, geo.nsq
    gi[L.GI_NT] = len(game.pieces)
    for t, p in enumerate(game.pieces, start=1):
        if p.pawn:
            gi[L.GI_PAWN] = t
        if p.royal:
            gi[L.GI_KING] = t
    gi[L.GI_CASTLE] = {"none": 0, "fixed": 1, "relative": 2}[game.castling]
    if game.castling == "fixed":
        gi[L.GI_KFILE_K], gi[L.GI_KFILE_Q] = game.castle_king_files
    promo = np.zeros(8, np.int64)
    for i, letter in enumerate(game.promotions):
        promo[i] = game.letters.index(letter) + 1
    gi[L.GI_NPROMO] = len(game.promotions)
    gi[L.GI_EP] = int(game.en_passant and game.family == CHESS)
    if game.gates:
        gi[L.GI_GATE_W], gi[L.GI_GATE_B] = (geo.parse(s) for s in game.gates)
    gi[L.GI_NCELLS] = len(geo.valid)
    sq_file = np.full(geo.nsq, -1, np.int64)
    sq_rank = np.full(geo.nsq, -1, np.int64)
    cell = np.full(geo.nsq, -1, np.int64)
    for i, sq in enumerate(geo.valid):
        sq_file[sq], sq_rank[sq] = geo.file_rank(sq)
        cell[sq] = i
    rng = np.random.default_rng(20261122 + sum(map(ord, name)))

    def keys(*shape):
        return rng.integers(1, 2**63 - 1, size=shape, dtype=np.int64)

    gi[L.GI_ZSIDE] = keys(1)[0]
    values = np.zeros(16, np.int64)
    for t, p in enumerate(game.pieces, start=1):
        values[t] = p.value
    return Tables(gi, np.array(geo.valid, np.int64), sq_file, sq_rank, cell,
                  *_atoms(game, geo), np.array([geo.stride, -geo.stride], np.int64), promo,
                  _rays(geo) if game.family != ENDERS else np.zeros(2 * geo.nsq + 1, np.int64), keys(32, geo.nsq), keys(geo.nsq), keys(geo.nsq), keys(geo.nsq),
                  keys(2, 16, 24), keys(8), values)


@lru_cache(maxsize=None)
def geometry(name: str) -> Geometry:
    return Geometry(find_game(name))
