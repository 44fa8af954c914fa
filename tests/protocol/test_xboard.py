"""XBoard/CECP sessions with the engine process, command by command."""
from __future__ import annotations

import re
import time

import pytest

from movegen import Position
from tests.drivers import xboard_engine


@pytest.fixture(scope="module")
def eng():
    e = xboard_engine()
    yield e
    e.close()


def fresh(eng, variant=None):
    eng.send("new", "force")
    if variant:
        eng.send(f"variant {variant}")
    return eng.sync_xboard()


def test_unknown_command_and_illegal_move(eng):
    fresh(eng)
    eng.send("frobnicate 3")
    eng.send("usermove e2e5")
    eng.send("usermove e2e4")
    lines = eng.sync_xboard()
    assert "Error (unknown command): frobnicate 3" in lines
    assert any(re.fullmatch(r"Illegal move \(.+\): e2e5", s) for s in lines)
    assert not any("e2e4" in s for s in lines)


def test_engine_defined_variants_send_setup_and_pieces(eng):
    expected = {
        "energizer": "8x8+0_fairy rnackqnr/pbppppbp/1p4p1/8/8/1P4P1/PBPPPPBP/RNACKQNR w KQkq - 0 1",
        "sultan": "10x8+0_fairy rnbcqkcbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBCQKCBNR w KQkq - 0 1",
        "batteries": "10x10+0_fairy 2eokloe2/2baddab2/1ssssssss1/10/10/10/10/1SSSSSSSS1/"
                     "2BADDAB2/2EOKLOE2 w - - 0 1",
        "enders": "5x11+4_bughouse **1**/5/5/5/5/5/5/5/5/5/**1**[RRBBKKNNrrbbkknn] w - - 0 1",
    }
    for variant, tail in expected.items():
        lines = fresh(eng, variant)
        setup = [s for s in lines if s.startswith("setup (")]
        assert len(setup) == 1 and setup[0].endswith(tail), (variant, setup)
        pieces = [s for s in lines if s.startswith("piece ")]
        assert len(pieces) == len(Position(variant).game.pieces)
    lines = fresh(eng, "sultanrandom")
    assert any(s.startswith("setup (") and "10x8+0_caparandom" in s for s in lines)
    for variant in ("normal", "capablanca", "caparandom"):
        assert not any(s.startswith("setup") for s in fresh(eng, variant))
    assert any(s.startswith("Error") for s in fresh(eng, "losalamos"))


def test_sultanrandom_setup_is_stable_until_a_game_is_played(eng):
    a = [s for s in fresh(eng, "sultanrandom") if s.startswith("setup")]
    b = [s for s in fresh(eng, "sultanrandom") if s.startswith("setup")]
    assert a == b  # XBoard announces a game twice; both must get the same setup


def test_go_plays_a_legal_move_and_ping_waits_for_it(eng):
    fresh(eng)
    eng.send("st 1", "usermove e2e4")
    start = eng.mark()
    eng.send("go", "ping 7")
    pong = eng.wait_for(lambda s: s == "pong 7", 30, start)
    move = eng.wait_for(lambda s: s.startswith("move "), 30, start)
    assert move is not None and pong is not None and move < pong
    pos = Position("normal")
    pos.push("e2e4")
    assert pos.is_legal(eng.lines[move].split()[1])


def _thinking_nodes(eng, *setup):
    """Send ``setup``, play 1. e4 for the engine to answer, and return the node counts of
    its thinking lines."""
    eng.send("post", *setup, "usermove e2e4")
    start = eng.mark()
    eng.send("go")
    eng.expect("move ", 30, start)
    return [int(s.split()[3]) for s in eng.lines[start:] if re.match(r"\d+ -?\d+ \d+ \d+ ", s)]


