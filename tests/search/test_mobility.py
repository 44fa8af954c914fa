"""Safe mobility (search/evaluate.py): in the chess-likes every piece other than pawns and
the king scores its weight per square it moves to or captures on (its leaps and slides:
empty or enemy-occupied, up to the first piece) that no enemy pawn attacks, counted from
a typical number. The term is isolated as the difference between
evaluations with and without its weights (equal middlegame and endgame weights: the
tapering then passes it through unrounded) and checked against a count made in plain
Python from the pieces' Betza moves on file/rank coordinates."""
import random
from pathlib import Path

import pytest

from movegen import Position
from movegen.betza import CAPTURE, MOVE, parse_betza
from movegen.games import find_game
from movegen.tables import build_tables
from search.evaluate import eval_table, evaluate
from search.state import new_state
from search.weights import hand_weights
from tune.positions import read_data

DATA = Path(__file__).parents[1] / "tune" / "data"
# distinct per-letter weights, so that a count credited to the wrong type shows
PER_SQUARE = {"Q": 2, "C": 3, "A": 5, "R": 7, "B": 11, "N": 13}
CENTRE = {"Q": 8, "C": 7, "A": 7, "R": 5, "B": 4, "N": 4}


def _weights(game, per_square, centre):
    return dict(hand_weights(game), safe_mobility_mg=per_square, safe_mobility_eg=per_square,
                safe_mobility_centre=centre)


def _term(pos: Position, per_square=PER_SQUARE, centre=CENTRE) -> int:
    """The evaluation (side to move's view) with the weights less that without them."""
    game = pos.game
    G = build_tables(game).G
    on = eval_table(game, _weights(game, per_square, centre))
    off = eval_table(game, _weights(game, {}, {}))
    return (evaluate(G, pos.board.copy(), pos.st.copy(), on, new_state())
            - evaluate(G, pos.board.copy(), pos.st.copy(), off, new_state()))


def _pieces(pos: Position):
    """(letter, White?, file, rank) of every piece on the board."""
    for r in range(pos.game.ranks):
        for f in range(pos.game.files):
            name = f"{chr(ord('a') + f)}{r + 1}"
            if pos.geo.parse(name) in pos.geo.valid_set:
                p = pos.piece_at(name)
                if p:
                    yield p.upper(), p.isupper(), f, r


def safe_squares(pos: Position, letter: str, white: bool, f: int, r: int) -> int:
    """Squares the piece moves to or captures on, by the rules, that no enemy pawn attacks."""
    game = pos.game
    board = {(pf, pr): (pl, pw) for pl, pw, pf, pr in _pieces(pos)}
    pawn = next(p.letter for p in game.pieces if p.pawn)

    def pawn_attacked(tf, tr):
        # an enemy pawn captures one file aside, one rank forward from its own side:
        # Black's from the rank above, White's from the rank below
        back = 1 if white else -1
        return any(board.get((tf + df, tr + back)) == (pawn, not white) for df in (-1, 1))

    count = 0
    for atom in parse_betza(game.piece(letter).betza):
        # the chess-likes' pieces have plain leaps and slides only, which the term counts
        assert atom.mode == MOVE | CAPTURE and not atom.lame and atom.max_range in (0, 1)
        dr = atom.dr if white else -atom.dr
        tf, tr = f + atom.df, r + dr
        while 0 <= tf < game.files and 0 <= tr < game.ranks:
            occupant = board.get((tf, tr))
            if (occupant is None or occupant[1] != white) and not pawn_attacked(tf, tr):
                count += 1
            if occupant is not None or atom.max_range == 1:
                break
            tf, tr = tf + atom.df, tr + dr
    return count


def expected_term(pos: Position, per_square=PER_SQUARE, centre=CENTRE) -> int:
    total = 0
    for letter, white, f, r in _pieces(pos):
        piece = pos.game.piece(letter)
        if piece.pawn or piece.royal:
            continue
        n = safe_squares(pos, letter, white, f, r)
        total += (1 if white else -1) * per_square[letter] * (n - centre[letter])
    return total if pos.turn == "w" else -total


def test_a_rook_blocked_and_a_knight_watched_by_pawns():
    # White's rook on a1: a2..a8 and b1..d1 (e1 is its own king): 10 squares
    game = "normal"
    only_rook = {"R": 7}
    base = Position.from_fen(game, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    assert _term(base, only_rook, {"R": 0}) == 7 * 10
    # an own knight on a4 blocks a4..a8: a2, a3 and b1..d1 (the knight has no weight here)
    blocked = Position.from_fen(game, "4k3/8/8/8/N7/8/8/R3K3 w - - 0 1")
    assert _term(blocked, only_rook, {"R": 0}) == 7 * 5
    # an enemy pawn on b3 attacks a2 and c2: a2 is no longer safe (the rook still reaches
    # a3..a8 behind it); Black to move: the term is from Black's side, negated
    watched = Position.from_fen(game, "4k3/8/8/8/8/1p6/8/R3K3 b - - 0 1")
    assert _term(watched, only_rook, {"R": 0}) == -7 * 9
    # a knight on d4 reaches b3, b5, c2, c6, e2, e6, f3, f5; enemy pawns on d7 and g6
    # attack c6, e6 and f5: 5 safe squares, the weight counted from 4 (a pawn each side
    # out of the way: no drawish scaling)
    knight = Position.from_fen(game, "4k3/p2p4/6p1/8/3N4/8/7P/4K3 w - - 0 1")
    assert _term(knight, {"N": 13}, {"N": 4}) == 13 * (5 - 4)
    # an own piece on a knight's square takes it away, an enemy one does not
    own = Position.from_fen(game, "4k3/p7/8/8/3N4/8/4B2P/4K3 w - - 0 1")
    enemy = Position.from_fen(game, "4k3/p7/8/8/3N4/8/4b2P/4K3 w - - 0 1")
    assert _term(own, {"N": 13}, {"N": 0}) == 13 * 7
    assert _term(enemy, {"N": 13}, {"N": 0}) == 13 * 8


@pytest.mark.parametrize("game", ["normal", "capablanca"])
def test_the_term_on_self_play_positions(game):
    positions, _, _ = read_data(DATA / f"{game}.txt")
    checked = 0
    for _, fen, _ in positions[::3]:
        pos = Position.from_fen(game, fen)
        if not {"P", "p"} <= set(fen.split()[0]):
            continue  # without pawns on one side the drawish scaling divides the score
        assert _term(pos) == expected_term(pos), fen
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("game, seed", [("energizer", None), ("caparandom", 5), ("sultan", None),
                                        ("sultanrandom", 3)])
def test_the_term_along_random_games(game, seed):
    # Shatranj al-Sultan's C is the Courier: it leaps two squares straight or diagonally
    per_square = dict(PER_SQUARE, C=17) if game.startswith("sultan") else PER_SQUARE
    rng = random.Random(seed)
    pos = Position(game, seed=seed)
    for _ in range(40):
        moves = pos.legal_moves()
        if not moves:
            break
        pos.push(rng.choice(moves))
        assert _term(pos, per_square) == expected_term(pos, per_square), pos.fen()
