"""Rule tests for Ender's Chess (``enders``), one or more per rule of enders.md.

Every test runs against two generators through the fixture ``gen_factory``:

* ``slow``: ``slow_enders.py`` beside this file, the plain-Python generator written from
  the rule file;
* ``fast``: the engine's ``movegen.Position.from_fen("enders", fen)``.

Both must expose legal_moves, push, pop, perft, outcome, turn and fen.
Positions are built with ``make_fen`` from a dict of squares, so each case
reads as "these pieces, this reserve, this side to move". Each case says in a
comment which sentence of enders.md it checks.
"""
import random
import re

import pytest

from tests.rules.board_text import placement as board_field
from tests.rules.slow_enders import SlowEnders

START_FEN = "**1**/5/5/5/5/5/5/5/5/5/**1**[RRBBKKNNrrbbkknn] w - - 0 1"
CELLS = {f + str(r) for f in "abcde" for r in range(2, 11)} | {"c1", "c11"}
assert len(CELLS) == 47
HOLES = {f + r for f in "abde" for r in ("1", "11")}


@pytest.fixture(params=["slow", "fast"])
def gen_factory(request):
    if request.param == "slow":
        return lambda fen=START_FEN: SlowEnders(fen)
    movegen = pytest.importorskip("movegen")
    return lambda fen=START_FEN: movegen.Position.from_fen("enders", fen)


def make_fen(pieces, reserve="", side="w", counters="0 1"):
    """FEN of a position at the start of a turn: ``pieces`` maps square -> letter."""
    assert set(pieces) <= CELLS, "test bug: piece on a hole"
    return "%s[%s] %s - - %s" % (board_field(pieces, 5, 11, HOLES), reserve, side, counters)


def moves_from(gen, square):
    """The legal moves of the piece on ``square`` (as a set of actions)."""
    return {a for a in gen.legal_moves() if re.fullmatch(square + r"[a-e]\d+", a)}


def board_part(fen):
    """Board, reserve and side to move of a FEN (the part every writer agrees on)."""
    return " ".join(fen.split()[:2])


# ---------------------------------------------------------------- start / pass


def test_start_position(gen_factory):
    # "Each side starts with everything in reserve"; "White moves first";
    # Perft: "one [drop] per distinct piece letter in reserve ... and one end turn".
    g = gen_factory()
    assert sorted(g.legal_moves()) == sorted(["R@c1", "B@c1", "K@c1", "N@c1", "@@@@"])
    assert g.turn == "w"
    assert g.outcome() is None
    assert g.fen() == START_FEN


def test_end_turn_as_a_pass(gen_factory):
    # "the player may stop at any time, also without having done anything (a pass).
    # Play goes to the opponent."
    g = gen_factory()
    g.push("@@@@")
    assert g.turn == "b"
    assert g.outcome() is None
    assert board_part(g.fen()) == "**1**/5/5/5/5/5/5/5/5/5/**1**[RRBBKKNNrrbbkknn] b"
    # Black drops on his own Gate c11, piece letter upper case for both sides.
    assert sorted(g.legal_moves()) == sorted(["R@c11", "B@c11", "K@c11", "N@c11", "@@@@"])
    g.push("@@@@")
    assert g.turn == "w"
    # "the move number goes up after Black's turn"
    assert g.fen().split()[-1] == "2"


def test_end_turn_always_available_mid_turn(gen_factory):
    # "the player may stop at any time": after a drop and a move, "@@@@" still ends the turn.
    g = gen_factory()
    g.push("K@c1")
    assert "@@@@" in g.legal_moves()
    g.push("c1c2")
    assert g.legal_moves() == ["@@@@"]
    g.push("@@@@")
    assert g.turn == "b"
    assert board_part(g.fen()) == "**1**/5/5/5/5/5/5/5/5/2K2/**1**[RRBBKNNrrbbkknn] b"


