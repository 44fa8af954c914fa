"""benchmarks/odds.py: the time-odds gauntlet of benchmarks/sprt.md's rows, as the match
command it builds."""
import argparse
import os

import match.peers
from tests.drivers import load_script


def _argv(game, monkeypatch, tmp_path):
    monkeypatch.setattr(match.peers, "find_binary", lambda name: f"/opt/{name}")
    odds = load_script("benchmarks/odds.py")
    args = argparse.Namespace(game=game, dir=str(tmp_path), pgn="/tmp/c.pgn", seed=7613, games=20)
    return odds.match_argv(args)


def _engines(argv):
    """The two ``--engine`` token lists."""
    first = argv.index("--engine")
    second = argv.index("--engine", first + 1)
    return argv[first + 1:second], argv[second + 1:]


def test_leyden_at_ten_seconds_against_the_peer_at_two(monkeypatch, tmp_path):
    argv = _argv("normal", monkeypatch, tmp_path)
    assert argv[argv.index("--tc") + 1] == "10+0.1"
    assert argv[argv.index("--seed") + 1] == "7613"
    assert argv[argv.index("--games") + 1] == "20"
    leyden, peer = _engines(argv)
    assert f"dir={tmp_path}" in leyden and "proto=xboard" in leyden
    assert "cmd=/opt/fairy-stockfish" in peer and "tc=2+0.02" in peer
    assert f"option.VariantPath={match.peers.FSF_VARIANTS}" in peer


def test_openings_per_game(monkeypatch, tmp_path):
    book = _argv("capablanca", monkeypatch, tmp_path)
    assert os.path.basename(book[book.index("--openings") + 1]) == "capablanca.epd"
    assert "--random-plies" not in book
    plies = _argv("energizer", monkeypatch, tmp_path)
    assert plies[plies.index("--random-plies") + 1] == "6" and "--openings" not in plies
    shuffles = _argv("caparandom", monkeypatch, tmp_path)
    assert "--openings" not in shuffles and "--random-plies" not in shuffles
