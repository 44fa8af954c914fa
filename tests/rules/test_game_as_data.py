"""A game is data: a ``Game`` record that is not registered in ``GAMES`` plays everywhere
(Position, perft, legal moves, search), and the tables are keyed on the record, not on
its name.

Gothic Chess is defined below as data only and checked against Fairy-Stockfish, which
knows it as ``gothic``.
"""
import random
from dataclasses import replace

import pytest

from movegen import GAMES, Game, Position
from movegen.games import BATTERIES_GAME, CHESS, PieceType
from movegen.tables import build_tables
from search.searcher import Limits, Searcher
from tests.drivers import FairyStockfish

GOTHIC = Game(
    name="gothic", family=CHESS, files=10, ranks=8,
    pieces=(
        PieceType("K", "King", "K", 0, royal=True),
        PieceType("Q", "Queen", "Q", 950),
        PieceType("C", "Chancellor", "RN", 900),
        PieceType("A", "Archbishop", "BN", 875),
        PieceType("R", "Rook", "R", 500),
        PieceType("B", "Bishop", "B", 350),
        PieceType("N", "Knight", "N", 300),
        PieceType("P", "Pawn", "fmWfcF", 100, pawn=True),
    ),
    start_fen="rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1",
    castling="fixed", castle_king_files=(8, 2), promotions="QCARBN",
)


@pytest.fixture(scope="module")
def fsf():
    with FairyStockfish("gothic") as engine:
        yield engine


def random_positions(game, count, seed):
    """Positions reached by random legal moves from the start (none of them over)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = Position(game)
        for _ in range(rng.randrange(6, 40)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(moves))
        if pos.legal_moves():
            out.append(pos)
    return out


def test_gothic_is_not_registered_yet_makes_positions():
    assert "gothic" not in GAMES and GOTHIC not in GAMES.values()
    pos = Position(GOTHIC)
    assert pos.fen() == GOTHIC.start_fen
    assert pos.piece_at("e1") == "C" and pos.piece_at("g8") == "a"


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_gothic_start_perft_agrees_with_fairy_stockfish(fsf, depth):
    _, theirs = fsf.divide(GOTHIC.start_fen, depth)
    assert Position(GOTHIC).perft(depth) == theirs


def test_gothic_legal_moves_and_perft_agree_with_fairy_stockfish_after_random_moves(fsf):
    positions = random_positions(GOTHIC, 8, seed=11)
    for pos in positions:
        theirs, total = fsf.divide(pos.fen(), 3)
        assert set(pos.legal_moves()) == set(theirs), pos.fen()
        ours = dict(pos.divide(3))
        assert ours == theirs, (pos.fen(), {m: (ours.get(m), theirs.get(m))
                                           for m in set(ours) | set(theirs)
                                           if ours.get(m) != theirs.get(m)})
        assert pos.perft(3) == total


def test_gothic_castling_and_promotion_agree_with_fairy_stockfish(fsf):
    """Both castlings open (king f1 to i1 / c1) and a pawn that promotes to any of six."""
    for fen in ("r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1",
                "5k4/1P8/10/10/10/10/10/5K4 w - - 0 1"):
        pos = Position(GOTHIC, fen)
        theirs, total = fsf.divide(fen, 3)
        assert set(pos.legal_moves()) == set(theirs), fen
        assert pos.perft(3) == total, fen


def test_gothic_search_finds_the_mate_in_one():
    """The search plays the unregistered game: the Chancellor's back-rank mate."""
    pos = Position(GOTHIC, "8k1/7ppp/10/10/10/10/10/C4K4 w - - 0 1")
    best, _ = Searcher(hash_mb=1).search(pos, Limits(depth=3))
    pos.push(best)
    assert pos.outcome() == ("1-0", "checkmate")


def test_tables_are_keyed_on_the_record_not_on_its_name():
    """A record named "normal" with Gothic's rules plays Gothic; "normal" stays chess."""
    impostor = replace(GOTHIC, name="normal")
    assert Position(impostor).perft(2) == Position(GOTHIC).perft(2) != Position("normal").perft(2)
    assert Position("normal").perft(2) == 400
    assert build_tables(replace(GOTHIC)) is build_tables(GOTHIC)  # equal records share tables


def test_batteries_reads_piece_roles_from_the_record():
    """The Batteries rules follow each piece's role, whatever the order of the pieces."""
    reordered = replace(BATTERIES_GAME, name="batteries-reordered",
                        pieces=tuple(reversed(BATTERIES_GAME.pieces)))
    for pos in random_positions(BATTERIES_GAME, 4, seed=5):
        ours = Position(reordered, pos.fen())
        assert ours.fen() == pos.fen()
        assert sorted(ours.legal_moves()) == sorted(pos.legal_moves())
        assert ours.perft(3) == pos.perft(3)


def test_batteries_reads_the_soldier_double_step_rank_from_the_record():
    """Soldiers double-step from ``pawn_double_rank``: on the 2nd rank none of them can."""
    fen = "4k5/10/10/10/10/10/10/2S7/10/4K5 w - - 0 1"
    assert "c3c5" in Position(BATTERIES_GAME, fen).legal_moves()
    moved = replace(BATTERIES_GAME, pawn_double_rank=2)
    assert "c3c5" not in Position(moved, fen).legal_moves()
    assert "c2c4" in Position(moved, "4k5/10/10/10/10/10/10/10/2S7/4K5 w - - 0 1").legal_moves()


def test_a_piece_role_the_rules_do_not_know_is_refused():
    pieces = tuple(replace(p, role="") if p.letter == "B" else p for p in BATTERIES_GAME.pieces)
    with pytest.raises(ValueError, match="Battery of batteries-broken has role ''"):
        Position(replace(BATTERIES_GAME, name="batteries-broken", pieces=pieces))
    two = tuple(replace(p, role="battery") if p.letter == "L" else p for p in BATTERIES_GAME.pieces)
    with pytest.raises(ValueError, match="exactly one piece with the role 'battery'"):
        Position(replace(BATTERIES_GAME, name="two-batteries", pieces=two))
    charged_gothic = (replace(GOTHIC.pieces[0], role="battery"),) + GOTHIC.pieces[1:]
    with pytest.raises(ValueError, match="roles belong to Batteries"):
        Position(replace(GOTHIC, pieces=charged_gothic))


def test_a_capture_the_chess_rules_cannot_check_is_refused():
    """A lame capturing knight would be misjudged by the chess attack test: refused."""
    pieces = tuple(replace(p, betza="nN") if p.letter == "N" else p for p in GOTHIC.pieces)
    with pytest.raises(ValueError, match="Knight of lame-gothic"):
        Position(replace(GOTHIC, name="lame-gothic", pieces=pieces))
    with pytest.raises(ValueError, match="2nd rank only"):
        Position(replace(GOTHIC, pawn_double_rank=3))
    with pytest.raises(ValueError, match="'X'"):
        king = replace(GOTHIC.pieces[0], betza="X")
        Position(replace(GOTHIC, pieces=(king,) + GOTHIC.pieces[1:]))
