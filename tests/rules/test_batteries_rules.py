"""Rule tests for Chess with Batteries (docs/rules/batteries.md).

Every test is a small hand-built position plus an assertion derived from the rule text
(the reasoning is in the comment next to it).  The tests run against both generators:
"slow" is the plain-Python slow_batteries.py beside this file, "fast" is the project's numba
generator (movegen.Position.from_fen("batteries", fen)); the fast one is skipped while
it cannot be imported.  Tests whose name contains "slow" check the slow generator alone; the
test_fast_matches_reference_* tests compare the two generators directly.

Squares are named as on the wire: files a..j, ranks 1..10.  Unless a test says
otherwise the Presidents stand on a1 (White) and j10 (Black), far from the action.
"""

import random

import pytest

from tests.rules.board_text import placement as board_field
from tests.rules.playout import random_playout
from tests.rules.slow_batteries import SlowBatteries

START_FEN = SlowBatteries.START_FEN


# --------------------------------------------------------------------------- helpers

@pytest.fixture(params=["slow", "fast"])
def gen_factory(request):
    """A callable fen -> generator object with the shared API."""
    if request.param == "slow":
        return SlowBatteries
    movegen = pytest.importorskip("movegen")
    return lambda fen: movegen.Position.from_fen("batteries", fen)


def fen_of(pieces, side="w", halfmove=0, fullmove=1, presidents=True):
    """FEN from {"e4": "L", ...}; adds the Presidents K a1 / k j10 unless told not to
    (or unless the placement already has a President of that colour)."""
    pieces = dict(pieces)
    if presidents:
        if "K" not in pieces.values():
            pieces["a1"] = "K"
        if "k" not in pieces.values():
            pieces["j10"] = "k"
    return "%s %s - - %d %d" % (board_field(pieces, 10, 10), side, halfmove, fullmove)


def moves_of(gen):
    moves = gen.legal_moves()
    assert len(moves) == len(set(moves)), "duplicate moves listed"
    return set(moves)


def check_moves(gen, present=(), absent=()):
    legal = moves_of(gen)
    missing = set(present) - legal
    extra = set(absent) & legal
    assert not missing, "should be legal: %s\nlegal: %s" % (sorted(missing), sorted(legal))
    assert not extra, "should not be legal: %s" % sorted(extra)
    return legal


# --------------------------------------------------------------------------- calibration

@pytest.mark.parametrize("depth,expected", [(1, 54), (2, 2918), (3, 174770)])
def test_start_position_perft(gen_factory, depth, expected):
    # batteries.md, Reference: "perft 1 = 54, 2 = 2,918, 3 = 174,770, 4 = 10,454,155"
    assert gen_factory(START_FEN).perft(depth) == expected


def test_start_position_fen_round_trip(gen_factory):
    assert gen_factory(START_FEN).fen() == START_FEN


def test_start_position_moves(gen_factory):
    # Pin the non-obvious members of the 54: Soldiers step once or twice from rank 3
    # (the charged ones c3/d3/g3/h3 gain nothing: their two-step is the double step and
    # there is no victim two squares diagonally ahead); Batteries fly over pieces.
    legal = check_moves(
        gen_factory(START_FEN),
        present={
            "c2j9",   # a Battery passes over its own Soldier d3, lands on empty j9
            "c2c7",   # ... and over its own Soldier c3 (and through c4..c6) to c7
            "d2a2",   # charged Agent d2 slides through its own Battery c2 (transparent)
            "h1i1",   # Equine slides quietly along rank 1
            "e3e5",   # double step from rank 3
        },
        absent={
            "c2c3",   # a Battery lands only on an empty square
            "c2c8",   # ... not on a Soldier either
            "d2c2",   # nobody but a President lands on a Battery
            "c1c2",
            "d2c1",   # charged Agent's diagonal step: c1 holds its own Equine
            "c3c5a",
        },
    )
    assert len(legal) == 54


# --------------------------------------------------------------------------- charge

# The piece under test stands on e4.  Black Orthogs (uncharged: they capture only one
# step orthogonally, so none of them attacks anything of interest) stand on
#   e5 (adjacent, orthogonal), d3 (adjacent, diagonal), h4 (distance 3 along rank 4,
#   f4 g4 empty), b7 (distance 3 on the diagonal, d5 c6 empty), f6 (a Knight leap away).
# "own" puts a White Battery on f3 (adjacent to e4: the piece is charged), "enemy" a Black
# Battery on f3 (does not charge a White piece), "none" nothing.  f3 lies on e4's SE
# diagonal, so the diagonal movers also show transparency: e4g2 slides through f3.
TARGETS = {"e5": "o", "d3": "o", "h4": "o", "b7": "o", "f6": "o"}

