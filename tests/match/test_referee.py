"""The match runner as referee, driven against small fake engines: real processes
speaking XBoard or UCI, written by the tests, each misbehaving in one way."""
import os
import re
import sys
import textwrap
import time

import pytest

from match import runner
from match.pgn import parse_games, read_games
from movegen import Position

FAKE = textwrap.dedent(r'''
    import os, sys, time
    mode = sys.argv[1]
    pidfile = sys.argv[2] if len(sys.argv) > 2 else None
    if pidfile:
        with open(pidfile, "a") as f:
            f.write(f"{os.getpid()}\n")
    # capablanca: knights b1/b8 hop out and back, so two good fakes repeat the position
    WHITE = ["b1c3", "c3b1"]
    BLACK = ["b8c6", "c6b8"]
    ILLEGAL = {"w": "e2e5", "b": "e7e4"}
    ply = 0
    side = "w"
    def out(text):
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    # "mate": White claims a mate in 3, Black sees itself mated in 2 (never true here)
    MATE = {1: 3, 0: -2}
    def my_move():
        global ply
        colour = "w" if ply % 2 == 0 else "b"
        if mode == "mate" and not uci:
            out(f"1 {100003 if colour == 'w' else -100002} 0 10 x")  # XBoard's mate scores
        if mode == "crash":
            sys.exit(3)
        if mode == "hang":
            time.sleep(3600)
        if mode == "illegal":
            move = ILLEGAL[colour]
        elif mode == "claim":
            out("1/2-1/2 {Draw by repetition}")
            return None
        else:
            move = (WHITE if colour == "w" else BLACK)[(ply // 2) % 2]
        ply += 1
        return move
    uci = False
    forced = False
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        cmd = line.split()[0]
        if cmd == "uci":
            uci = True
            out("id name fake")
            out("option name UCI_Variant type combo default chess var chess var capablanca")
            out("uciok")
        elif cmd == "isready":
            out("readyok")
        elif cmd == "position":
            words = line.split()
            ply = len(words) - words.index("moves") - 1 if "moves" in words else 0
        elif cmd == "protover":
            if mode == "slowstart":
                out("feature done=0")
                time.sleep(1.0)
            out('feature ping=1 setboard=1 usermove=1 variants="normal,capablanca" myname="fake"')
            out("feature done=1")
        elif cmd == "ping":
            out("pong " + line.split()[1])
        elif cmd == "quit":
            break
        elif cmd == "go" and uci:
            m = my_move()
            out(f"info depth 1 score mate {MATE[ply % 2]}" if mode == "mate" else "info depth 1 score cp 0")
            out(f"bestmove {m}")
        elif cmd == "force":
            forced = True
        elif cmd == "go":
            forced = False
            m = my_move()
            if m:
                out(f"move {m}")
        elif cmd == "usermove":
            ply += 1
            if not forced:
                m = my_move()
                if m:
                    out(f"move {m}")
        elif cmd == "new":
            ply, forced = 0, False
        elif cmd in ("setboard", "variant", "easy", "post", "level", "st", "sd",
                     "time", "otim", "result", "accepted", "rejected", "xboard", "nps",
                     "ucinewgame", "setoption"):
            pass
''')


@pytest.fixture
def fake(tmp_path):
    path = tmp_path / "fake_engine.py"
    path.write_text(FAKE)
    pids = tmp_path / "pids.txt"

    def spec(name, mode, proto="xboard"):
        return ["--engine", f"name={name}", f"cmd={sys.executable} {path} {mode} {pids}", f"proto={proto}"]
    spec.pids = pids
    return spec


def run(tmp_path, *argv):
    pgn = tmp_path / "games.pgn"
    args = ["--variant", "capablanca", "--pgn", str(pgn), "--concurrency", "1", "--grace", "0.5",
            "--seed", "7", *argv]
    status = runner.cli(args)
    return status, read_games(str(pgn)), pgn


def test_pgn_directory_is_created(tmp_path, fake):
    pgn = tmp_path / "new" / "dir" / "games.pgn"
    status = runner.cli(["--variant", "capablanca", "--pgn", str(pgn), "--concurrency", "1",
                        "--games", "2", "--tc", "depth=1", "--seed", "7", "--grace", "0.5",
                        *fake("a", "good"), *fake("b", "good")])
    assert status == 0 and len(read_games(str(pgn))) == 2


