"""The Betza parser: modifiers bind to the atom after them, shorthands expand after that,
and anything it does not understand is an error naming the letter."""
import pytest

from movegen import GAMES
from movegen.betza import CAPTURE, MOVE, parse_betza

BOTH = MOVE | CAPTURE
ORTHO = {(1, 0), (-1, 0), (0, 1), (0, -1)}
DIAG = {(1, 1), (1, -1), (-1, 1), (-1, -1)}
KNIGHT = {(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)}


def atoms(steps, rng, mode, lame=None):
    """Expected atoms as (df, dr, range, mode, lame) tuples; ``lame`` maps step -> block."""
    return {(df, dr, rng, mode, (lame or {}).get((df, dr))) for df, dr in steps}


def parsed(text):
    result = [(a.df, a.dr, a.max_range, a.mode, a.lame) for a in parse_betza(text)]
    assert len(result) == len(set(result)), "an atom given twice"
    return set(result)


CASES = [
    ("W", atoms(ORTHO, 1, BOTH)),
    ("K", atoms(ORTHO | DIAG, 1, BOTH)),
    ("WW", atoms(ORTHO, 0, BOTH)),
    ("W0", atoms(ORTHO, 0, BOTH)),
    ("W3", atoms(ORTHO, 3, BOTH)),
    ("R", atoms(ORTHO, 0, BOTH)),
    ("Q", atoms(ORTHO | DIAG, 0, BOTH)),
    # shorthands expand after the modifier is attached: all of the Queen only moves
    ("mQ", atoms(ORTHO | DIAG, 0, MOVE)),
    ("cK", atoms(ORTHO | DIAG, 1, CAPTURE)),
    ("mQcK", atoms(ORTHO | DIAG, 0, MOVE) | atoms(ORTHO | DIAG, 1, CAPTURE)),
    ("mRcW", atoms(ORTHO, 0, MOVE) | atoms(ORTHO, 1, CAPTURE)),
    ("mBcF", atoms(DIAG, 0, MOVE) | atoms(DIAG, 1, CAPTURE)),
    ("mcW", atoms(ORTHO, 1, BOTH)),
    # a modifier binds to the next atom only
    ("fmWfcF", atoms({(0, 1)}, 1, MOVE) | atoms({(1, 1), (-1, 1)}, 1, CAPTURE)),
    ("mWF", atoms(ORTHO, 1, MOVE) | atoms(DIAG, 1, BOTH)),
    ("BN", atoms(DIAG, 0, BOTH) | atoms(KNIGHT, 1, BOTH)),
    ("RN", atoms(ORTHO, 0, BOTH) | atoms(KNIGHT, 1, BOTH)),
    ("AD", atoms({(2, 2), (2, -2), (-2, 2), (-2, -2)}, 1, BOTH)
     | atoms({(2, 0), (-2, 0), (0, 2), (0, -2)}, 1, BOTH)),
    # lame leaps: the half-way square, and the Knight's orthogonal first step
    ("nD", atoms({(2, 0), (-2, 0), (0, 2), (0, -2)}, 1, BOTH,
                 {(2, 0): (1, 0), (-2, 0): (-1, 0), (0, 2): (0, 1), (0, -2): (0, -1)})),
    ("FnA", atoms(DIAG, 1, BOTH) | atoms({(2, 2), (2, -2), (-2, 2), (-2, -2)}, 1, BOTH,
                                         {(2, 2): (1, 1), (2, -2): (1, -1),
                                          (-2, 2): (-1, 1), (-2, -2): (-1, -1)})),
    ("nN", atoms(KNIGHT, 1, BOTH, {(1, 2): (0, 1), (-1, 2): (0, 1), (1, -2): (0, -1),
                                   (-1, -2): (0, -1), (2, 1): (1, 0), (2, -1): (1, 0),
                                   (-2, 1): (-1, 0), (-2, -1): (-1, 0)})),
    # directions
    ("fW", atoms({(0, 1)}, 1, BOTH)),
    ("vW", atoms({(0, 1), (0, -1)}, 1, BOTH)),
    ("sW", atoms({(1, 0), (-1, 0)}, 1, BOTH)),
    ("fsW", atoms({(0, 1), (1, 0), (-1, 0)}, 1, BOTH)),
    ("bF", atoms({(1, -1), (-1, -1)}, 1, BOTH)),
    ("lF", atoms({(-1, 1), (-1, -1)}, 1, BOTH)),
    ("flF", atoms({(-1, 1)}, 1, BOTH)),
    ("flbrB", atoms({(-1, 1), (1, -1)}, 0, BOTH)),
    ("fN", atoms({(1, 2), (2, 1), (-1, 2), (-2, 1)}, 1, BOTH)),
    ("rmN", atoms({(1, 2), (2, 1), (1, -2), (2, -1)}, 1, MOVE)),
]


@pytest.mark.parametrize("text,expected", CASES, ids=[c[0] for c in CASES])
def test_betza_string_parses_to_its_atoms(text, expected):
    assert parsed(text) == expected


ERRORS = [
    ("X", "'X'"),  # unknown atom letter
    ("H", "'H'"),
    ("KX", "'X'"),
    ("xW", "'x'"),  # unknown modifier
    ("mjQ", "'j'"),
    ("iW", "'i'"),
    ("W+", "'+'"),
    ("Wm", "'m'"),  # modifier with nothing after it
    ("QQ", "'QQ'"),  # a shorthand rider doubled
    ("nW", "'W'"),  # lame needs a two-square leap
    ("nR", "'W'"),
    ("nDD", "'D'"),
    ("flW", "'W'"),  # directions selecting nothing
    ("vN", "'v'"),  # only single half-board letters on N
    ("ffN", "'ff'"),
    ("KQ", "twice"),  # every King step again in the Queen
    ("WWW", "twice"),
]


@pytest.mark.parametrize("text,named", ERRORS, ids=[e[0] for e in ERRORS])
def test_betza_string_not_understood_is_an_error_naming_it(text, named):
    with pytest.raises(ValueError) as err:
        parse_betza(text)
    assert named in str(err.value) and repr(text) in str(err.value)


def test_every_piece_of_every_game_parses():
    for game in GAMES.values():
        for piece in game.pieces:
            assert parse_betza(piece.betza), (game.name, piece.name)
