"""Balanced opening books (match/book.py): every opening is a legal, level position that
Leyden's search scores within the margin; the same seed gives the same book; the runner
reads the file it writes."""
import pytest

from match.book import _score, balanced_openings, candidate, main
from match.openings import load_openings, material_balance
from movegen import Position
from movegen.games import GAMES
from search import Searcher

DEPTH, MARGIN = 3, 40


@pytest.mark.parametrize("name", ["normal", "caparandom", "enders"])
def test_openings_are_level_and_scored_within_the_margin(name):
    game = GAMES[name]
    book = balanced_openings(game, 3, plies=4, depth=DEPTH, margin=MARGIN, seed=7)
    assert len(book) == 3 and len({fen for fen, _, _ in book}) == 3
    searcher = Searcher(hash_mb=16)
    for fen, score, _ in book:
        pos = Position(game, fen)
        assert pos.outcome() is None and material_balance(game, fen) == 0
        assert abs(score) <= MARGIN
        assert _score(searcher, pos, DEPTH) == score  # a fresh search agrees
    kept = [i for _, _, i in book]
    for i in set(range(kept[-1])) - set(kept):  # each try left out is not level or not within
        pos = candidate(game, 4, 7, i)
        assert pos is None or abs(_score(searcher, pos, DEPTH)) > MARGIN
    assert balanced_openings(game, 3, plies=4, depth=DEPTH, margin=MARGIN, seed=7) == book
    assert balanced_openings(game, 3, plies=4, depth=DEPTH, margin=MARGIN, seed=8) != book


def test_a_hanging_piece_is_not_balanced():
    """Level material, but the side to move wins a queen at once: the search sees it."""
    pos = Position("normal", "rnb1kbnr/pppp1ppp/8/4p1q1/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 3")
    assert material_balance(pos.game, pos.fen()) == 0
    assert _score(Searcher(hash_mb=16), pos, DEPTH) > 500


def test_an_impossible_margin_fails_instead_of_looping():
    with pytest.raises(ValueError):
        balanced_openings(GAMES["normal"], 1, plies=1, depth=1, margin=-1)


def test_the_command_writes_a_book_the_runner_reads(tmp_path, capsys):
    out = tmp_path / "normal.epd"
    assert main(["normal", "--count", "4", "--plies", "4", "--depth", "2", "--out", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert lines[0].startswith("# normal: 4 random plies") and len(lines) == 5
    openings = load_openings(str(out), GAMES["normal"])
    assert [o.start_fen for o in openings] == [line.split("  #")[0] for line in lines[1:]]
    with pytest.raises(SystemExit):
        main(["normal", "--count", "0"])
