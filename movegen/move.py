"""Moves as values, and every way they are spelled on a wire, in one module.

A kernel move is one int64 (movegen/layout.py). Outside the kernels a move is a ``Move``:
its squares, promotion, drop and legs by name, and its spellings:

- canonical (the rules README): ``e2e4``, ``e7e8q``, ``N@c1``, ``d4e5,e5f6`` (overtaking,
  two legs), ``@@@@`` (a pass: Ender's end of turn), castling as the king's move, or as
  king-takes-rook in the shuffle games;
- UCI (Fairy-Stockfish's conventions): a pass is ``0000``, castling king-takes-rook when
  Chess960 is on;
- XBoard: ``O-O``/``O-O-O`` for shuffle-game castling, an overtaking capture as one line
  per leg (``d4e5,`` then ``e5f6``) or ``d4f6;e5`` when a GUI sends it, and ranks
  numbered from 0 on a 10-rank board.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from . import layout as L
from .games import Game
from .tables import Geometry

#: Every spelling of a pass (Ender's end of turn) a GUI or user may send.
PASSES = ("@@@@", "0000", "pass", "--")


class IllegalMoveError(ValueError):
    """A move that is not legal (or not understood) in the position."""


class Outcome(NamedTuple):
    """How a game ended: ``result`` "1-0", "0-1" or "1/2-1/2" and the ``reason``
    ("checkmate", "stalemate", "gate", ...)."""

    result: str
    reason: str


@dataclass(frozen=True)
class Move:
    """A move of a position (Ender's: one action). ``str(move)`` is its canonical spelling."""

    code: int  #: the kernels' encoding
    name: str  #: canonical wire spelling
    from_square: str | None  #: None for a drop or a pass
    to_square: str | None  #: None for a pass
    promotion: str | None = None  #: letter of the piece promoted to
    drop: str | None = None  #: letter of the piece dropped
    captured_square: str | None = None  #: the victim's square when not ``to_square`` (overtaking, en passant)
    castle_rook: str | None = None  #: castling: the rook's square
    is_pass: bool = False

    def __str__(self) -> str:
        return self.name

    @property
    def legs(self) -> tuple[str, ...]:
        """Wire legs: two for an overtaking capture, else the move itself."""
        return tuple(self.name.split(","))

    @property
    def overtakes(self) -> bool:
        return "," in self.name

    def uci(self, chess960: bool) -> str:
        """UCI spelling: ``0000`` for a pass; castling king-takes-rook if ``chess960``,
        else the king's own move."""
        if self.is_pass:
            return "0000"
        if self.castle_rook is not None:
            return self.from_square + (self.castle_rook if chess960 else self.to_square)
        return self.name

    def xboard_lines(self, game: Game) -> list[str]:
        """What an engine sends XBoard for this move (``move`` lines' arguments)."""
        if self.overtakes:
            first, second = self.legs
            return [to_xboard_ranks(first, game) + ",", to_xboard_ranks(second, game)]
        return [to_xboard_ranks(self.xboard_text(game), game)]

    def xboard_text(self, game: Game) -> str:
        """One-line XBoard form (before the rank shift): castling in the shuffle games is
        ``O-O``/``O-O-O``, an overtaking capture ``from-to;victim``."""
        if self.castle_rook is not None and game.chess960:
            return "O-O" if _file(self.castle_rook) > _file(self.from_square) else "O-O-O"
        if self.overtakes:
            return f"{self.from_square}{self.to_square};{self.captured_square}"
        return self.name


def _file(square: str) -> str:
    return square[0]


def decode(game: Game, geo: Geometry, m: int) -> Move:
    """The ``Move`` of kernel move ``m``."""
    m = int(m)
    fr, to = m & 255, (m >> 8) & 255
    promo, flag, ex = (m >> 16) & 31, (m >> 21) & 15, (m >> 25) & 255
    if flag in (L.F_END, L.F_NULL):
        return Move(m, "@@@@", None, None, is_pass=True)
    if flag == L.F_DROP:
        letter = game.pieces[promo - 1].letter
        return Move(m, f"{letter}@{geo.name(to)}", None, geo.name(to), drop=letter)
    f, t = geo.name(fr), geo.name(to)
    if flag == L.F_OVERTAKE:
        x = geo.name(ex)
        return Move(m, f"{f}{x},{x}{t}", f, t, captured_square=x)
    if flag == L.F_CASTLE:
        rook = geo.name(ex)
        return Move(m, f + (rook if game.chess960 else t), f, t, castle_rook=rook)
    letter = game.pieces[promo - 1].letter if promo else None
    name = f + t + (letter.lower() if letter else "")
    victim = geo.name(ex) if flag == L.F_EP else None
    return Move(m, name, f, t, promotion=letter, captured_square=victim)


def aliases(game: Game, move: Move) -> list[str]:
    """Other spellings a GUI or user may send for ``move``."""
    out = []
    if move.is_pass:
        out += [p for p in PASSES if p != "@@@@"]
    if move.castle_rook is not None:
        king_side = _file(move.castle_rook) > _file(move.from_square)
        out += ["O-O", "0-0"] if king_side else ["O-O-O", "0-0-0"]
        out.append(move.from_square + (move.to_square if game.chess960 else move.castle_rook))
    if move.overtakes:
        out.append(move.xboard_text(game))
    return out


_SQUARE = re.compile(r"([a-z])(\d+)")


def to_xboard_ranks(text: str, game: Game) -> str:
    """Our squares -> XBoard's: XBoard numbers the ranks of a 10-rank board 0..9."""
    if game.ranks != 10:
        return text
    return _SQUARE.sub(lambda m: f"{m.group(1)}{int(m.group(2)) - 1}", text)


def from_xboard_ranks(text: str, game: Game) -> str:
    if game.ranks != 10:
        return text
    return _SQUARE.sub(lambda m: f"{m.group(1)}{int(m.group(2)) + 1}", text)
