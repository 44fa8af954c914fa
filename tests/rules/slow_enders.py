"""A slow, plain-Python action generator for Ender's Chess (``enders``).

This is the second, independent generator that proves the fast one. It is
written literally from the rule book (``docs/rules/enders.md``) and imports nothing
from ``movegen``, ``search`` or ``engine``. Clarity beats speed everywhere:
the board is a dict from square name to piece letter, every push saves a full
copy of the state, and ``push`` accepts an action only if ``legal_moves``
lists it.

Quotes from the rule file are given as ``# RULE: ...`` comments.

Decisions this file takes where the rule file is silent (see the report that
came with it):

* Positions read from a FEN are at the start of a turn. "A White piece on c11
  with Black to move means Black's reply turn."
* A FEN that already shows a finished game is accepted and reported by
  ``outcome()``: a side without pieces has lost ("elimination"); a Black piece
  on c1 means Black reached White's Gate ("gate", or "reply gate" = draw if a
  White piece stands on c11); a White piece on c11 with White to move means
  Black's reply turn has passed ("reply turn ended"). A FEN in which neither
  side has a piece is malformed.
* The half-move field counts whole turns (of either player) since the last
  turn in which a piece was captured or dropped; the move number goes up after
  Black's turn. Repetition and 50-turn draws are not implemented here (perft
  ignores them, and this generator exists for perft and the rule tests).
* ``push`` accepts ``0000`` as a synonym of ``@@@@`` (the rule file allows
  both); ``legal_moves`` lists only ``@@@@``.
"""

import re

from tests.rules.board_text import rank_cells, rank_text

WHITE, BLACK = "w", "b"
FILES = "abcde"
LETTERS = "RBKN"  # Rook, Bishop, King, Knight: the order drops are listed in
END_TURN = "@@@@"

# RULE: "the board is a 5-file by 9-rank field (files a..e, ranks 2..10) plus
# one extra cell centred above and below it: White's Gate c1 and Black's Gate
# c11. All other squares of ranks 1 and 11 are holes. That is 47 cells."
WHITE_GATE = "c1"
BLACK_GATE = "c11"


def square_name(file_index, rank):
    return FILES[file_index] + str(rank)


def square_coords(name):
    return FILES.index(name[0]), int(name[1:])


def is_cell(file_index, rank):
    """True if (file, rank) is one of the 47 cells of the board."""
    if not 0 <= file_index < 5:
        return False
    if 2 <= rank <= 10:
        return True
    # Ranks 1 and 11 hold only the Gates, on the c-file.
    return rank in (1, 11) and file_index == 2


CELLS = [square_name(f, r) for r in range(1, 12) for f in range(5) if is_cell(f, r)]
assert len(CELLS) == 47


def colour_of(piece):
    return WHITE if piece.isupper() else BLACK


def other(side):
    return BLACK if side == WHITE else WHITE


def own_gate(side):
    return WHITE_GATE if side == WHITE else BLACK_GATE


def enemy_gate(side):
    return BLACK_GATE if side == WHITE else WHITE_GATE


ORTHOGONAL = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAGONAL = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT_JUMPS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]


