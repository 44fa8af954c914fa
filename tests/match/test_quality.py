"""benchmarks/quality.py: the position set drawn from games against Fairy-Stockfish, the
judge's verdicts (a real Fairy-Stockfish) and the paired comparison of two builds."""
import shutil

import pytest

from match.pgn import GameRecord, format_game
from movegen import Position
from tests.drivers import load_script

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
# a quiet opening both sides play through; the peer's comments carry its scores
MOVES = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7",
         "f1e1", "b7b5", "a4b3", "d7d6", "c2c3", "e8g8"]


def _quality():
    return load_script("benchmarks/quality.py")


def _game(path, peer_white: bool, peer_score: str):
    white, black = ("fairy-stockfish", "leyden") if peer_white else ("leyden", "fairy-stockfish")
    comments = {i: (f"{peer_score}/14 0.3s" if (i % 2 == 0) == peer_white else "+0.00/9 0.2s")
                for i in range(len(MOVES))}
    rec = GameRecord(round=1, white=white, black=black, variant="normal", event="strength",
                     start_fen=START, moves=MOVES, result="1/2-1/2", termination="normal",
                     extra={}, comments=comments)
    with open(path, "a", encoding="utf-8") as f:
        f.write(format_game(rec))


def test_positions_are_the_peers_turns_when_the_game_is_balanced(tmp_path):
    quality = _quality()
    pgn = tmp_path / "games.pgn"
    _game(pgn, peer_white=True, peer_score="+0.40")
    _game(pgn, peer_white=False, peer_score="-5.20")  # the peer far ahead: none kept
    fens = quality.make_positions("normal", pgn, 10, seed=1)
    assert len(fens) == 2  # at most two a game
    pos, expected = Position("normal"), set()
    for i, move in enumerate(MOVES):
        if i % 2 == 0 and i >= 10:  # White (the peer) to move, from the 6th move
            expected.add(pos.fen())
        pos.push(move)
    assert set(fens) <= expected


def test_paired_difference_counts_only_the_positions_both_searched():
    quality = _quality()
    a = {"moves": {"p1": "e2e4", "p2": "d2d4", "p3": "c2c4"}, "losses": [0, 30, 10]}
    b = {"moves": {"p1": "e2e4", "p2": "g1f3"}, "losses": [0, 10]}
    line = quality.paired(a, b, "other")
    assert "2 positions, 1 moves differ" in line and "+10.0" in line


@pytest.mark.skipif(shutil.which("fairy-stockfish") is None and shutil.which("/usr/games/fairy-stockfish") is None,
                    reason="Fairy-Stockfish is not installed")
def test_the_judge_scores_a_blunder_below_the_best_move(tmp_path, monkeypatch):
    quality = _quality()
    monkeypatch.setattr(quality, "CACHE_DIR", tmp_path)
    judge = quality.Judge("normal", 20000)
    fen = "4k3/8/8/8/8/8/3q4/3QK3 w - - 0 1"  # in check: take the queen (either way) or lose one
    try:
        best = judge.entry(fen)["best"]
        assert best in ("d1d2", "e1d2") and judge.loss(fen, best) == 0
        assert judge.loss(fen, "e1f1") > 500  # the king steps away: Qxd1+ wins White's queen
        judge.save()
    finally:
        judge.close()
    again = quality.Judge("normal", 20000)
    assert set(again.entry(fen)["values"]) == {best, "e1f1"} and again.searches == 0