PIECE_RULES = {
    # piece: (legal when uncharged, illegal when uncharged, legal charged, illegal charged)
    # Lady uncharged: "moves (without capturing) like a Queen; captures only by one step
    # in any of 8 directions"; charged: "moves and captures like a full Queen".
    "L": ({"e4e5", "e4d3", "e4g4", "e4c6", "e4f5", "e4g2"},
          {"e4h4", "e4b7", "e4f6"},
          {"e4e5", "e4d3", "e4h4", "e4b7", "e4g2"},
          {"e4f6", "e4f3"}),
    # Diag: "moves like a Bishop; captures only one step diagonally"; charged "full Bishop".
    "D": ({"e4d3", "e4c6", "e4f5", "e4g2"},
          {"e4e5", "e4b7", "e4h4", "e4f4"},
          {"e4d3", "e4b7", "e4g2"},
          {"e4e5", "e4h4", "e4f6", "e4f3"}),
    # Orthog: "moves like a Rook; captures only one step orthogonally"; charged "full Rook".
    "O": ({"e4e5", "e4g4", "e4f4"},
          {"e4h4", "e4d3", "e4f5", "e4c6", "e4g2"},
          {"e4e5", "e4h4"},
          {"e4d3", "e4b7", "e4f5", "e4f6", "e4g2"}),
    # Equine: uncharged "exactly an Orthog"; charged "a charged Orthog (full Rook), and may
    # also capture (only capture) by a Knight leap" -- so e4f6 yes, quiet leap e4c5 no.
    "E": ({"e4e5", "e4g4"},
          {"e4h4", "e4d3", "e4f5", "e4f6", "e4c5"},
          {"e4e5", "e4h4", "e4f6"},
          {"e4d3", "e4b7", "e4f5", "e4c5", "e4g2"}),
    # Agent: uncharged "exactly an Orthog"; charged: full Rook, "plus one step in all 8
    # directions (move or capture), plus overtaking": e4d3 (diagonal step capture), e4f5
    # (diagonal step move), e4d3,d3c2 and e4e5,e5e6 (overtaking, c2 and e6 empty), e4g2
    # (jump over the Battery on f3, a plain move).  Never a Knight leap, never far diagonal.
    "A": ({"e4e5", "e4g4"},
          {"e4h4", "e4d3", "e4f5", "e4d3,d3c2", "e4e5,e5e6", "e4g2"},
          {"e4e5", "e4h4", "e4d3", "e4f5", "e4d3,d3c2", "e4e5,e5e6", "e4g2"},
          {"e4b7", "e4f6", "e4c6", "e4f3"}),
}


@pytest.mark.parametrize("battery", ["none", "enemy", "own"])
@pytest.mark.parametrize("piece", sorted(PIECE_RULES))
def test_charged_versus_uncharged_capture_range(gen_factory, piece, battery):
    placement = dict(TARGETS, e4=piece)
    if battery == "own":
        placement["f3"] = "B"
    elif battery == "enemy":
        placement["f3"] = "b"    # "adjacent to a friendly Battery": an enemy one does not charge
    un_in, un_out, ch_in, ch_out = PIECE_RULES[piece]
    gen = gen_factory(fen_of(placement))
    if battery == "own":
        check_moves(gen, ch_in, ch_out)
    else:
        check_moves(gen, un_in, un_out)


def test_charge_is_judged_before_the_move(gen_factory):
    # Lady d4 is charged by the Battery c3 before it moves, so she captures the Orthog
    # on d9 (d5..d8 empty) although she lands far from any Battery.  (Black President on
    # a10: on j10 the charged Lady would be checking it along d4..j10.)
    check_moves(gen_factory(fen_of({"d4": "L", "c3": "B", "d9": "o", "a10": "k"})), {"d4d9"})
    # Lady a4 is uncharged; landing on d4 (next to the Battery e5) does not help: no
    # capture of the Orthog on d4 from three squares away, only the quiet b4, c4.
    check_moves(gen_factory(fen_of({"a4": "L", "e5": "B", "d4": "o"})),
                {"a4b4", "a4c4"}, {"a4d4"})


def test_presidents_and_batteries_are_never_charged(gen_factory):
    # A President next to its own Battery still moves one step only.
    check_moves(gen_factory(fen_of({"e4": "K", "d4": "B", "e10": "k"})),
                {"e4e5", "e4f4"}, {"e4e6", "e4g4", "e4d4"})
    # A Battery next to a friendly Battery still never captures: Battery d4 (charged
    # would not matter) cannot take the Orthog on d7; it passes over it to d8.
    check_moves(gen_factory(fen_of({"d4": "B", "c4": "B", "d7": "o"})),
                {"d4d5", "d4d8", "d4d10"}, {"d4d7", "d4c4"})


# --------------------------------------------------------------------------- transparency

@pytest.mark.parametrize("battery", ["B", "b"])
def test_slides_pass_over_batteries(gen_factory, battery):
    # "Any sliding move ... passes over Batteries of either colour as if the square were
    # empty."  Uncharged Orthog d4, Battery d6, Black Orthog d8: quiet d5 and d7 (over the
    # Battery), never landing on d6, no capture of d8 (not adjacent).
    fen = fen_of({"d4": "O", "d6": battery, "d8": "o"})
    check_moves(gen_factory(fen), {"d4d5", "d4d7"}, {"d4d6", "d4d8", "d4d9"})
    # Charged (own Battery c3 adjacent to d4): the full Rook captures d8 through d6.
    fen = fen_of({"d4": "O", "c3": "B", "d6": battery, "d8": "o"})
    check_moves(gen_factory(fen), {"d4d5", "d4d7", "d4d8"}, {"d4d6", "d4d9"})


