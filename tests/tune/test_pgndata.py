"""Training positions from PGN games (tune/pgndata.py): games written by the match
runner's own PGN writer, and a real Fairy-Stockfish game of the strength table."""
import random
import subprocess
import sys
from pathlib import Path

import numpy as np

from match.pgn import GameRecord, format_game
from movegen import Position
from search.evaluate import build_eval
from search.state import MAX_MOVES, MAX_SPLY, new_state
from search.tt import new_table
from tune.kernels import quiescence_gap
from tune.pgndata import convert
from tune.positions import read_data

STRENGTH_PGN = Path(__file__).parents[2] / "benchmarks" / "strength-10a43f4" / "10+0.1" / "capablanca-fairy-stockfish.pgn"


def _quiet(pos):
    buf = np.zeros(MAX_SPLY * MAX_MOVES, np.int64)
    return quiescence_gap(pos.tables.G, pos.board.copy(), pos.st.copy(), pos.undo.copy(), buf,
                          new_table(1), new_state(), build_eval(pos.game)) == 0


def _random_game(variant, seed, plies=50, result="1-0", termination="normal"):
    rng = random.Random(seed)
    pos = Position(variant)
    start = pos.fen()
    moves = []
    for _ in range(plies):
        legal = pos.legal_moves()
        if not legal or pos.outcome() is not None:
            break
        moves.append(pos.push(rng.choice(legal)).name)
    rec = GameRecord(round=seed, white="a", black="b", variant=variant, start_fen=start, moves=moves,
                     comments={3: "end of opening"}, result=result, termination=termination)
    return rec, format_game(rec)


def _expected(rec, skip):
    """The quiet positions after the opening's 4 plies and ``skip`` more, replayed here."""
    pos = Position(rec.variant, rec.start_fen)
    out = []
    for ply, move in enumerate(rec.moves):
        if ply >= 4 + skip and not pos.in_check() and _quiet(pos):
            out.append(pos.fen())
        pos.push(move)
    return out


def test_usable_games_only_and_their_quiet_positions(tmp_path):
    kept, text = _random_game("normal", 1, result="0-1")
    forfeit = _random_game("normal", 2, termination="time forfeit")[1]
    unfinished = _random_game("normal", 3, result="*", termination="unterminated")[1]
    other_game = _random_game("capablanca", 4)[1]
    pgn = tmp_path / "games.pgn"
    pgn.write_text(text + "\n" + forfeit + "\n" + unfinished + "\n" + other_game)
    out = tmp_path / "normal.txt"
    log = []
    written = convert("normal", [str(pgn)], out, skip_plies=2, log=log.append)
    positions, headers, game_of = read_data(out)
    assert len(headers) == 1 and set(game_of) == {0}
    assert headers[0].split()[:2] == ["game", "0"] and "result 0-1" in headers[0]
    expected = _expected(kept, 2)
    assert written == len(positions) == len(expected) > 5
    assert [fen for _, fen, _ in positions] == expected
    assert all(label == 0.0 for label, _, _ in positions)
    assert "2 skipped" in log[0]


def test_a_fairy_stockfish_game(tmp_path):
    first = STRENGTH_PGN.read_text().split("\n\n[Event")[0]  # the file's first game
    pgn = tmp_path / "one.pgn"
    pgn.write_text(first + "\n")
    out = tmp_path / "c.txt"
    convert("capablanca", [str(pgn)], out, log=lambda _: None)
    positions, headers, _ = read_data(out)
    assert len(headers) == 1 and "white fairy-stockfish" in headers[0] and len(positions) > 10
    for _, fen, _ in positions:
        assert not Position("capablanca", fen).in_check()


def test_command_line_errors(tmp_path):
    for args, message in ((["nosuchgame", str(STRENGTH_PGN)], "unknown game"),
                          (["capablanca", str(tmp_path / "none.pgn")], "no such file"),
                          (["capablanca", str(STRENGTH_PGN), "--exclude", str(STRENGTH_PGN)],
                           "not a data file")):
        run = subprocess.run([sys.executable, "-m", "tune.pgndata", *args, "--out", str(tmp_path / "x.txt")],
                             capture_output=True, text=True)
        assert run.returncode == 2 and message in run.stderr


def test_exclude_writes_new_positions_only(tmp_path):
    """--exclude: positions of an earlier data file (or met earlier in the run) are left
    out, games left with none are dropped, and the rest is written as before."""
    first, text1 = _random_game("normal", 5)
    second, text2 = _random_game("normal", 6, result="1/2-1/2")
    (tmp_path / "a.pgn").write_text(text1)
    (tmp_path / "b.pgn").write_text(text2)
    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    convert("normal", [str(tmp_path / "a.pgn")], old, skip_plies=0, log=lambda _: None)
    written = convert("normal", [str(tmp_path / "a.pgn"), str(tmp_path / "b.pgn"), str(tmp_path / "b.pgn")],
                      new, skip_plies=0, log=lambda _: None, exclude=[str(old)])
    positions, headers, _ = read_data(new)
    key = lambda fen: " ".join(fen.split()[:4])  # noqa: E731
    expected = list(dict.fromkeys(key(f) for f in _expected(second, 0)))
    expected = [k for k in expected if k not in {key(f) for f in _expected(first, 0)}]
    assert written == len(positions) == len(expected) > 5
    assert [key(fen) for _, fen, _ in positions] == expected
    assert len(headers) == 1 and "result 1/2-1/2" in headers[0]


def test_scores_from_the_move_comments(tmp_path):
    """``--scores``: each kept position carries the score the mover's search gave it (the
    comment on the move played from it), turned to White's view; positions whose move has
    no score, or a mate score, are left out."""
    rec, _ = _random_game("normal", 5, plies=40)
    comments = {ply: f"{'+' if ply % 3 else '-'}{ply / 100:.2f}/9 0.10s" for ply in range(len(rec.moves))}
    comments[3] = "end of opening"
    comments[12] = "+M3 0.01s"
    del comments[14]
    rec.comments = comments
    pgn = tmp_path / "scored.pgn"
    pgn.write_text(format_game(rec))
    out = tmp_path / "normal.txt"
    convert("normal", [str(pgn)], out, skip_plies=0, log=lambda _: None, scores=True)
    positions, _, _ = read_data(out)
    pos = Position("normal", rec.start_fen)
    expected = []
    for ply, move in enumerate(rec.moves):
        if ply >= 4 and ply not in (12, 14) and not pos.in_check() and _quiet(pos):
            mover = ply if ply % 3 else -ply
            expected.append((pos.fen(), mover if ply % 2 == 0 else -mover))
        pos.push(move)
    assert [(fen, cp) for _, fen, cp in positions] == expected
    assert len(expected) > 10 and any(cp < 0 for _, cp in expected) and any(cp > 0 for _, cp in expected)
