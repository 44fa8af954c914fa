"""The threats term (search/evaluate.py ``_threats``): in the chess-likes a piece attacked
by an enemy piece (or pawn) worth less is a threat. The side to move gets
``threat_to_move`` if it has one; it pays ``threatened`` plus ``threat_gain_pct`` percent
of the value difference (up to 300) for the opponent's largest, and
``threatened_twice`` plus ``threat_gain2_pct`` percent for the second. Isolated as the
difference between evaluations with and without those weights, on hand-built positions."""
from movegen import Position
from movegen.games import find_game
from movegen.tables import build_tables
from search.evaluate import eval_table, evaluate
from search.state import new_state
from search.weights import hand_weights

ON = {"threat_to_move": 40, "threatened": 20, "threatened_twice": 30,
      "threat_gain_pct": 10, "threat_gain2_pct": 50}


def _term(game_name: str, fen: str) -> int:
    """The evaluation (side to move's view) with the threat weights less that without."""
    game = find_game(game_name)
    pos = Position.from_fen(game, fen)
    G = build_tables(game).G
    on = eval_table(game, dict(hand_weights(game), **ON))
    off = eval_table(game, hand_weights(game))
    return (evaluate(G, pos.board.copy(), pos.st.copy(), on, new_state())
            - evaluate(G, pos.board.copy(), pos.st.copy(), off, new_state()))


def _value(game_name: str, letter: str) -> int:
    return next(p.value for p in find_game(game_name).pieces if p.letter == letter)


def test_a_knight_attacking_a_rook():
    fen = "4k3/8/8/3r4/8/4N3/8/4K3 {} - - 0 1"  # Ne3 attacks Rd5, the rook attacks nothing
    gain = min(_value("normal", "R") - _value("normal", "N"), 300)
    assert _term("normal", fen.format("w")) == ON["threat_to_move"]
    assert _term("normal", fen.format("b")) == -(ON["threatened"] + gain * ON["threat_gain_pct"] // 100)


def test_no_threat_on_a_piece_worth_less_nor_on_the_king():
    assert _term("normal", "4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1") == 0  # Rd1 attacks Nd5: no gain
    assert _term("normal", "8/8/8/3k4/8/4N3/8/4K3 b - - 0 1") == 0  # Ne3 gives check


def test_two_threats_by_a_pawn_fork():
    # e4-e5 done: the pawn on e5 forks the knights on d6 and f6, Black to move
    fen = "4k3/8/3n1n2/4P3/8/8/8/4K3 b - - 0 1"
    gain = _value("normal", "N") - _value("normal", "P")
    g = min(gain, 300)
    assert _term("normal", fen) == -(ON["threatened"] + g * ON["threat_gain_pct"] // 100
                                     + ON["threatened_twice"] + g * ON["threat_gain2_pct"] // 100)


def test_symmetric_in_capablanca():
    # an Archbishop attacked by a Knight (it attacks the Knight too, but is worth more); the
    # same with the colours swapped and the board mirrored
    white = "4k5/10/10/4a5/10/3N6/10/4K5 {} - - 0 1"
    black = "4k5/10/3n6/10/4A5/10/10/4K5 {} - - 0 1"
    assert _term("capablanca", white.format("w")) == _term("capablanca", black.format("b")) == ON["threat_to_move"]
    assert _term("capablanca", white.format("b")) == _term("capablanca", black.format("w")) < -ON["threatened"]