def test_battery_passes_over_every_piece(gen_factory):
    # "A Battery itself passes over every piece on its line; it only needs an empty
    # landing square."  "A Battery never captures."  Battery d4, own Soldier d5, Black
    # Orthog d7: d6, d8, d9, d10 yes; d5, d7 no.  Diagonal: over the Black Orthog e5 to f6.
    fen = fen_of({"d4": "B", "d5": "S", "d7": "o", "e5": "o"})
    # (d4i9 on that diagonal too; j10 holds the Black President, not empty.)
    check_moves(gen_factory(fen), {"d4d6", "d4d8", "d4d10", "d4f6", "d4i9"},
                {"d4d5", "d4d7", "d4e5", "d4j10"})


@pytest.mark.parametrize("between", ["B", "b"])
def test_battery_does_not_block_check(gen_factory, between):
    # Black Orthog e8 is charged by the Black Battery d9 (adjacent): a full Rook on the
    # e-file.  A Battery of either colour on e4 does not block the line: White is in check.
    fen = fen_of({"e1": "K", "e8": "o", "d9": "b", "e4": between})
    assert gen_factory(fen).in_check()
    # A real piece on e4 blocks.
    fen = fen_of({"e1": "K", "e8": "o", "d9": "b", "e4": "S"})
    assert not gen_factory(fen).in_check()
    # Without the Battery d9 the Orthog is uncharged and attacks only adjacent squares.
    fen = fen_of({"e1": "K", "e8": "o", "e4": between})
    assert not gen_factory(fen).in_check()


def test_interposing_a_battery_is_no_defence(gen_factory):
    # Same check as above (charged Orthog e8 via d9).  White's Battery a5 could reach e5
    # (a5..e5 on rank 5), but "Batteries never block a line, so they never block a check
    # either": only President moves off the e-file are legal.  d1, d2, f1, f2 are not
    # attacked (the Orthog attacks the e-file and rank 8; a Battery never gives check).
    fen = fen_of({"e1": "K", "e8": "o", "d9": "b", "a5": "B"})
    gen = gen_factory(fen)
    assert gen.in_check()
    assert moves_of(gen) == {"e1d1", "e1d2", "e1f1", "e1f2"}


# --------------------------------------------------------------------------- capturing Batteries

def test_only_the_enemy_president_captures_a_battery(gen_factory):
    # "No piece except a President may land on a square holding a Battery; a President
    # may land on (capture) an enemy Battery, never its own."
    fen = fen_of({"e1": "K", "d1": "B", "e2": "b", "f2": "b"}, halfmove=10)
    gen = gen_factory(fen)
    check_moves(gen, {"e1e2", "e1f2"}, {"e1d1"})
    gen.push("e1e2")
    assert gen.fen() == fen_of({"e2": "K", "d1": "B", "f2": "b"}, side="b", halfmove=0)
    assert gen.pop() == "e1e2"
    assert gen.fen() == fen


def test_other_pieces_never_capture_a_battery(gen_factory):
    # Black Battery e5.  Charged Lady d4 (own Battery c3), Soldier f4 (diagonal forward
    # capture square e5), uncharged Orthog e6 (one-step orthogonal capture square e5):
    # none of them may take it.  The Lady slides through it to f6 instead.
    # (Black President on a10, off the Lady's lines.)
    fen = fen_of({"e5": "b", "d4": "L", "c3": "B", "f4": "S", "e6": "O", "a10": "k"})
    check_moves(gen_factory(fen), {"d4f6", "f4f5", "e6e7"}, {"d4e5", "f4e5", "e6e5"})


# --------------------------------------------------------------------------- overtaking

def test_overtaking_capture_and_notation(gen_factory):
    # Agent d4 charged by Battery c3; Black Orthog e5 adjacent, f6 empty: "may jump over it
    # to the square directly beyond ... the jumped piece is captured", written as two legs.
    fen = fen_of({"d4": "A", "c3": "B", "e5": "o"}, halfmove=7)
    gen = gen_factory(fen)
    # d4e5 is the ordinary charged one-step capture; d4f6 (plain) is not a move.
    check_moves(gen, {"d4e5,e5f6", "d4e5"}, {"d4f6", "d4e5,e5f6a"})
    gen.push("d4e5,e5f6")
    assert gen.fen() == fen_of({"f6": "A", "c3": "B"}, side="b", halfmove=0)
    assert gen.pop() == "d4e5,e5f6"
    assert gen.fen() == fen


