"""UCI sessions with the engine process (Fairy-Stockfish conventions)."""
from __future__ import annotations

import time

import pytest

from movegen import GAMES, Position
from tests.drivers import EngineProcess


@pytest.fixture(scope="module")
def eng():
    e = EngineProcess()
    e.send("uci")
    e.expect(lambda s: s == "uciok", 60)
    e.sync_uci(120)
    yield e
    e.close()


def sync(eng) -> list[str]:
    return eng.sync_uci()


def bestmove(eng, go: str, timeout: float = 60) -> str:
    sync(eng)
    start = eng.mark()
    eng.send(go)
    return eng.expect("bestmove", timeout, start).split()[1]


def test_uci_options_list_every_game(eng):
    combo = next(s for s in eng.lines if "name UCI_Variant" in s)
    for name in GAMES:
        assert f"var {name}" in combo
    assert "var chess" in combo  # python-chess and GUIs call orthodox chess "chess"
    for opt in ("Hash", "UCI_Chess960", "Ponder", "Seed"):
        assert any(s.startswith(f"option name {opt} ") for s in eng.lines)


@pytest.mark.parametrize("game", list(GAMES))
def test_variant_board_is_reported_and_moves_are_legal(eng, game):
    sync(eng)
    start = eng.mark()
    eng.send(f"setoption name UCI_Variant value {game}")
    info = eng.expect("info string variant", 20, start)
    g = GAMES[game]
    assert f"files {g.files} ranks {g.ranks}" in info and g.start_fen in info
    eng.send("ucinewgame", "position startpos")
    move = bestmove(eng, "go depth 2")
    pos = Position(game)
    wire = "@@@@" if move == "0000" else move
    assert pos.is_legal(wire), (game, move)


def test_position_with_moves_and_bad_input(eng):
    eng.send("setoption name UCI_Variant value enders",
             "position startpos moves R@c1 c1c3 0000 N@c11", "d")
    lines = sync(eng)
    assert any("fen" in s and "N" in s for s in lines)
    eng.send("position startpos moves R@c1 z9z9 c1c3", "position nonsense", "bogus")
    lines = sync(eng)
    assert any("illegal move z9z9" in s for s in lines)
    assert any("unknown command" in s for s in lines)


def test_castling_forms(eng):
    eng.send("setoption name UCI_Variant value caparandom",
             "position fen rnabqk3r/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQK3R w JAja - 0 1 moves f1j1",
             "d")
    assert any("RNABQ2RK1" in s for s in sync(eng))
    eng.send("setoption name UCI_Variant value chess", "position startpos moves e2e4 e7e5 g1f3 b8c6 "
             "f1c4 g8f6 e1g1", "d")
    assert any("RNBQ1RK1" in s for s in sync(eng))


def test_go_infinite_waits_for_stop_and_isready_answers_meanwhile(eng):
    eng.send("setoption name UCI_Variant value chess", "position startpos")
    start = eng.mark()
    eng.send("go infinite")
    time.sleep(1.0)
    assert not any(s.startswith("bestmove") for s in eng.lines[start:])
    t = time.monotonic()
    eng.send("isready")
    eng.expect(lambda s: s == "readyok", 10, start)
    assert time.monotonic() - t < 5
    eng.send("stop")
    eng.expect("bestmove", 20, start)
    assert sum(s.startswith("bestmove") for s in eng.lines[start:]) == 1


def test_ponder_then_ponderhit_gives_one_bestmove(eng):
    eng.send("position startpos moves e2e4 e7e5")
    start = eng.mark()
    eng.send("go ponder wtime 2000 btime 2000")
    time.sleep(0.5)
    eng.send("ponderhit")
    eng.expect("bestmove", 30, start)
    sync(eng)
    assert sum(s.startswith("bestmove") for s in eng.lines[start:]) == 1


def test_hash_sizes(eng):
    eng.send("setoption name Hash value 8", "setoption name Hash value 999999999",
             "setoption name Clear Hash")
    lines = sync(eng)
    assert not any("error" in s for s in lines), lines  # may say "not enough memory"


def _nodes_to_depth(eng, tune: str | None, depth: int = 7) -> int:
    """The nodes of a fresh search of a chess opening to ``depth``, with ``Tune`` set to
    ``tune`` first (None: left as it is)."""
    if tune is not None:
        eng.send(f"setoption name Tune value {tune}")
    eng.send("setoption name UCI_Variant value chess", "ucinewgame",
             "position startpos moves e2e4 e7e5 g1f3 b8c6")
    assert not any("error" in s for s in sync(eng))
    start = eng.mark()
    eng.send(f"go depth {depth}")
    eng.expect("bestmove", 120, start)
    last = [s for s in eng.lines[start:] if s.startswith(f"info depth {depth} ") and " nodes " in s][-1]
    return int(last.split(" nodes ")[1].split()[0])


def test_tune_option_sets_search_settings_and_refuses_bad_ones(eng):
    assert any(s.startswith("option name Tune type string") for s in eng.lines)
    own = _nodes_to_depth(eng, "<empty>")
    assert _nodes_to_depth(eng, "futility_margin=90,prune_depth=3") == own  # the defaults
    changed = _nodes_to_depth(eng, "prune_depth=0 null_reduction=1")
    assert changed != own
    for bad in ("bogus=1", "futility_margin=ten", "null_depth_div=0", "prune_depth"):
        eng.send(f"setoption name Tune value {bad}")
        lines = sync(eng)
        assert any(s.startswith("info string error: Tune:") for s in lines), (bad, lines)
    assert _nodes_to_depth(eng, None) == changed  # a refused value changed nothing
    assert _nodes_to_depth(eng, "<empty>") == own
