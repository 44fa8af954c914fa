"""benchmarks/evaluation.py: the same positions for a seed, and a checksum that is the
weighted sum of the evaluation's scores, so that two checkouts can be compared by it."""
from search.evaluate import build_eval, evaluate
from search.state import new_state
from tests.drivers import load_script

evaluation = load_script("benchmarks/evaluation.py")


def test_playouts_repeat_for_a_seed_and_differ_between_seeds():
    fens = [p.fen() for p in evaluation.playouts("capablanca", 12, seed=3)]
    assert fens == [p.fen() for p in evaluation.playouts("capablanca", 12, seed=3)]
    assert fens != [p.fen() for p in evaluation.playouts("capablanca", 12, seed=4)]


def test_checksum_is_the_weighted_sum_of_the_scores():
    positions = evaluation.playouts("normal", 20, seed=5)
    ev = build_eval(positions[0].game)
    expected = sum((i + 1) * evaluate(p.tables.G, p.board.copy(), p.st.copy(), ev, new_state())
                   for i, p in enumerate(positions))
    ns, checksum = evaluation.measure("normal", 20, runs=1, seed=5)
    assert checksum == expected and ns > 0