def test_overtaking_orthogonally(gen_factory):
    # Black Orthog d5, d6 empty: overtaking d4d5,d5d6 and the Rook capture d4d5 are two moves.
    fen = fen_of({"d4": "A", "c3": "B", "d5": "o"})
    check_moves(gen_factory(fen), {"d4d5,d5d6", "d4d5"}, {"d4d6", "d4d7"})


@pytest.mark.parametrize("beyond", ["o", "S", "B", "b"])
def test_overtaking_needs_an_empty_square_beyond(gen_factory, beyond):
    # "the square directly beyond, which must be empty (not a Battery either)"
    fen = fen_of({"d4": "A", "c3": "B", "e5": "o", "f6": beyond})
    check_moves(gen_factory(fen), {"d4e5"}, {"d4e5,e5f6", "d4f6"})


def test_overtaking_needs_charge(gen_factory):
    # Uncharged Agent = Orthog: no overtaking, no diagonal step capture.
    fen = fen_of({"d4": "A", "e5": "o", "d5": "o"})
    check_moves(gen_factory(fen), {"d4d5"}, {"d4e5,e5f6", "d4e5", "d4d5,d5d6", "d4f6"})


def test_no_overtaking_of_a_friendly_piece(gen_factory):
    # "It may not jump over a friendly non-Battery piece."
    fen = fen_of({"d4": "A", "c3": "B", "e5": "S", "d5": "D"})
    check_moves(gen_factory(fen), {"d4c5", "d4e3"},
                {"d4f6", "d4e5,e5f6", "d4d6", "d4d5,d5d6"})


def test_overtaking_gives_check(gen_factory):
    # Black Agent f5 charged by Black Battery g6; White President e4 next to it, d3 beyond
    # empty: "a President with a charged enemy Agent next to it and an empty square beyond
    # is in check."
    fen = fen_of({"e4": "K", "f5": "a", "g6": "b"})
    gen = gen_factory(fen)
    assert gen.in_check()
    # Escapes: the President's neighbours that are neither next to f5 (e5, f4 are) nor on
    # the charged Agent's Rook lines (d5 on rank 5, f3 on the f-file): d3, d4, e3.  And
    # capturing the Agent on f5: nothing else covers f5 (a Battery never gives check).
    assert moves_of(gen) == {"e4d3", "e4d4", "e4e3", "e4f5"}
    # Uncharged (no Battery): the Agent is an Orthog, which does not attack diagonally.
    assert not gen_factory(fen_of({"e4": "K", "f5": "a"})).in_check()


def test_charged_agent_next_to_president_checks_even_with_blocked_beyond(gen_factory):
    # The charged Agent also captures "one step in all 8 directions": with d3 occupied
    # (no overtaking possible) the President on e4 is still attacked from f5.
    fen = fen_of({"e4": "K", "d3": "S", "f5": "a", "g6": "b"})
    assert gen_factory(fen).in_check()


# --------------------------------------------------------------------------- jumping a Battery

@pytest.mark.parametrize("battery", ["B", "b"])
def test_agent_jumps_over_a_battery(gen_factory, battery):
    # "It may also jump over an adjacent Battery of either colour the same way; that
    # Battery is not captured (a plain move)."  "A diagonal jump over a Battery is written
    # as a plain move (d4f6)."
    fen = fen_of({"d4": "A", "c3": "B", "e5": battery}, halfmove=3)
    gen = gen_factory(fen)
    check_moves(gen, {"d4f6"}, {"d4e5,e5f6", "d4e5", "d4g7"})
    gen.push("d4f6")
    assert gen.fen() == fen_of({"f6": "A", "c3": "B", "e5": battery}, side="b", halfmove=4)


@pytest.mark.parametrize("battery", ["B", "b"])
def test_jump_equal_to_slide_is_listed_once(gen_factory, battery):
    # Orthogonally, jumping over the Battery on d5 and sliding through it both give d4d6:
    # "two ways of making the same move ... are one move".
    fen = fen_of({"d4": "A", "c3": "B", "d5": battery})
    moves = gen_factory(fen).legal_moves()
    assert moves.count("d4d6") == 1
    assert "d4d7" in moves and "d4d5" not in moves and "d4d5,d5d6" not in moves


def test_jump_over_battery_needs_empty_landing_and_charge(gen_factory):
    # Battery e5 with another Battery on f6: no landing square (and only one piece may be
    # jumped, so not g7 either).
    fen = fen_of({"d4": "A", "c3": "B", "e5": "b", "f6": "B"})
    check_moves(gen_factory(fen), {"d4d5"}, {"d4f6", "d4g7"})
    # Uncharged Agent (no Battery c3): no jump.
    fen = fen_of({"d4": "A", "e5": "b"})
    check_moves(gen_factory(fen), {"d4d5"}, {"d4f6"})
    # An Agent charged only by the Battery it jumps over still jumps (charge before move).
    fen = fen_of({"d4": "A", "e5": "B"})
    check_moves(gen_factory(fen), {"d4f6", "d4e3", "d4c5"})


# --------------------------------------------------------------------------- Soldiers

