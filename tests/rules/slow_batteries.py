"""A deliberately slow, plain-Python move generator for Chess with Batteries.

This is the project's second, independent generator for the ``batteries`` variant.  It is
written line by line from the rule book (``docs/rules/batteries.md``) and must not share code with the
fast numba generator (it imports nothing from ``movegen``, ``search`` or ``engine``).
Clarity wins over speed everywhere: the board is a dict, every piece has its own small
function, and the rule each piece of code implements is quoted next to it.

Data:
    square  -- a tuple ``(file, rank)``, both 0-based: a1 is (0, 0), j10 is (9, 9).
    board   -- ``self.pieces``, a dict mapping occupied squares to a FEN letter
               (upper case White, lower case Black).  Empty squares are absent.
    Move    -- ``(frm, to, victim, promo)``: ``victim`` is the square of the captured
               piece (``None`` for a quiet move), ``promo`` is ``"A"`` or ``None``.
               "A move is identified by its start, end, captured piece and promotion",
               so two Move tuples that compare equal are one move.

Wire notation (README.md / batteries.md): ``e3e4``; promotion ``e9e10a``; an overtaking
capture, whose victim is not on the destination square, as two legs ``d4e5,e5f6``; a jump
over a Battery is a plain move ``d4f6``.
"""

from collections import namedtuple

from tests.rules.board_text import rank_cells, rank_text

FILES = "abcdefghij"
SIZE = 10
WHITE, BLACK = "w", "b"

ORTHOGONAL = ((0, 1), (0, -1), (1, 0), (-1, 0))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
ALL_EIGHT = ORTHOGONAL + DIAGONAL
KNIGHT_LEAPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))

# The lines along which the sliding pieces move:
#   "Lady: moves like a Queen", "Diag: moves like a Bishop", "Orthog: moves like a Rook",
#   "Equine: exactly an Orthog", "Agent: exactly an Orthog".
SLIDE_DIRECTIONS = {
    "L": ALL_EIGHT,
    "D": DIAGONAL,
    "O": ORTHOGONAL,
    "E": ORTHOGONAL,
    "A": ORTHOGONAL,
}

PIECE_LETTERS = "KBLDOEAS"

Move = namedtuple("Move", "frm to victim promo")


# --------------------------------------------------------------------------- helpers

def colour(piece):
    """'w' for an upper-case (White) letter, 'b' for a lower-case (Black) one."""
    return WHITE if piece.isupper() else BLACK


def kind(piece):
    """The piece's letter without its colour: K B L D O E A S."""
    return piece.upper()


def opponent(side):
    return BLACK if side == WHITE else WHITE


def on_board(square):
    f, r = square
    return 0 <= f < SIZE and 0 <= r < SIZE


def step(square, direction, times=1):
    """The square ``times`` steps away in ``direction``, or None when off the board."""
    target = (square[0] + direction[0] * times, square[1] + direction[1] * times)
    return target if on_board(target) else None


def square_name(square):
    return FILES[square[0]] + str(square[1] + 1)


def wire(move):
    """A Move in wire notation."""
    if move.victim is not None and move.victim != move.to:
        # "A capture whose victim is not on the destination square is written as two
        # legs, from-victim,victim-destination, e.g. d4e5,e5f6."
        return "%s%s,%s%s" % (square_name(move.frm), square_name(move.victim),
                              square_name(move.victim), square_name(move.to))
    text = square_name(move.frm) + square_name(move.to)
    if move.promo:
        text += move.promo.lower()          # "written e9e10a"
    return text


# --------------------------------------------------------------------------- the game

