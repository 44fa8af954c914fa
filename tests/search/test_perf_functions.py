"""benchmarks/perf_functions.py: perf's samples named by numba's functions."""
import shutil

import pytest

from tests.drivers import load_script

perf_functions = load_script("benchmarks/perf_functions.py")


def test_numba_symbols_read_as_python_names():
    name = perf_functions.python_name
    assert name("_ZN6search9alphabeta7negamaxB4v122B48c8tJTIeFIjxE5ArrayIxLi1E1C7mutable7alignedE") \
        == "search.alphabeta.negamax"
    assert name("_ZN7movegen4core8_gen_menB4v173B38c8t") == "movegen.core._gen_men"
    assert name("gc_collect_main") == "gc_collect_main"  # not numba's: left as it is


def test_shares_add_up_per_function():
    report = ("# comment\n"
              "     6.00%  [.] _ZN6search8evaluate10eval_chessB4v151B38c8t\n"
              "     2.00%  [.] _ZN6search9alphabeta7negamaxB4v122B48\n"
              "     2.00%  [.] _ZN6search9alphabeta7negamaxB4v130B48\n"
              "    50.00%  [.] _PyEval_EvalFrameDefault\n")
    assert perf_functions.shares(report) == {"search.evaluate.eval_chess": 60.0,
                                             "search.alphabeta.negamax": 40.0}


@pytest.mark.slow
def test_a_real_sampled_search(capsys):
    if shutil.which("perf") is None:
        pytest.skip("perf is not installed")
    assert perf_functions.main(["--seconds", "2", "--top", "40"]) == 0
    out = capsys.readouterr().out
    assert "search.alphabeta.negamax" in out and "search.evaluate.eval_chess" in out
