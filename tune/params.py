"""The tunable numbers of a game's weights (search/weights.py), one ``Param`` each.

A parameter is a scalar weight (``("tempo", None)``), one entry of a table indexed by
rank or attack units (``("passed_eg", 6)``), or one piece's entry of a table keyed by
letter (``("material_mg", "A")``, ``("safe_mobility_eg", "N")``, ``("charge", "L")``).
Material comes from the game's piece values (movegen/games.py) unless the weights
override it; the pawn's middlegame value stays fixed as the unit of the scale, and the
king has none.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass

from movegen.games import Game
from movegen.layout import Family
from search.weights import SEARCH

#: not evaluation weights (the search's settings, tuned by games: tune/spsa.py), superseded when tuning
#: (eg_scale: the tuner sets material_eg directly), a per-piece constant the material
#: already fits (safe_mobility_centre: moving it moves the piece's value, nothing else),
#: or too many for the local search (the piece-square corrections: tune/pst.py)
NOT_TUNED = {"eg_scale", "safe_mobility_centre", "pst_mg", "pst_eg", *SEARCH}
#: weights with limits: divisors, a distance, a count, a percentage; a safe square more
#: is never worth less (left free, the rare pieces' weights follow noise below zero)
BOUNDS = {
    "drawish_scale": (1, 64),
    "no_mate_scale": (1, 64),
    "king_attack_radius": (1, 4),
    "race_max": (0, 12),
    "reserve_pct": (0, 200),
    "material_mg": (0, 5000),
    "material_eg": (0, 5000),
    "safe_mobility_mg": (0, 100),
    "safe_mobility_eg": (0, 100),
}


@dataclass(frozen=True)
class Param:
    key: str
    sub: int | str | None = None  #: list index or piece letter; None for a scalar

    @property
    def name(self) -> str:
        return self.key if self.sub is None else f"{self.key}[{self.sub}]"

    def get(self, w: dict) -> int:
        return w[self.key] if self.sub is None else w[self.key][self.sub]

    def set(self, w: dict, value: int) -> dict:
        """A copy of ``w`` with this parameter at ``value`` (``w`` is not changed)."""
        out = dict(w)
        if self.sub is None:
            out[self.key] = value
        else:
            table = copy.copy(w[self.key])
            table[self.sub] = value
            out[self.key] = table
        return out

    def clamp(self, value: int) -> int:
        lo, hi = BOUNDS.get(self.key, (-10**6, 10**6))
        return max(lo, min(hi, value))


def with_piece_entries(game: Game, w: dict) -> dict:
    """``w`` with every piece's entries written out, so that the tuner can move them:
    material (middlegame and endgame) and, in the chess-likes, safe mobility (a piece
    the weights leave out has none: 0). The evaluation table is the same."""
    mg, eg = dict(w["material_mg"]), dict(w["material_eg"])
    mob_mg, mob_eg = dict(w["safe_mobility_mg"]), dict(w["safe_mobility_eg"])
    for p in game.pieces:
        if not p.royal:
            mg.setdefault(p.letter, p.value)
            eg.setdefault(p.letter, p.value * w["eg_scale"].get(p.letter, 100) // 100)
        if not p.royal and not p.pawn and game.family == Family.CHESS:
            mob_mg.setdefault(p.letter, 0)
            mob_eg.setdefault(p.letter, 0)
    return {**w, "material_mg": mg, "material_eg": eg,
            "safe_mobility_mg": mob_mg, "safe_mobility_eg": mob_eg}


def tunable(game: Game, w: dict) -> list[Param]:
    """Every tunable number of ``w`` (expanded by ``with_piece_entries``)."""
    pawn = next((p.letter for p in game.pieces if p.pawn), None)
    out = []
    for key, value in w.items():
        if key in NOT_TUNED or isinstance(value, bool):
            continue
        if isinstance(value, int):
            out.append(Param(key))
        elif isinstance(value, list):
            out += [Param(key, i) for i, v in enumerate(value) if isinstance(v, int)]
        elif isinstance(value, dict):
            out += [Param(key, letter) for letter, v in value.items()
                    if isinstance(v, int) and not (key == "material_mg" and letter == pawn)]
    return out


def changes(before: dict, after: dict) -> dict:
    """The weights of ``after`` that differ from ``before`` (whole entries; tables keyed
    by letter only with their changed letters), for the tuned file."""
    out = {}
    for key, value in after.items():
        if value == before.get(key):
            continue
        if isinstance(value, dict):
            out[key] = {k: v for k, v in value.items() if before[key].get(k) != v}
        else:
            out[key] = value
    return out
