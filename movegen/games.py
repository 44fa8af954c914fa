"""Every game Leyden plays, as data: board, pieces, setup, castling, promotion.

A game is one ``Game`` record. The generic chess-like generator reads the piece
tables built from these records; what a table cannot say (Battery charge,
Ender's turns) lives in the family's own module (``batteries``, ``enders``).
"""
from dataclasses import dataclass, replace

CHESS, BATTERIES, ENDERS = 0, 1, 2  # rule families


@dataclass(frozen=True)
class PieceType:
    """One kind of piece of a game."""

    letter: str  #: upper-case FEN letter (White); Black uses lower case
    name: str
    betza: str  #: moves in Betza notation (what XBoard is told; the tables use it too)
    value: int  #: centipawns, the rule file's starting values
    royal: bool = False  #: its capture (or being left attacked) loses
    pawn: bool = False  #: pawn moves, double step, promotion and en passant are code
    #: what the family's own rules do with it, where the Betza string cannot say
    #: (Batteries: "president", "battery", "lady", "diag", "orthog", "equine", "agent",
    #: "soldier"; see movegen/batteries.py)
    role: str = ""


@dataclass(frozen=True)
class Game:
    """The rules of one game, as plain fields.

    Frozen and hashable: the tables built from it are cached on the record itself, so
    a ``Game`` that is not in ``GAMES`` works everywhere a registered one does.
    """

    name: str
    family: int
    files: int
    ranks: int
    pieces: tuple
    start_fen: str
    holes: tuple = ()  #: square names that are not part of the board
    castling: str = "none"  #: "none", "fixed" (king to set files) or "relative" (king two squares)
    castle_king_files: tuple = (None, None)  #: "fixed": king's file after (kingside, queenside)
    shuffle: str | None = None  #: "capablanca" or "sultan" for the random-setup games
    promotions: str = ""  #: letters a pawn may promote to, best first
    #: White's rank (1-based) from which pawns may double-step (chess-like games: 2 only)
    pawn_double_rank: int = 2
    en_passant: bool = True
    drops: bool = False
    gates: tuple = ()  #: (White's gate, Black's gate) in Ender's Chess

    def piece(self, letter: str) -> PieceType:
        for p in self.pieces:
            if p.letter == letter.upper():
                return p
        raise KeyError(letter)

    @property
    def letters(self) -> str:
        return "".join(p.letter for p in self.pieces)

    @property
    def chess960(self) -> bool:
        return self.shuffle is not None

    @property
    def multi_action(self) -> bool:
        """A turn is several actions (Ender's Chess): the side to move changes only when
        the acting side passes, and a protocol move is one action."""
        return self.family == ENDERS


KING = PieceType("K", "King", "K", 0, royal=True)
QUEEN = PieceType("Q", "Queen", "Q", 950)
ROOK = PieceType("R", "Rook", "R", 500)
BISHOP = PieceType("B", "Bishop", "B", 350)
KNIGHT = PieceType("N", "Knight", "N", 300)
PAWN = PieceType("P", "Pawn", "fmWfcF", 100, pawn=True)
ARCHBISHOP = PieceType("A", "Archbishop", "BN", 875)
CHANCELLOR = PieceType("C", "Chancellor", "RN", 900)
COURIER = PieceType("C", "Courier", "AD", 300)

_FIDE_VALUES = {"Q": 900, "R": 500, "B": 330, "N": 320}


def _fide(p: PieceType) -> PieceType:
    return replace(p, value=_FIDE_VALUES.get(p.letter, p.value))


NORMAL = Game(
    name="normal", family=CHESS, files=8, ranks=8,
    pieces=(KING, _fide(QUEEN), _fide(ROOK), _fide(BISHOP), _fide(KNIGHT), PAWN),
    start_fen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    castling="fixed", castle_king_files=(6, 2), promotions="QRBN",
)

_CAPA_PIECES = (KING, QUEEN, CHANCELLOR, ARCHBISHOP, ROOK, BISHOP, KNIGHT, PAWN)