@pytest.mark.parametrize("proto", ["xboard", "uci"])
def test_an_engine_plays_game_after_game(tmp_path, fake, proto):
    status, games, _ = run(tmp_path, "--games", "4", "--tc", "depth=1",
                           *fake("a", "good", proto), *fake("b", "good", proto))
    assert status == 0 and len(games) == 4
    assert all(g.tags["Termination"] == "normal" for g in games)
    pids = list(map(int, fake.pids.read_text().split()))
    assert len(pids) == 2  # each engine started once, and closed when the match ends:
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_restart_starts_the_engines_for_each_game(tmp_path, fake):
    status, games, _ = run(tmp_path, "--games", "4", "--tc", "depth=1", "--restart",
                           *fake("a", "good"), *fake("b", "good"))
    assert status == 0 and len(games) == 4
    assert len(fake.pids.read_text().split()) == 8


def test_an_engine_is_not_kept_after_a_failure(tmp_path, fake):
    """After a game lost by an illegal move neither engine is trusted with the next."""
    status, games, _ = run(tmp_path, "--games", "2", "--tc", "depth=1",
                           *fake("cheat", "illegal"), *fake("good", "good"))
    assert status == 0 and len(games) == 2
    assert len(fake.pids.read_text().split()) == 4


def test_illegal_move_loses(tmp_path, fake):
    status, games, _ = run(tmp_path, "--games", "2", "--tc", "depth=1",
                           *fake("cheat", "illegal"), *fake("good", "good"))
    assert status == 0
    assert len(games) == 2
    for g in games:
        loser = "White" if g.tags["White"] == "cheat" else "Black"
        assert g.result == ("0-1" if loser == "White" else "1-0")
        assert g.tags["Termination"] == "rules infraction"
    text = (tmp_path / "games.pgn").read_text()
    assert "makes an illegal move: e2e5" in text
    assert "makes an illegal move: e7e4" in text


def test_crash_loses(tmp_path, fake):
    status, games, _ = run(tmp_path, "--games", "1", "--tc", "depth=1",
                           *fake("crasher", "crash"), *fake("good", "good"))
    assert status == 0
    (g,) = games
    assert g.result == "0-1" and g.tags["Termination"] == "abandoned"
    assert "crashed: exited with status 3" in (tmp_path / "games.pgn").read_text()


def test_hang_is_a_time_loss_and_the_engine_is_killed(tmp_path, fake):
    start = time.monotonic()
    status, games, _ = run(tmp_path, "--games", "1", "--tc", "1+0", "--time-margin", "0.1",
                           *fake("sleeper", "hang"), *fake("good", "good"))
    elapsed = time.monotonic() - start
    assert status == 0
    (g,) = games
    assert g.result == "0-1" and g.tags["Termination"] == "time forfeit"
    assert "loses on time" in (tmp_path / "games.pgn").read_text()
    assert elapsed < 10
    for pid in map(int, fake.pids.read_text().split()):
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)  # every engine process of the game is gone


def test_untimed_hang_uses_the_hang_timeout(tmp_path, fake):
    status, games, _ = run(tmp_path, "--games", "1", "--tc", "depth=3", "--hang-timeout", "0.5",
                           *fake("good", "good"), *fake("sleeper", "hang"))
    (g,) = games
    assert g.result == "1-0" and g.tags["Termination"] == "time forfeit"


def test_false_claim_loses(tmp_path, fake):
    status, games, _ = run(tmp_path, "--games", "1", "--tc", "depth=1",
                           *fake("claimer", "claim"), *fake("good", "good"))
    (g,) = games
    assert g.result == "0-1" and g.tags["Termination"] == "rules infraction"
    assert "which the rules do not confirm" in (tmp_path / "games.pgn").read_text()


