"""PGN for the match runner: write one game (the tags XBoard reads back) and read a file.

Moves are written as the XBoard protocol carries them (``e2e4``, ``e7e8q``, ``O-O``
in the shuffle games, ``N@c1``, ``@@@@``), which XBoard's PGN reader accepts. An
Ender's Chess game is written as XBoard plays it: one action per ply, and a ``@@@@``
pass for the side that is not acting in between (see ``engine/xboard.py``). On the
10-rank ``batteries`` board the ranks are numbered 0..9, as XBoard does (``e0`` is our
``e1``); ``match.openings.replay`` reads such a game back.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

#: PGN Termination values (the standard set).
NORMAL = "normal"
ADJUDICATION = "adjudication"
TIME_FORFEIT = "time forfeit"
RULES_INFRACTION = "rules infraction"
ABANDONED = "abandoned"
UNTERMINATED = "unterminated"
EMERGENCY = "emergency"
#: the comment after the last opening move (the engines play from the next one)
OPENING_END = "end of opening"


def opening_plies(comments: dict) -> int:
    """Plies of the opening: up to the move commented "end of opening" (0 if none)."""
    ends = [i + 1 for i, text in comments.items() if OPENING_END in text]
    return min(ends) if ends else 0


@dataclass
class GameRecord:
    """One played (or interrupted) game."""

    round: int  #: game number in the schedule, 1-based (the PGN Round tag)
    white: str
    black: str
    variant: str
    start_fen: str
    moves: list = field(default_factory=list)  #: PGN move tokens
    comments: dict = field(default_factory=dict)  #: move index -> comment after it
    result: str = "*"
    termination: str = UNTERMINATED
    reason: str = ""
    time_control: str = "-"
    white_tc: str | None = None  #: set when the sides have different time controls
    black_tc: str | None = None
    event: str = "Leyden match"
    site: str = "?"
    date: str = "????.??.??"
    extra: dict = field(default_factory=dict)  #: further tags, written after the standard ones

    @property
    def finished(self) -> bool:
        return self.result in ("1-0", "0-1", "1/2-1/2")


def _quote(value) -> str:
    return str(value).replace("\\", "\\\\").replace('"', '\\"')


def _comment(text: str) -> str:
    return "{" + text.replace("}", ")").replace("{", "(") + "}"


def format_game(rec: GameRecord) -> str:
    """The game as PGN text (ends with a blank line)."""
    tags = [
        ("Event", rec.event), ("Site", rec.site), ("Date", rec.date), ("Round", rec.round),
        ("White", rec.white), ("Black", rec.black), ("Result", rec.result),
    ]
    if rec.variant != "normal":
        tags.append(("Variant", rec.variant))
    tags += [("SetUp", "1"), ("FEN", rec.start_fen), ("TimeControl", rec.time_control)]
    if rec.white_tc is not None:
        tags += [("WhiteTimeControl", rec.white_tc), ("BlackTimeControl", rec.black_tc)]
    tags += [("Termination", rec.termination), ("PlyCount", len(rec.moves))]
    tags += list(rec.extra.items())
    lines = [f'[{name} "{_quote(value)}"]' for name, value in tags]
    lines.append("")

    fields = rec.start_fen.split()
    side = fields[1] if len(fields) > 1 else "w"
    try:
        number = max(1, int(fields[5]))
    except (IndexError, ValueError):
        number = 1
    tokens = []
    for i, move in enumerate(rec.moves):
        if side == "w":
            tokens.append(f"{number}.")
        elif i == 0:
            tokens.append(f"{number}...")
        tokens.append(move)
        if i in rec.comments:
            tokens.append(_comment(rec.comments[i]))
            if side == "w" and i + 1 < len(rec.moves):
                tokens.append(f"{number}...")
        if side == "b":
            number += 1
        side = "b" if side == "w" else "w"
    if rec.reason:
        tokens.append(_comment(rec.reason))
    tokens.append(rec.result)
    # wrap at 79 columns
    out, line = [], ""
    for tok in tokens:
        if line and len(line) + 1 + len(tok) > 79:
            out.append(line)
            line = tok
        else:
            line = f"{line} {tok}" if line else tok
    if line:
        out.append(line)
    return "\n".join(lines + out) + "\n\n"


@dataclass
class PGNGame:
    """A game read back from a PGN file."""

    tags: dict
    moves: list
    result: str
    comments: dict = field(default_factory=dict)  #: move index -> the comment after it


_TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
_MOVE_NUMBER = re.compile(r"^\d+\.+$")
_RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


def read_games(path: str) -> list[PGNGame]:
    """Every game of a PGN file (tags, move tokens, result). Missing file: no games."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except FileNotFoundError:
        return []
    return parse_games(text)


