"""benchmarks/score_drift.py: both engines' scores over the games, split by result."""
from tests.drivers import load_script
from tests.match.pgn_files import write_games

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
MOVES = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"]


def _write(path, games):
    """``games``: (white, black, result, [White's scores], [Black's scores]), each score
    from the mover's own side, one per move of the game's four moves a side."""
    write_games(path, [
        {"white": white, "black": black, "result": result,
         "comments": {j: f"{s} 0.10s" for j, s in enumerate(s for pair in zip(ws, bs) for s in pair)}}
        for white, black, result, ws, bs in games],
        variant="normal", start_fen=START, moves=MOVES, termination="normal", time_control="10+0.1")


def test_scores_are_medians_from_the_opponents_side_and_blunders_are_counted(tmp_path):
    drift = load_script("benchmarks/score_drift.py")
    path = tmp_path / "g.pgn"
    _write(path, [
        # lost by a drift: the peer's score climbs half a pawn a move
        ("leyden", "peer", "0-1", ["+0.00/9", "-0.10/9", "-0.20/9", "-0.30/9"],
         ["+0.50/9", "+1.00/9", "+1.50/9", "+2.00/9"]),
        # lost by a blunder the peer saw at once (+0.30 -> +2.50), then a mate
        ("peer", "leyden", "1-0", ["+0.20/9", "+0.30/9", "+2.50/9", "+M3"],
         ["+0.00/9", "+0.00/9", "-1.00/9", "-M2"]),
        ("leyden", "peer", "1-0", ["+1.00/9"] * 4, ["-1.00/9"] * 4),  # won
    ])
    lines = drift.report(str(path), "leyden", [2, 4])
    assert lines[0].endswith("3 games of leyden")
    assert lines[1] == "lost: 2 games"
    # move 2: the peer +1.00 and +0.30, Leyden -0.10 and 0.00 (the peer's side: +0.10, 0.00)
    assert lines[2].startswith("  move   2: opponent +0.65, leyden +0.05")
    assert lines[2].endswith("opponent at +1.00 or more in 1 of 2")
    # move 4: +2.00 and a mate (10 pawns); Leyden -0.30 and mated (+0.30, +10.00)
    assert lines[3].startswith("  move   4: opponent +6.00, leyden +5.15")
    assert lines[4].endswith("in 1 of 2")
    assert lines[5] == "not lost: 1 games"
    assert lines[6].startswith("  move   2: opponent -1.00, leyden -1.00")
    assert lines[6].endswith("in 0 of 1")
