"""benchmarks/time_use.py: each engine's clock replayed from a match PGN's move times."""
from tests.drivers import load_script
from tests.match.pgn_files import write_games

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 29"


def _write(path, games):
    """``games``: (white, black, result, termination, time control, [seconds a move])."""
    write_games(path, [
        {"white": white, "black": black, "result": result, "termination": term, "time_control": tc,
         "moves": ["e2e4", "e7e5", "g1f3", "b8c6"][:len(times)],
         "comments": {j: f"+0.10/9 {t:.2f}s" for j, t in enumerate(times)}}
        for white, black, result, term, tc, times in games], variant="normal", start_fen=START)


def test_clocks_are_replayed_per_engine_with_increments_and_forfeits(tmp_path):
    use = load_script("benchmarks/time_use.py")
    path = tmp_path / "t.pgn"
    _write(path, [
        # a: 1.0 + 2.0 s, b: 0.5 + 4.0 s, from 5 s + 0.5 s; the game starts at move 29
        ("a", "b", "1-0", "time forfeit", "5+0.5", [1.0, 0.5, 2.0, 4.0]),
        ("b", "a", "1/2-1/2", "normal", "5+0.5", [0.25, 0.75]),
        ("a", "b", "1-0", "normal", "-", [0.1, 0.1]),  # nodes a move: no clock
    ])
    uses = {}
    booked = [use.add_game(uses, g, 30) for g in use.read_games(str(path))]
    assert booked == [True, True, False]
    a, b = uses["a"], uses["b"]
    assert (a.games, b.games) == (2, 2)
    assert a.phase_times[(1, 10)] == [1.0, 2.0, 0.75]
    # a's clock: 5 - 1 + 0.5 = 4.5 after move 29, 4.5 - 2 + 0.5 = 3.0 after move 30
    assert a.left_at == [3.0] and a.left_end == [3.0, 4.75]
    assert b.left_at == [1.5]  # 5 - 0.5 + 0.5 - 4 + 0.5
    assert b.lowest == (1.0, "a-b round 1")  # 5.0 - 4.0, before its increment
    assert (a.forfeits, b.forfeits) == (0, 1)  # the game's loser, Black
    lines = use.report(uses, 30)
    assert lines[0] == "a: 2 games; a move moves 1-10: 1.250 s (3), moves 11-30: -, moves 31-: -"
    assert "at move 30 median 3.00 s (1 games)" in lines[1] and "time forfeits 0" in lines[1]
