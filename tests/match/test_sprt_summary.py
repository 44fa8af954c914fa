"""benchmarks/sprt_summary.py: the SPRT log's figures from a test's PGN file, counting
only complete pairs of finished games, from the named engine's side."""
from match.stats import SPRT
from tests.drivers import load_script
from tests.match.pgn_files import write_games

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def _pgn(path, games, seed="5", book="book.epd"):
    """``games``: (opening line, white, black, result, depth of White's move, of Black's)."""
    write_games(path, [
        {"white": white, "black": black, "result": result,
         "extra": {"MatchSeed": seed, "Opening": f"{book}:{line}"},
         "comments": {0: f"+0.10/{dw} 0.2s", 1: f"-0.10/{db} 0.2s"}}
        for line, white, black, result, dw, db in games],
        variant="capablanca", event="Leyden match", start_fen=START, moves=["e2e4", "e7e5"],
        termination="normal")


def test_counts_complete_pairs_from_the_first_engine_and_its_depths(tmp_path):
    summary = load_script("benchmarks/sprt_summary.py")
    path = tmp_path / "t.pgn"
    _pgn(path, [
        (1, "new", "old", "1-0", 10, 9),      # new wins with White
        (1, "old", "new", "1/2-1/2", 9, 11),  # and draws with Black: 1.5 of the pair
        (2, "new", "old", "0-1", 12, 9),      # new loses with White
        (2, "old", "new", "0-1", 9, 11),      # and wins with Black: 1 of the pair
        (3, "new", "old", "1-0", 10, 9),      # its pair's other game unfinished:
        (3, "old", "new", "*", 9, 10),        # neither game counted
        (4, "old", "new", "1-0", 9, 10),      # no second game yet: not counted
    ])
    lines = summary.summary(str(path), "new", SPRT(0, 20), every=2)
    text = "\n".join(lines)
    assert "4 games in complete pairs (of 7 in the file)" in lines[0]
    assert lines[1].startswith("new: +2 -1 =1, 62.5%")
    assert "pairs by points 0: 0, 0.5: 0, 1: 1, 1.5: 1, 2: 0" in text
    assert "Elo after 2: +190.8, 4: +88.7" in text  # 1.5 of 2, then 2.5 of 4
    assert "mean depth new: 11.00 plies over 4 moves" in text  # 10, 11, 12, 11
    assert "mean depth old: 9.00 plies over 4 moves" in text


def test_a_file_without_a_complete_pair_says_so(tmp_path):
    summary = load_script("benchmarks/sprt_summary.py")
    path = tmp_path / "t.pgn"
    _pgn(path, [(1, "new", "old", "1-0", 10, 9)])
    assert summary.summary(str(path), "new", SPRT(0, 20), every=40) == [
        f"{path}: no complete pair of finished games"]


def test_two_gauntlets_compared_opening_by_opening(tmp_path):
    summary = load_script("benchmarks/sprt_summary.py")
    new, old = tmp_path / "new.pgn", tmp_path / "old.pgn"
    _pgn(new, [  # Leyden (new) against the peer; the seeds of the two runs differ
        (1, "leyden", "peer", "1-0", 10, 9), (1, "peer", "leyden", "1-0", 9, 10),  # 1 point
        (2, "leyden", "peer", "0-1", 10, 9), (2, "peer", "leyden", "1-0", 9, 10),  # 0
        (3, "leyden", "peer", "1-0", 10, 9), (3, "peer", "leyden", "0-1", 9, 10),  # 2
        (4, "leyden", "peer", "1-0", 10, 9),                                       # no pair
    ], seed="7")
    _pgn(old, [
        (1, "leyden", "peer", "1-0", 10, 9), (1, "peer", "leyden", "1-0", 9, 10),  # 1: same
        (3, "peer", "leyden", "1/2-1/2", 9, 10), (3, "leyden", "peer", "0-1", 10, 9),  # 0.5
        (2, "leyden", "peer", "0-1", 10, 9), (2, "peer", "leyden", "0-1", 9, 10),  # 1
        (4, "leyden", "peer", "1-0", 10, 9), (4, "peer", "leyden", "1-0", 9, 10),
    ], seed="8")
    lines = summary.paired(str(new), str(old), "leyden")
    assert lines[0] == "3 openings complete in both (6 games each)"
    assert lines[1] == f"leyden: 50.0% in {new}, 41.7% in {old}"
    # per game: 0, -0.5, +0.75; mean +0.0833, sd 0.6292, 1.96 sd / sqrt(3) = 0.712
    assert lines[2] == ("difference +8.3 points per 100 games (95%: +- 71.2); "
                        "openings better 1, worse 1, the same 1")