def test_published_sample_turn(gen_factory):
    # "The published sample turn ... reads B@c11,c11a9 here."
    g = gen_factory()
    g.push("@@@@")
    g.push("B@c11")
    assert "c11a9" in g.legal_moves()
    g.push("c11a9")
    g.push("@@@@")
    assert g.turn == "w"
    assert board_part(g.fen()) == "**1**/5/b4/5/5/5/5/5/5/5/**1**[RRBBKKNNrrbkknn] w"


# ----------------------------------------------------------------------- drops


def test_drop_only_as_first_action(gen_factory):
    # "Drop (optional, only as the first action)": after a drop and a move the Gate
    # is empty again and the reserve is not, but no second drop is offered.
    g = gen_factory()
    g.push("N@c1")
    g.push("c1b3")
    assert g.legal_moves() == ["@@@@"]
    # A move as first action also forbids the drop for the rest of the turn.
    g = gen_factory(make_fen({"a5": "R", "a10": "k"}, reserve="N"))
    assert "N@c1" in g.legal_moves()
    g.push("a5a7")
    assert g.legal_moves() == ["@@@@"]


def test_drop_again_next_turn(gen_factory):
    # The drop is allowed again at the start of the next own turn (Gate empty).
    g = gen_factory()
    for action in ["N@c1", "c1b3", "@@@@", "@@@@"]:
        g.push(action)
    assert {"R@c1", "B@c1", "K@c1", "N@c1"} <= set(g.legal_moves())


def test_drop_needs_own_gate_empty(gen_factory):
    # "if the player's own Gate is empty and the reserve is not empty"
    g = gen_factory(make_fen({"c1": "K", "a10": "k"}, reserve="RN"))
    assert sorted(g.legal_moves()) == sorted(["c1b2", "c1c2", "c1d2", "@@@@"])
    # Same for Black on c11.
    g = gen_factory(make_fen({"c11": "k", "a2": "K"}, reserve="r", side="b"))
    assert sorted(g.legal_moves()) == sorted(["c11b10", "c11c10", "c11d10", "@@@@"])


def test_piece_moved_onto_own_gate_blocks_next_drop(gen_factory):
    # "A piece may move onto its own Gate (it then blocks the next drop)."
    g = gen_factory(make_fen({"c3": "R", "a10": "k"}, reserve="N"))
    assert "c3c1" in g.legal_moves()
    g.push("c3c1")
    g.push("@@@@")
    g.push("@@@@")  # Black passes
    assert g.turn == "w"
    assert not any("@c1" in a for a in g.legal_moves())


def test_drop_needs_non_empty_reserve(gen_factory):
    # "and the reserve is not empty": the reserve holds only Black pieces, so White
    # has no drop.
    g = gen_factory(make_fen({"e5": "K"}, reserve="rn"))
    assert sorted(g.legal_moves()) == sorted(
        ["e5d4", "e5e4", "e5d5", "e5d6", "e5e6", "@@@@"])


def test_one_drop_per_distinct_letter(gen_factory):
    # Perft: "the possible drops (one per distinct piece letter in reserve ...)"
    g = gen_factory(make_fen({}, reserve="NNrr"))
    assert sorted(g.legal_moves()) == sorted(["N@c1", "@@@@"])
    g = gen_factory(make_fen({}, reserve="RRbbk", side="b"))
    assert sorted(g.legal_moves()) == sorted(["B@c11", "K@c11", "@@@@"])
    g.push("K@c11")
    g.push("@@@@")
    # The dropped piece is Black's and the reserve lost exactly one king.
    assert board_part(g.fen()) == "**k**/5/5/5/5/5/5/5/5/5/**1**[RRbb] w"


# ------------------------------------------------------------- moving pieces


