"""The tuner: its batch evaluation is the engine's, its loss is Texel's, and its local
search lowers the loss on real self-play positions (tests/tune/data, made by
``python -m tune.datagen``)."""
import json
import math
from pathlib import Path

import numpy as np
import pytest

from movegen.games import find_game
from movegen.tables import build_tables
from search.evaluate import build_eval, eval_table, evaluate
from search.state import new_state
from search.weights import hand_weights, weights
from tune.kernels import eval_batch
from tune.params import tunable, with_piece_entries
from tune.positions import load_positions, parse_line, read_data
from tune.texel import Objective, fit_k, local_search, texel_loss
from tune.texel import main as texel_main

DATA = Path(__file__).parent / "data"
SAMPLES = sorted(p.stem for p in DATA.glob("*.txt"))


def test_samples_are_there():
    assert {"capablanca", "batteries", "enders"} <= set(SAMPLES)
    for name in SAMPLES:
        positions, headers, _ = read_data(DATA / f"{name}.txt")
        assert len(positions) >= 50 and len(headers) >= 1


@pytest.mark.parametrize("name", SAMPLES)
def test_batch_evaluation_is_the_engines(name):
    game = find_game(name)
    data, _ = load_positions(game, DATA / f"{name}.txt")
    G, ss = build_tables(game).G, new_state()
    hand = hand_weights(game)
    other = dict(hand, tempo=hand["tempo"] + 7, centre_mg=hand["centre_mg"] + 5)
    for ev in (build_eval(game, network=False), eval_table(game, other)):
        batch = eval_batch(G, data.boards, data.sts, ev, ss)
        one_by_one = [evaluate(G, data.boards[i].copy(), data.sts[i].copy(), ev, new_state())
                      * (1 if data.sts[i][0] == 0 else -1) for i in range(len(data))]
        assert batch.tolist() == one_by_one
    assert len(set(batch.tolist())) > len(data) // 4  # real, varied evaluations


def test_side_to_move_is_read_from_the_fen():
    result, fen, score = parse_line("0.5 rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR b KQkq - 0 1")
    assert result == 0.5 and fen.endswith("b KQkq - 0 1") and score is None
    assert parse_line(f"1 {fen} cp=-37") == (1.0, fen, -37.0)  # a peer's score (tune/label.py)
    game = find_game("capablanca")
    from tune.positions import position_set
    data = position_set(game, [(0.5, fen), (0.5, fen.replace(" b ", " w "))])
    tempo = weights(game)["tempo"]  # the start position is symmetric: the tempo alone
    assert eval_batch(build_tables(game).G, data.boards, data.sts, build_eval(game, network=False), new_state()).tolist() == [-tempo, tempo]
    with pytest.raises(ValueError):
        parse_line("2 " + fen)
    with pytest.raises(ValueError):
        position_set(game, [(1.0, "not a fen")])


def test_texel_loss_on_a_hand_made_set():
    evals = np.array([0, 200, -200, 600])
    results = np.array([0.5, 1.0, 0.0, 0.5])
    k = 0.01
    s = [1 / (1 + math.exp(-k * e)) for e in (0, 200, -200, 600)]
    expected = ((0.5 - s[0]) ** 2 + (1 - s[1]) ** 2 + (0 - s[2]) ** 2 + (0.5 - s[3]) ** 2) / 4
    assert texel_loss(evals, results, k) == pytest.approx(expected, rel=1e-12)
    assert texel_loss(np.array([0, 0]), np.array([0.5, 0.5]), k) == 0.0


def test_k_is_the_minimum_of_the_loss():
    # winning evaluations mostly win, a few draw: the best K is finite and inside the range
    evals = np.array([100, 100, 300, 300, -200, -200, 0])
    results = np.array([1.0, 0.5, 1.0, 1.0, 0.0, 0.5, 0.5])
    grid = np.exp(np.linspace(math.log(1e-4), math.log(0.1), 4000))
    losses = [texel_loss(evals, results, kk) for kk in grid]
    best = grid[int(np.argmin(losses))]
    assert 2e-4 < best < 0.05
    k = fit_k(evals, results)
    assert k == pytest.approx(best, rel=0.01)
    assert texel_loss(evals, results, k) <= min(losses) + 1e-12


