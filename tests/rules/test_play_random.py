"""Position.play_random: random legal moves from a seeded generator, none past the end."""
import random

from movegen import Position


def test_same_seed_same_game_and_every_ply_played():
    a = Position("capablanca").play_random(random.Random(11), 12)
    b = Position("capablanca").play_random(random.Random(11), 12)
    assert a.fen() == b.fen() and len(a.move_stack) == 12
    assert a.fen() != Position("capablanca").play_random(random.Random(12), 12).fen()


def test_nothing_is_played_after_the_game_ended():
    mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    pos = Position("normal", mated)
    assert pos.outcome() is not None
    assert pos.play_random(random.Random(1), 5).fen() == mated