def test_dropped_piece_may_move(gen_factory):
    # "a piece dropped this turn may move too"
    g = gen_factory()
    g.push("N@c1")
    assert sorted(g.legal_moves()) == sorted(["c1a2", "c1e2", "c1b3", "c1d3", "@@@@"])
    g = gen_factory()
    g.push("B@c1")
    assert sorted(g.legal_moves()) == sorted(["c1b2", "c1d2", "c1a3", "c1e3", "@@@@"])
    g = gen_factory()
    g.push("R@c1")
    assert sorted(g.legal_moves()) == sorted(["c1c2", "c1c3", "@@@@"])


def test_each_piece_moves_at_most_once(gen_factory):
    # "any number of the player's pieces on the board move, one after another,
    # each piece at most once per turn"
    g = gen_factory(make_fen({"a5": "R", "e5": "R", "c10": "k"}))
    assert moves_from(g, "a5") == {"a5a6", "a5a7", "a5a4", "a5a3", "a5b5", "a5c5"}
    assert moves_from(g, "e5") == {"e5e6", "e5e7", "e5e4", "e5e3", "e5d5", "e5c5"}
    g.push("a5a7")
    assert moves_from(g, "a7") == set()  # the moved rook is done for this turn
    assert moves_from(g, "e5") == {"e5e6", "e5e7", "e5e4", "e5e3", "e5d5", "e5c5"}
    g.push("e5e7")
    assert g.legal_moves() == ["@@@@"]


def test_move_order_counts_twice_in_perft(gen_factory):
    # Perft: "Moving A then B and B then A count as two sequences."
    # Rooks a5, e5; Black king c10. Depth 1: 6 + 6 + end turn = 13.
    # Depth 2: after a5 moves (6): e5 has 6 moves + end (5 + end after a5c5) -> 41;
    # symmetric for e5 first -> 41; after end turn Black's king c10 has
    # b10 d10 b9 c9 d9 c11 + end -> 7. 41 + 41 + 7 = 89.
    g = gen_factory(make_fen({"a5": "R", "e5": "R", "c10": "k"}))
    assert g.perft(1) == 13
    assert g.perft(2) == 89


def test_lame_bishop_blocked_and_unblocked(gen_factory):
    # "Bishop | FnA | ... Ruling: the two-square step is blocked by an occupied
    # square in between"
    free = gen_factory(make_fen({"c5": "B", "a10": "k"}))
    assert moves_from(free, "c5") == {
        "c5b6", "c5d6", "c5b4", "c5d4", "c5a7", "c5e7", "c5a3", "c5e3"}
    # Own piece on d6 blocks d6 and e7.
    own = gen_factory(make_fen({"c5": "B", "d6": "R", "a10": "k"}))
    assert moves_from(own, "c5") == {"c5b6", "c5b4", "c5d4", "c5a7", "c5a3", "c5e3"}
    # Enemy piece on d6 can be captured but still blocks e7.
    enemy = gen_factory(make_fen({"c5": "B", "d6": "n", "a10": "k"}))
    assert moves_from(enemy, "c5") == {
        "c5b6", "c5d6", "c5b4", "c5d4", "c5a7", "c5a3", "c5e3"}
    # Enemy piece on e7 with d6 empty: the two-step captures it.
    far = gen_factory(make_fen({"c5": "B", "e7": "n", "a10": "k"}))
    assert "c5e7" in moves_from(far, "c5")
    # Unblocked within the turn: the blocker moves away first, then the bishop may go to e7.
    own.push("d6d8")
    assert "c5e7" in moves_from(own, "c5")
    own.push("c5e7")
    own.push("@@@@")
    assert board_part(own.fen()) == "**1**/k4/5/3R1/4B/5/5/5/5/5/**1**[] b"


def test_rook_leaps(gen_factory):
    # "Rook | WD | one or two squares orthogonally, leaping over anything between"
    pieces = {"c5": "R", "c6": "N", "b5": "K", "d5": "K", "c4": "N",
              "c7": "n", "a5": "k"}
    g = gen_factory(make_fen(pieces))
    assert moves_from(g, "c5") == {"c5c7", "c5a5", "c5e5", "c5c3"}
    # Leaping capture: the captured piece leaves the game, not into the reserve.
    g.push("c5c7")
    g.push("@@@@")
    assert board_part(g.fen()) == "**1**/5/5/5/2R2/2N2/kK1K1/2N2/5/5/**1**[] b"