def test_local_search_lowers_the_loss():
    game = find_game("capablanca")
    data, _ = load_positions(game, DATA / "capablanca.txt")
    train, validation = data.split(0.2, seed=3)
    # whole games validate: one of the sample's five, none of its positions in training
    assert len(train) + len(validation) == len(data) and len(validation) > 0
    assert len(set(validation.games)) == 1 and not set(validation.games) & set(train.games)
    obj = Objective(game, train, validation)
    hand = with_piece_entries(game, hand_weights(game))
    obj.k = fit_k(obj.evals(obj.table(hand), train), train.results)
    before = obj.loss(obj.table(hand))
    params = [p for p in tunable(game, hand) if p.key in ("material_mg", "material_eg", "tempo")]
    log = []
    tuned, after = local_search(obj, hand, params, passes=2, log=log.append)
    assert after < before
    assert after == pytest.approx(obj.loss(obj.table(tuned)))
    assert tuned != hand and tuned["mobility_sq_mg"] == hand["mobility_sq_mg"]  # only the chosen ones
    assert len(log) == 2 and log[0].startswith("pass 1: train loss ")


def test_a_number_the_game_never_reads_is_not_evaluated():
    game = find_game("capablanca")
    data, _ = load_positions(game, DATA / "capablanca.txt")
    obj = Objective(game, data, data)
    obj.k = 0.005
    hand = with_piece_entries(game, hand_weights(game))
    # the passed-pawn table is by tenths of the way to promotion: on an 8-rank board some
    # tenths belong to no rank, and changing them is skipped without a batch evaluation
    unused = [p for p in tunable(game, hand) if p.key == "passed_mg"
              and np.array_equal(obj.table(p.set(hand, p.get(hand) + 9)), obj.table(hand))]
    assert unused
    obj.evaluations = 0
    local_search(obj, hand, unused, passes=1, log=lambda _: None)
    assert obj.evaluations == 1  # the starting loss only


def test_command_line(tmp_path, capsys):
    out = tmp_path / "capablanca.json"
    assert texel_main(["capablanca", "--data", str(DATA / "capablanca.txt"), "--passes", "1",
                       "--minutes", "0.1", "--out", str(out), "--datagen-command", "python -m tune.datagen capablanca"]) == 0
    printed = capsys.readouterr().out
    assert "validation loss" in printed and "pass 1: train loss" in printed and f"written {out}" in printed
    record = json.loads(out.read_text())
    assert record["loss"]["train_after"] < record["loss"]["train_before"]
    assert record["positions"]["train"] > record["positions"]["validation"] > 0
    assert record["data"]["games"] == 5 and record["weights"]
    assert record["commands"]["datagen"] == "python -m tune.datagen capablanca"
    assert record["commands"]["tune"].startswith("python -m tune.texel capablanca --data ")
    assert "--out" not in record["commands"]["tune"] and str(out) not in record["commands"]["tune"]
    for args, message in ((["nosuchgame"], "unknown game"),
                          (["capablanca", "--data", str(tmp_path / "none.txt")], "no data file"),
                          (["capablanca", "--holdout", "1.5"], "--holdout")):
        assert _status(args) == 2 and message in capsys.readouterr().err


def _status(args) -> int:
    """The command's exit status (argparse's usage errors exit, the others return)."""
    try:
        return texel_main(args)
    except SystemExit as exc:
        return exc.code


