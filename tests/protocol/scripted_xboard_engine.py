"""A CECP engine that plays a fixed game, for putting XBoard's own judgement to the test.

It describes the game to XBoard exactly as Leyden does (``engine.xbvariants.describe``),
then plays the listed moves, whichever side it is given, and after the last move either
claims the result given (as the engine that made the move) or, as the engine to move
next, resigns. XBoard's rulings on those moves (legal or not, check or mate, the claim
true or false) are then the ones it makes on Leyden's description.

    python scripted_xboard_engine.py SCRIPT.json

SCRIPT.json: {"game": ..., "fen": ..., "moves": "MOVE MOVE ...", "claim": "0-1 {Black mates}"}
(a file, as XBoard would split a command line's FEN and moves at their spaces).
"""
from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from engine.xbvariants import describe  # noqa: E402  (the checkout first on the path)
from movegen import GAMES  # noqa: E402


def main(game: str, fen: str, moves: str, claim: str = "") -> None:
    """Answer XBoard on stdin/stdout until ``quit``."""
    moves = moves.split()
    ply, force = 0, False

    def send(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def on_move() -> None:
        nonlocal ply
        if ply < len(moves):
            send("move " + moves[ply])
            ply += 1
            if ply == len(moves) and claim:
                send(claim)
        elif not claim:  # a claim ends the game; the side that got it says nothing
            send("resign")

    for line in sys.stdin:
        word, _, arg = line.strip().partition(" ")
        if word == "protover":
            send(f'feature ping=1 setboard=1 usermove=1 sigint=0 sigterm=0 '
                 f'myname="scripted" variants="{game}" done=1')
        elif word == "variant":
            for text in describe(GAMES[game], fen):
                send(text)
        elif word == "ping":
            send("pong " + arg)
        elif word == "new":
            ply, force = 0, False
        elif word == "force":
            force = True
        elif word == "usermove":
            ply += 1
            if not force:
                on_move()
        elif word == "go":
            force = False
            on_move()
        elif word == "quit":
            break


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        main(**json.load(f))
