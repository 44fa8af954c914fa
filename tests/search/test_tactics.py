"""The search finds forced mates and winning captures in every game, at modest depth.

Every mate here was checked to be exact (a forced mate in N and none shorter) by a
brute-force mate solver over the move generator; the listed moves are all the first
moves that mate in N.
"""
import pytest

from movegen import Position
from search import Limits, Searcher

# (game, FEN, N, first moves that mate in N[, depth: default 2N + 1])
MATES = [
    ("normal", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1, {"a1a8"}),
    ("normal", "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", 2, {"b1b7", "a2a7"}),
    # with normal chess's tuned weights (the 20,000-node refit), depths 7-10 find a mate in
    # 4 first (b1b4), depth 11 this one
    ("normal", "8/8/8/8/8/6k1/R7/1R4K1 w - - 0 1", 3, {"a2a4"}, 11),
    ("capablanca", "8Ak/10/2p7/10/10/5p4/10/1K8 w - - 0 1", 1, {"i8h6"}),
    ("capablanca", "2C1R5/9p/10/6K3/10/10/4p5/8k1 w - - 0 1", 2, {"e8e2"}),
    ("capablanca", "8k1/9p/p9/6Q3/9K/10/7A2/4r5 w - - 0 1", 3, {"g5g8"}),
    ("caparandom", "10/10/10/10/k2A6/10/1K2p1p3/10 w - - 0 1", 1, {"d4c3", "d4c6"}),
    ("caparandom", "8K1/10/1R6C1/p9/10/k6p2/10/10 w - - 0 1", 2, {"i6c6"}),
    ("caparandom", "10/1Q8/7p2/6k1p1/1r8/3A3K2/10/10 w - - 0 1", 3, {"b7e7", "b7g7"}),
    ("energizer", "8/1C6/3p4/6k1/8/3A3K/5p2/r7 w - - 0 1", 1, {"b7h7"}),
    ("energizer", "8/8/4pK2/8/p3k1r1/1A6/8/6C1 w - - 0 1", 2, {"g1g4"}),
    ("energizer", "4k3/7C/6p1/2p5/K7/8/4A3/7r w - - 0 1", 3, {"e2b5"}),
    ("sultan", "2C3r3/10/5Q4/10/8pC/7p2/10/7K1k w - - 0 1", 1, {"f6j2"}),
    ("sultan", "10/8k1/3r1C4/10/6Q1C1/1p2p5/4K5/10 w - - 0 1", 2, {"g4i6"}),
    ("sultan", "10/7p1r/8k1/4Q4C/1pK7/7C2/10/10 w - - 0 1", 3, {"e5h5"}),
    ("sultanrandom", "6k3/3K4Cp/10/Q4C4/2r7/10/4p5/10 w - - 0 1", 1, {"a5d8"}),
    ("sultanrandom", "10/10/9K/10/6Q3/1p3rp3/4Ck4/6C3 w - - 0 1", 2, {"g4i2"}),
    ("sultanrandom", "8Ck/10/10/2r4C2/6p3/1p8/3K2Q3/10 w - - 0 1", 3, {"g2j5"}),
    # Batteries: the Orthog slides through its own Battery's line to h10, where the
    # Battery on h9 charges it: only a charged Orthog attacks a10 from afar.
    ("batteries", "k9/ss5B2/10/10/10/7O2/10/10/10/4K5 w - - 0 1", 1, {"h5h10"}),
    # the quiet first move (a President step) is found at depth 7, not 5: at depth 5 the
    # reverse-futility cut at the shallow node of the mating move hides it
    ("batteries", "10/d3O5/B9/10/10/10/10/L7s1/3s6/k2K6 w - - 0 1", 2, {"d1c2"}, 7),
    ("batteries", "10/10/10/10/7O2/10/2B6s/L2K6/3d1s4/2k7 w - - 0 1", 2, {"a3b3"}),
]