def test_start_from_the_tuned_weights(tmp_path, capsys):
    game = find_game("capablanca")
    data, _ = load_positions(game, DATA / "capablanca.txt")
    train, validation = data.split(0.1)
    records = {}
    for start in ("hand", "tuned"):
        out = tmp_path / f"{start}.json"
        assert texel_main(["capablanca", "--data", str(DATA / "capablanca.txt"), "--passes", "1",
                           "--start", start, "--out", str(out)]) == 0
        assert f"{start} weights: train loss" in capsys.readouterr().out
        records[start] = json.loads(out.read_text())
    record = records["tuned"]
    assert record["start"] == "tuned" and "--start tuned" in record["commands"]["tune"]
    # the loss before is that of the weights the engine plays with (the shipped tuned file)
    obj = Objective(game, train, validation)
    obj.k = record["k"]
    assert record["loss"]["train_before"] == pytest.approx(obj.loss(build_eval(game, network=False)), abs=2e-6)
    assert record["loss"]["train_before"] != records["hand"]["loss"]["train_before"]
    assert record["loss"]["train_after"] < record["loss"]["train_before"]
    # the file holds the changes from the hand weights, as search/weights.py reads it
    assert "material_mg" in record["weights"] and record["weights"] != records["hand"]["weights"]
    with pytest.raises(SystemExit):  # argparse: a start it does not know
        texel_main(["capablanca", "--start", "nowhere"])


def test_ridge_holds_weights_at_their_start():
    game = find_game("capablanca")
    data, _ = load_positions(game, DATA / "capablanca.txt")
    obj = Objective(game, data, data)
    hand = with_piece_entries(game, hand_weights(game))
    obj.k = fit_k(obj.evals(obj.table(hand), data), data.results)
    params = [p for p in tunable(game, hand) if p.key in ("material_mg", "material_eg")]
    free, free_loss = local_search(obj, hand, params, passes=1, log=lambda _: None)
    held, held_loss = local_search(obj, hand, params, passes=1, ridge=1.0, log=lambda _: None)
    # a step of 1 centipawn costs 1.0, far more than any loss (at most 1) can gain
    assert held == hand and held_loss == pytest.approx(obj.loss(obj.table(hand)))
    assert free != hand and free_loss < held_loss


def test_held_weights_keep_their_start_values(tmp_path, capsys):
    out = tmp_path / "held.json"
    args = ["capablanca", "--data", str(DATA / "capablanca.txt"), "--passes", "1", "--out", str(out)]
    assert texel_main(args + ["--hold", "material_mg", "super_piece_vs_light"]) == 0
    held = json.loads(out.read_text())
    assert texel_main(args) == 0
    free = json.loads(out.read_text())
    # the free fit moves both (the hand values are not this data's optimum); the held one neither
    assert "material_mg" in free["weights"] and "super_piece_vs_light" in free["weights"]
    assert "material_mg" not in held["weights"] and "super_piece_vs_light" not in held["weights"]
    assert held["held"] == ["material_mg", "super_piece_vs_light"] and free["held"] == []
    assert held["loss"]["train_after"] < held["loss"]["train_before"]
    capsys.readouterr()
    assert _status(args + ["--hold", "no_such_weight"]) == 2
    assert "no weight named no_such_weight" in capsys.readouterr().err


def test_peer_weight_blends_a_peers_expectation_into_the_target():
    from tune.positions import position_set
    from tune.texel import blend, scored_only, sigmoid
    game = find_game("capablanca")
    fen = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"
    data = position_set(game, [(1.0, fen, 200.0), (0.0, fen, None), (0.5, fen, -100.0)])
    scored = scored_only(data)
    assert scored.results.tolist() == [1.0, 0.5] and scored.scores.tolist() == [200.0, -100.0]
    blended = blend(scored, 0.01, 0.75)
    assert blended.results == pytest.approx([0.25 + 0.75 * sigmoid(2.0), 0.125 + 0.75 * sigmoid(-1.0)])
    with pytest.raises(ValueError):
        scored_only(position_set(game, [(1.0, fen)]))