def test_king_and_knight(gen_factory):
    # "King | K | one square any direction"; "Knight | N | orthodox knight"
    g = gen_factory(make_fen({"c5": "K", "c8": "N", "d6": "n", "a10": "k"}))
    assert moves_from(g, "c5") == {
        "c5b4", "c5c4", "c5d4", "c5b5", "c5d5", "c5b6", "c5c6", "c5d6"}
    assert moves_from(g, "c8") == {
        "c8a7", "c8a9", "c8b6", "c8b10", "c8d6", "c8d10", "c8e7", "c8e9"}


def test_holes_never_entered(gen_factory):
    # "All other squares of ranks 1 and 11 are holes"; "Holes cannot be entered or leapt into."
    g = gen_factory(make_fen({"b2": "K", "e6": "k"}))
    assert moves_from(g, "b2") == {"b2c1", "b2a2", "b2c2", "b2a3", "b2b3", "b2c3"}
    g = gen_factory(make_fen({"b3": "N", "e6": "k"}))
    assert moves_from(g, "b3") == {"b3c1", "b3d2", "b3d4", "b3a5", "b3c5"}
    g = gen_factory(make_fen({"a3": "R", "e6": "k"}))
    assert moves_from(g, "a3") == {"a3a4", "a3a5", "a3a2", "a3b3", "a3c3"}
    g = gen_factory(make_fen({"c2": "R", "e6": "k"}))
    assert moves_from(g, "c2") == {"c2c1", "c2c3", "c2c4", "c2b2", "c2a2", "c2d2", "c2e2"}
    g = gen_factory(make_fen({"d9": "n", "a2": "K"}, side="b"))
    assert moves_from(g, "d9") == {"d9c11", "d9b10", "d9b8", "d9c7", "d9e7"}
    g = gen_factory(make_fen({"b10": "b", "a2": "K"}, side="b"))
    assert moves_from(g, "b10") == {"b10c11", "b10a9", "b10c9", "b10d8"}
    # The Bishop's two-step onto a Gate (the sample move c11a9, reversed).
    g = gen_factory(make_fen({"a9": "b", "a2": "K"}, side="b"))
    assert "a9c11" in moves_from(g, "a9")


def test_no_action_ever_touches_a_hole(gen_factory):
    # Random games: every move starts and ends on one of the 47 cells, the list has
    # no duplicates, "end turn" is always there while the game runs, and a finished
    # game has no actions.
    rng = random.Random(2024)
    for _ in range(8):
        g = gen_factory()
        for _ply in range(250):
            actions = g.legal_moves()
            assert len(actions) == len(set(actions))
            if g.outcome() is not None:
                assert actions == []
                break
            assert "@@@@" in actions
            for a in actions:
                if a == "@@@@":
                    continue
                if "@" in a:
                    assert a[0] in "RBKN" and a[2:] == ("c1" if g.turn == "w" else "c11")
                    continue
                m = re.fullmatch(r"([a-e]\d+)([a-e]\d+)", a)
                assert m and m.group(1) in CELLS and m.group(2) in CELLS, a
            # Prefer piece moves over ending the turn, so games do reach the Gates.
            non_pass = [a for a in actions if a != "@@@@"]
            if non_pass and rng.random() < 0.85:
                g.push(rng.choice(non_pass))
            else:
                g.push("@@@@")


# --------------------------------------------------------------------- winning