CAPABLANCA = Game(
    name="capablanca", family=CHESS, files=10, ranks=8, pieces=_CAPA_PIECES,
    start_fen="rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
    castling="fixed", castle_king_files=(8, 2), promotions="QCARBN",
)

CAPARANDOM = Game(
    name="caparandom", family=CHESS, files=10, ranks=8, pieces=_CAPA_PIECES,
    start_fen=CAPABLANCA.start_fen, castling="fixed", castle_king_files=(8, 2),
    shuffle="capablanca", promotions="QCARBN",
)

ENERGIZER = Game(
    name="energizer", family=CHESS, files=8, ranks=8,
    pieces=(KING, QUEEN, CHANCELLOR, ARCHBISHOP, ROOK, BISHOP, KNIGHT, PAWN),
    start_fen="rnackqnr/pbppppbp/1p4p1/8/8/1P4P1/PBPPPPBP/RNACKQNR w KQkq - 0 1",
    castling="relative", promotions="QCARBN",
)

_SULTAN_PIECES = (KING, QUEEN, ROOK, BISHOP, KNIGHT, COURIER, PAWN)

SULTAN = Game(
    name="sultan", family=CHESS, files=10, ranks=8, pieces=_SULTAN_PIECES,
    start_fen="rnbcqkcbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBCQKCBNR w KQkq - 0 1",
    castling="fixed", castle_king_files=(8, 2), promotions="QCRBN",
)

SULTANRANDOM = Game(
    name="sultanrandom", family=CHESS, files=10, ranks=8, pieces=_SULTAN_PIECES,
    start_fen=SULTAN.start_fen, castling="fixed", castle_king_files=(8, 2),
    shuffle="sultan", promotions="QCRBN",
)

# Chess with Batteries: the Betza strings describe the uncharged moves for the GUI;
# the real rules (charge, transparency, overtaking) are code in movegen/batteries.py.
BATTERIES_GAME = Game(
    name="batteries", family=BATTERIES, files=10, ranks=10,
    pieces=(
        PieceType("K", "President", "K", 0, royal=True, role="president"),
        PieceType("B", "Battery", "mQ", 300, role="battery"),
        PieceType("L", "Lady", "mQcK", 600, role="lady"),
        PieceType("D", "Diag", "mBcF", 250, role="diag"),
        PieceType("O", "Orthog", "mRcW", 350, role="orthog"),
        PieceType("E", "Equine", "mRcW", 400, role="equine"),
        PieceType("A", "Agent", "mRcW", 450, role="agent"),
        PieceType("S", "Soldier", "fmWfcF", 100, pawn=True, role="soldier"),
    ),
    start_fen="2eokloe2/2baddab2/1ssssssss1/10/10/10/10/1SSSSSSSS1/2BADDAB2/2EOKLOE2 w - - 0 1",
    promotions="A", pawn_double_rank=3, en_passant=False,
)

ENDERS_GAME = Game(
    name="enders", family=ENDERS, files=5, ranks=11,
    pieces=(
        PieceType("R", "Rook", "WD", 400),
        PieceType("B", "Bishop", "FnA", 300),
        PieceType("K", "King", "K", 350),
        PieceType("N", "Knight", "N", 300),
    ),
    start_fen="**1**/5/5/5/5/5/5/5/5/5/**1**[RRBBKKNNrrbbkknn] w - - 0 1",
    holes=("a1", "b1", "d1", "e1", "a11", "b11", "d11", "e11"),
    drops=True, gates=("c1", "c11"), en_passant=False,
)

GAMES = {g.name: g for g in (NORMAL, CAPABLANCA, CAPARANDOM, ENERGIZER, SULTAN,
                             SULTANRANDOM, BATTERIES_GAME, ENDERS_GAME)}


def find_game(name: str) -> Game:
    """The game called ``name`` (the protocol's variant name), or ValueError."""
    try:
        return GAMES[name.lower()]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; known: {', '.join(GAMES)}") from None
