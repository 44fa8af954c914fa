"""Real engines through the match runner: the peers of benchmarks/peers/ and Leyden
itself (XBoard against UCI in Ender's Chess). Skipped where an engine is not installed."""
import os
import re
import shutil
import sys

import pytest

from match import runner
from match.openings import replay
from match.pgn import read_games
from movegen import find_game
from tests.drivers import ROOT, load_script

from match import peers
from match.peers import engine_tokens, find_binary


def need(*names):
    missing = [n for n in names if find_binary(n) is None]
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)} (apt-get install {' '.join(missing)})")


def play(tmp_path, variant, first, second, *extra):
    pgn = tmp_path / "peers.pgn"
    status = runner.cli(["--variant", variant, "--games", "2", "--pgn", str(pgn), "--seed", "3",
                        "--concurrency", "2", "--grace", "1", "--engine", *first,
                        "--engine", *second, *extra])
    games = read_games(str(pgn))
    assert status == 0
    assert len(games) == 2
    for g in games:
        assert g.result in ("1-0", "0-1", "1/2-1/2")
        assert g.tags["Termination"] in ("normal", "adjudication"), pgn.read_text()[-400:]
        replay(find_game(variant), g.tags["FEN"], g.moves)  # the PGN replays under our rules
    return games


def test_capablanca_fairymax_against_fairy_stockfish(tmp_path):
    need("fairymax", "fairy-stockfish")
    play(tmp_path, "capablanca", engine_tokens("fairymax", "capablanca") + ["depth=2"],
         engine_tokens("fairy-stockfish", "capablanca") + ["depth=2"], "--maxmoves", "60")


def test_sultan_sjaak_against_fairymax_with_our_configurations(tmp_path):
    need("fairymax", "sjaakii")
    play(tmp_path, "sultan", engine_tokens("sjaakii", "sultan") + ["depth=2"],
         engine_tokens("fairymax", "sultan") + ["depth=2"], "--random-plies", "4", "--maxmoves", "60")


def test_energizer_fairymax_set_up_with_edit(tmp_path):
    need("fairymax", "fairy-stockfish")
    play(tmp_path, "energizer", engine_tokens("fairymax", "energizer") + ["depth=2"],
         engine_tokens("fairy-stockfish", "energizer") + ["depth=1"], "--random-plies", "3",
         "--maxmoves", "40")


def test_enders_leyden_xboard_against_leyden_uci(tmp_path):
    """An Ender's turn is several XBoard plies with passes in between; the runner
    relays them (and checks them) for the XBoard side and sends 0000 to the UCI side."""
    import subprocess
    leyden = f"{sys.executable} -m engine"
    # compile the kernels once, in one process, if the cache is stale
    subprocess.run([sys.executable, "-m", "engine", "warmup"], cwd=ROOT, timeout=900,
                   capture_output=True)
    games = play(tmp_path, "enders", ["name=lx", f"cmd={leyden}", "proto=xboard", f"dir={ROOT}"],
                 ["name=lu", f"cmd={leyden}", "proto=uci", f"dir={ROOT}"],
                 "--tc", "depth=1", "--maxmoves", "40", "--startup-timeout", "120")
    text = (tmp_path / "peers.pgn").read_text()
    assert re.search(r"[RBKN]@c1", text) and "@@@@" in text
    assert [g.tags["Variant"] for g in games] == ["enders", "enders"]


def _xboard():
    return shutil.which("xboard") or find_binary("xboard")


@pytest.mark.skipif(_xboard() is None or shutil.which("xvfb-run") is None,
                    reason="xboard and xvfb-run are needed to read the PGN back in XBoard")