def test_charged_soldier_two_step_anywhere(gen_factory):
    # Soldier d5 charged by Battery c4: "two squares straight forward without capturing
    # ... at any rank".  Uncharged on rank 5 it steps one square only.
    check_moves(gen_factory(fen_of({"d5": "S", "c4": "B"})), {"d5d6", "d5d7"})
    check_moves(gen_factory(fen_of({"d5": "S"})), {"d5d6"}, {"d5d7"})
    # An enemy Battery does not charge it.
    check_moves(gen_factory(fen_of({"d5": "S", "c4": "b"})), {"d5d6"}, {"d5d7"})


@pytest.mark.parametrize("battery", ["B", "b"])
def test_charged_soldier_two_step_over_a_battery(gen_factory, battery):
    # "the square passed over must be empty or hold a Battery"; never landing on it.
    fen = fen_of({"d5": "S", "c4": "B", "d6": battery})
    check_moves(gen_factory(fen), {"d5d7"}, {"d5d6"})


@pytest.mark.parametrize("blocker", ["o", "S"])
def test_charged_soldier_two_step_blocked_by_a_piece(gen_factory, blocker):
    fen = fen_of({"d5": "S", "c4": "B", "d6": blocker})
    check_moves(gen_factory(fen), (), {"d5d7", "d5d6"})


def test_charged_soldier_two_step_never_captures_straight(gen_factory):
    fen = fen_of({"d5": "S", "c4": "B", "d7": "o"})
    check_moves(gen_factory(fen), {"d5d6"}, {"d5d7"})


@pytest.mark.parametrize("middle", [None, "B", "b"])
def test_charged_soldier_two_step_diagonal_capture(gen_factory, middle):
    # "two squares diagonally forward capturing, at any rank; the square passed over must
    # be empty or hold a Battery": Soldier d5 (charged by c4) takes the Orthog on f7
    # over e6.  Onto the empty b7 it may not go (capturing only).
    placement = {"d5": "S", "c4": "B", "f7": "o"}
    if middle:
        placement["e6"] = middle
    check_moves(gen_factory(fen_of(placement)), {"d5f7"}, {"d5b7"})


def test_charged_soldier_diagonal_capture_blocked_or_uncharged(gen_factory):
    # A piece on the passed square blocks (the Soldier may take that piece instead).
    fen = fen_of({"d5": "S", "c4": "B", "f7": "o", "e6": "o"})
    check_moves(gen_factory(fen), {"d5e6"}, {"d5f7"})
    # Uncharged: ordinary Soldier, no two-square capture.
    fen = fen_of({"d5": "S", "f7": "o"})
    check_moves(gen_factory(fen), {"d5d6"}, {"d5f7", "d5d7"})


@pytest.mark.parametrize("battery", ["B", "b"])
def test_double_step_from_start_rank_over_a_battery(gen_factory, battery):
    # "A Soldier's plain double step from its start rank passes over a Battery on the
    # middle square like any line does (it may never land on one)."
    fen = fen_of({"d3": "S", "d4": battery})
    check_moves(gen_factory(fen), {"d3d5"}, {"d3d4"})


def test_black_soldier_double_step_and_no_double_step_elsewhere(gen_factory):
    # Black's start rank is 8; an uncharged Soldier on rank 7 steps once only.
    fen = fen_of({"e8": "s", "g7": "s"}, side="b")
    check_moves(gen_factory(fen), {"e8e7", "e8e6", "g7g6"}, {"g7g5"})


def test_no_en_passant(gen_factory):
    # "no en passant": after e3e5 (passing e4) the Black Soldier f5 may not take on e4.
    fen = fen_of({"e3": "S", "f5": "s"})
    gen = gen_factory(fen)
    gen.push("e3e5")
    assert gen.fen().split()[3] == "-"
    check_moves(gen, {"f5f4"}, {"f5e4"})


def test_promotion_to_agent(gen_factory):
    # "a Soldier reaching the last rank becomes an Agent (Ruling: mandatory; it is the only
    # choice, written e9e10a)"
    fen = fen_of({"e9": "S", "f10": "o", "a10": "k"})
    gen = gen_factory(fen)
    legal = check_moves(gen, {"e9e10a", "e9f10a"},
                        {"e9e10", "e9f10", "e9e10l", "e9e10o", "e9e10e", "e9e10d"})
    assert {m for m in legal if m.startswith("e9")} == {"e9e10a", "e9f10a"}
    gen.push("e9e10a")
    assert gen.fen() == fen_of({"e10": "A", "f10": "o", "a10": "k"}, side="b")


def test_black_promotion(gen_factory):
    fen = fen_of({"e2": "s", "a10": "k", "j1": "K"}, side="b")
    check_moves(gen_factory(fen), {"e2e1a"}, {"e2e1"})


