"""A proven upper bound on the moves of one ply, per game: the move buffers of perft and
the search give each ply ``MAX_MOVES`` slots and the generators write without a check
(a check per move costs speed in the hottest loop), so every game's bound is computed
when its tables are built and must fit.

The bound counts every piece the army could ever have (a pawn counted as the best of
its own moves and the pieces it may promote to), each with the most destinations it has
from any square of the empty board (an empty board maximises what a table-driven
piece reaches), times the promotion choices where a move may promote. What a table
does not say (Batteries' charged powers, Ender's drops and turn end, castling) is added
from the rules, generously.
"""
from __future__ import annotations

from .betza import parse_betza
from .games import BATTERIES, ENDERS, Game
from .tables import Geometry


def _reach(geo: Geometry, atoms, sq: int) -> set[int]:
    """Squares the atoms reach from ``sq`` on the empty board."""
    out = set()
    for a in atoms:
        d = a.df + a.dr * geo.stride
        s, steps = sq + d, 1
        while s in geo.valid_set:
            out.add(s)
            if a.max_range == 1 or (a.max_range > 1 and steps == a.max_range):
                break
            s += d
            steps += 1
    return out


def _most(geo: Geometry, betza: str) -> int:
    atoms = parse_betza(betza)
    return max(len(_reach(geo, atoms, sq)) for sq in geo.valid)


def _piece_bound(game: Game, geo: Geometry, piece) -> int:
    if game.family == BATTERIES:
        # charged: any line of a Queen (Batteries are transparent), a Knight's leap, the
        # two-square leaps of a Soldier or of an Agent over a Battery, and overtaking
        return _most(geo, "Q") + _most(geo, "N") + _most(geo, "DA") + 8
    if piece.pawn:
        steps = _most(geo, piece.betza) + 1  # and the double step
        return steps * max(1, len(game.promotions))
    return _most(geo, piece.betza)


def move_bound(game: Game, geo: Geometry) -> int:
    """At most this many moves (pseudo-legal, before the legality filter) in one ply."""
    army: dict[str, int] = {}
    for ch in game.start_fen.split()[0]:
        if ch.isupper():
            army[ch] = army.get(ch, 0) + 1
    each = {p.letter: _piece_bound(game, geo, p) for p in game.pieces}
    total = 0
    for p in game.pieces:
        best = each[p.letter]
        if p.pawn:  # it may become any promotion piece
            best = max([best] + [each[letter] for letter in game.promotions])
        total += army.get(p.letter, 0) * best
    if game.castling != "none":
        total += 2
    if game.family == ENDERS:
        total += len(game.pieces) * len(game.gates) + 1  # drops on the gate, end of turn
    return total