def test_xboard_reads_the_pgn_back(tmp_path):
    """XBoard (under Xvfb) loads the runner's PGN, replays every move with its own
    legality test and reaches the same end."""
    import signal
    import subprocess
    import time
    need("fairymax", "sjaakii")
    games = play(tmp_path, "capablanca", engine_tokens("fairymax", "capablanca") + ["depth=1"],
                 engine_tokens("sjaakii", "capablanca") + ["depth=1"], "--maxmoves", "40")
    debug = tmp_path / "xboard.debug"
    proc = subprocess.Popen(["xvfb-run", "-a", _xboard(), "-ncp", "-lgf", str(tmp_path / "peers.pgn"),
                             "-lgi", "1", "-td", "0.01", "-debug", "-nameOfDebugFile", str(debug),
                             "-xpopup"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    plies = int(games[0].tags["PlyCount"])
    try:
        deadline = time.monotonic() + 40
        text = ""
        while time.monotonic() < deadline:
            time.sleep(0.5)
            text = debug.read_text(errors="replace") if debug.exists() else ""
            if len(re.findall(r"^Parsed \S+ into", text, re.M)) >= plies and "AutoPlay" in text:
                break
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert "Parsed PGNTag: [Variant \"capablanca\"]" in text
    assert len(re.findall(r"^Parsed \S+ into", text, re.M)) == plies
    assert "llegal" not in text


@pytest.mark.parametrize("peer", ["fairy-stockfish", "sjaakii", "fairymax"])
def test_peer_configurations_agree_with_leyden(peer):
    """benchmarks/peers/verify.py on a few positions: perft 2 (Fairy-Stockfish, Sjaak II)
    or the accepted moves (Fairy-Max) equal Leyden's, for every game the peer plays."""
    need(peer)
    verify = load_script("benchmarks/peers/verify.py")
    for game in peers.PEERS[peer]["games"]:
        positions = verify.sample_positions(game, 2, seed=11)
        _, bad = verify.CHECKS[peer](game, positions[-3:], 2)
        assert bad == [], (game, bad)


@pytest.mark.parametrize("peer", ["fairymax", "fairy-stockfish"])
def test_a_reply_carries_the_engines_own_node_count_and_time(peer):
    """XBoard thinking lines and UCI info lines give a Reply its nodes and seconds (what
    the search benchmark compares Leyden's speed with)."""
    from match.engines import make_player, parse_engine_spec
    from match.tc import TimeControl
    need(peer)
    game = find_game("capablanca")
    player = make_player(parse_engine_spec(engine_tokens(peer, "capablanca")), game)
    try:
        player.start()
        player.new_game(game.start_fen, "w", TimeControl(depth=6))
        reply = player.think([], None, None, 60, 60)
    finally:
        player.close(1.0)
    assert reply.depth == 6
    assert reply.nodes > 1000
    assert 0 < reply.seconds < 60


def test_search_benchmark_measures_fairymax_on_the_capablanca_positions():
    need("fairymax")
    import subprocess
    out = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "search.py"), "--depth", "3",
                          "--peer-depth", "5"], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    line = re.search(r"^Fairy-Max capablanca +(\d+) +([\d.]+) +(\d+) +\(depth 5; Leyden/Fairy-Max ([\d.]+)\)$",
                     out.stdout, re.M)
    assert line, out.stdout
    nodes, seconds, knps = int(line[1]), float(line[2]), int(line[3])
    assert nodes > 1000 and seconds > 0 and knps == round(nodes / seconds / 1000)


def test_depth_benchmark_reports_leyden_and_fairy_stockfish():
    need("fairy-stockfish")
    import subprocess
    out = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "depth.py"), "--seconds", "0.5"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    rows = {m[1]: (int(m[2]), int(m[3])) for m in
            re.finditer(r"^(Leyden|Fairy-Stockfish) +(\d+) +(\d+) ", out.stdout, re.M)}
    assert set(rows) == {"Leyden", "Fairy-Stockfish"}, out.stdout
    assert all(depth >= 3 and nodes > 1000 for depth, nodes in rows.values())
    gap = rows["Fairy-Stockfish"][0] - rows["Leyden"][0]
    assert f"Leyden is {abs(gap)} plies" in out.stdout


