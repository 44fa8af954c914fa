"""benchmarks/evaluation.py: the same positions for a seed, and a checksum that is the
weighted sum of the evaluation's scores of their children, so that two checkouts can be
compared by it."""
from search.evaluate import build_eval, evaluate
from search.state import new_state
from tests.drivers import load_script

evaluation = load_script("benchmarks/evaluation.py")


def test_playouts_repeat_for_a_seed_and_differ_between_seeds():
    fens = [p.fen() for p in evaluation.playouts("capablanca", 12, seed=3)]
    assert fens == [p.fen() for p in evaluation.playouts("capablanca", 12, seed=3)]
    assert fens != [p.fen() for p in evaluation.playouts("capablanca", 12, seed=4)]


def test_checksum_is_the_weighted_sum_of_the_childrens_scores():
    positions = [p for p in evaluation.playouts("normal", 6, seed=5) if p.outcome() is None]
    ev = build_eval(positions[0].game)
    expected, k = 0, 0
    for pos in positions:
        for m in pos.legal_move_codes():
            child = pos.copy()
            child.push_code(int(m))
            k += 1
            expected += k * evaluate(child.tables.G, child.board.copy(), child.st.copy(), ev,
                                     new_state())
    ns, checksum = evaluation.measure("normal", 6, runs=1, seed=5)
    assert k > 100 and checksum == expected and ns > 0
