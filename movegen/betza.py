"""A small Betza-notation parser: turns a piece's move description into atoms.

Only what the games of this project need is understood: the atoms W F D A N,
the shorthands K R B Q, riders by doubling the letter (``WW`` = Rook) or by a
trailing ``0``, and the modifiers ``m`` (move only), ``c`` (capture only),
``n`` (lame: the intermediate square must be empty), ``f``/``b`` (forward /
backward only, relative to the mover), ``l``/``r`` are not used here.
"""
from dataclasses import dataclass

# One step of each atom, as (file delta, rank delta) for every direction.
_ATOM_STEPS = {
    "W": [(1, 0), (-1, 0), (0, 1), (0, -1)],
    "F": [(1, 1), (1, -1), (-1, 1), (-1, -1)],
    "D": [(2, 0), (-2, 0), (0, 2), (0, -2)],
    "A": [(2, 2), (2, -2), (-2, 2), (-2, -2)],
    "N": [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)],
}
_SHORTHANDS = {"K": "WF", "R": "WW", "B": "FF", "Q": "WWFF"}
MOVE, CAPTURE = 1, 2


@dataclass(frozen=True)
class Atom:
    """One way of moving: a step repeated up to ``max_range`` times (0 = unlimited)."""

    df: int
    dr: int
    max_range: int
    mode: int  # MOVE | CAPTURE bits
    lame: bool  # the square half-way (for two-square leaps) must be empty


def parse_betza(text: str) -> list[Atom]:
    """Parse a Betza string into atoms (White's point of view: forward = up)."""
    for short, long in _SHORTHANDS.items():
        text = text.replace(short, long)
    atoms: list[Atom] = []
    i = 0
    mods = ""
    while i < len(text):
        ch = text[i]
        if ch.islower():
            mods += ch
            i += 1
            continue
        if ch not in _ATOM_STEPS:
            raise ValueError(f"unsupported Betza letter {ch!r} in {text!r}")
        rng = 1
        if i + 1 < len(text) and text[i + 1] == ch:
            rng, i = 0, i + 1
        elif i + 1 < len(text) and text[i + 1] == "0":
            rng, i = 0, i + 1
        mode = (MOVE if "c" not in mods else 0) | (CAPTURE if "m" not in mods else 0)
        if "m" in mods and "c" in mods:
            mode = MOVE | CAPTURE
        for df, dr in _ATOM_STEPS[ch]:
            if "f" in mods and "b" not in mods and dr <= 0:
                continue
            if "b" in mods and "f" not in mods and dr >= 0:
                continue
            atoms.append(Atom(df, dr, rng, mode, "n" in mods))
        mods = ""
        i += 1
    return atoms