def test_pgn_tags_and_readback(tmp_path, fake):
    """Two well-behaved fakes repeat the position: the referee calls the draw; the
    PGN carries the tags XBoard reads and replays to the same end."""
    status, games, pgn = run(tmp_path, "--games", "2", "--tc", "40/60",
                             *fake("alpha", "good"), *fake("beta", "good", proto="uci"))
    assert status == 0 and len(games) == 2
    for g in games:
        t = g.tags
        assert t["Variant"] == "capablanca"
        assert t["SetUp"] == "1"
        assert t["FEN"] == "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"
        assert t["TimeControl"] == "40/60"
        assert t["Termination"] == "normal"
        assert g.result == t["Result"] == "1/2-1/2"
        assert t["Round"] in ("1", "2")
        pos = Position("capablanca", t["FEN"])
        for m in g.moves:
            pos.push(m)
        assert pos.outcome() == ("1/2-1/2", "repetition")
    assert "{3-fold repetition} 1/2-1/2" in pgn.read_text()
    # the text parses the same way again (comments, move numbers, results)
    again = parse_games(pgn.read_text())
    assert [g.moves for g in again] == [g.moves for g in games]


def test_feature_done_0_is_waited_for(tmp_path, fake):
    status, games, _ = run(tmp_path, "--games", "1", "--tc", "depth=1",
                           *fake("slow", "slowstart"), *fake("good", "good"))
    (g,) = games
    assert g.result == "1/2-1/2"


@pytest.mark.parametrize("proto", ["xboard", "uci"])
def test_mate_scores_are_written_as_xboard_shows_them(tmp_path, fake, proto):
    """XBoard's 100003 (UCI's ``score mate 3``) is "+M3" in the PGN, -100002 "-M2"."""
    status, games, pgn = run(tmp_path, "--games", "1", "--tc", "40/60",
                             *fake("a", "mate", proto), *fake("b", "mate", proto))
    comments = re.findall(r"\{([^}]*)\}", pgn.read_text())
    marks = [c.split()[0] for c in comments if "M" in c.split()[0]]
    assert status == 0 and marks[:4] == ["+M3", "-M2", "+M3", "-M2"]


def test_resume_skips_finished_games(tmp_path, fake, capsys):
    engines = [*fake("a", "good"), *fake("b", "illegal")]
    status, games, _ = run(tmp_path, "--games", "2", "--tc", "depth=1", *engines)
    assert len(games) == 2
    status, games, _ = run(tmp_path, "--games", "4", "--tc", "depth=1", "--resume", *engines)
    assert status == 0
    assert sorted(int(g.tags["Round"]) for g in games) == [1, 2, 3, 4]
    out = capsys.readouterr().out
    assert "resuming: 2 of 4 games already played" in out
    assert re.search(r"^a vs b +4 +4 +0 +0 ", out, re.M)


def test_sprt_stops_when_decided(tmp_path, fake, capsys):
    status, games, _ = run(tmp_path, "--games", "40", "--tc", "depth=1",
                           "--sprt", "elo0=0", "elo1=200", "alpha=0.05", "beta=0.05",
                           *fake("good", "good"), *fake("cheat", "illegal"))
    assert status == 0
    assert 4 <= len(games) < 40
    assert "H1 accepted" in capsys.readouterr().out


def test_the_sprt_counts_pairs_of_games_by_opening(tmp_path, fake, capsys):
    """Pentanomial by default: the two games of an opening make one pair; the report
    gives the pairs by points. ``model=trinomial`` counts the games alone."""
    engines = [*fake("good", "good"), *fake("cheat", "illegal")]
    run(tmp_path, "--games", "5", "--tc", "depth=1", "--sprt", "elo0=0", "elo1=2000", *engines)
    out = capsys.readouterr().out
    assert "good vs cheat: pairs by points 0: 0, 0.5: 0, 1: 0, 1.5: 0, 2: 2" in out
    assert "pentanomial: LLR" in out
    (tmp_path / "games.pgn").unlink()
    run(tmp_path, "--games", "5", "--tc", "depth=1", "--sprt", "elo0=0", "elo1=2000",
        "model=trinomial", *engines)
    assert "trinomial: LLR" in capsys.readouterr().out


