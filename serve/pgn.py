"""The page's game as PGN: one move per turn, in the README's notation.

Moves are written as Leyden reads them (``e2e4``, ``e7e8q``, ``N@c1``, ``d4e5,e5f6``);
an Ender's Chess turn is its actions joined by commas (``B@c11,c11a9``), with the
closing pass left out, and an empty turn is ``@@@@``. The game record's own start
position is always given in the FEN tag, so a shuffled setup can be replayed.
"""
from __future__ import annotations

import time


def _quote(value) -> str:
    return str(value).replace("\\", "\\\\").replace('"', '\\"')


def movetext(turns: list[dict], turn_text) -> str:
    """``1. e2e4 e7e5 2. ...`` from the session's turns (Black first: ``1... e7e5``)."""
    words = []
    for i, turn in enumerate(turns):
        if turn["side"] == "w":
            words.append(f"{turn['number']}.")
        elif i == 0:
            words.append(f"{turn['number']}...")
        words.append(turn_text(turn["actions"]))
    return " ".join(words)


def game_pgn(session) -> str:
    """The whole game of ``session`` (a ``serve.session.Session``) as PGN text."""
    with session.lock:
        names = {"w": "Leyden", "b": "Leyden"}
        if session.human in names:
            names[session.human] = "Human"
        outcome = session.outcome()
        result = outcome[0] if outcome else "*"
        tags = [
            ("Event", "Leyden serve"), ("Site", "localhost"),
            ("Date", time.strftime("%Y.%m.%d")), ("Round", "-"),
            ("White", names["w"]), ("Black", names["b"]), ("Result", result),
            ("Variant", session.game.name), ("SetUp", "1"), ("FEN", session.start_fen),
            ("TimeControl", session.clock.time_control()),
        ]
        if outcome:
            tags.append(("Termination", outcome[1]))
        lines = [f'[{name} "{_quote(value)}"]' for name, value in tags]
        text = movetext(session.turns(), session.turn_text)
        ending = f" {{{outcome[1]}}} {result}" if outcome else " *"
        return "\n".join(lines) + "\n\n" + (text + ending).strip() + "\n"
