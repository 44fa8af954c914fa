"""Move codes <-> wire strings (see the rules README: ``e2e4``, ``e7e8q``, ``N@c1``,
``d4e5,e5f6``, ``@@@@``; castling as the king's move, or king-takes-rook in the
shuffle games)."""
from . import layout as L
from .games import Game
from .tables import Geometry

NULL_MOVES = ("@@@@", "0000")


def move_to_str(game: Game, geo: Geometry, m: int) -> str:
    fr, to = m & 255, (m >> 8) & 255
    promo, flag, ex = (m >> 16) & 31, (m >> 21) & 15, (m >> 25) & 255
    if flag in (L.F_END, L.F_NULL):
        return "@@@@"
    if flag == L.F_DROP:
        return f"{game.pieces[promo - 1].letter}@{geo.name(to)}"
    if flag == L.F_OVERTAKE:
        return f"{geo.name(fr)}{geo.name(ex)},{geo.name(ex)}{geo.name(to)}"
    if flag == L.F_CASTLE and game.chess960:
        to = ex  # king takes own rook: unambiguous however the pieces stand
    text = geo.name(fr) + geo.name(to)
    if promo:
        text += game.pieces[promo - 1].letter.lower()
    return text


def aliases(game: Game, geo: Geometry, m: int) -> list[str]:
    """Other spellings a GUI or user may send for move ``m``."""
    fr, to = m & 255, (m >> 8) & 255
    flag, ex = (m >> 21) & 15, (m >> 25) & 255
    out = []
    if flag in (L.F_END, L.F_NULL):
        out.append("0000")
    if flag == L.F_CASTLE:
        out.append("O-O" if ex > fr else "O-O-O")
        out.append("0-0" if ex > fr else "0-0-0")
        out.append(geo.name(fr) + geo.name(ex if not game.chess960 else to))
    if flag == L.F_OVERTAKE:
        out.append(f"{geo.name(fr)}{geo.name(to)};{geo.name(ex)}")  # XBoard's form
    return out