def test_black_on_white_gate_wins(gen_factory):
    # "If Black occupies White's Gate, Black wins." and "the turn ends at once".
    g = gen_factory(make_fen({"c3": "r", "a10": "n", "e5": "K"}, side="b"))
    g.push("c3c1")
    assert g.outcome() == ("0-1", "gate")
    assert g.legal_moves() == []  # the Black knight on a10 may not move any more


def test_black_captures_on_white_gate_wins(gen_factory):
    # "A player who lands a piece on the opponent's Gate (capturing whatever stood
    # there) occupies it"
    g = gen_factory(make_fen({"c1": "N", "c2": "k", "e5": "K"}, side="b"))
    g.push("c2c1")
    assert g.outcome() == ("0-1", "gate")
    assert g.legal_moves() == []


def test_white_on_black_gate_gives_reply_turn(gen_factory):
    # "If White occupies Black's Gate, Black gets one more turn"; the turn ends at
    # once (the White knight on a2 gets no move); "During Black's reply turn Black
    # cannot drop (his Gate is occupied)".
    g = gen_factory(make_fen({"c9": "R", "a2": "N", "a10": "k"}, reserve="n"))
    g.push("c9c11")
    assert g.outcome() is None
    assert g.turn == "b"
    assert sorted(g.legal_moves()) == sorted(["a10b10", "a10a9", "a10b9", "@@@@"])
    assert board_part(g.fen()) == "**R**/k4/5/5/5/5/5/5/5/N4/**1**[n] b"


def test_white_captures_on_black_gate_gives_reply_turn(gen_factory):
    # Capturing a Black piece on c11 that is not Black's last piece: reply turn.
    g = gen_factory(make_fen({"b9": "N", "c11": "k", "e8": "b"}))
    g.push("b9c11")
    assert g.outcome() is None
    assert g.turn == "b"
    assert sorted(g.legal_moves()) == sorted(
        ["e8d9", "e8d7", "e8c6", "e8c10", "@@@@"])


def test_reply_turn_ending_gives_white_the_win(gen_factory):
    # "otherwise White wins when that turn ends"
    g = gen_factory(make_fen({"c9": "R", "a2": "N", "a10": "k"}, reserve="n"))
    g.push("c9c11")
    g.push("a10b10")
    assert g.outcome() is None
    g.push("@@@@")
    assert g.outcome() == ("1-0", "reply turn ended")
    assert g.legal_moves() == []


def test_reply_turn_from_fen(gen_factory):
    # Perft: "a White piece on c11 with Black to move means Black's reply turn".
    g = gen_factory(make_fen({"c11": "R", "a2": "N", "a10": "k"}, reserve="n", side="b"))
    assert g.outcome() is None
    assert sorted(g.legal_moves()) == sorted(["a10b10", "a10a9", "a10b9", "@@@@"])
    g.push("@@@@")
    assert g.outcome() == ("1-0", "reply turn ended")


def test_capturing_the_occupier_does_not_undo_it(gen_factory):
    # "Black capturing the White piece on c11 does not undo White's occupation."
    g = gen_factory(make_fen({"c11": "R", "a2": "N", "b10": "k"}, side="b"))
    g.push("b10c11")
    assert g.outcome() is None
    assert g.legal_moves() == ["@@@@"]  # still no drop: drops are first actions only
    g.push("@@@@")
    assert g.outcome() == ("1-0", "reply turn ended")


def test_reply_turn_gate_is_a_draw(gen_factory):
    # "if Black occupies White's Gate during that turn, the game is a draw"
    g = gen_factory(make_fen({"c9": "R", "a2": "N", "c3": "r", "a10": "k"}))
    g.push("c9c11")
    g.push("a10b10")
    g.push("c3c1")
    assert g.outcome() == ("1/2-1/2", "reply gate")
    assert g.legal_moves() == []


def test_reply_turn_gate_after_capturing_occupier_is_a_draw(gen_factory):
    # Capturing on c11 does not undo the occupation, so reaching c1 is still only a draw.
    g = gen_factory(make_fen({"c11": "R", "a2": "N", "c3": "r", "b10": "k"}, side="b"))
    g.push("b10c11")
    g.push("c3c1")
    assert g.outcome() == ("1/2-1/2", "reply gate")


