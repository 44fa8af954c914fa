"""``Position``: the Python API to the rules of every game (python-chess in spirit).

    >>> from movegen import Position
    >>> pos = Position("capablanca")
    >>> len(pos.legal_moves())
    28
    >>> pos.push("e2e4"); pos.turn
    'b'
"""
import re

import numpy as np

from . import kernel
from . import layout as L
from .core import attacked
from .batteries import batteries_attacked
from .fen import parse_fen, write_fen
from .games import BATTERIES, ENDERS, Game, find_game
from .move import IllegalMoveError, Move, Outcome, aliases, decode
from .shuffle import shuffled_fen
from .tables import build_tables, geometry

#: a move spelled by its two squares (and a promotion letter): most moves of a game record
_PLAIN_MOVE = re.compile(r"([a-z]\d+)([a-z]\d+)[a-z]?")

_WHY = {L.WHY_GATE: "gate", L.WHY_REPLY_GATE: "reply gate",
        L.WHY_ELIMINATION: "elimination", L.WHY_REPLY_END: "reply turn ended"}


class Position:
    """A position of one game, with its move history (push/pop)."""

    def __init__(self, game: str | Game = "normal", fen: str | None = None, *, seed: int | None = None):
        self.game = game if isinstance(game, Game) else find_game(game)
        self.tables = build_tables(self.game)
        self.geo = geometry(self.game)
        if fen is None:
            fen = shuffled_fen(self.game, seed) if (self.game.shuffle and seed is not None) else self.game.start_fen
        self.board, self.st, self.shredder = parse_fen(self.game, self.tables, fen)
        self.undo = np.zeros((L.MAX_PLY, L.NUNDO), np.int64)
        self._buf = np.zeros(L.MAX_MOVES * 64, np.int64)
        self._history: list[str] = []
        self._legal_cache = None
        if self.game.family != ENDERS and self._attacked(self.st[L.S_KING + 1 - self.st[L.S_SIDE]],
                                                         self.st[L.S_SIDE]):
            raise ValueError("the side not to move is in check")

    @classmethod
    def from_fen(cls, game: str | Game, fen: str) -> "Position":
        return cls(game, fen)

    # ------------------------------------------------------------ reading
    @property
    def turn(self) -> str:
        """'w' or 'b': whose move (Ender's: whose action) is next."""
        return "wb"[self.st[L.S_SIDE]]

    def fen(self) -> str:
        return write_fen(self.game, self.board, self.st, self.shredder)

    @property
    def hash(self) -> int:
        return int(self.st[L.S_HASH])

    @property
    def ply(self) -> int:
        return len(self._history)

    @property
    def move_stack(self) -> list[str]:
        return list(self._history)

    def piece_at(self, square: str) -> str | None:
        p = int(self.board[self.geo.parse(square)])
        if p == 0:
            return None
        letter = self.game.letters[p % L.BLACK_BIT - 1]
        return letter if p < L.BLACK_BIT else letter.lower()

    def legal_move_codes(self) -> np.ndarray:
        n = kernel.gen_legal(self.tables.G, self.board, self.st, self.undo, self._buf, 0)
        return self._buf[:n].copy()

    def _legal(self) -> dict[str, Move]:
        """Every accepted spelling -> legal move, canonical spellings first."""
        if self._legal_cache is None:
            self._moves = [self.move(m) for m in self.legal_move_codes()]
            table = {mv.name: mv for mv in self._moves}
            for mv in self._moves:
                for alias in aliases(self.game, mv):
                    table.setdefault(alias, mv)
            self._legal_cache = table
        return self._legal_cache

    def moves(self) -> list[Move]:
        """The legal moves (Ender's: actions) as ``Move`` values."""
        self._legal()
        return list(self._moves)

    def legal_moves(self) -> list[str]:
        """The legal moves (Ender's: actions) in canonical wire notation."""
        return [mv.name for mv in self.moves()]

    def parse_move(self, move: str | Move) -> Move:
        """The legal move ``move`` names (any accepted spelling, or a ``Move`` of this
        position); IllegalMoveError, naming the reason, if there is none."""
        if isinstance(move, str) and self._legal_cache is None:
            found = self._by_squares(move.strip())
            if found is not None:
                return found
        table = self._legal()
        text = move.name if isinstance(move, Move) else move.strip()
        found = table.get(text)
        if found is not None and (not isinstance(move, Move) or found.code == move.code):
            return found
        if self.outcome() is not None and self.game.family == ENDERS:
            raise IllegalMoveError(f"illegal move {text!r}: the game is over")
        raise IllegalMoveError(f"illegal move {text!r} in {self.fen()}")

    def _by_squares(self, text: str) -> Move | None:
        """The legal move whose canonical spelling is ``text``, found by its two squares
        without spelling every legal move (replaying a game's moves by name is then
        several times faster); None when ``text`` is no plain square-to-square move or
        no legal move of those squares is spelled so (the full table decides then)."""
        plain = _PLAIN_MOVE.fullmatch(text)
        if plain is None:
            return None
        try:
            fr, to = self.geo.parse(plain.group(1)), self.geo.parse(plain.group(2))
        except ValueError:
            return None
        codes = self.legal_move_codes()  # from and to: a code's two low bytes (core.encode)
        for m in codes[((codes & 255) == fr) & (((codes >> 8) & 255) == to)]:
            mv = self.move(m)
            if mv.name == text:
                return mv
        return None

    def is_legal(self, move: str | Move) -> bool:
        try:
            self.parse_move(move)
            return True
        except IllegalMoveError:
            return False

    def move(self, m: int) -> Move:
        """The ``Move`` of kernel move ``m`` (not checked for legality)."""
        return decode(self.game, self.geo, m)

    def move_name(self, m: int) -> str:
        return self.move(m).name

    # ------------------------------------------------------------ changing
    def push(self, move: str | Move) -> Move:
        """Play ``move`` (any accepted spelling, or a ``Move``); returns the move played."""
        mv = self.parse_move(move)
        self.push_code(mv.code)
        return mv

    def push_code(self, m: int) -> None:
        name = self.move_name(m)
        if self.st[L.S_PLY] >= L.MAX_PLY - 256:
            raise ValueError("game too long")
        kernel.make(self.tables.G, self.board, self.st, self.undo, np.int64(m))
        self._history.append(name)
        self._legal_cache = None

    def play_random(self, rng, plies: int) -> "Position":
        """Play up to ``plies`` moves drawn by ``rng`` (a ``random.Random``), fewer if the
        game ends; returns this position."""
        for _ in range(plies):
            moves = self.legal_move_codes()
            if len(moves) == 0 or self.outcome() is not None:
                break
            self.push_code(int(moves[rng.randrange(len(moves))]))
        return self

    def pop(self) -> str:
        if not self._history:
            raise IndexError("no move to take back")
        kernel.unmake(self.tables.G, self.board, self.st, self.undo)
        self._legal_cache = None
        return self._history.pop()

    def copy(self) -> "Position":
        other = Position.__new__(Position)
        other.__dict__.update(self.__dict__)
        other.board, other.st, other.undo = self.board.copy(), self.st.copy(), self.undo.copy()
        other._buf = np.zeros_like(self._buf)
        other._history = list(self._history)
        other._legal_cache = None
        return other

    # ------------------------------------------------------------ rules
    def _attacked(self, sq, by) -> bool:
        if self.game.family == BATTERIES:
            return batteries_attacked(self.tables.G, self.board, sq, by)
        return attacked(self.tables.G, self.board, sq, by)

    def in_check(self) -> bool:
        return bool(kernel.in_check(self.tables.G, self.board, self.st))

    def perft(self, depth: int) -> int:
        if depth <= 0:
            return 1
        buf = np.zeros(L.MAX_MOVES * (depth + 2), np.int64)
        return int(kernel.perft(self.tables.G, self.board, self.st, self.undo, buf, depth, 0))

    def divide(self, depth: int) -> list[tuple[str, int]]:
        """(move, perft of the rest) per root move; a game-ending action counts only at depth 1."""
        result = []
        for m in self.legal_move_codes():
            self.push_code(int(m))
            ended = self.st[L.S_RESULT] != 0
            count = 1 if depth <= 1 else (0 if ended else self.perft(depth - 1))
            result.append((self._history[-1], count))
            self.pop()
        return result

    def repetitions(self) -> int:
        """How many times the current position stood before (same side, turn start)."""
        ply = int(self.st[L.S_PLY])
        h = self.st[L.S_HASH]
        count = 0
        if self.game.family == ENDERS:
            if self.st[L.S_ACTIONS] != 0:
                return 0
            for i in range(ply):
                if self.undo[i, L.S_HASH] == h and self.undo[i, L.S_ACTIONS] == 0:
                    count += 1
            return count
        for i in range(ply - 2, max(-1, ply - 1 - int(self.st[L.S_HALF])), -2):
            if self.undo[i, L.S_HASH] == h:
                count += 1
        return count

    def _bare_kings(self) -> bool:
        king = self.tables.gi[L.GI_KING]
        if not king:
            return False
        for sq in self.tables.squares:
            p = int(self.board[sq])
            if p and p % L.BLACK_BIT != king:
                return False
        return True

    def outcome(self) -> Outcome | None:
        """None while the game goes on, else (result, reason), e.g. ("1-0", "checkmate")."""
        found = self._outcome()
        return None if found is None else Outcome(*found)

    def _outcome(self):
        result = int(self.st[L.S_RESULT])
        if result:
            return ("1-0", "0-1", "1/2-1/2")[result - 1], _WHY[int(self.st[L.S_WHY])]
        if self.game.family == ENDERS:
            if self.st[L.S_ACTIONS] == 0:
                if self.repetitions() >= 2:
                    return "1/2-1/2", "repetition"
                if self.st[L.S_HALF] >= 100:
                    return "1/2-1/2", "50-turn rule"
            return None
        if not self._legal():
            if self.in_check():
                return ("0-1" if self.turn == "w" else "1-0"), "checkmate"
            return "1/2-1/2", "stalemate"
        if self.st[L.S_HALF] >= 100:
            return "1/2-1/2", "50-move rule"
        if self.repetitions() >= 2:
            return "1/2-1/2", "repetition"
        if self._bare_kings():
            return "1/2-1/2", "bare kings"
        return None

    def __repr__(self) -> str:
        return f"Position({self.game.name!r}, {self.fen()!r})"