# (game, FEN, the capture that wins material)
CAPTURES = [
    ("normal", "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", "d2d5"),
    ("capablanca", "5k4/10/10/4q5/10/10/4R5/5K4 w - - 0 1", "e2e5"),
    ("caparandom", "5k4/10/10/4q5/10/10/4R5/5K4 w - - 0 1", "e2e5"),
    ("energizer", "4k3/8/8/3c4/8/2A5/8/4K3 w - - 0 1", "c3d5"),  # Archbishop's knight leap
    # the Courier's jump (with a pawn: a lone Courier could not win, the rules say)
    ("sultan", "5k4/10/10/3q6/10/3C6/7P2/5K4 w - - 0 1", "d3d5"),
    ("sultanrandom", "5k4/10/10/3q6/10/3C6/7P2/5K4 w - - 0 1", "d3d5"),
    # a Lady next to her Battery captures like a Queen; the enemy Lady, uncharged, cannot
    ("batteries", "4k5/10/10/10/4l5/10/10/10/3BL5/4K5 w - - 0 1", "e2e6"),
]


@pytest.fixture(scope="module")
def searcher():
    return Searcher(hash_mb=8)


def _search(searcher, game, fen, depth):
    infos = []
    searcher.new_game()
    best, _ = searcher.search(Position(game, fen), Limits(depth=depth), on_info=infos.append)
    return best, infos[-1]


@pytest.mark.parametrize("case", MATES, ids=lambda c: f"{c[0]}-mate{c[2]}-{c[1].split()[0]}")
def test_forced_mate(searcher, case):
    game, fen, n, moves = case[:4]
    best, info = _search(searcher, game, fen, case[4] if len(case) > 4 else 2 * n + 1)
    assert info.mate == n, (info.mate, info.pv)
    assert best.name in moves
    assert info.pv[0] == best and len(info.pv) == 2 * n - 1


@pytest.mark.parametrize("game,fen,move", CAPTURES, ids=[f"{c[0]}-{c[2]}" for c in CAPTURES])
def test_winning_capture(searcher, game, fen, move):
    best, info = _search(searcher, game, fen, 4)
    assert best.name == move
    assert info.score_cp is not None and info.score_cp > 300


def test_lone_courier_is_a_draw(searcher):
    """After Cxd5 White has King and Courier only: no mating material, about 0."""
    best, info = _search(searcher, "sultan", "5k4/10/10/3q6/10/3C6/10/5K4 w - - 0 1", 4)
    assert best.name == "d3d5"
    assert abs(info.score_cp) < 50


def test_batteries_mate_needs_the_charge(searcher):
    """Without the Battery the same move is no check, and there is no mate at all."""
    _, info = _search(searcher, "batteries", "k9/ss8/10/10/10/7O2/10/10/10/4K5 w - - 0 1", 4)
    assert info.mate is None


# ------------------------------------------------------------------ Ender's Chess

def test_enders_gate_entry_in_one_turn(searcher):
    # The Rook leaps c9-c11; Black's reply turn cannot reach c1 (nor take White's last
    # piece: White still has the King on a2), so White wins.
    best, info = _search(searcher, "enders", "**1**/5/2R2/b4/5/5/4n/5/5/K4/**1** w - - 0 1", 4)
    assert best.name == "c9c11"
    assert info.mate == 1


def test_enders_black_enters_at_once(searcher):
    best, info = _search(searcher, "enders", "**1**/5/5/5/5/5/5/5/1n3/4R/**1** b - - 0 1", 2)
    assert best.name == "b3c1"
    assert info.mate == 1


def test_enders_gate_entry_in_two_turns(searcher):
    # c7-c9 now, c9-c11 next turn; Black's pieces are three moves from c1 and cannot
    # reach the Rook.
    best, info = _search(searcher, "enders", "**1**/5/5/5/2R2/5/b4/4n/5/K4/**1** w - - 0 1", 10)
    assert best.name == "c7c9"
    assert info.mate == 2


def test_enders_capture_of_the_attacker(searcher):
    """Black's Knight on b3 would enter c1 next turn: White's turn must take it."""
    pos = Position("enders", "**1**/3R1/b4/5/5/5/5/1R3/1n3/5/**1** w - - 0 1")
    searcher.new_game()
    played = []
    while pos.turn == "w" and pos.outcome() is None and len(played) < 10:
        best, _ = searcher.search(pos, Limits(depth=6))
        played.append(best.name)
        pos.push(best)
    assert "b4b3" in played, played
    assert pos.piece_at("b3") != "n"