def test_elimination(gen_factory):
    # "A player who has no pieces left, on the board or in reserve, loses at once"
    g = gen_factory(make_fen({"c5": "R", "e2": "N", "c7": "k"}))
    g.push("c5c7")
    assert g.outcome() == ("1-0", "elimination")
    assert g.legal_moves() == []  # the knight on e2 does not get to move
    # A piece in reserve still counts: no elimination.
    g = gen_factory(make_fen({"c5": "R", "c7": "k"}, reserve="n"))
    g.push("c5c7")
    assert g.outcome() is None
    g.push("@@@@")
    assert board_part(g.fen()) == "**1**/5/5/5/2R2/5/5/5/5/5/**1**[n] b"
    # Black eliminates White.
    g = gen_factory(make_fen({"d5": "N", "c6": "b"}, side="b"))
    g.push("c6d5")
    assert g.outcome() == ("0-1", "elimination")


def test_elimination_on_c11_without_reply_turn(gen_factory):
    # "White taking Black's last piece on c11 wins with no reply turn"
    g = gen_factory(make_fen({"b9": "N", "c11": "k"}))
    g.push("b9c11")
    assert g.outcome() == ("1-0", "elimination")
    assert g.legal_moves() == []
    # Compare: with a Black piece left in reserve it is only the Gate, so a reply turn.
    g = gen_factory(make_fen({"b9": "N", "c11": "k"}, reserve="n"))
    g.push("b9c11")
    assert g.outcome() is None
    assert g.turn == "b"
    assert g.legal_moves() == ["@@@@"]


def test_elimination_during_reply_turn(gen_factory):
    # "Black taking White's last piece during the reply turn wins."
    g = gen_factory(make_fen({"c11": "R", "b10": "k"}, side="b"))
    g.push("b10c11")
    assert g.outcome() == ("0-1", "elimination")
    assert g.legal_moves() == []


def test_elimination_checked_before_gate_rules(gen_factory):
    # "This is checked after every action, before the Gate rules": Black takes White's
    # last piece on c1 during the reply turn -> Black wins, not a draw.
    g = gen_factory(make_fen({"c11": "R", "c1": "N", "b10": "k", "c3": "r"}, side="b"))
    g.push("b10c11")
    assert g.outcome() is None
    g.push("c3c1")
    assert g.outcome() == ("0-1", "elimination")
    # Outside the reply turn: taking the last piece on c1 is reported as elimination.
    g = gen_factory(make_fen({"c1": "N", "c3": "r"}, side="b"))
    g.push("c3c1")
    assert g.outcome() == ("0-1", "elimination")


# ----------------------------------------------------------------------- perft

PERFT_START = [5, 22, 55, 205, 709, 2425]


@pytest.mark.parametrize("depth", range(1, 7))
def test_perft_calibration(gen_factory, depth):
    # "the start position as perft 1..10 = 5, 22, 55, 205, 709, 2,425, ..."
    assert gen_factory().perft(depth) == PERFT_START[depth - 1]


def test_perft_game_ending_action_is_a_leaf(gen_factory):
    # Perft: "Game-ending positions are leaves ... A game-ending action counts once
    # at its depth and adds nothing deeper."
    # Black rook c3 (8 moves, c3c1 wins) + end turn = 9. Depth 2: 7 quiet rook moves
    # leave only "end turn" (7), c3c1 adds nothing, end turn gives White's king e10
    # d10 d9 e9 + end turn (4) -> 11. Depth 3: 7 * 4 + 3 * 1 + 9 = 40.
    g = gen_factory(make_fen({"c3": "r", "e10": "K"}, side="b"))
    assert [g.perft(d) for d in (1, 2, 3)] == [9, 11, 40]