class SlowBatteries:
    START_FEN = "2eokloe2/2baddab2/1ssssssss1/10/10/10/10/1SSSSSSSS1/2BADDAB2/2EOKLOE2 w - - 0 1"

    def __init__(self, fen: str = START_FEN):
        self.pieces = {}
        self.side = WHITE
        self.halfmove = 0
        self.fullmove = 1
        # One entry per move played: (move, moving piece, captured piece, halfmove, fullmove)
        self.history = []
        self._set_fen(fen)

    # ------------------------------------------------------------------ FEN

    def _set_fen(self, fen):
        if not isinstance(fen, str):
            raise ValueError("FEN must be a string")
        fields = fen.split()
        if not 2 <= len(fields) <= 6:
            raise ValueError("FEN needs 2 to 6 fields: %r" % fen)
        fields += ["-", "-", "0", "1"][len(fields) - 2:]
        board, side, castling, ep, halfmove, fullmove = fields

        ranks = board.split("/")
        if len(ranks) != SIZE:
            raise ValueError("FEN board needs %d ranks, got %d" % (SIZE, len(ranks)))
        pieces = {}
        for row, text in enumerate(ranks):
            rank = SIZE - 1 - row              # "ranks from the top (Black's side) down"
            cells = rank_cells(text)           # "10 is ten empties"
            if len(cells) != SIZE:
                raise ValueError("rank %r has %d squares, not %d" % (text, len(cells), SIZE))
            for f, ch in enumerate(cells):
                if ch is None:
                    continue
                if not (ch.upper() in PIECE_LETTERS and ch.isalpha()):
                    raise ValueError("bad character %r in FEN" % ch)
                pieces[(f, rank)] = ch

        if side not in (WHITE, BLACK):
            raise ValueError("side to move must be w or b, got %r" % side)
        # "Castling and en passant fields are always - in this game."
        if castling != "-" or ep != "-":
            raise ValueError("castling and en passant fields must be '-' in batteries")
        try:
            halfmove = int(halfmove)
            fullmove = int(fullmove)
        except ValueError:
            raise ValueError("bad move counters in %r" % fen) from None
        if halfmove < 0 or fullmove < 1:
            raise ValueError("bad move counters in %r" % fen)
        for (f, rank), piece in pieces.items():
            # A White Soldier on rank 10 or a Black one on rank 1 would have promoted
            # ("mandatory"); none can ever stand on its own back rank either.
            if kind(piece) == "S" and rank in (0, SIZE - 1):
                raise ValueError("Soldier on %s, a first or last rank" % square_name((f, rank)))
        for letter in "Kk":
            if sum(1 for p in pieces.values() if p == letter) != 1:
                raise ValueError("each side needs exactly one President")

        self.pieces = pieces
        self.side = side
        self.halfmove = halfmove
        self.fullmove = fullmove
        self.history = []
        # A position where the side that just moved has left its President attacked
        # cannot arise in a game (the President could be captured): refuse it.
        if self._is_attacked(self._president(opponent(side)), side):
            raise ValueError("the side not to move is in check")

    def fen(self) -> str:
        rows = [rank_text([self.pieces.get((f, rank)) for f in range(SIZE)])
                for rank in range(SIZE - 1, -1, -1)]
        return "%s %s - - %d %d" % ("/".join(rows), self.side, self.halfmove, self.fullmove)

    # ------------------------------------------------------------------ charge

    def _charged(self, square):
        """Charged: "standing on one of the 8 squares adjacent (orthogonally or
        diagonally) to a friendly Battery".  "President ... Never charged."
        "Battery ... (never charged)"."""
        piece = self.pieces[square]
        if kind(piece) in "KB":
            return False
        for d in ALL_EIGHT:
            neighbour = step(square, d)
            if neighbour is None:
                continue
            other = self.pieces.get(neighbour)
            if other is not None and kind(other) == "B" and colour(other) == colour(piece):
                return True
        return False

    def _can_capture(self, target, side):
        """A target a non-President piece of ``side`` may capture: an enemy piece that is
        not a Battery ("No piece except a President may land on a square holding a
        Battery")."""
        return target is not None and colour(target) != side and kind(target) != "B"

    # ------------------------------------------------------------------ pieces

    def _president_moves(self, sq, side):
        # "King: one step any direction, moves and captures. ... Only piece that may
        # capture a Battery (an enemy one)."  "a President may land on (capture) an
        # enemy Battery, never its own."
        yield from self._one_steps(sq, lambda target: colour(target) != side)

    def _one_steps(self, sq, may_take):
        """One step in any of the 8 directions: onto an empty square, or onto a piece
        ``may_take(piece)`` allows to capture."""
        for d in ALL_EIGHT:
            to = step(sq, d)
            if to is None:
                continue
            target = self.pieces.get(to)
            if target is None:
                yield Move(sq, to, None, None)
            elif may_take(target):
                yield Move(sq, to, to, None)

    def _battery_moves(self, sq, side):
        # "moves like a Queen but never captures; passes over any pieces on its way;
        # lands only on an empty square"
        for d in ALL_EIGHT:
            to = step(sq, d)
            while to is not None:
                if to not in self.pieces:
                    yield Move(sq, to, None, None)
                to = step(to, d)

    def _slide_moves(self, sq, side, directions, charged):
        """The Lady / Diag / Orthog / Equine / Agent line moves.

        "Any sliding move ... passes over Batteries of either colour as if the square
        were empty" -- but it may not land on one.
        Uncharged: "moves (without capturing) like a Queen" (Bishop, Rook): quiet moves
        only along the line; "captures only by one step" in the same directions.
        Charged: "moves and captures like a full Queen" (Bishop, Rook).
        """
        for d in directions:
            to = step(sq, d)
            while to is not None:
                target = self.pieces.get(to)
                if target is None:
                    yield Move(sq, to, None, None)
                elif kind(target) == "B":
                    pass                      # transparent; cannot land here
                else:
                    if charged and colour(target) != side:
                        yield Move(sq, to, to, None)
                    break                     # a non-Battery piece ends the line
                to = step(to, d)
        if not charged:
            for d in directions:
                to = step(sq, d)
                if to is not None and self._can_capture(self.pieces.get(to), side):
                    yield Move(sq, to, to, None)

    def _equine_leaps(self, sq, side):
        # Charged Equine: "may also capture (only capture) by a Knight leap"
        for leap in KNIGHT_LEAPS:
            to = step(sq, leap)
            if to is not None and self._can_capture(self.pieces.get(to), side):
                yield Move(sq, to, to, None)

    def _agent_extras(self, sq, side):
        # Charged Agent: "plus one step in all 8 directions (move or capture)"
        yield from self._one_steps(sq, lambda target: self._can_capture(target, side))
        # Overtaking: "standing next to an enemy piece other than a Battery, in any of
        # the 8 directions, may jump over it to the square directly beyond, which must be
        # empty (not a Battery either); the jumped piece is captured. It may also jump
        # over an adjacent Battery of either colour the same way; that Battery is not
        # captured (a plain move). It may not jump over a friendly non-Battery piece."
        for d in ALL_EIGHT:
            over = step(sq, d)
            beyond = step(sq, d, 2)
            if over is None or beyond is None:
                continue
            jumped = self.pieces.get(over)
            if jumped is None or beyond in self.pieces:
                continue
            if kind(jumped) == "B":
                yield Move(sq, beyond, None, None)
            elif colour(jumped) != side:
                yield Move(sq, beyond, over, None)

    def _soldier_moves(self, sq, side, charged):
        f, r = sq
        forward = 1 if side == WHITE else -1
        start_rank = 2 if side == WHITE else 7      # "rank 3 for White, 8 for Black"
        last_rank = SIZE - 1 if side == WHITE else 0

        def soldier_move(to, victim):
            # "a Soldier reaching the last rank becomes an Agent" (mandatory, only choice)
            return Move(sq, to, victim, "A" if to[1] == last_rank else None)

        def passable(square):
            # "the square passed over must be empty or hold a Battery"
            return square not in self.pieces or kind(self.pieces[square]) == "B"

        # "FIDE pawn: one step forward"
        one = step(sq, (0, forward))
        if one is not None and one not in self.pieces:
            yield soldier_move(one, None)
        # "captures one step diagonally forward"
        for df in (-1, 1):
            to = step(sq, (df, forward))
            if to is not None and self._can_capture(self.pieces.get(to), side):
                yield soldier_move(to, to)
        # "double step from its start rank ... passes over a Battery on the middle square
        # like any line does (it may never land on one)"; charged: "two squares straight
        # forward without capturing ... at any rank".
        if r == start_rank or charged:
            mid = step(sq, (0, forward))
            two = step(sq, (0, forward), 2)
            if two is not None and passable(mid) and two not in self.pieces:
                yield soldier_move(two, None)
        # charged: "two squares diagonally forward capturing, at any rank"
        if charged:
            for df in (-1, 1):
                mid = step(sq, (df, forward))
                two = step(sq, (df, forward), 2)
                if two is not None and passable(mid) and self._can_capture(self.pieces.get(two), side):
                    yield soldier_move(two, two)

    def _piece_moves(self, sq):
        piece = self.pieces[sq]
        side = colour(piece)
        k = kind(piece)
        # "Charge is judged in the position before the move, for the piece that moves."
        charged = self._charged(sq)
        if k == "K":
            yield from self._president_moves(sq, side)
        elif k == "B":
            yield from self._battery_moves(sq, side)
        elif k == "S":
            yield from self._soldier_moves(sq, side, charged)
        else:
            yield from self._slide_moves(sq, side, SLIDE_DIRECTIONS[k], charged)
            if k == "E" and charged:
                yield from self._equine_leaps(sq, side)
            if k == "A" and charged:
                yield from self._agent_extras(sq, side)

    def _pseudo_moves(self, side):
        """Every move of ``side`` ignoring its own President's safety, without duplicates
        ("two ways of making the same move ... are one move")."""
        moves = {}
        for sq in sorted(self.pieces):
            if colour(self.pieces[sq]) == side:
                for move in self._piece_moves(sq):
                    moves[move] = True
        return list(moves)

    # ------------------------------------------------------------------ attacks

    def _president(self, side):
        letter = "K" if side == WHITE else "k"
        for sq, piece in self.pieces.items():
            if piece == letter:
                return sq
        raise AssertionError("no President for " + side)

    def _is_attacked(self, target, by):
        """Could a piece of ``by`` capture on ``target``, with every piece's charge as it
        stands now?  Looked at backwards from ``target``; the test suite checks this
        against "does any pseudo-legal move of ``by`` capture on target"."""
        # 1. Neighbours.
        for d in ALL_EIGHT:
            sq = step(target, d)
            if sq is None or sq not in self.pieces:
                continue
            piece = self.pieces[sq]
            if colour(piece) != by:
                continue
            k = kind(piece)
            towards = (-d[0], -d[1])         # direction from the attacker to target
            if k == "K":
                return True                   # President: one step, any direction
            if k in SLIDE_DIRECTIONS and towards in SLIDE_DIRECTIONS[k]:
                return True                   # one-step capture along its own lines
            if k == "A" and self._charged(sq):
                # Charged Agent: one step in all 8 directions.  (Overtaking -- "a
                # President with a charged enemy Agent next to it and an empty square
                # beyond is in check" -- is therefore always covered here too.)
                return True
            # Battery: "never captures and never gives check".
        # 2. Lines of charged sliders, which look through Batteries of either colour.
        for d in ALL_EIGHT:
            sq = step(target, d)
            while sq is not None:
                piece = self.pieces.get(sq)
                if piece is not None and kind(piece) != "B":
                    k = kind(piece)
                    towards = (-d[0], -d[1])
                    if (colour(piece) == by and k in SLIDE_DIRECTIONS
                            and towards in SLIDE_DIRECTIONS[k] and self._charged(sq)):
                        return True
                    break
                sq = step(sq, d)
        # 3. Knight leaps of charged Equines.
        for leap in KNIGHT_LEAPS:
            sq = step(target, leap)
            if sq is not None and self.pieces.get(sq) == ("E" if by == WHITE else "e"):
                if self._charged(sq):
                    return True
        # 4. Soldiers: one step diagonally forward; charged, two steps diagonally forward
        #    over a square that is empty or holds a Battery.
        soldier = "S" if by == WHITE else "s"
        forward = 1 if by == WHITE else -1
        for df in (-1, 1):
            back = (-df, -forward)            # from target back towards the soldier
            sq = step(target, back)
            if sq is not None and self.pieces.get(sq) == soldier:
                return True
            sq2 = step(target, back, 2)
            if sq2 is not None and self.pieces.get(sq2) == soldier and self._charged(sq2):
                mid = sq
                if mid not in self.pieces or kind(self.pieces[mid]) == "B":
                    return True
        return False

    def in_check(self) -> bool:
        return self._is_attacked(self._president(self.side), opponent(self.side))

    # ------------------------------------------------------------------ make / unmake

    def _make(self, move):
        piece = self.pieces.pop(move.frm)
        captured = self.pieces.pop(move.victim) if move.victim is not None else None
        self.pieces[move.to] = (("A" if colour(piece) == WHITE else "a")
                                if move.promo else piece)
        self.history.append((move, piece, captured, self.halfmove, self.fullmove))
        # 50-move rule clock: reset by a capture or a Soldier move ("a Soldier move
        # counts as a pawn move").
        if captured is not None or kind(piece) == "S":
            self.halfmove = 0
        else:
            self.halfmove += 1
        if self.side == BLACK:
            self.fullmove += 1
        self.side = opponent(self.side)

    def _unmake(self):
        move, piece, captured, halfmove, fullmove = self.history.pop()
        del self.pieces[move.to]
        self.pieces[move.frm] = piece
        if captured is not None:
            self.pieces[move.victim] = captured
        self.halfmove = halfmove
        self.fullmove = fullmove
        self.side = opponent(self.side)
        return move

    def _legal(self):
        """"A move is legal if afterwards the mover's President is not attacked, where
        attacks are computed with the charge state of the attacking pieces in that
        resulting position"."""
        side = self.side
        legal = []
        for move in self._pseudo_moves(side):
            self._make(move)
            if not self._is_attacked(self._president(side), opponent(side)):
                legal.append(move)
            self._unmake()
        return legal

    # ------------------------------------------------------------------ public API

    def legal_moves(self) -> list:
        return [wire(m) for m in self._legal()]

    def push(self, move: str) -> None:
        text = move.strip().lower() if isinstance(move, str) else None
        for m in self._legal():
            if wire(m) == text:
                self._make(m)
                return
        raise ValueError("illegal move %r in %s" % (move, self.fen()))

    def pop(self) -> str:
        if not self.history:
            raise IndexError("no move to pop")
        return wire(self._unmake())

    def perft(self, depth: int) -> int:
        if depth <= 0:
            return 1
        moves = self._legal()
        if depth == 1:
            return len(moves)
        total = 0
        for m in moves:
            self._make(m)
            total += self.perft(depth - 1)
            self._unmake()
        return total

    def outcome(self):
        """None while the game goes on, else (score, reason)."""
        if not self._legal():
            if self.in_check():
                # "Checkmate wins"
                return ("0-1" if self.side == WHITE else "1-0", "checkmate")
            return ("1/2-1/2", "stalemate")     # "stalemate is a draw"
        if self.halfmove >= 100:
            # "100 plies without capture or pawn move"
            return ("1/2-1/2", "50-move rule")
        if len(self.pieces) == 2:
            # "a side reduced to a bare king against a bare king is a draw"
            return ("1/2-1/2", "bare kings")
        return None
