"""benchmarks/blind_spots.py: the positions of Leyden's losses that the peer saw were lost
and Leyden did not, and level positions beside them, from the runner's score comments."""
import pytest

from match.pgn import comment_score, read_games
from movegen import Position
from tests.drivers import load_script
from tests.match.pgn_files import write_games

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
MOVES = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5"]


def _blind():
    load_script("benchmarks/depth.py")  # the sibling it imports
    return load_script("benchmarks/blind_spots.py")


def _write(path, games):
    """``games``: (white, black, result, [comment of each move])."""
    write_games(path, [
        {"white": white, "black": black, "result": result, "moves": MOVES[:len(comments)],
         "comments": {j: c for j, c in enumerate(comments) if c}}
        for white, black, result, comments in games],
        variant="normal", start_fen=START, termination="normal")


def _fen_after(plies):
    pos = Position.from_fen("normal", START)
    for m in MOVES[:plies]:
        pos.push(m)
    return pos.fen()


def test_the_first_position_the_peer_sees_lost_and_leyden_does_not(tmp_path):
    blind = _blind()
    path = tmp_path / "t.pgn"
    _write(path, [
        # Leyden (White) lost: after 2... b8c6 the peer (Black) scores +6, Leyden had +0.2
        ("leyden", "fairy-stockfish", "0-1",
         ["+0.30/9 0.2s", "-0.40/12 0.3s", "+0.20/9 0.2s", "+6.00/12 0.3s", "-1.00/9 0.2s", "+M3 0.1s"]),
        # Leyden (Black) lost, but it saw it coming (-2.0) when the peer did (+7): none
        ("fairy-stockfish", "leyden", "1-0",
         ["+0.30/9 0.2s", "-2.00/12 0.3s", "+7.00/9 0.2s", "-9.00/12 0.3s"]),
        # Leyden won: no blind spot, whatever the scores
        ("fairy-stockfish", "leyden", "0-1", ["+9.00/9 0.2s", "+0.50/12 0.3s"]),
        # a mate score counts as lost
        ("fairy-stockfish", "leyden", "1-0", ["+0.10/9 0.2s", "+0.50/12 0.3s", "+M4 0.2s"]),
    ])
    spots = list(blind.candidates(read_games(str(path)), "normal", -500, -50))
    assert spots[0] == {"fen": _fen_after(4), "round": "1", "ply": 4, "leyden": 20, "peer": -600}
    assert [(s["round"], s["ply"], s["peer"]) for s in spots[1:]] == [("4", 3, -10000)]


def test_level_positions_are_taken_from_any_result(tmp_path):
    blind = _blind()
    path = tmp_path / "t.pgn"
    _write(path, [
        ("leyden", "fairy-stockfish", "1/2-1/2",
         ["+0.10/9 0.2s", "-0.50/9 0.2s", "+0.20/9 0.2s", "-0.90/9 0.2s", "+0.30/9 0.2s", "-0.40/9 0.2s"]),
        ("leyden", "fairy-stockfish", "1-0", ["+0.10/9 0.2s", "-3.00/9 0.2s"]),  # never level for both
    ])
    blind.LEVEL_FROM = 2  # from two plies into the game (out of the opening in real use)
    spots = list(blind.candidates(read_games(str(path)), "normal", -500, -50))
    # the peer's -0.50 after 1... is level, but Leyden had only just moved: ply 2 is the first
    # where both are within 1.00; the -0.90 at ply 4 would do too, the first is taken
    assert [(s["round"], s["ply"], s["leyden"], s["peer"], s.get("level")) for s in spots] == [
        ("1", 2, 10, 50, True)]


def test_comment_scores():
    """The runner's score comments read as centipawns; mates count only when asked to."""
    texts = ("+0.51/9 0.18s", "-12.25/3 1.00s", "-M3 0.01s", "+M1 0.01s", "end of opening", "0.18s", "")
    assert [comment_score(t, 10000) for t in texts] == [51, -1225, -10000, 10000, None, None, None]
    assert [comment_score(t) for t in texts] == [51, -1225, None, None, None, None, None]


def test_run_refuses_an_unknown_tune_setting_before_searching(capsys):
    """``run --tune`` takes the engine's Tune syntax; a wrong name stops it with a clear
    error (argparse's exit 2), not a traceback after minutes of searching."""
    blind = _blind()
    with pytest.raises(SystemExit) as stopped:
        blind.main(["run", "--tune", "no_such_weight=1"])
    assert stopped.value.code == 2
    assert "--tune: unknown setting 'no_such_weight'" in capsys.readouterr().err
