"""XBoard 4.9 itself runs Leyden in match mode (headless, under xvfb-run): Leyden against
Fairy-Max in Capablanca chess, and Leyden against itself in every other game. The saved
PGN must show finished games with a proper result and no illegal-move, forfeit, false
claim or crash message. Needs the Debian packages xboard, xvfb and fairymax (.ci/run
installs them); skipped with a message where they are missing.

By default every game plays one fast self-play game (6 s + 0.1 s); the longer matches
are ``slow`` (pytest -m slow, make test-xboard).
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest

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
              tc: str = "0:30", inc: str = "0.2", extra=(), timeout: float = 900):
    """Run an XBoard match; return [(result, final comment, movetext, loser)] from its PGN,
    where loser names the side that lost (None for a draw)."""
    pgn = tmp_path / "games.pgn"
    cmd = [XVFB_RUN, "-a", "-s", "-screen 0 1280x1024x24", XBOARD,
           "-fcp", f"{LEYDEN} --log {tmp_path / 'first.log'}", "-fd", ROOT,
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


SELF_PLAY = [
    ("normal", ()),
    ("caparandom", ()),
    ("energizer", ()),
    ("sultan", ()),
    ("sultanrandom", ()),
    ("batteries", ("-testLegality", "false")),
    ("enders", ("-testLegality", "false", "-ruleMoves", "0")),
]


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