def test_a_fit_to_a_peers_scores(tmp_path):
    # positions scored by Fairy-Stockfish (tune.label, 5,000 nodes each; the first games
    # of data/tune/capablanca-scored.txt): the fit goes to the blended targets and says
    # how the weights predict the held-out results alone, before and after
    out = tmp_path / "capablanca.json"
    assert texel_main(["capablanca", "--data", str(DATA / "scored" / "capablanca.txt"),
                       "--peer-weight", "0.75", "--passes", "1", "--minutes", "0.1", "--out", str(out)]) == 0
    record = json.loads(out.read_text())
    assert record["loss"]["train_after"] < record["loss"]["train_before"]
    peer = record["peer"]
    assert peer["weight"] == 0.75 and 1e-4 < peer["k"] < 0.1 and 0 < peer["loss"] < 0.25
    assert len(peer["validation_on_results"]) == 2 and all(0 < x < 0.25 for x in peer["validation_on_results"])
    # unscored data cannot be fitted to a peer
    assert texel_main(["capablanca", "--data", str(DATA / "capablanca.txt"), "--peer-weight", "0.5",
                       "--out", str(out)]) == 2


def test_piece_square_corrections_are_linear_in_the_evaluation():
    # tune/pst.py's model: a correction adds its value, phase-weighted, per White piece on
    # its square and takes it per Black piece on the mirrored one, either wing alike
    from tune.pst import Features, from_vector, to_vector
    game = find_game("capablanca")
    data, _ = load_positions(game, DATA / "capablanca.txt")
    G, w = build_tables(game).G, with_piece_entries(game, weights(game))
    rng = np.random.default_rng(5)
    delta = rng.integers(-30, 31, size=len(to_vector(game, w))).astype(float)
    changed = from_vector(game, w, to_vector(game, w) + delta)
    knight = [p.letter for p in game.pieces].index("N")  # columns: phase, piece, rank, file
    assert changed["pst_mg"]["N"][0][1] == w["pst_mg"].get("N", [[0] * 5] * 8)[0][1] + delta[knight * 40 + 1]
    assert changed["pst_eg"]["N"][7][4] == w["pst_eg"].get("N", [[0] * 5] * 8)[7][4] + delta[320 + knight * 40 + 39]
    base = eval_batch(G, data.boards, data.sts, eval_table(game, w), new_state())
    after = eval_batch(G, data.boards, data.sts, eval_table(game, changed), new_state())
    predicted = Features(game, data, eval_table(game, w)).apply(delta)
    assert np.count_nonzero(after != base) > len(data) // 2
    off = np.abs(after - base - predicted)
    assert np.mean(off <= 2) > 0.9  # the taper's rounding; the few drawish endgames are scaled


def test_a_fit_of_the_piece_square_corrections(tmp_path, capsys):
    out = tmp_path / "capablanca.json"
    assert texel_main(["capablanca", "--data", str(DATA / "scored" / "capablanca.txt"), "--peer-weight", "1",
                       "--passes", "1", "--minutes", "0.05", "--pst", "--out", str(out)]) == 0
    record = json.loads(out.read_text())
    assert "piece-square corrections fitted" in capsys.readouterr().out
    assert record["pst_ridge"] == 1e-8 and record["loss"]["train_after"] < record["loss"]["train_before"]
    tables = record["weights"]["pst_mg"]
    assert set(tables) == {"K", "Q", "C", "A", "R", "B", "N", "P"}
    assert all(len(t) == 8 and all(len(row) == 5 for row in t) for t in tables.values())
    assert any(v != 0 for t in tables.values() for row in t for v in row)
    # the engine plays the file: the corrections are read back into its evaluation
    tuned = tmp_path / "tuned"
    tuned.mkdir()
    (tuned / "capablanca.json").write_text(out.read_text())
    game = find_game("capablanca")
    assert weights(game, tuned)["pst_mg"] == tables
    assert texel_main(["batteries", "--data", str(DATA / "batteries.txt"), "--pst", "--out", str(out)]) == 2