def parse_games(text: str) -> list[PGNGame]:
    games: list[PGNGame] = []
    tags: dict = {}
    moves: list = []
    result = None
    in_comment = False
    comment: list = []  # the pieces of the comment being read (it may span lines)
    comments: dict = {}
    depth = 0  # variation nesting

    def flush():
        nonlocal tags, moves, result, comments
        if tags or moves:
            games.append(PGNGame(tags, moves, result or tags.get("Result", "*"), comments))
        tags, moves, result, comments = {}, [], None, {}

    for raw in text.splitlines():
        line = raw.strip()
        if not in_comment and depth == 0 and line.startswith("["):
            m = _TAG.match(line)
            if m:
                if moves or result is not None:
                    flush()
                tags[m.group(1)] = re.sub(r"\\(.)", r"\1", m.group(2))
                continue
        if not in_comment and line.startswith("%"):
            continue
        i = 0
        while i < len(line):
            c = line[i]
            if in_comment:
                end = line.find("}", i)
                comment.append(line[i:] if end < 0 else line[i:end])
                if end < 0:
                    break
                in_comment = False
                if moves and depth == 0:  # two comments after one move are joined
                    text = " ".join(" ".join(comment).split())
                    before = comments.get(len(moves) - 1)
                    comments[len(moves) - 1] = f"{before} {text}" if before else text
                i = end + 1
                continue
            if c == "{":
                in_comment = True
                comment = []
                i += 1
                continue
            if c == ";":
                break
            if c == "(":
                depth += 1
                i += 1
                continue
            if c == ")":
                depth = max(0, depth - 1)
                i += 1
                continue
            if c.isspace():
                i += 1
                continue
            j = i
            while j < len(line) and not line[j].isspace() and line[j] not in "{}();":
                j += 1
            token = line[i:j]
            i = j
            if depth:
                continue
            if token in _RESULTS:
                result = token
                continue
            if _MOVE_NUMBER.match(token) or token.startswith("$"):
                continue
            m = re.match(r"^\d+\.+(.+)$", token)  # "12.e4"
            if m:
                token = m.group(1)
            moves.append(token)
    flush()
    return games


_DEPTH = re.compile(r"^[+-]\d+\.\d+/(\d+) ")
_ELAPSED = re.compile(r"(?:^| )(\d+\.\d+)s$")
_SCORE = re.compile(r"^([+-])(?:M(\d+)|(\d+\.\d+))(?:/\d+)?(?: |$)")


def comment_score(comment: str, mate_cp: int | None = None) -> int | None:
    """Centipawns, for the engine that moved, of the score at the front of a runner
    comment (``+0.51/9 0.18s``); a mate (``-M3 0.01s``) counts as +-``mate_cp``, or as
    no score when ``mate_cp`` is None; None for a comment without a score."""
    m = _SCORE.match(comment)
    if not m:
        return None
    sign = 1 if m.group(1) == "+" else -1
    if m.group(2) is not None:
        return None if mate_cp is None else sign * mate_cp
    return sign * round(float(m.group(3)) * 100)


def white_moved(game: PGNGame, i: int) -> bool:
    """Did White make move ``i`` of the game? The PGN sides alternate from the side to
    move of the start FEN (Ender's passes are written as ``@@@@`` moves)."""
    fen = game.tags.get("FEN", "").split()
    return ((fen[1] if len(fen) > 1 else "w") == "w") == (i % 2 == 0)


def movers(game: PGNGame):
    """(move index, name of the engine that made it) of every move of the game."""
    for i in range(len(game.moves)):
        yield i, game.tags.get("White" if white_moved(game, i) else "Black")


def move_depths(game: PGNGame):
    """(engine name, depth) of every move whose comment gives a search depth (the
    ``score/depth time`` comments the match runner writes)."""
    for i, name in movers(game):
        m = _DEPTH.match(game.comments.get(i, ""))
        if m:
            yield name, int(m.group(1))


def move_times(game: PGNGame):
    """(move index, engine name, seconds) of every move whose comment gives the time it
    took (the runner's ``score/depth time`` comments end with it, as ``0.25s``)."""
    for i, name in movers(game):
        m = _ELAPSED.search(game.comments.get(i, ""))
        if m:
            yield i, name, float(m.group(1))