def test_promotion_by_charged_two_step(gen_factory):
    # "also by a charged two-square move (e8e10a)": Soldier e8 charged by Battery d7;
    # likewise the two-square diagonal capture e8g10a over empty f9.
    fen = fen_of({"e8": "S", "d7": "B", "g10": "o", "a10": "k"})
    check_moves(gen_factory(fen), {"e8e9", "e8e10a", "e8g10a"}, {"e8e10", "e8g10"})
    # Uncharged, rank 8 is not White's start rank: one step only.
    fen = fen_of({"e8": "S", "g10": "o", "a10": "k"})
    check_moves(gen_factory(fen), {"e8e9"}, {"e8e10a", "e8g10a"})


# --------------------------------------------------------------------------- charge after the move

def test_capturing_a_battery_discharges_its_defender(gen_factory):
    # Black Agent d3 is charged by the Black Battery e2 only.  Charged, it would capture
    # one step diagonally onto e2.  White's President f1 takes the Battery: "attacks are
    # computed with the charge state of the attacking pieces in that resulting position",
    # and there the Agent is uncharged (an Orthog: attacks only d2, d4, c3, e3), so e2 is
    # safe and f1e2 is legal.
    fen = fen_of({"f1": "K", "d3": "a", "e2": "b"})
    assert not gen_factory(fen).in_check()
    check_moves(gen_factory(fen), {"f1e2", "f1e1", "f1g2"})
    # With a second Black Battery on c4 (also next to d3) the Agent stays charged.
    fen = fen_of({"f1": "K", "d3": "a", "e2": "b", "c4": "b"})
    check_moves(gen_factory(fen), {"f1e1", "f1g2"}, {"f1e2"})


def test_moving_a_battery_charges_an_attacker(gen_factory):
    # White Orthog e4 is uncharged: the Black President e9 (e5..e8 empty) is not in check.
    # The Battery h2 moves to f4 (h2 g3 f4 diagonal), next to e4: the Orthog becomes a full
    # Rook and Black is in check.  Moving the Battery elsewhere gives no check.
    fen = fen_of({"e4": "O", "h2": "B", "e9": "k"})
    gen = gen_factory(fen)
    check_moves(gen, {"h2f4", "h2h3"})
    gen.push("h2f4")
    assert gen.in_check()
    gen.pop()
    gen.push("h2h3")
    assert not gen.in_check()


def test_moving_a_battery_away_discharges_an_attacker(gen_factory):
    # Black's Orthog e8, charged by the Battery d9, covers the whole e-file: White's
    # President d1 may not step to e1 or e2.  Once Black moves the Battery away (d9a6,
    # a diagonal Battery move) the Orthog is uncharged and e1, e2 are free.
    fen = fen_of({"d1": "K", "e8": "o", "d9": "b", "b10": "k"})
    check_moves(gen_factory(fen), {"d1c1", "d1d2"}, {"d1e1", "d1e2"})
    gen = gen_factory(fen_of({"d1": "K", "e8": "o", "d9": "b", "b10": "k"}, side="b"))
    gen.push("d9a6")
    check_moves(gen, {"d1e1", "d1e2"})


def test_battery_moves_are_illegal_in_check(gen_factory):
    # A Battery never blocks and never captures, so while in check none of its moves
    # helps: the Battery c3 has no legal move (same check as the interposition test).
    fen = fen_of({"e1": "K", "e8": "o", "d9": "b", "c3": "B"})
    assert not any(m.startswith("c3") for m in gen_factory(fen).legal_moves())


# --------------------------------------------------------------------------- end of game

def test_checkmate_through_a_battery(gen_factory):
    # Black Orthog j1 charged by Black Battery j2: full Rook along rank 1, through the
    # White Battery e1 (which does not block).  President a1 is boxed by its Soldiers a2,
    # b2; b1 is on the Orthog's line; nothing can capture j1 or block.  Checkmate.
    fen = fen_of({"a1": "K", "a2": "S", "b2": "S", "e1": "B", "j1": "o", "j2": "b"})
    gen = gen_factory(fen)
    assert gen.in_check()
    assert gen.legal_moves() == []
    assert gen.outcome() == ("0-1", "checkmate")
    # Without the Battery j2 the Orthog is uncharged: no check, game on.
    gen = gen_factory(fen_of({"a1": "K", "a2": "S", "b2": "S", "e1": "B", "j1": "o"}))
    assert not gen.in_check()
    assert gen.outcome() is None


def test_black_is_checkmated(gen_factory):
    # Mirror: White Orthog a10 charged by White Battery a9, Black President j10 boxed by
    # its Soldiers i9, j9.
    fen = fen_of({"j10": "k", "i9": "s", "j9": "s", "a10": "O", "a9": "B"}, side="b")
    gen = gen_factory(fen)
    assert gen.in_check()
    assert gen.outcome() == ("1-0", "checkmate")