def test_an_sprt_verdict_stands_when_the_games_in_progress_finish(tmp_path, fake, capsys):
    """Two at a time: the game still running when the SPRT decides is finished and
    counted, and the verdict is reported as reached, with the final LLR beside it."""
    status, games, _ = run(tmp_path, "--games", "40", "--tc", "depth=1", "--concurrency", "2",
                           "--sprt", "elo0=0", "elo1=200", "alpha=0.05", "beta=0.05",
                           *fake("good", "good"), *fake("cheat", "illegal"))
    out = capsys.readouterr().out
    assert status == 0
    verdict = re.search(r"H1 accepted \(elo >= 200 more likely\), after (\d+) games", out)
    assert verdict, out[-800:]
    decided_at = int(verdict.group(1))
    assert decided_at <= len(games) < 40
    if len(games) > decided_at:
        assert f"finished since: LLR" in out and f"over all {len(games)} games" in out


def test_bad_arguments_exit_2(tmp_path, fake, capsys):
    assert runner.cli(["--variant", "nosuchgame", *fake("a", "good"), *fake("b", "good"),
                      "--tc", "depth=1"]) == 2
    assert runner.cli(["--variant", "capablanca", *fake("a", "good"), *fake("a", "good"),
                      "--tc", "depth=1"]) == 2
    assert runner.cli(["--variant", "capablanca", *fake("a", "good"), *fake("b", "good"),
                      "--tc", "40/"]) == 2
    assert "error:" in capsys.readouterr().err


def test_registers_with_the_leyden_command_line():
    import argparse
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command")
    runner.add_subcommand(sub)
    args = parser.parse_args(["match", "--variant", "sultan", "--engine", "name=x", "cmd=x",
                              "--engine", "name=y", "cmd=y", "--tc", "10+0.1", "--games", "4"])
    assert args.func is runner.main
    assert args.variant == "sultan" and args.games == 4
    assert args.engine == [["name=x", "cmd=x"], ["name=y", "cmd=y"]]


def test_openings_from_an_epd_file_each_played_with_both_colours(tmp_path, fake):
    epd = tmp_path / "openings.epd"
    epd.write_text("# two starts\n"
                   "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - c0 \"start\";\n"
                   "rnabqkbcnr/1ppppppppp/p9/10/10/P9/1PPPPPPPPP/RNABQKBCNR w KQkq - hmvc 0; fmvn 2;\n")
    status, games, _ = run(tmp_path, "--games", "4", "--tc", "depth=1", "--openings", str(epd),
                           *fake("a", "good"), *fake("b", "good"))
    assert status == 0
    got = sorted((g.tags["FEN"].split()[0][:12], g.tags["White"]) for g in games)
    assert got == [("rnabqkbcnr/1", "a"), ("rnabqkbcnr/1", "b"), ("rnabqkbcnr/p", "a"),
                   ("rnabqkbcnr/p", "b")]
    assert {g.tags["FEN"].split()[5] for g in games} == {"1", "2"}


LEYDEN = f"cmd={sys.executable} -m engine"


@pytest.mark.parametrize("proto,option", [("xboard", "option.Threads=2"),
                                          ("uci", "option.Bogus=1")])
def test_an_option_the_engine_lacks_stops_the_match(tmp_path, capsys, proto, option):
    """A setting the engine would not take (Leyden answers ``Error (unknown option)``
    in XBoard, where threads are ``cores``) is an error, not a match played without it."""
    status, games, _ = run(tmp_path, "--engine", "name=a", LEYDEN, f"proto={proto}", option,
                           "--engine", "name=b", LEYDEN, "--tc", "depth=1", "--games", "2")
    assert status == 2 and games == []
    err = capsys.readouterr().err
    assert "has no" in err and option.split(".")[1].split("=")[0] in err, err


@pytest.mark.parametrize("proto,option", [("xboard", "option.cores=2"),
                                          ("uci", "option.threads=2")])
def test_threads_reach_leyden_in_either_protocol(tmp_path, proto, option):
    status, games, _ = run(tmp_path, "--engine", "name=a", LEYDEN, f"proto={proto}", option,
                           "--engine", "name=b", LEYDEN, "--tc", "depth=2", "--games", "2",
                           "--log", str(tmp_path / "log.txt"))
    assert status == 0 and len(games) == 2
    log = (tmp_path / "log.txt").read_text()
    sent = "cores 2" if proto == "xboard" else "setoption name Threads value 2"
    assert sent in log, log[:2000]
    assert "Error" not in log
