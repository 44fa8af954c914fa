"""What the page's legend says about each piece, by game family (the rules in a line)."""
from movegen.games import BATTERIES, CHESS, ENDERS, Game

_CHESS = {
    "King": "one step any way; castles",
    "Queen": "Rook + Bishop",
    "Rook": "any distance straight",
    "Bishop": "any distance diagonally",
    "Knight": "leaps (1,2)",
    "Pawn": "chess pawn",
    "Archbishop": "Bishop + Knight",
    "Chancellor": "Rook + Knight",
    "Courier": "leaps two squares straight or diagonally",
}
_BATTERIES = {
    "President": "King; the only piece that captures a Battery",
    "Battery": "moves as a Queen over any piece, never captures; charges its neighbours",
    "Lady": "moves as a Queen, captures one step; charged: full Queen",
    "Diag": "moves as a Bishop, captures one diagonal step; charged: full Bishop",
    "Orthog": "moves as a Rook, captures one straight step; charged: full Rook",
    "Equine": "an Orthog; charged: full Rook, also captures by Knight leap",
    "Agent": "an Orthog; charged: full Rook, one step any way, overtakes (jumps to capture)",
    "Soldier": "pawn; charged: two steps forward, captures two diagonal steps",
}
_ENDERS = {
    "Rook": "one or two squares straight, leaping",
    "Bishop": "one or two squares diagonally (the two-step is blocked)",
    "King": "one step any way; not royal",
    "Knight": "leaps (1,2)",
}
_BY_FAMILY = {CHESS: _CHESS, BATTERIES: _BATTERIES, ENDERS: _ENDERS}


def legend(game: Game) -> list[dict]:
    """[{letter, name, text}] for every piece of ``game``."""
    texts = _BY_FAMILY[game.family]
    return [{"letter": p.letter, "name": p.name, "text": texts[p.name]} for p in game.pieces]