def test_stalemate_with_an_uncharged_orthog(gen_factory):
    # White President a1 alone; Black President c2 covers b1 and b2; the uncharged Black
    # Orthog a3 captures only one step orthogonally, so it covers a2 but does NOT attack
    # a1 (in chess it would): no check, no legal move: stalemate.
    fen = fen_of({"a1": "K", "c2": "k", "a3": "o"})
    gen = gen_factory(fen)
    assert not gen.in_check()
    assert gen.legal_moves() == []
    assert gen.outcome() == ("1/2-1/2", "stalemate")
    # Charge the Orthog (Black Battery b4 next to a3): full Rook, a1 in check, checkmate.
    gen = gen_factory(fen_of({"a1": "K", "c2": "k", "a3": "o", "b4": "b"}))
    assert gen.in_check()
    assert gen.outcome() == ("0-1", "checkmate")


def test_fifty_move_rule(gen_factory):
    # "100 plies without capture or pawn move" (a Soldier move counts as a pawn move).
    fen = fen_of({"e4": "O", "c3": "S"}, halfmove=99, fullmove=80)
    gen = gen_factory(fen)
    assert gen.outcome() is None
    gen.push("e4e5")
    assert gen.fen().split()[4:] == ["100", "80"]
    assert gen.outcome() == ("1/2-1/2", "50-move rule")
    gen.pop()
    gen.push("c3c4")                       # a Soldier move resets the clock
    assert gen.fen().split()[4] == "0"
    assert gen.outcome() is None


def test_bare_presidents(gen_factory):
    gen = gen_factory(fen_of({"e1": "K", "e10": "k"}))
    assert gen.outcome() == ("1/2-1/2", "bare kings")
    # A Battery is a piece: President + Battery against President is no bare-king draw.
    assert gen_factory(fen_of({"e1": "K", "e10": "k", "c5": "B"})).outcome() is None
    # Capturing the last enemy piece, a Battery, leaves the Presidents bare.
    gen = gen_factory(fen_of({"e1": "K", "e10": "k", "e2": "b"}))
    gen.push("e1e2")
    assert gen.outcome() == ("1/2-1/2", "bare kings")


# --------------------------------------------------------------------------- API behaviour

def test_push_pop_and_counters(gen_factory):
    gen = gen_factory(START_FEN)
    gen.push("e3e4")
    assert gen.fen() == "2eokloe2/2baddab2/1ssssssss1/10/10/10/4S5/1SSS1SSSS1/2BADDAB2/2EOKLOE2 b - - 0 1"
    gen.push("c9c7")                       # a Battery move: no reset
    assert gen.fen().split()[1:] == ["w", "-", "-", "1", "2"]
    assert gen.pop() == "c9c7"
    assert gen.pop() == "e3e4"
    assert gen.fen() == START_FEN


def test_illegal_push_raises(gen_factory):
    gen = gen_factory(START_FEN)
    for bad in ("e3e6", "c2c3", "d2c1", "e1e2", "e3e4q"):
        with pytest.raises(ValueError):
            gen.push(bad)
    assert gen.fen() == START_FEN


def test_random_playout_push_pop_restores(gen_factory):
    rng = random.Random(7)
    gen = gen_factory(START_FEN)
    fens = []
    played = random_playout(rng, [gen], 60, lambda: fens.append(gen.fen()))
    while played:
        assert gen.pop() == played.pop()
        fens.pop()
        assert gen.fen() == fens[-1]


# --------------------------------------------------------------------------- slow generator only

@pytest.mark.parametrize("fen", [
    "",
    "2eokloe2/2baddab2/1ssssssss1/10/10/10/10/1SSSSSSSS1/2BADDAB2 w - - 0 1",    # 9 ranks
    "2eokloe2/2baddab2/1ssssssss1/10/10/10/10/1SSSSSSSS1/2BADDAB2/2EOKLOE3 w - - 0 1",  # 11 files
    "2eokloe2/2baddab2/1ssssssss1/10/10/10/10/1SSSSSSSS1/2BADDAB2/2EOKLOE1 w - - 0 1",  # 9 files
    "2eokloe2/2baddab2/1ssssssss1/10/10/10/10/1SSSSSSSS1/2BADDAB2/2EOQLOE2 w - - 0 1",  # Q
    "2eokloe2/2baddab2/1ssssssss1/10/10/10/10/1SSSSSSSS1/2BADDAB2/2EOKLOE2 x - - 0 1",  # side
    "2eokloe2/2baddab2/1ssssssss1/10/10/10/10/1SSSSSSSS1/2BADDAB2/2EOKLOE2 w - - x 1",  # clock
    "2eo1loe2/2baddab2/1ssssssss1/10/10/10/10/1SSSSSSSS1/2BADDAB2/2EOKLOE2 w - - 0 1",  # no k
    "4k5/10/10/10/10/10/10/10/10/4K4K w - - 0 1",                                      # two K
    "4k5/4O5/10/10/10/10/10/10/10/4K5 w - - 0 1",       # Black (not to move) in check
    "4k4S/10/10/10/10/10/10/10/10/4K5 b - - 0 1",       # Soldier on the last rank
    "4k5/10/10/10/10/10/10/10/10/s3K5 w - - 0 1",       # ... of either colour
    "4k5/10/10/10/10/10/10/10/10/S3K5 w - - 0 1",       # ... or on rank 1
])
def test_slow_rejects_malformed_fen(fen):
    with pytest.raises(ValueError):
        SlowBatteries(fen)