def test_nps_turns_the_move_time_into_a_node_limit(eng):
    """After ``nps N`` a move's time is counted in nodes (CECP): ``st 1`` is N nodes.
    leyden match sends ``st 1`` and ``nps N`` for a node limit (python-chess ``nps 1``
    and ``st N``). Before 589becb, ``st`` made Leyden ignore ``nps``: a second of wall clock."""
    fresh(eng)
    nodes = _thinking_nodes(eng, "nps 4000", "st 1")
    assert nodes and all(n <= 4000 for n in nodes), nodes
    fresh(eng)  # new ends nps: a second of wall clock again
    nodes = _thinking_nodes(eng, "st 1")
    assert max(nodes) > 4000, nodes
    eng.send("force", "nopost")
    eng.sync_xboard()


def test_question_mark_moves_at_once(eng):
    fresh(eng)
    eng.send("st 100", "post")
    start = eng.mark()
    eng.send("go")
    time.sleep(0.5)
    t = time.monotonic()
    eng.send("?")
    eng.expect("move ", 20, start)
    assert time.monotonic() - t < 10
    eng.send("force", "nopost", "st 1")
    eng.sync_xboard()


def test_mate_is_played_and_claimed(eng):
    fresh(eng)
    eng.send("setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "sd 3", "st 2", "go")
    eng.expect("move a1a8", 30)
    eng.expect("1-0 {White mates}", 10)
    eng.send("force")
    eng.sync_xboard()


def test_caparandom_castling_as_o_o(eng):
    fresh(eng, "caparandom")
    eng.send("setboard rnabqk3r/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQK3R w JAja - 0 1",
             "usermove O-O", "usermove e7e6")
    lines = eng.sync_xboard()
    assert not any(s.startswith(("Illegal", "Error")) for s in lines), lines


def test_batteries_ranks_are_numbered_from_zero_for_xboard(eng):
    fresh(eng, "batteries")
    # our b3b4 (a Soldier step) is XBoard's b2b3 on a 10-rank board
    eng.send("usermove b2b3")
    eng.send("usermove b7b6")  # our b8b7
    lines = eng.sync_xboard()
    assert not any(s.startswith(("Illegal", "Error")) for s in lines), lines
    # an overtaking capture arrives as two legs joined by a comma (or as from-to;victim)
    fresh(eng, "batteries")
    eng.send("setboard 4k5/10/10/10/10/4l5/3A6/2B7/10/4K5 w - - 0 1", "usermove d3e4,e4f5")
    assert not any(s.startswith(("Illegal", "Error")) for s in eng.sync_xboard())


def test_lift_highlights_true_targets(eng):
    fresh(eng)
    eng.send("lift e2")
    assert "highlight 8/8/8/8/4Y3/4Y3/8/8" in eng.sync_xboard()
    fresh(eng, "batteries")
    eng.send("setboard 4k5/10/10/10/10/4l5/3A6/2B7/10/4K5 w - - 0 1", "lift d3")
    hl = [s for s in eng.sync_xboard() if s.startswith("highlight")]
    assert len(hl) == 1
    rows = _cells(hl[0])
    assert rows[5][4] == "C"  # e5 (XBoard's e4) is the victim of an overtaking capture
    eng.send("put e4", "lift e4")  # XBoard's second click of a multi-leg move
    hl = [s for s in eng.sync_xboard() if s.startswith("highlight")]
    assert hl and "".join(_cells(hl[-1])[4]) == ".....R...."  # landing square f6
    fresh(eng)
    eng.send("setboard 8/4P3/8/8/8/8/8/k6K w - - 0 1", "lift e7", "put e8")
    lines = eng.sync_xboard()
    assert "highlight 4M3/8/8/8/8/8/8/8" in lines
    assert "choice QRBN" in lines


def _cells(highlight: str) -> list[list[str]]:
    """Rows (top first) of a highlight command's colour FEN, '.' for unmarked."""
    rows = []
    for row in highlight.split()[1].split("/"):
        cells = []
        for n, c in re.findall(r"(\d+)|([A-Za-z])", row):
            cells.extend(["."] * int(n) if n else [c])
        rows.append(cells)
    return rows


def test_enders_fillers_and_passes(eng):
    fresh(eng, "enders")
    eng.send("st 0.3")
    start = eng.mark()
    eng.send("go")  # Leyden plays White: its first action
    first = eng.expect("move ", 30, start).split()[1]
    pos = Position("enders")
    pos.push(first)
    if pos.turn == "w":  # White's turn goes on: XBoard's Black ply must be a filler
        start = eng.mark()
        eng.send(f"setboard {_xb_fen(pos, 'w')}")  # XBoard sends our filler back as setboard
        second = eng.expect("move ", 30, start).split()[1]
        assert pos.is_legal(second)
    eng.send("force")
    eng.sync_xboard()
    # as Black: each White action that does not end White's turn is answered by a pass
    eng.send("new", "variant enders", "st 0.3")  # after "new" the engine plays Black
    eng.sync_xboard()
    start = eng.mark()
    eng.send("usermove R@c1")
    assert eng.expect("move ", 30, start) == "move @@@@"
    start = eng.mark()
    eng.send("usermove c1c3")
    assert eng.expect("move ", 30, start) == "move @@@@"
    start = eng.mark()
    eng.send("usermove d3d4")  # not White's piece: illegal
    eng.expect("Illegal move", 10, start)
    eng.send("force")
    eng.sync_xboard()


def _xb_fen(pos: Position, side: str) -> str:
    fields = pos.fen().split()
    fields[1] = side
    return " ".join(fields)


def test_analyze_dot_and_exit(eng):
    fresh(eng)
    eng.send("post")
    start = eng.mark()
    eng.send("analyze")
    eng.expect(lambda s: re.match(r"\d+ -?\d+ \d+ \d+", s) is not None, 30, start)
    eng.send(".")
    eng.expect("stat01:", 10, start)
    eng.send("usermove e2e4")  # analysis goes on in the new position
    eng.send("exit", "nopost")
    lines = eng.sync_xboard()
    assert not any(s.startswith("move ") for s in eng.lines[start:])
    assert not any(s.startswith("Error") for s in lines)


def test_memory_and_options(eng):
    fresh(eng)
    eng.send("memory 32", "memory 99999999", "option Seed=5", "option StrictShuffle=1",
             "option EnergizerSwitch=1", "option NoSuchOption=1", "option Tune=futility_margin=80",
             "option Tune=futility_margin=-5")
    lines = eng.sync_xboard()
    assert [s for s in lines if s.startswith("Error")] == [
        "Error (unknown option): option NoSuchOption=1",
        "Error (Tune: search setting 'futility_margin' must be from 0 to 1000, not -5): "
        "option Tune=futility_margin=-5"]
    eng.send("option EnergizerSwitch=0", "option StrictShuffle=0", "option Seed=0", "option Tune=")


def test_undo_remove_and_result(eng):
    fresh(eng)
    eng.send("usermove e2e4", "usermove e7e5", "remove", "usermove d2d4", "undo", "undo")
    eng.send("undo", "result 1-0 {White resigns... or not}")
    lines = eng.sync_xboard()
    assert lines.count("Error (command not legal now): undo") == 2, lines


def test_lift_from_holdings_marks_the_gate(eng):
    fresh(eng, "enders")
    # XBoard's holdings squares on a 5-file board: White's column 'g' (rows 1.. = N B R K),
    # Black's column '_' (rows 11.. downwards)
    eng.send("lift g3")  # White's Rooks in hand
    hl = [s for s in eng.sync_xboard() if s.startswith("highlight")]
    assert hl and _cells(hl[0])[10][2] == "Y"  # the Gate c1 (bottom row)


def test_energizer_switch_and_seed_give_legal_reproducible_setups(eng):
    def setups(n):
        eng.send("option Seed=11", "option EnergizerSwitch=1")
        out = []
        for _ in range(n):
            line = next(s for s in fresh(eng, "energizer") if s.startswith("setup"))
            out.append(line.split(" ", 3)[3])
            eng.send("usermove e2e4")  # a game began from it: the next one is new
        return out
    first, second = setups(8), setups(8)
    assert first == second  # same seed, same sequence
    assert len(set(first)) > 1
    for fen in first:
        pos = Position("energizer", fen)
        assert sorted(fen.split()[0].split("/")[7]) == sorted("RNACKQNR")
        assert pos.legal_moves()
    eng.send("option EnergizerSwitch=0", "option Seed=0")
    eng.sync_xboard()