def test_the_same_book_by_another_path_is_the_same_opening(tmp_path):
    # a match run from a worktree names the book by an absolute path, main's by a relative one
    summary = load_script("benchmarks/sprt_summary.py")
    new, old = tmp_path / "new.pgn", tmp_path / "old.pgn"
    two = [(1, "leyden", "peer", "1-0", 10, 9), (1, "peer", "leyden", "0-1", 9, 10),
           (2, "leyden", "peer", "1-0", 10, 9), (2, "peer", "leyden", "1-0", 9, 10)]
    _pgn(new, two, book="/work/hyp/benchmarks/books/book.epd")
    _pgn(old, two[2:] + [(1, "leyden", "peer", "0-1", 10, 9), (1, "peer", "leyden", "1-0", 9, 10)],
         book="benchmarks/books/book.epd")
    lines = summary.paired(str(new), str(old), "leyden")
    assert lines[0] == "2 openings complete in both (4 games each)"
    assert lines[1] == f"leyden: 75.0% in {new}, 25.0% in {old}"  # opening 1: 2 against 0


def _random_plies_pgn(path, games):
    """``games``: (the two random plies, white, black, result); every game from the start
    position with the same Opening tag, as `leyden match --random-plies` writes them."""
    write_games(path, [
        {"white": white, "black": black, "result": result, "moves": [*plies, "g1f3"]}
        for plies, white, black, result in games],
        variant="normal", event="Leyden match", start_fen=START, termination="normal",
        extra={"MatchSeed": "5", "Opening": "start position + 2 random plies"},
        comments={1: "end of opening", 2: "+0.10/8 0.2s"})


def test_random_ply_openings_pair_by_their_moves(tmp_path):
    summary = load_script("benchmarks/sprt_summary.py")
    new, old = tmp_path / "new.pgn", tmp_path / "old.pgn"
    e4, d4 = ("e2e4", "e7e5"), ("d2d4", "d7d5")
    _random_plies_pgn(new, [(e4, "leyden", "peer", "1-0"), (e4, "peer", "leyden", "1-0"),  # 1
                            (d4, "leyden", "peer", "1-0"), (d4, "peer", "leyden", "0-1")])  # 2
    _random_plies_pgn(old, [(d4, "leyden", "peer", "0-1"), (d4, "peer", "leyden", "1-0"),  # 0
                            (e4, "leyden", "peer", "1-0"), (e4, "peer", "leyden", "1-0")])  # 1
    assert "4 games in complete pairs" in summary.summary(str(new), "leyden", SPRT(0, 20), 0)[0]
    lines = summary.paired(str(new), str(old), "leyden")
    assert lines[0] == "2 openings complete in both (4 games each)"
    assert lines[1] == f"leyden: 75.0% in {new}, 25.0% in {old}"  # e4 the same, d4 +1 a game
    assert lines[2].startswith("difference +50.0 points per 100 games")


def _joined(path, runs):
    """One file of several runs' games, as ``cat`` joins them: ``runs`` is (seed, games)."""
    parts = []
    for k, (seed, games) in enumerate(runs):
        part = path.with_suffix(f".{k}.pgn")
        _pgn(part, games, seed=seed)
        parts.append(part.read_text())
    path.write_text("".join(parts))


def test_an_opening_played_twice_in_joined_runs_is_paired_by_its_order(tmp_path):
    # two runs' files joined, each run's book order drawing opening 1: each time counts
    summary = load_script("benchmarks/sprt_summary.py")
    new, old = tmp_path / "new.pgn", tmp_path / "old.pgn"
    _joined(new, [("7", [(1, "leyden", "peer", "1-0", 10, 9), (1, "peer", "leyden", "0-1", 9, 10)]),
                  ("9", [(1, "leyden", "peer", "0-1", 10, 9), (1, "peer", "leyden", "1-0", 9, 10)])])
    _joined(old, [("8", [(1, "leyden", "peer", "1-0", 10, 9), (1, "peer", "leyden", "1-0", 9, 10)]),
                  ("10", [(1, "leyden", "peer", "1-0", 10, 9), (1, "peer", "leyden", "0-1", 9, 10)])])
    lines = summary.paired(str(new), str(old), "leyden")
    assert lines[0] == "2 openings complete in both (4 games each)"
    assert lines[1] == f"leyden: 50.0% in {new}, 75.0% in {old}"
    # per game: +0.5 (2 points against 1), then -1 (0 against 2)
    assert lines[2].startswith("difference -25.0 points per 100 games")
