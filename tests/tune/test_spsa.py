"""tune.spsa: the method on a known optimum, and a real run of Leydens resumed."""
from __future__ import annotations

import json
import random
import subprocess
import sys

from movegen import GAMES
from tune.spsa import SPSA, tune_text

ROOT = __file__.rsplit("/tests/", 1)[0]


def test_spsa_walks_to_the_optimum_of_a_noisy_match():
    """A "match" the setting closer to 150 (and razor_margin to 250) wins more often:
    the values move there from the game's own (90, 300)."""
    spsa = SPSA.new(GAMES["normal"], {"futility_margin": 10, "razor_margin": 20},
                    iterations=1500, rate=0.02, nodes=1, seed=1)
    rng = random.Random(5)

    def strength(v):
        return -((v["futility_margin"] - 150) / 50) ** 2 - ((v["razor_margin"] - 250) / 100) ** 2

    for k in range(1, 1501):
        signs = {n: rng.choice((-1, 1)) for n in spsa.state["params"]}
        plus, minus = spsa.perturbed(k, signs)
        edge = strength(plus) - strength(minus)  # each game a coin weighted by it
        result = sum(1 if rng.random() < 0.5 + edge else -1 for _ in range(2))
        spsa.update(k, signs, result)
    end = spsa.values()
    assert abs(end["futility_margin"] - 150) < 20, end
    assert abs(end["razor_margin"] - 250) < 40, end
    assert spsa.state["done"] == 1500 and sum(spsa.state["pairs"].values()) == 1500
    assert len(spsa.state["trace"]) == 30


def test_a_real_run_plays_pairs_and_resumes(tmp_path):
    state = tmp_path / "run.json"
    cmd = [sys.executable, "-m", "tune.spsa", "normal", "--param", "futility_margin:10",
           "--iterations", "1", "--nodes", "400", "--state", str(state), "--seed", "3"]
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    run = json.loads(state.read_text())
    assert run["done"] == 1 and sum(run["pairs"].values()) == 1
    assert "[1/1] pair" in out.stdout
    value = run["params"]["futility_margin"]["value"]
    assert value != 90 or run["pairs"]["0"] == 1  # moved unless the pair was even
    again = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and "1 of 1 pairs done" in again.stdout
    assert json.loads(state.read_text()) == run  # nothing left to play
    bad = subprocess.run(cmd[:4] + ["--param", "razor_margin:10", "--state", str(state)],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2 and "resume with those" in bad.stderr


def test_tune_text_is_what_the_option_takes():
    from search.weights import parse_changes
    text = tune_text({"razor_margin": 310, "futility_margin": 85})
    assert parse_changes(text) == (("futility_margin", 85), ("razor_margin", 310))
