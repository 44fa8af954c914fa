"""benchmarks/peer_eval.py: the Texel fits that compare Leyden's static evaluation with
Fairy-Stockfish's, and the peer's evaluation trace read from a real Fairy-Stockfish."""
import numpy as np
import pytest

from match.peers import find_binary
from match.pgn import GameRecord, format_game
from tests.drivers import load_script

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
# White wins a knight early (3...Ng4?? 4.Qxg4) and the game is scored 1-0
MOVES = ["e2e4", "e7e5", "d1f3", "g8f6", "f1c4", "f6g4", "f3g4", "d7d6", "g4f3", "c8e6",
         "c4e6", "f7e6", "b1c3", "b8c6", "g1e2", "f8e7", "e1g1", "h8f8", "d2d3", "d8d7",
         "c1e3", "a7a6", "a2a3", "b7b5"]


def _peer_eval():
    return load_script("benchmarks/peer_eval.py")


def test_a_term_the_results_depend_on_lowers_the_loss_and_gets_its_share():
    pe = _peer_eval()
    rng = np.random.default_rng(3)
    x, y = rng.normal(0, 2, 4000), rng.normal(0, 1, 4000)
    results = (rng.random(4000) < 1 / (1 + np.exp(-0.6 * (x + 0.5 * y)))).astype(float)
    k, loss = pe.texel(x, results)
    assert 0.4 < k < 0.8
    share, loss_y = pe.added_term(x, y, results)
    assert loss_y < loss - 0.002
    assert 0.3 < share < 0.7
    _, loss_noise = pe.added_term(x, rng.normal(0, 1, 4000), results)
    assert loss_noise > loss - 0.001  # a term the results do not depend on adds nothing


@pytest.mark.skipif(find_binary("fairy-stockfish") is None, reason="Fairy-Stockfish not installed")
def test_both_evaluations_of_quiet_positions_from_the_side_to_moves_view(tmp_path):
    pe = _peer_eval()
    pgn = tmp_path / "games.pgn"
    rec = GameRecord(round=1, white="a", black="b", variant="normal", event="t", start_fen=START,
                     moves=MOVES, result="1-0", termination="normal", extra={}, comments={})
    pgn.write_text(format_game(rec))
    drawn = pe.quiet_positions("normal", [str(pgn)], rate=1.0, seed=1, max_games=10)
    # plies 10 on, none after a capture (11: Bxe6, 12: fxe6) or in check
    assert [fen for fen, _ in drawn][0].startswith("rn1qkb1r/ppp3pp/3pp3/4p3/4P3/2N2Q2/")
    assert len(drawn) == len(MOVES) - 10 - 2
    assert {r for fen, r in drawn if " w " in fen} == {1.0}
    assert {r for fen, r in drawn if " b " in fen} == {0.0}
    fens = [fen for fen, _ in drawn]
    peer = pe.peer_evaluations("normal", fens, find_binary("fairy-stockfish"))
    leyden = pe.leyden_evaluations("normal", fens)
    for fen, p, v in zip(fens, peer, leyden):
        ahead = 1 if " w " in fen else -1  # White is a knight up: both see it, either side
        assert ahead * p["Total"] > 1.5 and ahead * v > 1.5
        assert ahead * p["Material mg"] > 1.5
        assert {"King safety mg", "King safety eg", "Threats mg", "Mobility eg"} <= set(p)