def test_peer_self_play_for_the_tuner(tmp_path):
    # benchmarks/peer_games.py: two Fairy-Stockfish play each other, the games become
    # labelled positions in the tuner's format
    need("fairy-stockfish")
    from tune.positions import RESULTS, read_data
    script = load_script("benchmarks/peer_games.py")
    assert script.main(["capablanca", "--games", "2", "--nodes", "2000", "--concurrency", "2",
                        "--quiet", "--out-dir", str(tmp_path)]) == 0
    games = read_games(str(tmp_path / "capablanca-fairy-stockfish.pgn"))
    positions, headers, game_of = read_data(tmp_path / "capablanca-fairy-stockfish.txt")
    assert len(games) == len(headers) == 2 and positions
    for i, (g, h) in enumerate(zip(games, headers)):
        assert g.tags["White"] != g.tags["Black"] and f"result {g.result}" in h
        labels = {label for (label, _, _), game in zip(positions, game_of) if game == i}
        assert labels <= {RESULTS[g.result]}
    # a game the peer does not play is refused
    assert script.main(["batteries", "--games", "2", "--out-dir", str(tmp_path)]) == 2


def test_peer_scores_for_the_tuner(tmp_path):
    # tune/label.py: Fairy-Stockfish scores positions of a data file, White's view,
    # the same on a rerun, and a rerun resumes instead of scoring again
    need("fairy-stockfish")
    from tune.label import label
    from tune.positions import read_data
    up = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR"
    white_up = up.replace("rnabqkbcnr", "rnab1kbcnr")  # Black's queen gone
    data = tmp_path / "in.txt"
    data.write_text(f"# game 0 result 1-0\n1 {white_up} w KQkq - 0 1\n1 {white_up} b KQkq - 0 1\n"
                    f"# game 1 result 1/2-1/2\n0.5 {up} w KQkq - 0 1\n")
    game = find_game("capablanca")
    out = tmp_path / "scored.txt"
    assert label(game, data, out, "fairy-stockfish", 3000, 10, 1, log=lambda text: None) == 3
    positions, headers, game_of = read_data(out)
    assert [h.endswith("scored-by fairy-stockfish peer-nodes 3000") for h in headers] == [True, True]
    assert [p[:2] for p in positions] == [(1.0, f"{white_up} w KQkq - 0 1"), (1.0, f"{white_up} b KQkq - 0 1"),
                                          (0.5, f"{up} w KQkq - 0 1")]
    scores = [p[2] for p in positions]
    assert scores[0] > 500 and scores[1] > 500 and abs(scores[2]) < 100  # White's view both times
    assert label(game, data, out, "fairy-stockfish", 3000, 10, 1, log=lambda text: None) == 0
    again = tmp_path / "again.txt"
    label(game, data, again, "fairy-stockfish", 3000, 10, 2, log=lambda text: None)
    assert sorted(read_data(again)[0]) == sorted(positions)  # the scores do not depend on the run


def test_peer_scoring_refuses_bad_input_clearly(tmp_path, capsys):
    from tune.label import main as label_main
    empty = tmp_path / "empty.txt"
    empty.write_text("# game 0 result 1-0\n")
    out = str(tmp_path / "out.txt")
    assert label_main(["capablanca", str(tmp_path / "missing.txt"), "--out", out]) == 2
    assert label_main(["capablanca", str(empty), "--out", out]) == 2
    assert "holds no positions" in capsys.readouterr().err
    assert label_main(["batteries", str(empty), "--out", out, "--peer", "fairy-stockfish"]) == 2
    assert "does not play batteries" in capsys.readouterr().err
    assert label_main(["capablanca", str(empty), "--out", out, "--peer", "nosuchpeer"]) == 2
    assert "unknown peer" in capsys.readouterr().err


def test_equal_nodes_benchmark_reports_the_score_and_both_depths(tmp_path):
    need("fairy-stockfish")
    import subprocess
    out = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "equal_nodes.py"), "--nodes", "800",
                          "--games", "2", "--out", str(tmp_path), "--quiet"],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    line = re.search(r"^ +800 +2 +([\d.]+)%  .*  +([\d.]+) +([\d.]+)$", out.stdout, re.M)
    assert line, out.stdout
    games = read_games(str(tmp_path / "capablanca-fairy-stockfish-800.pgn"))
    assert len(games) == 2 and {g.tags["White"] for g in games} == {"leyden", "fairy-stockfish"}
    # a mean depth for each side, from the move comments
    assert float(line[2]) >= 1 and float(line[3]) >= 1