def test_perft_reply_turn(gen_factory):
    # Perft: "the 'end turn' that closes Black's reply turn is such an action".
    # Reply turn: king b10 has a10 c10 a9 b9 c9 c11 (6), rook c3 has 8 (c3c1 draws),
    # end turn ends the game: 15. Depth 2: 6 * 9 + 7 * 7 = 103. Depth 3: 6 * 7 + 7 * 6 = 84.
    g = gen_factory(make_fen({"c11": "R", "a2": "N", "b10": "k", "c3": "r"}, side="b"))
    assert [g.perft(d) for d in (1, 2, 3)] == [15, 103, 84]
    # Nothing but the closing end turn: perft 1, then nothing deeper.
    g = gen_factory(make_fen({"c11": "R"}, reserve="n", side="b"))
    assert [g.perft(d) for d in (1, 2, 3)] == [1, 0, 0]


# ------------------------------------------------------------ push / pop / FEN


def test_push_pop_restore(gen_factory):
    g = gen_factory()
    before = sorted(g.legal_moves())
    g.push("B@c1")
    g.push("c1e3")
    assert g.pop() == "c1e3"
    assert g.pop() == "B@c1"
    assert sorted(g.legal_moves()) == before
    assert g.fen() == START_FEN
    # pop undoes a game end, too.
    g = gen_factory(make_fen({"c3": "r", "e5": "K"}, side="b"))
    g.push("c3c1")
    assert g.outcome() == ("0-1", "gate")
    g.pop()
    assert g.outcome() is None
    assert g.turn == "b"


def test_push_illegal_raises(gen_factory):
    g = gen_factory()
    for bad in ["n@c1", "N@c11", "N@c2", "c1c2", "a2a3", "xyz", ""]:
        with pytest.raises(ValueError):
            g.push(bad)
    g.push("N@c1")
    with pytest.raises(ValueError):
        g.push("R@c1")  # second drop
    g.push("c1b3")
    with pytest.raises(ValueError):
        g.push("b3c5")  # the knight already moved
    # No action at all once the game is over.
    g = gen_factory(make_fen({"c3": "r", "e5": "K"}, side="b"))
    g.push("c3c1")
    with pytest.raises(ValueError):
        g.push("@@@@")


@pytest.mark.parametrize("fen", [
    START_FEN,
    "**1**/k4/5/2b2/5/5/1R3/5/5/N4/**K**[RBn] w - - 3 7",
    "**R**/k4/5/5/5/5/5/5/5/N4/**1**[BBrn] b - - 0 12",
])
def test_fen_round_trip(gen_factory, fen):
    assert gen_factory(fen).fen() == fen


@pytest.mark.parametrize("fen", [
    "**1**/5/5/5/5/5/5/5/5/**1**[RRBBKKNNrrbbkknn] w - - 0 1",  # 10 ranks
    "**1**/5/5/5/5/5/5/5/5/6/**1**[RRBBKKNNrrbbkknn] w - - 0 1",  # 6 squares on a rank
    "**1**/5/5/5/5/5/5/5/5/5/*R1**[RRBBKKNNrrbbkknn] w - - 0 1",  # piece on the hole b1
    "1*1**/5/5/5/5/5/5/5/5/5/**1**[RRBBKKNNrrbbkknn] w - - 0 1",  # hole a11 written as empty
    "**1**/5/5/5/5/5/5/5/5/5/**1**[RRBBKKNNrrbbkknq] w - - 0 1",  # no Queen in this game
    "**1**/5/5/5/5/Q4/5/5/5/5/**1**[RRBBKKNNrrbbkknn] w - - 0 1",  # no Queen in this game
    "**1**/5/5/5/5/5/5/5/5/5/**1**[RRBBKKNNrrbbkknn] x - - 0 1",  # bad side to move
])
def test_malformed_fen_raises(gen_factory, fen):
    with pytest.raises(ValueError):
        gen_factory(fen)
