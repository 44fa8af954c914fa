"""Perft against the reference vectors of an independent engine (data/perft.jsonl).

Default run: every row up to the depth whose count is below about a million nodes.
``pytest -m slow`` (``make perft-full``): every depth of every row.
"""
import pytest

from movegen import Position
from tests.rules.perft_vectors import read_vectors

FAST_LIMIT = 1_000_000

# Two rows of the reference file describe positions the rules do not allow; the engine
# rejects them (see README, "Reference vectors"), and the tests say exactly how:
# - "r4k4r/.../R4K4R": 11 squares on a 10-file rank.  The reference engine dropped the
#   piece past the j-file (and the castling right it would have given); its counts are
#   those of the well-formed position below, which we check instead.
# - "r1a1k4r/10/10/10/4C5/...": White to move while Black's king stands in check from the
#   Chancellor on e4 (and castling rights with the White king off its start square).
#   The reference engine then counts a king capture and castling out of check; no
#   legal game reaches this position.
MALFORMED_RANK = "r4k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K4R w KQkq - 0 1"
AS_COUNTED = "r4k4/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K4 w Qq - 0 1"
ILLEGAL_CHECK = "r1a1k4r/10/10/10/4C5/10/10/R3K4R w KQkq - 0 1"


def _rows():
    rows = []
    for row in read_vectors():
        for depth, count in row["perft"].items():
            rows.append((row["variant"], row["fen"], int(depth), count))
    return rows


ROWS = _rows()


def _param(variant, fen, depth, count):
    marks = [pytest.mark.slow] if count > FAST_LIMIT else []
    return pytest.param(variant, fen, depth, count, marks=marks,
                        id=f"{variant}-{fen.split()[0][:24]}-d{depth}")


@pytest.mark.parametrize("variant,fen,depth,count",
                         [_param(*r) for r in ROWS if r[1] != ILLEGAL_CHECK])
def test_reference_perft(variant, fen, depth, count):
    if fen == MALFORMED_RANK:
        with pytest.raises(ValueError, match="longer than 10"):
            Position(variant, fen)
        fen = AS_COUNTED
    assert Position(variant, fen).perft(depth) == count


def test_reference_file_has_every_game():
    assert {r[0] for r in ROWS} == {"normal", "capablanca", "caparandom", "energizer",
                                    "sultan", "sultanrandom"}
    assert len(ROWS) > 100


def test_illegal_reference_position_is_rejected():
    with pytest.raises(ValueError, match="start squares|not to move is in check"):
        Position("capablanca", ILLEGAL_CHECK)


@pytest.mark.parametrize("variant", ["capablanca", "sultan"])
def test_malformed_rank_row_is_the_position_counted(variant):
    # The 27 moves the reference counts: 20 pawn moves, Ke1/Kg1, Ra1-b1..e1, f1c1.
    moves = Position(variant, AS_COUNTED).legal_moves()
    assert len(moves) == 27 and "f1c1" in moves and "f1i1" not in moves
