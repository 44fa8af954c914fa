"""Opening positions for the match runner.

An opening is a start position plus a few moves already played from it. Sources:

* a file of FENs, EPD lines (the first four fields; ``hmvc``/``fmvn`` opcodes read) or
  a PGN file written in coordinate notation (start FEN + moves);
* seeded shuffles of the back rank (``caparandom``, ``sultanrandom``) and seeded
  Energizer switches (``--energizer-switch``);
* random balanced plies played from the start position (``--random-plies N``):
  random legal moves that end no game and leave material level, the side to move not in
  check and without a move that wins at once.

Opening ``i`` is the same for every engine pair, and the same for the same ``--seed``.
"""
from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

from movegen import PASSES, Game, Position, energizer_switched_fen, shuffled_fen
from movegen.move import from_xboard_ranks


@dataclass(frozen=True)
class Opening:
    start_fen: str
    moves: tuple = ()  #: canonical moves played from ``start_fen``
    label: str = ""  #: where it came from (written to the PGN)


def derived_seed(seed: int, *parts) -> int:
    """A 62-bit seed that depends on ``seed`` and ``parts`` only (stable across runs)."""
    text = ":".join(str(p) for p in (seed,) + parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 2


def material_balance(game: Game, fen: str) -> int:
    """White's material minus Black's in centipawns (board and reserves), kings not counted."""
    board = fen.split()[0]
    total = 0
    for ch in board:
        if not ch.isalpha():
            continue
        try:
            value = game.piece(ch).value
        except KeyError:
            continue
        total += value if ch.isupper() else -value
    return total


def epd_to_fen(line: str) -> str:
    """An EPD line (or a FEN) -> FEN; keeps the half-move clock and move number if given."""
    fields = line.split()
    if len(fields) >= 6 and fields[4].isdigit() and fields[5].isdigit():
        return " ".join(fields[:6])
    half, full = "0", "1"
    rest = " ".join(fields[4:])
    for op in rest.split(";"):
        words = op.split()
        if len(words) == 2 and words[0] == "hmvc" and words[1].isdigit():
            half = words[1]
        if len(words) == 2 and words[0] == "fmvn" and words[1].isdigit():
            full = words[1]
    return " ".join(fields[:4] + [half, full])


def load_openings(path: str, game: Game, max_plies: int | None = None) -> list[Opening]:
    """Openings from a FEN/EPD file (one position a line, ``#`` comments) or a PGN file."""
    if path.lower().endswith(".pgn"):
        return _load_pgn(path, game, max_plies)
    out = []
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("*") else raw.strip()
            if not line:
                continue
            fen = epd_to_fen(line)
            try:
                Position(game, fen)
            except ValueError as exc:
                raise ValueError(f"{path}:{number}: not a {game.name} position: {exc}") from None
            out.append(Opening(fen, (), f"{path}:{number}"))
    if not out:
        raise ValueError(f"{path}: no positions")
    return out


def replay(game: Game, start_fen: str, tokens: list, max_plies: int | None = None):
    """Play PGN move tokens from ``start_fen``: (Position, canonical moves).

    In Ender's Chess the tokens are XBoard plies: a ``@@@@`` of the side that is not
    acting is a pass filler, not an action, and is skipped. On a 10-rank board the
    ranks are XBoard's (0..9), as the runner writes them. Stops at the game's end.
    """
    pos = Position(game, start_fen)
    side = pos.turn
    moves = []
    for token in tokens[: max_plies if max_plies is not None else len(tokens)]:
        if pos.outcome() is not None:
            break
        if game.multi_action and side != pos.turn:
            if token not in PASSES:
                raise ValueError(f"{token}: {pos.turn} is acting, the other side can only pass")
        else:
            moves.append(pos.push(from_xboard_ranks(token, game)).name)
        side = "b" if side == "w" else "w"
    return pos, moves


def _load_pgn(path: str, game: Game, max_plies: int | None) -> list[Opening]:
    from .pgn import read_games
    out = []
    for n, g in enumerate(read_games(path), 1):
        fen = g.tags.get("FEN", game.start_fen)
        try:
            _, moves = replay(game, fen, g.moves, max_plies)
        except ValueError as exc:
            raise ValueError(f"{path}: game {n}: {exc}") from None
        out.append(Opening(fen, tuple(moves), f"{path}#{n}"))
    if not out:
        raise ValueError(f"{path}: no games")
    return out


def random_plies(game: Game, start_fen: str, plies: int, rng: random.Random,
                 tries: int = 200) -> tuple:
    """``plies`` random moves from ``start_fen`` that keep the game balanced.

    Balanced: no game end, the side to move neither in check nor able to win at once (a
    mate in one: both games of such an opening end in a move, one won by each engine
    whatever their strength), and equal material; after ``tries`` attempts the attempt
    with the smallest material difference is taken.
    In Ender's Chess the plies are actions, and the last turn is closed with a pass.
    """
    best, best_key = (), None
    for _ in range(tries):
        pos = Position(game, start_fen)
        moves = []
        ok = True
        for _ in range(plies):
            legal = pos.legal_moves()
            rng.shuffle(legal)
            for m in legal:
                pos.push(m)
                if pos.outcome() is None:
                    moves.append(m)
                    break
                pos.pop()
            else:
                ok = False
                break
        if not ok:
            continue
        if game.multi_action:
            while moves and pos.outcome() is None and _mid_turn(pos):
                pos.push("@@@@")
                moves.append("@@@@")
            if pos.outcome() is not None:
                continue
        unsafe = not game.multi_action and (pos.in_check() or wins_at_once(pos))
        key = (unsafe, abs(material_balance(game, pos.fen())))
        if best_key is None or key < best_key:
            best, best_key = tuple(moves), key
        if key == (False, 0):
            break
    return best


def wins_at_once(pos: Position) -> bool:
    """Has the side to move a move that ends the game in its favour?"""
    for move in pos.legal_moves():
        pos.push(move)
        outcome = pos.outcome()
        pos.pop()
        if outcome is not None and outcome.result != "1/2-1/2":
            return True  # the mover's win: a move never loses the game for its maker
    return False


def _mid_turn(pos: Position) -> bool:
    """Ender's: has the side to move already acted in this turn?"""
    from movegen import layout as L
    return int(pos.st[L.S_ACTIONS]) != 0


class OpeningBook:
    """Opening ``i`` for every game pair, from the chosen sources."""

    def __init__(self, game: Game, seed: int, openings: list[Opening] | None = None,
                 order: str = "sequential", plies: int = 0, energizer_switch: bool = False,
                 start_fen: str | None = None):
        self.game = game
        self.seed = seed
        self.plies = plies
        self.energizer_switch = energizer_switch
        self.start_fen = start_fen
        self.openings = list(openings) if openings else None
        if self.openings and order == "random":
            random.Random(derived_seed(seed, "order")).shuffle(self.openings)
        self._cache: dict[int, Opening] = {}

    def __call__(self, index: int) -> Opening:
        if index not in self._cache:
            self._cache[index] = self._make(index)
        return self._cache[index]

    def _make(self, index: int) -> Opening:
        g = self.game
        if self.openings:
            base = self.openings[index % len(self.openings)]
            fen, moves, label = base.start_fen, base.moves, base.label
        elif self.start_fen:
            fen, moves, label = self.start_fen, (), "given FEN"
        elif g.shuffle:
            s = derived_seed(self.seed, "shuffle", index)
            fen, moves, label = shuffled_fen(g, s), (), f"shuffle seed {s}"
        elif g.name == "energizer" and self.energizer_switch:
            s = derived_seed(self.seed, "switch", index)
            fen, moves, label = energizer_switched_fen(s), (), f"switch seed {s}"
        else:
            fen, moves, label = g.start_fen, (), "start position"
        if self.plies > 0:
            rng = random.Random(derived_seed(self.seed, "plies", index))
            pos = Position(g, fen)
            for m in moves:
                pos.push(m)
            extra = random_plies(g, pos.fen(), self.plies, rng)
            if moves:  # keep the recorded line, continue it
                moves = tuple(moves) + extra
            else:
                moves = extra
            label += f" + {len(extra)} random plies"
        return Opening(fen, tuple(moves), label)
