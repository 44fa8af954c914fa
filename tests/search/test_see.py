"""Static exchange evaluation (search/see.py), hand-built per game: the expected gains
are written in the pieces' values, read from the game's evaluation tables."""
import random

import pytest

from movegen import Position
from movegen.core import victim
from search.evaluate import EV_VALUE, build_eval
from search.see import see, see_below
from search.state import new_state


def _see(game: str, fen: str, move: str) -> tuple[int, dict]:
    pos = Position(game, fen)
    ev = build_eval(pos.game)
    before = pos.board.copy()
    gain = see(pos.tables.G, pos.board, pos.st, ev, new_state(), pos.parse_move(move).code)
    assert (pos.board == before).all(), "see must leave the board as it found it"
    values = {p.letter: int(ev[EV_VALUE + t]) for t, p in enumerate(pos.game.pieces, start=1)}
    return gain, values


@pytest.mark.parametrize("game,fen,move,expected", [
    # a free pawn
    ("normal", "6k1/8/8/4p3/8/8/4R3/6K1 w - - 0 1", "e2e5", "P"),
    # a pawn defended by a rook: the rook is lost for it
    ("normal", "4r1k1/8/8/4p3/8/8/4R3/6K1 w - - 0 1", "e2e5", "P-R"),
    # x-ray: the second rook behind the first takes back, so the pawn is won
    ("normal", "4r1k1/8/8/4p3/8/8/4R3/4R1K1 w - - 0 1", "e2e5", "P"),
    # a pawn defended by a pawn
    ("normal", "6k1/8/3p4/4p3/8/8/4R3/6K1 w - - 0 1", "e2e5", "P-R"),
    # rook takes a knight, bishop takes back, the second rook takes the bishop
    ("normal", "6k1/8/3b4/4n3/8/8/4R3/4R1K1 w - - 0 1", "e2e5", "N-R+B"),
    # the king takes a pawn nothing defends
    ("normal", "6k1/8/8/8/8/3p4/4K3/8 w - - 0 1", "e2d3", "P"),
    # the king as the last recapturer: taking back with it is fine while nothing is left
    ("normal", "6k1/8/8/8/8/3n4/4K3/3R4 w - - 0 1", "d1d3", "N"),
    # Archbishop takes a knight defended by a pawn
    ("capablanca", "5k4/10/4p5/3n6/10/4A5/10/5K4 w - - 0 1", "e3d5", "N-A"),
    # Chancellor's knight leap joins the exchange as an x-ray-free attacker
    ("capablanca", "5k4/10/10/3p6/10/4C5/10/5K4 w - - 0 1", "e3d5", "P"),
    # a Courier defends by its two-square diagonal leap
    ("sultan", "5k4/10/5c4/10/3p6/10/10/3Q1K4 w - - 0 1", "d1d4", "P-Q"),
    ("sultan", "5k4/10/10/10/3p6/10/10/3Q1K4 w - - 0 1", "d1d4", "P"),
])
def test_exchange(game, fen, move, expected):
    gain, v = _see(game, fen, move)
    want = 0
    for sign, letter in zip("+" + "".join(c for c in expected if c in "+-"),
                            expected.replace("+", " ").replace("-", " ").split()):
        if letter != "0":
            want += v[letter] if sign == "+" else -v[letter]
    assert gain == want, (gain, want)


@pytest.mark.parametrize("game,fen,move,expected", [
    # Batteries: a charged Lady (beside its Battery) takes a Soldier a Diag defends
    ("batteries", "9k/10/3d6/4s5/10/10/3BL5/10/10/K9 w - - 0 1", "e4e7", "S-L"),
    ("batteries", "9k/10/10/4s5/10/10/3BL5/10/10/K9 w - - 0 1", "e4e7", "S"),
    # Ender's: a Rook takes a Knight its King defends (the bound: the capturer is lost)
    ("enders", "**1**/5/5/2k2/2n2/5/2R2/5/5/5/**1**[] w - - 0 1", "c5c7", "N-R"),
    ("enders", "**1**/5/5/5/2n2/5/2R2/5/5/5/**1**[] w - - 0 1", "c5c7", "N"),
])
def test_conservative_bound_where_exchanges_are_not_exact(game, fen, move, expected):
    gain, v = _see(game, fen, move)
    victim, _, capturer = expected.partition("-")
    assert gain == v[victim] - (v[capturer] if capturer else 0)


def test_a_capture_worth_at_least_the_capturer_is_never_losing():
    # Batteries: a Soldier takes a defended Lady: the bound says the Lady is won
    gain, v = _see("batteries", "9k/4o5/4l5/3S6/10/10/10/10/10/K9 w - - 0 1", "d7e8")
    assert gain == v["L"]


GAMES = ("normal", "capablanca", "caparandom", "energizer", "sultan", "sultanrandom",
         "batteries", "enders")


@pytest.mark.parametrize("game", GAMES)
def test_see_below_agrees_with_see(game):
    """The cheap test ``see_below(m, t)`` answers ``see(m) < t`` for every capture met in
    random games, at thresholds around zero and the low-depth pruning margins."""
    rng = random.Random(game)
    pos = Position(game)
    ev = build_eval(pos.game)
    ss = new_state()
    G, asked, losing = pos.tables.G, 0, 0
    for _ in range(160):
        moves = pos.legal_move_codes()
        if len(moves) == 0 or pos.outcome() is not None:
            pos, moves = Position(game), Position(game).legal_move_codes()
        for m in moves:
            if victim(pos.board, m) == 0:
                continue
            exact = see(G, pos.board, pos.st, ev, ss, m)
            for t in (-400, -100, -1, 0, 1, 100):
                assert see_below(G, pos.board, pos.st, ev, ss, m, t) == (exact < t), (pos.fen(), m, t)
                asked += 1
            losing += exact < 0
        pos.push_code(int(moves[rng.randrange(len(moves))]))
    assert asked > 100 and losing > 0, (asked, losing)
