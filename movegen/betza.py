"""Betza notation -> move atoms: the piece descriptions of movegen/games.py as numbers.

A description is a sequence of atoms, each with the modifiers written just before it;
modifiers apply to that one atom only (``fmWfcF``: a forward non-capturing Wazir step,
then forward capturing Ferz steps).

Atoms (one step, every direction): ``W`` (1,0), ``F`` (1,1), ``D`` (2,0), ``A`` (2,2),
``N`` (1,2). Shorthands: ``K`` = W+F, ``R`` = WW, ``B`` = FF, ``Q`` = WW+FF; they expand
after their modifiers are attached, so ``mQ`` is a queen that only moves and ``cK`` a
king that only captures. Range: a doubled letter (``WW``, ``QQ`` is not allowed) or a
trailing ``0`` makes a rider with no limit, a trailing number ``n`` a rider of at most
``n`` steps; a plain atom is a leaper.

Modifiers understood (anything else is an error naming the letter):
  ``m`` move only, ``c`` capture only (both, or neither: either);
  ``n`` lame: the square the leap passes first must be empty (D, A: the half-way
  square; N: the orthogonal step, as a Xiangqi horse);
  ``f`` ``b`` ``l`` ``r`` forward, backward, left, right (from the mover's side);
  ``v`` = ``fb``, ``s`` = ``lr``. A single direction letter selects the half-board that
  way; a vertical letter directly followed by a horizontal one (``fl``) selects that
  diagonal; several selections add up. On ``N`` only one single letter is understood.
"""
from dataclasses import dataclass

# One step of each atom, as (file delta, rank delta) for every direction.
_ATOM_STEPS = {
    "W": ((1, 0), (-1, 0), (0, 1), (0, -1)),
    "F": ((1, 1), (1, -1), (-1, 1), (-1, -1)),
    "D": ((2, 0), (-2, 0), (0, 2), (0, -2)),
    "A": ((2, 2), (2, -2), (-2, 2), (-2, -2)),
    "N": ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)),
}
# shorthand -> (atoms, rider)
_SHORTHANDS = {"K": ("WF", False), "R": ("W", True), "B": ("F", True), "Q": ("WF", True)}
_DIRECTIONS = "fblrvs"
_SPELLED = {"v": "fb", "s": "lr"}
_MODIFIERS = "mcn" + _DIRECTIONS
MOVE, CAPTURE = 1, 2

# a direction selection -> does step (df, dr) belong to it
_HALVES = {
    "f": lambda df, dr: dr > 0, "b": lambda df, dr: dr < 0,
    "l": lambda df, dr: df < 0, "r": lambda df, dr: df > 0,
}


@dataclass(frozen=True)
class Atom:
    """One way of moving: a step repeated up to ``max_range`` times (0 = unlimited)."""

    df: int
    dr: int
    max_range: int
    mode: int  #: MOVE | CAPTURE bits
    lame: tuple | None = None  #: (df, dr) of the square that must be empty, if any


def parse_betza(text: str) -> list[Atom]:
    """The atoms of Betza string ``text`` (White's point of view: forward = up).

    Raises ValueError, naming the offending letter, for anything not understood."""
    atoms: list[Atom] = []
    i = 0
    while i < len(text):
        start = i
        while i < len(text) and text[i].islower():
            if text[i] not in _MODIFIERS:
                raise ValueError(f"unknown Betza modifier {text[i]!r} in {text!r}")
            i += 1
        mods = text[start:i]
        if i == len(text):
            raise ValueError(f"Betza modifiers {mods!r} with no atom after them in {text!r}")
        letter = text[i]
        if letter in _SHORTHANDS:
            letters, rider = _SHORTHANDS[letter]
        elif letter in _ATOM_STEPS:
            letters, rider = letter, False
        else:
            raise ValueError(f"unknown Betza letter {letter!r} in {text!r}")
        i += 1
        max_range, i = _range(text, i, letter, rider)
        for atom_letter in letters:
            atoms.extend(_expand(text, atom_letter, mods, max_range))
    _check_overlaps(text, atoms)
    return atoms


def _range(text: str, i: int, letter: str, rider: bool) -> tuple[int, int]:
    """The range after the atom at ``text[i-1]`` (1 leaper, 0 unlimited) and the next index."""
    if i < len(text) and text[i] == letter:
        if rider:
            raise ValueError(f"{letter!r} is a rider already; {letter * 2!r} in {text!r}")
        return 0, i + 1
    digits = i
    while i < len(text) and text[i].isdigit():
        i += 1
    if digits < i:
        return int(text[digits:i]), i
    return (0 if rider else 1), i


def _expand(text: str, letter: str, mods: str, max_range: int) -> list[Atom]:
    """The atoms of one atom letter under its modifiers."""
    only_move, only_capture = "m" in mods and "c" not in mods, "c" in mods and "m" not in mods
    mode = MOVE if only_move else CAPTURE if only_capture else MOVE | CAPTURE
    steps = _select(text, letter, "".join(ch for ch in mods if ch in _DIRECTIONS))
    lame = "n" in mods
    if lame and (letter in "WF" or max_range != 1):
        what = repr(letter) if max_range == 1 else f"a {letter!r} rider"
        raise ValueError(f"'n' (lame) applies to the leaps D, A and N only, not {what} in {text!r}")
    return [Atom(df, dr, max_range, mode, _lame_step(df, dr) if lame else None)
            for df, dr in steps]


def _select(text: str, letter: str, dirs: str) -> list[tuple[int, int]]:
    """The steps of atom ``letter`` that the direction modifiers ``dirs`` select."""
    steps = _ATOM_STEPS[letter]
    if not dirs:
        return list(steps)
    if letter == "N" and (len(dirs) > 1 or dirs in "vs"):
        raise ValueError(f"only one of f, b, l, r is understood on 'N', not {dirs!r} in {text!r}")
    tests = []
    k = 0
    while k < len(dirs):
        if dirs[k] in "fb" and k + 1 < len(dirs) and dirs[k + 1] in "lr":
            vertical, horizontal = _HALVES[dirs[k]], _HALVES[dirs[k + 1]]
            tests.append(lambda df, dr, v=vertical, h=horizontal: v(df, dr) and h(df, dr))
            k += 2
        else:
            tests.extend(_HALVES[half] for half in _SPELLED.get(dirs[k], dirs[k]))
            k += 1
    chosen = [(df, dr) for df, dr in steps if any(test(df, dr) for test in tests)]
    if not chosen:
        raise ValueError(f"directions {dirs!r} select no step of {letter!r} in {text!r}")
    return chosen


def _lame_step(df: int, dr: int) -> tuple[int, int]:
    """The first square a lame leap passes: half-way on a line, orthogonal for a knight."""
    return (_sign(df) if abs(df) >= abs(dr) else 0, _sign(dr) if abs(dr) >= abs(df) else 0)


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def _check_overlaps(text: str, atoms: list[Atom]) -> None:
    """Two atoms with one step and a common mode would generate every such move twice."""
    seen: dict[tuple[int, int], int] = {}
    for a in atoms:
        if seen.get((a.df, a.dr), 0) & a.mode:
            raise ValueError(f"step ({a.df}, {a.dr}) is given twice in {text!r}")
        seen[(a.df, a.dr)] = seen.get((a.df, a.dr), 0) | a.mode
