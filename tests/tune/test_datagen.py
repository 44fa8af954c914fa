"""The data generator: real self-play games, written as labelled quiet positions, and a
rerun continues the file instead of starting again."""
import subprocess
import sys

import numpy as np

from movegen import Position
from movegen.games import find_game
from search.evaluate import build_eval
from search.state import MAX_MOVES, MAX_SPLY, new_state
from search.tt import new_table
from tune.datagen import Settings, games_done, generate
from tune.kernels import quiescence_gap
from tune.positions import RESULTS, read_data


def _quiet(pos):
    buf = np.zeros(MAX_SPLY * MAX_MOVES, np.int64)
    return quiescence_gap(pos.tables.G, pos.board.copy(), pos.st.copy(), pos.undo.copy(), buf,
                          new_table(1), new_state(), build_eval(pos.game)) == 0


def test_two_games_of_labelled_quiet_positions(tmp_path):
    out = tmp_path / "capablanca.txt"
    settings = Settings("capablanca", nodes=300, random_plies=4, skip_plies=4, max_plies=60)
    log = []
    written = generate(settings, 2, out, log=log.append)
    positions, headers, game_of = read_data(out)
    assert game_of == sorted(game_of) and set(game_of) == {0, 1}  # every position after its header
    assert len(headers) == 2 and written == len(positions) > 20
    assert games_done(out) == {0, 1}
    assert any(line.startswith("game 1: ") and "positions/s" in line for line in log)
    results = {}
    for h in headers:
        fields = dict(zip(h.split()[::2], h.split()[1::2]))
        results[fields["game"]] = RESULTS[fields["result"]]
        assert int(fields["positions"]) <= int(fields["plies"]) - settings.skip_plies + 1
    # every position line belongs to the game whose header precedes it, with its result
    game, lines = None, out.read_text().splitlines()
    fens = set()
    for line in lines:
        if line.startswith("#"):
            game = line.split()[2]
            continue
        result, fen = line.split(" ", 1)
        assert float(result) == results[game]
        pos = Position("capablanca", fen)  # a valid FEN of the game
        assert not pos.in_check() and pos.outcome() is None and _quiet(pos)
        fens.add(fen)
    assert len(fens) > len(positions) // 2  # the games' own positions, not one repeated
    # a rerun with more games plays only the missing one; the same count plays nothing
    assert generate(settings, 3, out, log=log.append) > 0 and games_done(out) == {0, 1, 2}
    assert generate(settings, 3, out, log=log.append) == 0 and log[-1].endswith("all 3 games done")
    assert read_data(out)[0][:len(positions)] == positions


def test_enders_keeps_turn_starts_only(tmp_path):
    out = tmp_path / "enders.txt"
    generate(Settings("enders", nodes=300, random_plies=2, skip_plies=0, max_plies=40), 1, out,
             log=lambda _: None)
    positions, headers, _ = read_data(out)
    assert len(headers) == 1 and positions
    game = find_game("enders")
    from movegen import layout as L
    for _, fen, _ in positions:
        assert Position(game, fen).st[L.S_ACTIONS] == 0


def test_command_line_errors(tmp_path):
    for args, message in ((["nosuchgame"], "unknown game"), (["capablanca", "--nodes", "0"], "--nodes")):
        run = subprocess.run([sys.executable, "-m", "tune.datagen", *args, "--out", str(tmp_path / "x.txt")],
                             capture_output=True, text=True)
        assert run.returncode == 2 and message in run.stderr


def test_scores_are_the_searches_from_whites_view(tmp_path):
    """``--scores``: every position line ends with the search's score, White's view. A
    score from the side to move's view would disagree in sign with the static evaluation
    (also turned to White's view) in the positions of Black to move where one side leads
    clearly; White's view agrees with it in nearly all of them."""
    from search.evaluate import evaluate
    out = tmp_path / "normal.txt"
    generate(Settings("normal", nodes=400, random_plies=6, skip_plies=2, max_plies=80, scores=True), 4, out,
             log=lambda _: None)
    positions, _, _ = read_data(out)
    assert len(positions) > 40 and all(score is not None for _, _, score in positions)
    game = find_game("normal")
    ev = build_eval(game)
    agree = clear = 0
    for _, fen, score in positions:
        pos = Position(game, fen)
        static = evaluate(pos.tables.G, pos.board, pos.st, ev, new_state())
        white_static = static if pos.turn == "w" else -static
        if abs(white_static) >= 150 and abs(score) >= 150:
            clear += 1
            agree += (score > 0) == (white_static > 0)
    assert clear >= 10 and agree >= 0.9 * clear
