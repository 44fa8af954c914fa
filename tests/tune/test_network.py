"""The evaluation network's trainer (tune/network.py) and the engine's use of what it
writes (search/network.py): trained on a small scored file, the loss falls, and the
engine's integer evaluation of a position is the trainer's float one to a centipawn or two."""
import shutil
from pathlib import Path

import numpy as np

from movegen import Position
from movegen.games import find_game
import pytest

from search.evaluate import EV, eval_table, evaluate, put_network
from search.network import NET_H, feature_table
from search.state import new_state
from search.weights import weights
from tune.network import Network, base_scores, base_tables, feature_matrices, load_scored, train
from tune.positions import position_set

SCORED = Path(__file__).parent / "data" / "scored" / "capablanca.txt"


@pytest.mark.parametrize("with_base", [False, True])
def test_training_lowers_the_loss_and_the_engine_evaluates_the_same(tmp_path, with_base):
    """Trained alone or over the base of the piece-square sums (``--base``), the network's
    loss falls, and the engine's score of a position is the trainer's."""
    data = tmp_path / "capablanca.txt"
    shutil.copy(SCORED, data)
    game = find_game("capablanca")
    base = base_tables(game) if with_base else None
    log = []
    net, k, loss = train(game, [data], epochs=40, batch=64, lr=0.01, holdout=0.2, base=base, log=log.append)
    def training_loss(line):
        return float(line.split("training loss ")[1].split(",")[0])
    assert training_loss(log[-1]) < 0.5 * training_loss(log[2]), log  # the last epoch's against the first's
    validations = [float(line.split("validation ")[1].split()[0]) for line in log if line.startswith("epoch")]
    assert abs(loss - min(validations)) < 1e-6  # the best epoch's network kept
    assert (tmp_path / "capablanca.txt.npz").exists()  # the parsed positions cached
    assert len(load_scored(game, data)) == sum(1 for line in open(data) if "cp=" in line)

    ev = eval_table(game, weights(game)).copy()
    put_network(ev, game, {"w1": net.w1, "b1": net.b1, "w2": net.w2, "b2": net.b2, **(base or {})})
    fens = [line.split(" ", 1)[1].rsplit(" ", 1)[0] for line in open(data) if "cp=" in line][:30]
    ps = position_set(game, [(0.5, fen) for fen in fens])
    table, n = feature_table(game, len(game.pieces))
    floats = net.forward(*feature_matrices(ps, table, n), base_scores(ps, base) if base else 0.0)[2]
    for fen, want in zip(fens, floats):
        pos = Position(game, fen)
        got = evaluate(pos.tables.G, pos.board, pos.st, ev, new_state())
        assert abs(got - want) <= 2, fen
    assert np.ptp(floats) > 20  # not a constant: the positions are told apart


@pytest.mark.parametrize("game_name", ["normal", "capablanca"])
def test_the_base_is_the_engines_tapered_sums(game_name):
    """A network of zero weights over the base scores each position exactly as the
    trainer's ``base_scores``: the piece-square sums tapered by phase, the side to move's
    view; and a table whose hand-written piece values were changed afterwards still adds
    the base the network was trained over."""
    game = find_game(game_name)
    base = base_tables(game)
    n = feature_table(game, len(game.pieces))[1]
    zero = {"w1": np.zeros((n, NET_H)), "b1": np.zeros(NET_H), "w2": np.zeros(2 * NET_H), "b2": np.zeros(1)}
    pos = Position(game)
    fens = []
    for i in range(12):  # a game's positions, either side to move, captures among them
        moves = pos.legal_moves()
        pos.push(moves[(7 * i) % len(moves)])
        fens.append(pos.fen())
    ps = position_set(game, [(0.5, fen) for fen in fens])
    want = base_scores(ps, base)
    ev = eval_table(game, weights(game)).copy()
    EV.view(ev, "EV_PST_MG")[1] += 40  # the hand-written pawn retuned after the training
    put_network(ev, game, {**zero, **base})
    for fen, w in zip(fens, want):
        p = Position(game, fen)
        assert evaluate(p.tables.G, p.board, p.st, ev, new_state()) == w, fen
    assert len(set(want.tolist())) > 3


def test_features_mirror_for_black():
    """A White piece seen by White is the Black piece on the mirrored square seen by Black."""
    game = find_game("capablanca")
    table, n = feature_table(game, len(game.pieces))
    pos = Position(game)
    geo = pos.geo
    for sq in geo.valid:
        f, r = geo.file_rank(sq)
        mirror = geo.index(f, geo.ranks - 1 - r)
        for t in range(1, len(game.pieces) + 1):
            assert table[0, t, sq] == table[1, t | 16, mirror] >= 0
            assert table[0, t | 16, sq] == table[1, t, mirror] >= 0
    used = table[table >= 0]
    assert used.max() == n - 1 and len(np.unique(used)) == n
    assert NET_H == Network(n, NET_H).b1.size


def _reflect(fen: str) -> str:
    """A FEN's board reflected left to right, by the text (each rank read backwards; no
    castling rights or en-passant square, which would not reflect)."""
    import re
    board, side, *_ = fen.split()
    ranks = ["".join(reversed(re.findall(r"\d+|[A-Za-z]", rank))) for rank in board.split("/")]
    return f"{'/'.join(ranks)} {side} - - 0 1"


def test_mirrored_positions_are_the_reflected_boards():
    """``mirrored`` reflects each board left to right: its positions are those of the FENs
    reflected by their text, and the network's features of a position and its reflection
    are reflections of each other (the same pieces, count for count)."""
    from tune.network import mirrored
    game = find_game("capablanca")
    fens = [line.split(" ", 1)[1].rsplit(" ", 1)[0] for line in open(SCORED) if "cp=" in line][:20]
    ps = position_set(game, [(0.5, fen) for fen in fens])
    want = position_set(game, [(0.5, _reflect(fen)) for fen in fens])
    got = mirrored(ps)
    assert np.array_equal(got.boards, want.boards)
    assert not np.array_equal(got.boards, ps.boards)
    table, n = feature_table(game, len(game.pieces))
    for a, b in zip(feature_matrices(ps, table, n), feature_matrices(got, table, n)):
        assert np.array_equal(np.asarray(a.sum(1)).ravel(), np.asarray(b.sum(1)).ravel())
