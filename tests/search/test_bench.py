"""The bench: one line per position, the totals, and the node signature.

The signature changes exactly when the search or the evaluation changes. When a change
is deliberate, run ``python -m engine bench`` (or ``python -c "from search.bench import
run_bench; run_bench()"``), and record the new ``Nodes:`` figure here and in the README.
"""
from search.bench import BENCH_POSITIONS, run_bench

SIGNATURE = 622004


def test_bench_signature():
    lines = []
    total, nps = run_bench(out=lines.append)
    assert len(lines) == len(BENCH_POSITIONS) + 3
    assert lines[0].startswith("Kernels compiled or loaded in ")
    assert lines[-2] == f"Nodes: {total}" and lines[-1].startswith("NPS: ")
    games = {game for game, _, _ in BENCH_POSITIONS}
    assert len(games) == 8 and all(sum(g == game for g, _, _ in BENCH_POSITIONS) >= 2 for game in games)
    assert total == SIGNATURE, f"bench signature changed: {total} (recorded {SIGNATURE})"
    assert nps > 0


def test_bench_at_a_given_depth():
    lines = []
    total, _ = run_bench(depth=2, out=lines.append)
    assert all(" depth  2 " in line for line in lines[1:-2])
    assert total == run_bench(depth=2, out=lambda _: None)[0]  # deterministic
