"""How each game is described to XBoard/WinBoard 4.9.

XBoard knows ``normal``, ``capablanca`` and ``caparandom`` by name. For the others
the engine answers ``variant NAME`` with

    setup (PIECETOCHAR) WxH+S_PARENT FEN
    piece X& BETZA          (one per piece type)

PIECETOCHAR assigns our FEN letters to XBoard's internal piece types, whose order
(and so the picture XBoard draws) is fixed by XBoard; the last letter of each half is
XBoard's royal King. The table below uses XBoard 4.9's order of the "fairy" types:

    0 P pawn  1 N knight  2 B bishop  3 R rook  4 Q queen  5 F ferz  6 E alfil
    7 A archbishop  8 C chancellor  9 W wazir  10 M man (commoner)  11 O cannon
    ... 21 K king
"""
from __future__ import annotations

from dataclasses import dataclass

from movegen import GAMES, Game, Position
from movegen import layout as L

NSLOTS = 22  # XBoard 4.9 piece types per colour in a "fairy" table (King last)


@dataclass(frozen=True)
class XBoardVariant:
    """How XBoard is told about one game (``XB`` is keyed by the game's name)."""

    known: bool  #: XBoard knows the name: no setup needed
    slots: dict  #: our letter -> XBoard piece-type index
    parent: str = "fairy"
    holdings: int = 0
    betza: dict | None = None  #: letter -> Betza string told to XBoard (default: the game's)
    castle: int = 0  #: squares the King crosses to castle (0: XBoard's default King)
    options: tuple = ()  #: XBoard command-line options a user sets for this game

    def piece_to_char(self) -> str:
        white = ["."] * NSLOTS
        for letter, slot in self.slots.items():
            white[slot] = letter.upper()
        black = [c.lower() for c in white]
        return "".join(white) + "".join(black)


# Betza strings for XBoard's own move generator (legality testing, SAN, mate detection).
# Pawn: XBoard's standard pawn with double step of a virgin pawn; castling via O<n>.
_PAWN = "fmWfceFifmnD"

# XBoard tests legality itself from the Betza strings, but Batteries' charge and
# overtaking cannot be told in Betza, and Ender's turns of several actions are unknown to
# XBoard's 50-move counter. XBoard also holds at most 1000 plies, which a long Ender's game
# (one ply per action) can fill: its own move limit ends such a game as a draw instead.
_NO_LEGALITY = ("-testLegality", "false")
_ENDERS_OPTIONS = (*_NO_LEGALITY, "-ruleMoves", "0", "-adjudicateDrawMoves", "400")

XB = {
    "normal": XBoardVariant(True, {}),
    "capablanca": XBoardVariant(True, {}),
    "caparandom": XBoardVariant(True, {}),
    "energizer": XBoardVariant(
        False,
        {"P": 0, "N": 1, "B": 2, "R": 3, "Q": 4, "A": 7, "C": 8, "K": 21},
        betza={"P": _PAWN}, castle=2),
    "sultan": XBoardVariant(
        False,
        {"P": 0, "N": 1, "B": 2, "R": 3, "Q": 4, "C": 6, "K": 21},
        betza={"P": _PAWN}, castle=3),
    "sultanrandom": XBoardVariant(
        False,
        {"P": 0, "N": 1, "B": 2, "R": 3, "Q": 4, "C": 6, "K": 21},
        parent="caparandom", betza={"P": _PAWN}),
    "batteries": XBoardVariant(
        False,
        {"S": 0, "E": 1, "D": 2, "O": 3, "L": 4, "A": 7, "B": 11, "K": 21},
        betza={"S": "fmWfcFifmnD"}, options=_NO_LEGALITY),
    "enders": XBoardVariant(
        False,
        {"N": 1, "B": 2, "R": 3, "K": 10},
        parent="bughouse", holdings=4, options=_ENDERS_OPTIONS),
}


def describe(game: Game, fen: str) -> list[str]:
    """The lines that answer ``variant NAME`` (empty for the variants XBoard knows)."""
    xb = XB[game.name]
    if xb.known:
        return []
    size = f"{game.files}x{game.ranks}+{xb.holdings}_{xb.parent}"
    lines = [f"setup ({xb.piece_to_char()}) {size} {fen}"]
    for p in game.pieces:
        betza = (xb.betza or {}).get(p.letter, p.betza)
        if p.letter == "K" and xb.castle:
            betza = _castling_king(game, xb.castle, fen)
        lines.append(f"piece {p.letter}& {betza}")
    return lines


def _castling_king(game: Game, step: int, fen: str) -> str:
    """The King's Betza string for a setup whose King castles ``step`` squares.

    XBoard's own castling (a plain K) tests what the rules test: the castling rights of
    the FEN, the King not in check, the crossed squares. It serves a King that starts on
    one of the two middle files and castles (files + 2) // 4 squares, as here. A King
    elsewhere (Energizer's switched setups) needs the Betza O atom, of which XBoard tests
    only that the corner piece is unmoved and that the King is safe where it lands; the i
    prefix adds that the King itself has never moved. With a bare O XBoard once let a
    King that had left e1 "castle" from c1 out of a mate and called the true mate claim
    false."""
    assert step == (game.files + 2) // 4, "XBoard's castling distance for this width"
    middle = {(game.files - 1) // 2, game.files // 2}
    return "K" if _king_files(game, fen) <= middle else f"KiO{step}"


def _king_files(game: Game, fen: str) -> set[int]:
    """Files (0 = a) of the two Kings of ``fen``."""
    pos = Position.from_fen(game, fen)
    return {pos.geo.file_rank(int(pos.st[L.S_KING + colour]))[0] for colour in (0, 1)}


assert set(XB) == set(GAMES), "every game needs an XBoard description"
