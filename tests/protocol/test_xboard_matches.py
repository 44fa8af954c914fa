"""XBoard 4.9 itself runs Leyden in match mode (headless, under xvfb-run): Leyden against
Fairy-Max in Capablanca chess, and Leyden against itself in every other game. The saved
PGN must show finished games with a proper result and no illegal-move, forfeit, false
claim or crash message. And XBoard's own rulings on the games as Leyden describes them
to it, on scripted games (the moves, castlings and mates it must accept). Needs the Debian
packages xboard, xvfb and fairymax (.ci/run installs them); skipped with a message where
they are missing.

By default every game plays one fast self-play game (6 s + 0.1 s); the longer matches
are ``slow`` (pytest -m slow, make test-xboard).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from engine.xbvariants import XB
from movegen import GAMES, Position
from tests.drivers import ROOT, find_program


XBOARD = find_program("xboard")
XVFB_RUN = shutil.which("xvfb-run")
FAIRYMAX = find_program("fairymax")

needs_xboard = pytest.mark.skipif(
    not (XBOARD and XVFB_RUN),
    reason="XBoard match tests skipped: xboard and xvfb-run are not installed "
           "(apt-get install xboard xvfb)")

LEYDEN = f"{sys.executable} -m engine"
BAD = re.compile(r"illegal|forfeit|false (win|draw) claim|crash|exited|terminated|"
                 r"did not send setup|engine abort|invalid move|on time", re.IGNORECASE)


def run_match(tmp_path, variant: str, second: str | None = None, games: int = 1,
              tc: str = "0:30", inc: str = "0.2", extra=(), timeout: float = 900,
              first: str | None = None):
    """Run an XBoard match (Leyden against ``second``, or itself); return [(result, final
    comment, movetext, loser)] from its PGN, where loser names the side that lost (None
    for a draw)."""
    pgn = tmp_path / "games.pgn"
    cmd = [XVFB_RUN, "-a", "-s", "-screen 0 1280x1024x24", XBOARD,
           "-fcp", first or f"{LEYDEN} --log {tmp_path / 'first.log'}", "-fd", ROOT,
           "-scp", second or f"{LEYDEN} --log {tmp_path / 'second.log'}", "-sd", ROOT,
           "-variant", variant, "-mg", str(games), "-tc", tc, "-inc", inc,
           "-saveGameFile", str(pgn), "-debug", "-nameOfDebugFile", str(tmp_path / "xboard.debug"),
           "-popupExitMessage", "false", "-popupMoveErrors", "false", "-ponderNextMove", "false",
           "-autoCallFlag", "true", "-showThinking", "true", *extra]
    proc = subprocess.run(cmd, cwd=tmp_path, timeout=timeout, capture_output=True, text=True,
                          check=False)
    assert pgn.exists(), (f"XBoard saved no game (exit {proc.returncode}); "
                          f"stderr: {proc.stderr[-2000:]}")
    text = pgn.read_text(errors="replace")
    results = []
    for game in re.split(r"\n(?=\[Event )", text.strip()):
        result = re.search(r'\[Result "([^"]*)"\]', game).group(1)
        body = game.split("\n\n", 1)[-1]
        comments = re.findall(r"\{([^{}]*)\}\s*(?:1-0|0-1|1/2-1/2|\*)\s*$", body)
        loser = {"1-0": "Black", "0-1": "White"}.get(result)
        if loser:
            loser = re.search(rf'\[{loser} "([^"]*)"\]', game).group(1)
        results.append((result, comments[-1] if comments else "", body, loser))
    return results


def check(results, games: int):
    """Every game finished properly. A peer that oversteps its clock is its own affair
    (Fairy-Max can flag at 10 s on a busy machine); Leyden never may."""
    assert len(results) == games, results
    for result, comment, body, loser in results:
        assert result in ("1-0", "0-1", "1/2-1/2"), (result, comment)
        if re.fullmatch(r"(White|Black) wins on time", comment) and "Leyden" not in loser:
            print(f"note: the peer {loser} lost on time")
            body = body.replace(comment, "")
        else:
            assert not BAD.search(comment), comment
        assert not BAD.search(body), body[-500:]


@needs_xboard
@pytest.mark.skipif(not FAIRYMAX, reason="XBoard match test skipped: fairymax is not installed")
def test_capablanca_against_fairymax(tmp_path):
    check(run_match(tmp_path, "capablanca", second=FAIRYMAX, tc="0:10", inc="0.1"), 1)


# every game but Capablanca (played against Fairy-Max above), with the XBoard options a
# user sets for it (README, What to set per game)
SELF_PLAY = [(game, XB[game].options) for game in XB if game != "capablanca"]


# (games, base time, increment, timeout): one short game by default, two longer ones slow
SELF_PLAY_LENGTHS = [
    pytest.param(1, "0:06", "0.1", 600, id="short"),
    pytest.param(2, "0:40", "0.2", 1800, id="long", marks=pytest.mark.slow),
]


@needs_xboard
@pytest.mark.parametrize("variant,extra", SELF_PLAY, ids=[v for v, _ in SELF_PLAY])
@pytest.mark.parametrize("games,tc,inc,timeout", SELF_PLAY_LENGTHS)
def test_self_play(tmp_path, variant, extra, games, tc, inc, timeout):
    check(run_match(tmp_path, variant, games=games, tc=tc, inc=inc, extra=extra,
                    timeout=timeout), games)


@needs_xboard
@pytest.mark.slow
@pytest.mark.skipif(not FAIRYMAX, reason="XBoard match test skipped: fairymax is not installed")
def test_capablanca_match_against_fairymax(tmp_path):
    check(run_match(tmp_path, "capablanca", second=FAIRYMAX, games=4, tc="1:00", inc="0.5",
                    timeout=2400), 4)


# XBoard's own rulings on Leyden's description of a game: a scripted engine
# (scripted_xboard_engine.py, which describes the game with Leyden's code) plays a fixed
# game on both sides, and XBoard, testing legality and claims, must see in it what
# Leyden's rules see: each move legal, each castling a castling, a mate a mate.
SCRIPTED = os.path.join(ROOT, "tests", "protocol", "scripted_xboard_engine.py")
ENERGIZER = GAMES["energizer"].start_fen
JUDGED = [
    # A CI game: White's king took on d1, went back to e1, then to c1, where Qc2 mates it;
    # told a bare KO2 King, XBoard let it "castle" from c1 to e1 beside the unmoved h1
    # Rook and called the true mate claim false.
    pytest.param("energizer", ENERGIZER,
                 "d2d4 d7d5 g1f3 c8d6 c2c4 d5c4 b3c4 d6c4 f3e5 c4a6 c1d3 c7c6 d3a6 b8a6 e2e3 "
                 "g7e5 d4e5 d8d1 e1d1 e8c8 b1d2 a6b4 f1e2 b4d3 b2c3 e7e6 a2a3 g8e7 e3e4 b7a6 "
                 "e2f3 c6c5 f3f6 e7c6 a1a2 c6d4 h2h4 f8e8 a3a4 d4e2 c3a1 e8d7 f6f3 e2c1 a2c2 "
                 "d7a4 f3f7 d3b4 f7e6 c8b8 e6c8 b8c8 g2h3 c8b8 d1e1 b4c2 e1d1 c2e3 d1c1 a4c2",
                 "0-1 {Black mates}", ("O-O-O+", "Kxc1 Qc2#"), id="energizer-mate-king-moved"),
    # Energizer's switch rule: a King on d1 castles two squares (d1f1, Rook h1e1), one on
    # c1 too (c1e1, Rook h1d1; XBoard writes that castling "Ke1", and the Rook it moved to
    # d1 goes on to c1)
    pytest.param("energizer", "rnackqnr/pbppppbp/1p4p1/8/8/1P4P1/PBPPPPBP/RNAKCQNR w KQkq - 0 1",
                 "g1f3 b8c6 g2h3 c8d6 f1g2 d8e6 e1d3 a7a6 d1f1 e8c8", "",
                 ("O-O ", "O-O-O"), id="energizer-switched-king-d1"),
    pytest.param("energizer", "rnackqnr/pbppppbp/1p4p1/8/8/1P4P1/PBPPPPBP/RNKCAQNR w KQkq - 0 1",
                 "g1h3 a7a6 g2f3 a6a5 f1g2 h7h6 e1d3 h6h5 d1c3 a8a7 c1e1 a7a6 d1c1 g8f6", "",
                 ("Ke1 ", "Rc1 "), id="energizer-switched-king-c1"),
    # Shatranj al-Sultan: the King castles three squares (f1i1, Rook j1h1; f8c8, a8d8)
    pytest.param("sultan", GAMES["sultan"].start_fen,
                 "i1h3 b8c6 g2g3 d7d6 h1g2 c8d7 g1e3 d8f6 f1i1 e7e6 a2a3 e8e7 a3a4 f8c8", "",
                 ("O-O ", "O-O-O"), id="sultan-castlings"),
]


@needs_xboard
@pytest.mark.parametrize("game,fen,moves,claim,sans", JUDGED)
def test_xboard_judges_leydens_description_as_leyden_does(tmp_path, game, fen, moves, claim,
                                                          sans):
    board = Position.from_fen(game, fen)
    for move in moves.split():
        assert board.is_legal(move), (move, board.fen())
        board.push(move)
    outcome = board.outcome()
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"game": game, "fen": fen, "moves": moves, "claim": claim}))
    engine = f"{sys.executable} {SCRIPTED} {script}"
    [(result, comment, body, _)] = run_match(tmp_path, game, first=engine, second=engine,
                                             tc="1:00", inc="0", timeout=120)
    if claim:  # a mate by Leyden's rules, and XBoard finds the claim true
        claimed, text = claim.split(" ", 1)
        assert outcome == (claimed, "checkmate")
        assert (result, "{" + comment + "}") == (claimed, text), body[-300:]
    else:  # the game went on to its end, a resignation: no move was refused
        assert comment.endswith("resigns"), (comment, body[-300:])
    for san in sans:
        assert san in body, (san, body)
    assert not BAD.search(body), body[-500:]
