"""Protocol fuzzing: random, truncated, binary and oversized lines and random legal and
illegal moves, in both protocols. The engine must stay up and keep answering
``ping`` (XBoard) / ``isready`` (UCI). Kept to well under a minute.
"""
from __future__ import annotations

import random
import re

import pytest

from movegen import GAMES, Position
from tests.drivers import EngineProcess

XBOARD_WORDS = [
    "new", "force", "go", "playother", "usermove", "time", "otim", "level", "st", "sd",
    "nps", "?", "draw", "result", "setboard", "undo", "remove", "hard", "easy", "post",
    "nopost", "analyze", ".", "exit", "memory", "option", "lift", "put", "hover", "hint",
    "bk", "variant", "ping", "random", "computer", "name", "rating", "accepted",
    "rejected", "white", "black", "edit", "cores", "egtpath", "protover", "xboard",
]
UCI_WORDS = [
    "uci", "isready", "setoption", "ucinewgame", "position", "go", "stop", "ponderhit",
    "d", "debug", "register",
]
ARGS = ["", "0", "1", "-1", "40 0:05 0", "0 1 0", "startpos", "fen", "moves", "name Hash value 1",
        "name UCI_Variant value enders", "name UCI_Variant value batteries", "infinite",
        "depth 1", "movetime 20", "wtime 100 btime 100", "e2e4", "a1", "z9", "@@@@", "0000",
        "Seed=7", "EnergizerSwitch=1", "999999999999999999999", "1e309", "nan", "{x}", "%s%n"]
#: number forms that have broken engines: non-finite, huge, negative zero, 20 digits
NUMBERS = ["inf", "-inf", "nan", "NaN", "1e300", "-1e300", "1e308", "-0", "0", "-1",
           "99999999999999999999", "-99999999999999999999", "0.000001", "3.5", "0x10", "1_000"]
#: commands that take numbers, with a slot for one
NUMBER_COMMANDS = {
    "xboard": ["level 40 {} 0", "level {} 5 0", "level 0 5 {}", "level 0 {}:30 0", "st {}",
               "sd {}", "nps {}", "time {}", "otim {}", "memory {}", "protover {}",
               "option Seed={}", "ping {}"],
    "uci": ["go movetime {}", "go wtime {} btime 100", "go nodes {}", "go depth {}",
            "go mate {}", "go wtime 1000 btime 1000 winc {} movestogo {}",
            "setoption name Hash value {}", "setoption name Move Overhead value {}",
            "setoption name Seed value {}", "position fen 4k3/8/8/8/8/8/8/4K3 w - - {} 1"],
}
#: a sign of an uncaught exception in the engine's output
TRACEBACK = re.compile(r"Traceback|File \"|^\s+raise |Error: .*line \d+")


Engine = EngineProcess


def junk_line(rng: random.Random, words) -> bytes:
    kind = rng.randrange(9)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200))).replace(b"\n", b"")
    if kind == 1:
        return b"x" * rng.choice([20000, 70000, 300000])
    if kind == 2:
        word = rng.choice(words)
        return (word + " " + rng.choice(ARGS)).encode()[: rng.randrange(1, 40)]
    if kind == 3:
        return (rng.choice(words) + " " + rng.choice(ARGS)).encode()
    if kind == 4:
        return "".join(chr(rng.randrange(32, 0x2FFF)) for _ in range(rng.randrange(1, 60))).encode(
            "utf-8", "surrogatepass")
    if kind == 5:
        return b"\x00" * rng.randrange(1, 50) + b"ping"
    if kind == 6:
        return ("setboard " + "".join(rng.choice("rnbqkpRNBQKP12345678/*[] -wb") for _ in range(40))).encode()
    if kind == 7:
        form = rng.choice(NUMBER_COMMANDS["uci" if words is UCI_WORDS else "xboard"])
        return form.replace("{}", rng.choice(NUMBERS)).encode()
    return b"\t  \r"


def random_move(rng: random.Random, pos: Position) -> str:
    moves = pos.legal_moves()
    if moves and rng.random() < 0.6:
        return rng.choice(moves)
    files = "abcdefghij"
    return (rng.choice(files) + str(rng.randrange(0, 12)) + rng.choice(files)
            + str(rng.randrange(0, 12)) + rng.choice(["", "q", "a", "x"]))


def _fuzz(protocol: str, lines: int, seed: int):
    rng = random.Random(seed)
    eng = Engine()
    try:
        if protocol == "xboard":
            eng.send("xboard")
            eng.send("protover 2")
            assert eng.wait_for(lambda s: s == "feature done=1", 60) is not None
            words = XBOARD_WORDS
        else:
            eng.send("uci")
            assert eng.wait_for(lambda s: s == "uciok", 60) is not None
            words = UCI_WORDS
        games = list(GAMES)
        checks = 0
        lines_sent = 0
        while lines_sent < lines:
            # a short game of random legal and illegal moves in a random variant
            game = rng.choice(games)
            pos = Position(game)
            if protocol == "xboard":
                eng.send("new")
                eng.send(f"variant {game}")
                eng.send("force")
            else:
                eng.send(f"setoption name UCI_Variant value {game}")
                moves: list[str] = []
            for _ in range(rng.randrange(5, 40)):
                r = rng.random()
                if r < 0.45:
                    move = random_move(rng, pos)
                    legal = pos.is_legal(move)
                    if protocol == "xboard":
                        eng.send(f"usermove {move}")
                    elif legal:
                        moves.append(move)
                        eng.send("position startpos moves " + " ".join(moves))
                    else:
                        eng.send("position startpos moves " + " ".join(moves + [move]))
                    if legal:
                        pos.push(move)
                        if pos.outcome() is not None:
                            break
                elif r < 0.55 and protocol == "uci":
                    eng.send(rng.choice(["go depth 1", "go movetime 10", "go nodes 50",
                                         "go infinite", "go ponder", "stop", "ponderhit"]))
                else:
                    eng.write(junk_line(rng, words) + b"\n")
                lines_sent += 1
            # checkpoint: the engine must still answer
            checks += 1
            start = len(eng.lines)
            if protocol == "xboard":
                eng.send("?")
                eng.send("exit")
                eng.send("force")
                eng.send(f"ping {checks}")
                ok = eng.wait_for(lambda s, n=checks: s == f"pong {n}", 20, start)
            else:
                eng.send("stop")
                eng.send("isready")
                ok = eng.wait_for(lambda s: s == "readyok", 20, start)
            assert ok is not None, f"no answer at checkpoint {checks}; last lines: {eng.lines[-5:]}"
            assert eng.proc.poll() is None, "the engine died"
    finally:
        eng.close()
    traces = [line for line in eng.lines + eng.errors if TRACEBACK.search(line)]
    assert not traces, f"{len(traces)} traceback lines, first: {traces[:5]}"
    assert not eng.errors, f"the engine wrote to stderr: {eng.errors[:5]}"
    # a truncated last line (no newline) and end of input must not crash either
    eng2 = Engine()
    eng2.write(b"xboard\nprotover 2\nping 1\nusermove e2e" if protocol == "xboard" else b"uci\nisready\nposition startpos moves e2e")
    eng2.proc.stdin.close()
    assert eng2.proc.wait(60) == 0


@pytest.mark.parametrize("protocol,seed", [("xboard", 1), ("uci", 2)])
def test_fuzz(protocol, seed):
    _fuzz(protocol, lines=2500, seed=seed)