def test_slow_accepts_short_fen():
    assert SlowBatteries("4k5/10/10/10/10/10/10/10/10/4K5 b").fen() == \
        "4k5/10/10/10/10/10/10/10/10/4K5 b - - 0 1"


def _random_position(rng):
    """A random scatter of pieces (Presidents optional), for the attack cross-check."""
    gen = SlowBatteries()
    squares = [(f, r) for f in range(10) for r in range(10)]
    rng.shuffle(squares)
    count = rng.randint(4, 40)
    letters = "BBBBLDOEAASSSSK"
    pieces = {}
    for sq in squares[:count]:
        letter = rng.choice(letters)
        pieces[sq] = letter if rng.random() < 0.5 else letter.lower()
    gen.pieces = pieces
    return gen


def test_slow_attack_detection_matches_move_generation():
    # The slow generator decides legality with a backwards attack test (_is_attacked).
    # Check it against the definition: a piece is attacked iff some pseudo-legal move of
    # the other side captures it.  Random scatters give every piece charged and uncharged,
    # next to Batteries of both colours, on every rank.
    rng = random.Random(2024)
    checked = 0
    for _ in range(400):
        gen = _random_position(rng)
        for by in ("w", "b"):
            victims = {m.victim for m in gen._pseudo_moves(by) if m.victim is not None}
            for sq, piece in gen.pieces.items():
                is_target = (piece.isupper() != (by == "w")) and piece.upper() != "B"
                if not is_target:
                    continue
                checked += 1
                assert gen._is_attacked(sq, by) == (sq in victims), (gen.pieces, sq, by)
    assert checked > 1000


def test_slow_perft_matches_sum_of_children():
    # perft(n) == sum over legal moves of perft(n-1) after the move, via the public API.
    gen = SlowBatteries(fen_of({"d4": "A", "c3": "B", "e5": "o", "e8": "S", "d7": "B",
                                "g10": "o", "f2": "s", "c1": "e", "b2": "b"}))
    total = 0
    for move in gen.legal_moves():
        gen.push(move)
        total += gen.perft(1)
        assert gen.pop() == move
    assert total == gen.perft(2)


# --------------------------------------------------------------------------- fast against slow

def _random_legal_fen(rng):
    """A random scatter with one President a side, the side not to move not in check."""
    while True:
        gen = _random_position(rng)
        pieces = {sq: p for sq, p in gen.pieces.items() if p not in "Kk"}
        free = [(f, r) for f in range(10) for r in range(10) if (f, r) not in pieces]
        rng.shuffle(free)
        pieces[free[0]], pieces[free[1]] = "K", "k"
        # No Soldier on rank 1 or 10 (FEN refuses them: promoted, or never there).
        pieces = {sq: p for sq, p in pieces.items() if not (p in "Ss" and sq[1] in (0, 9))}
        gen.pieces = pieces
        gen.side = rng.choice("wb")
        try:
            return SlowBatteries(gen.fen()).fen()
        except ValueError:
            continue                          # side not to move in check: draw again


def _compare(fast, slow, where):
    assert set(fast.legal_moves()) == set(slow.legal_moves()), where
    assert fast.in_check() == slow.in_check(), where
    fast_outcome = fast.outcome()
    # The slow generator keeps no repetition count (its API names no such reason).
    if not (fast_outcome and "repetition" in fast_outcome[1]):
        assert fast_outcome == slow.outcome(), where


def test_fast_matches_reference_on_random_positions():
    # Random scatters reach what games from the start rarely do (charged Soldiers on any
    # rank, Agents jumping Batteries, checks through Batteries).  Kept small: the slow
    # generator needs ~10 ms per move list in such busy positions.
    movegen = pytest.importorskip("movegen")
    rng = random.Random(99)
    for _ in range(40):
        fen = _random_legal_fen(rng)
        fast, slow = movegen.Position.from_fen("batteries", fen), SlowBatteries(fen)
        _compare(fast, slow, fen)
        moves = sorted(slow.legal_moves())
        for move in rng.sample(moves, min(12, len(moves))):
            fast.push(move)
            slow.push(move)
            assert fast.fen() == slow.fen(), (fen, move)
            assert fast.in_check() == slow.in_check(), (fen, move)
            assert fast.pop() == slow.pop() == move
        for move in rng.sample(moves, min(2, len(moves))):
            fast.push(move)
            slow.push(move)
            _compare(fast, slow, (fen, move))
            fast.pop()
            slow.pop()


def test_fast_matches_reference_on_random_games():
    movegen = pytest.importorskip("movegen")
    rng = random.Random(5)
    for _ in range(3):
        fast, slow = movegen.Position.from_fen("batteries", START_FEN), SlowBatteries()

        def same_position():
            assert fast.fen() == slow.fen(), fast.move_stack[-1:]
            _compare(fast, slow, slow.fen())
        random_playout(rng, [slow, fast], 90, same_position)