class SlowEnders:
    START_FEN = "**1**/5/5/5/5/5/5/5/5/5/**1**[RRBBKKNNrrbbkknn] w - - 0 1"

    # ------------------------------------------------------------------ FEN

    def __init__(self, fen: str = START_FEN):
        self.board = {}  # square name -> piece letter ("R", "n", ...) or None
        self.reserve = {WHITE: [], BLACK: []}  # upper-case letters in hand
        self.side = WHITE  # whose actions are next
        self.actions_this_turn = 0  # drops and moves made so far this turn
        self.moved = set()  # squares of own pieces that already moved this turn
        self.reply_turn = False  # is the current turn Black's reply turn?
        self.captured_or_dropped = False  # in the current turn (for the clock)
        self.halfmove = 0
        self.fullmove = 1
        self.result = None  # None, or (score, reason)
        self.history = []  # (saved state, action) for pop()
        self._read_fen(fen)

    def _read_fen(self, fen):
        if not isinstance(fen, str):
            raise ValueError("FEN must be a string")
        fields = fen.split()
        if len(fields) < 2 or len(fields) > 6:
            raise ValueError("FEN needs board and side to move (and at most 6 fields)")
        placement = fields[0]
        reserve_text = ""
        if "[" in placement:
            if not placement.endswith("]") or placement.count("[") != 1:
                raise ValueError("bad reserve brackets")
            placement, reserve_text = placement[:-1].split("[")
        ranks = placement.split("/")
        if len(ranks) != 11:
            raise ValueError("FEN board must have 11 ranks")
        for row_index, row in enumerate(ranks):
            rank = 11 - row_index  # FEN ranks go from rank 11 down to rank 1
            cells = rank_cells(row)
            if len(cells) != 5:
                raise ValueError("rank %d does not have 5 squares" % rank)
            for file_index, ch in enumerate(cells):
                if ch == "*":
                    if is_cell(file_index, rank):
                        raise ValueError("'*' on a square that is not a hole")
                    continue
                if not is_cell(file_index, rank):
                    raise ValueError("a piece or an empty square on a hole")
                if ch is not None and ch.upper() not in LETTERS:
                    raise ValueError("bad character in FEN board: %r" % ch)
                self.board[square_name(file_index, rank)] = ch
        assert sorted(self.board) == sorted(CELLS)
        for ch in reserve_text:
            if ch == "-" and reserve_text == "-":
                continue
            if ch.upper() not in LETTERS:
                raise ValueError("bad reserve letter %r" % ch)
            self.reserve[colour_of(ch)].append(ch.upper())
        if fields[1] not in (WHITE, BLACK):
            raise ValueError("side to move must be w or b")
        self.side = fields[1]
        if len(fields) > 2 and fields[2] != "-":
            raise ValueError("Ender's Chess has no castling")
        if len(fields) > 3 and fields[3] != "-":
            raise ValueError("Ender's Chess has no en passant")
        try:
            if len(fields) > 4:
                self.halfmove = int(fields[4])
            if len(fields) > 5:
                self.fullmove = int(fields[5])
        except ValueError:
            raise ValueError("bad move counters") from None
        if self.halfmove < 0 or self.fullmove < 1:
            raise ValueError("bad move counters")
        # RULE (Perft): "Positions ... are given at the start of a turn: a White
        # piece on c11 with Black to move means Black's reply turn."
        self.reply_turn = self.side == BLACK and self._is_white(self.board[BLACK_GATE])
        self.result = self._outcome_of_loaded_position()

    def _outcome_of_loaded_position(self):
        """A FEN may show a game that is already over (this file's decision)."""
        white_has = self.piece_count(WHITE) > 0
        black_has = self.piece_count(BLACK) > 0
        if not white_has and not black_has:
            raise ValueError("neither side has a piece")
        if not white_has:
            return ("0-1", "elimination")
        if not black_has:
            return ("1-0", "elimination")
        if self._is_black(self.board[WHITE_GATE]):
            if self._is_white(self.board[BLACK_GATE]):
                return ("1/2-1/2", "reply gate")
            return ("0-1", "gate")
        if self.side == WHITE and self._is_white(self.board[BLACK_GATE]):
            return ("1-0", "reply turn ended")
        return None

    def fen(self) -> str:
        rows = [rank_text([self.board[square_name(f, rank)] if is_cell(f, rank) else "*"
                           for f in range(5)])
                for rank in range(11, 0, -1)]
        hand = ""
        for side in (WHITE, BLACK):
            for letter in LETTERS:
                count = self.reserve[side].count(letter)
                hand += (letter if side == WHITE else letter.lower()) * count
        return "%s[%s] %s - - %d %d" % ("/".join(rows), hand, self.side, self.halfmove, self.fullmove)

    # ---------------------------------------------------------------- helpers

    @staticmethod
    def _is_white(piece):
        return piece is not None and piece.isupper()

    @staticmethod
    def _is_black(piece):
        return piece is not None and piece.islower()

    def piece_count(self, side):
        """Pieces of ``side`` on the board plus in reserve."""
        on_board = sum(1 for p in self.board.values() if p is not None and colour_of(p) == side)
        return on_board + len(self.reserve[side])

    @property
    def turn(self) -> str:
        return self.side

    def outcome(self):
        return self.result

    # ------------------------------------------------------------- generation

    def _targets(self, square):
        """Squares the piece on ``square`` may move to (empty or enemy-occupied)."""
        piece = self.board[square]
        kind = piece.upper()
        f, r = square_coords(square)
        candidates = []
        if kind == "R":
            # RULE: "Rook | WD | one or two squares orthogonally, leaping over
            # anything between"
            for df, dr in ORTHOGONAL:
                candidates.append((f + df, r + dr))
                candidates.append((f + 2 * df, r + 2 * dr))
        elif kind == "B":
            # RULE: "Bishop | FnA | one or two squares diagonally; Ruling: the
            # two-square step is blocked by an occupied square in between"
            for df, dr in DIAGONAL:
                candidates.append((f + df, r + dr))
                middle = (f + df, r + dr)
                middle_is_empty_cell = is_cell(*middle) and self.board[square_name(*middle)] is None
                if middle_is_empty_cell:
                    candidates.append((f + 2 * df, r + 2 * dr))
        elif kind == "K":
            # RULE: "King | K | one square any direction"
            for df, dr in ORTHOGONAL + DIAGONAL:
                candidates.append((f + df, r + dr))
        elif kind == "N":
            # RULE: "Knight | N | orthodox knight"
            for df, dr in KNIGHT_JUMPS:
                candidates.append((f + df, r + dr))
        else:
            raise AssertionError(piece)
        targets = []
        for cf, cr in candidates:
            # RULE: "Holes cannot be entered or leapt into."
            if not is_cell(cf, cr):
                continue
            target = square_name(cf, cr)
            occupant = self.board[target]
            # RULE: "All pieces capture by landing on an enemy piece"
            if occupant is not None and colour_of(occupant) == colour_of(piece):
                continue
            targets.append(target)
        return targets

    def _drops(self):
        # RULE: "Drop (optional, only as the first action): if the player's own
        # Gate is empty and the reserve is not empty, put one reserve piece on
        # the own Gate"; Perft: "one per distinct piece letter in reserve"
        if self.actions_this_turn != 0:
            return []
        if self.board[own_gate(self.side)] is not None:
            return []
        gate = own_gate(self.side)
        # Upper-case letter for both sides: "as XBoard writes drops".
        return [letter + "@" + gate for letter in LETTERS if letter in self.reserve[self.side]]

    def _piece_moves(self):
        # RULE: "any number of the player's pieces on the board move, one after
        # another, each piece at most once per turn (a piece dropped this turn
        # may move too)"
        moves = []
        for square in CELLS:
            piece = self.board[square]
            if piece is None or colour_of(piece) != self.side:
                continue
            if square in self.moved:
                continue
            for target in self._targets(square):
                moves.append(square + target)
        return moves

    def legal_moves(self) -> list:
        if self.result is not None:
            return []  # game-ending positions have no actions
        # RULE: "the player may stop at any time, also without having done
        # anything (a pass)"
        actions = self._drops() + self._piece_moves() + [END_TURN]
        assert len(actions) == len(set(actions))
        return actions

    # ---------------------------------------------------------------- playing

    def _save(self):
        return (
            dict(self.board),
            {WHITE: list(self.reserve[WHITE]), BLACK: list(self.reserve[BLACK])},
            self.side,
            self.actions_this_turn,
            set(self.moved),
            self.reply_turn,
            self.captured_or_dropped,
            self.halfmove,
            self.fullmove,
            self.result,
        )

    def _restore(self, saved):
        (board, reserve, self.side, self.actions_this_turn, moved, self.reply_turn,
         self.captured_or_dropped, self.halfmove, self.fullmove, self.result) = saved
        self.board = dict(board)
        self.reserve = {WHITE: list(reserve[WHITE]), BLACK: list(reserve[BLACK])}
        self.moved = set(moved)

    def _start_next_turn(self):
        """The current player's turn is over; the opponent's turn starts."""
        if self.captured_or_dropped:
            self.halfmove = 0
        else:
            self.halfmove += 1
        if self.side == BLACK:
            self.fullmove += 1  # "the move number goes up after Black's turn"
        self.side = other(self.side)
        self.actions_this_turn = 0
        self.moved = set()
        self.captured_or_dropped = False
        # Black's turn right after White occupied c11 is the reply turn.
        self.reply_turn = self.side == BLACK and self._is_white(self.board[BLACK_GATE])

    def push(self, action: str) -> None:
        if action == "0000":
            action = END_TURN
        if not isinstance(action, str) or action not in self.legal_moves():
            raise ValueError("illegal action %r in %s" % (action, self.fen()))
        self.history.append((self._save(), action))
        if action == END_TURN:
            self._end_turn()
        elif "@" in action:
            self._drop(action)
        else:
            match = re.fullmatch(r"([a-e]\d+)([a-e]\d+)", action)
            self._move(match.group(1), match.group(2))

    def _end_turn(self):
        if self.reply_turn:
            # RULE: "otherwise White wins when that turn ends"; Perft: "the
            # 'end turn' that closes Black's reply turn is such an action"
            self.result = ("1-0", "reply turn ended")
            return
        self._start_next_turn()

    def _drop(self, action):
        letter, gate = action.split("@")
        self.reserve[self.side].remove(letter)
        self.board[gate] = letter if self.side == WHITE else letter.lower()
        self.actions_this_turn += 1
        self.captured_or_dropped = True
        # A drop captures nothing, so no elimination and no Gate rule applies.

    def _move(self, source, target):
        piece = self.board[source]
        victim = self.board[target]
        self.board[source] = None
        # RULE: "a captured piece leaves the game (it does not go to the
        # capturer's reserve)"
        self.board[target] = piece
        self.moved.add(target)
        self.actions_this_turn += 1
        if victim is not None:
            self.captured_or_dropped = True
        # RULE: "A player who has no pieces left, on the board or in reserve,
        # loses at once ... This is checked after every action, before the
        # Gate rules"
        opponent = other(self.side)
        if self.piece_count(opponent) == 0:
            self.result = ("1-0", "elimination") if self.side == WHITE else ("0-1", "elimination")
            return
        # RULE: "A player who lands a piece on the opponent's Gate (capturing
        # whatever stood there) occupies it: the turn ends at once."
        if target != enemy_gate(self.side):
            return
        if self.side == BLACK:
            if self.reply_turn:
                # RULE: "if Black occupies White's Gate during that turn, the
                # game is a draw"
                self.result = ("1/2-1/2", "reply gate")
            else:
                # RULE: "If Black occupies White's Gate, Black wins."
                self.result = ("0-1", "gate")
            return
        # RULE: "If White occupies Black's Gate, Black gets one more turn"
        self._start_next_turn()
        assert self.reply_turn

    def pop(self) -> str:
        if not self.history:
            raise IndexError("pop from an empty history")
        saved, action = self.history.pop()
        self._restore(saved)
        return action

    # ------------------------------------------------------------------ perft

    def perft(self, depth: int) -> int:
        """Number of action sequences of length ``depth`` (enders.md, Perft).

        Game-ending positions have no actions, so a game-ending action counts
        once at its own depth and adds nothing deeper.
        """
        if depth == 0:
            return 1
        total = 0
        for action in self.legal_moves():
            self.push(action)
            total += self.perft(depth - 1)
            self.pop()
        return total


if __name__ == "__main__":
    import sys
    import time

    max_depth = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    game = SlowEnders()
    for d in range(1, max_depth + 1):
        t0 = time.time()
        n = game.perft(d)
        print("perft(%d) = %d  (%.2fs)" % (d, n, time.time() - t0), flush=True)
