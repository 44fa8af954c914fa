"""The search's settings tuned by games: simultaneous perturbation stochastic approximation
(SPSA, Spall 1992), the way strong engines tune their search.

    python -m tune.spsa capablanca --param futility_margin:10 --param razor_margin:30 \\
        --iterations 2000 --nodes 25000 --concurrency 2 --state benchmarks/spsa/capablanca-prune.json

Each iteration draws a random sign per setting and plays one pair of games (one opening,
both colours) between two Leydens: one with every setting moved a step ``c`` in its
sign's direction, one moved the other way (the ``Tune`` option, set between games on the
running engines). The pair's result (+2 .. -2, the first's wins less its losses) says
which way the settings gain, all at once; each setting moves by ``rate * c * result *
sign``. Early steps are larger (``c`` by (N/k)^0.101, the rate by ((A+N)/(A+k))^0.602,
A = N/10, the usual schedule), so the values settle by the end. The settings are the
search's (search/weights.py SEARCH), started from the game's own, kept within
SEARCH_BOUNDS; ``c`` is the last iteration's step in the setting's own units.

The state (settings, schedule, the iterations done, the results and a trace of the values)
is written to ``--state`` after every iteration: a run stopped anywhere resumes from it
with the same command. The result is a hypothesis, tested like any other change by an
SPRT (benchmarks/sprt.md) before it lands in the game's tuned file.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import shlex
import sys
import threading
from pathlib import Path

from match.engines import EngineConfigError, parse_engine_spec
from match.game import Adjudication, GameSettings, play_game
from match.openings import OpeningBook, derived_seed
from match.tc import TimeControl
from search.weights import SEARCH, SEARCH_BOUNDS, weights

from . import game_argument

ROOT = str(Path(__file__).resolve().parents[1])
GAMMA = 0.101  #: how the step c shrinks with the iteration
ALPHA = 0.602  #: how the rate shrinks with the iteration
TRACE_EVERY = 50  #: iterations between the trace's entries
POINTS = {"1-0": 1.0, "0-1": -1.0}  #: White's side of a decisive result; a draw or "*": 0


class SPSA:
    """The settings' values and the schedule; ``step`` and ``update`` are all the method."""

    def __init__(self, state: dict):
        self.state = state
        self.lock = threading.Lock()

    @classmethod
    def new(cls, game, steps: dict, iterations: int, rate: float, nodes: int, seed: int) -> SPSA:
        """A run of ``iterations`` pairs over the settings ``steps`` (name -> c)."""
        own = weights(game)
        params = {name: {"start": own[name], "c": c, "value": float(own[name])}
                  for name, c in steps.items()}
        return cls({"game": game.name, "nodes": nodes, "iterations": iterations, "rate": rate,
                    "seed": seed, "done": 0, "pairs": {"+2": 0, "+1": 0, "0": 0, "-1": 0, "-2": 0},
                    "params": params, "trace": []})

    def step(self, k: int, name: str) -> float:
        """Setting ``name``'s perturbation at iteration ``k`` (1-based)."""
        n = self.state["iterations"]
        return self.state["params"][name]["c"] * (n / k) ** GAMMA

    def rate(self, k: int) -> float:
        n = self.state["iterations"]
        big_a = n / 10
        return self.state["rate"] * ((big_a + n) / (big_a + k)) ** ALPHA

    def perturbed(self, k: int, signs: dict) -> tuple[dict, dict]:
        """The two engines' settings at iteration ``k``: the values moved by +-step."""
        with self.lock:
            values = {name: p["value"] for name, p in self.state["params"].items()}
        plus = {n: clamp(n, values[n] + signs[n] * self.step(k, n)) for n in values}
        minus = {n: clamp(n, values[n] - signs[n] * self.step(k, n)) for n in values}
        return plus, minus

    def update(self, k: int, signs: dict, result: float) -> None:
        """Move the values after iteration ``k``'s pair scored ``result`` for plus."""
        with self.lock:
            for name, p in self.state["params"].items():
                p["value"] = within(name, p["value"] + self.rate(k) * self.step(k, name) * result
                                    * signs[name])
            self.state["done"] += 1
            self.state["pairs"][f"{int(result):+d}" if result else "0"] += 1
            if self.state["done"] % TRACE_EVERY == 0:
                self.state["trace"].append([self.state["done"], self.values()])

    def values(self) -> dict:
        """The settings as the engine would take them now: rounded."""
        return {name: nearest(p["value"]) for name, p in self.state["params"].items()}


def nearest(value: float) -> int:
    """Rounded half up: Python's round() takes halves to even, which would favour even
    values of a setting perturbed by steps of one half."""
    return math.floor(value + 0.5)


def within(name: str, value: float) -> float:
    """``value`` held within the setting's SEARCH_BOUNDS."""
    lo, hi = SEARCH_BOUNDS[name]
    return min(max(value, lo), hi)


def clamp(name: str, value: float) -> int:
    return within(name, nearest(value))


def tune_text(values: dict) -> str:
    """The ``Tune`` option's value for ``values``."""
    return ",".join(f"{name}={value}" for name, value in sorted(values.items()))


def parse_steps(items: list[str]) -> dict:
    """``--param NAME:C`` arguments as name -> c; ValueError if bad."""
    steps = {}
    for item in items:
        name, _, c = item.partition(":")
        if name not in SEARCH:
            raise ValueError(f"unknown search setting {name!r} (known: {', '.join(SEARCH)})")
        try:
            steps[name] = float(c)
        except ValueError:
            raise ValueError(f"--param {item!r}: give NAME:STEP, e.g. futility_margin:10") from None
        if steps[name] <= 0:
            raise ValueError(f"--param {item!r}: the step must be positive")
    if not steps:
        raise ValueError("give at least one --param")
    return steps


class Worker:
    """One thread's two running engines, playing iterations' pairs."""

    def __init__(self, game, tc: TimeControl, spsa: SPSA, book: OpeningBook):
        self.spsa, self.book = spsa, book
        self.settings = GameSettings(game=game, tc_white=tc, tc_black=tc,
                                     adjudication=Adjudication(resign_score=1000, resign_count=5),
                                     event=f"Leyden SPSA ({game.name})")
        self.seats: dict = {}

    def spec(self, name: str, values: dict):
        return parse_engine_spec([f"name={name}", f"cmd={shlex.quote(sys.executable)} -m engine",
                                  "proto=uci", f"dir={ROOT}",
                                  "option.Hash=16", f"option.Tune={tune_text(values)}"])

    def play_pair(self, k: int) -> float:
        """Iteration ``k``: its pair's result for plus (+2 .. -2)."""
        rng = random.Random(derived_seed(self.spsa.state["seed"], "signs", k))
        signs = {name: rng.choice((-1, 1)) for name in self.spsa.state["params"]}
        plus, minus = self.perturbed_specs(k, signs)
        opening = self.book(k)
        result = 0.0
        for white, black, sign in ((plus, minus, 1), (minus, plus, -1)):
            rec = play_game(k, opening, white, black, self.settings, seats=self.seats)
            result += sign * POINTS.get(rec.result, 0.0)
        self.spsa.update(k, signs, result)
        return result

    def perturbed_specs(self, k: int, signs: dict):
        plus, minus = self.spsa.perturbed(k, signs)
        specs = self.spec("plus", plus), self.spec("minus", minus)
        for spec in specs:  # an engine still running from the last pair takes the new values
            player = self.seats.get(spec.name)
            if player is not None and player.reusable():
                player.proc.send(f"setoption name Tune value {spec.options['Tune']}")
        return specs

    def close(self) -> None:
        for player in self.seats.values():
            player.close(2.0)


def run(spsa: SPSA, game, state_path: Path, concurrency: int, plies: int, log=print) -> None:
    """Play the iterations left, ``concurrency`` pairs at a time, saving the state after each."""
    tc = TimeControl(nodes=spsa.state["nodes"])
    book = OpeningBook(game, spsa.state["seed"], plies=plies)
    todo = iter(range(spsa.state["done"] + 1, spsa.state["iterations"] + 1))
    take = threading.Lock()
    errors: list[BaseException] = []

    def work():
        worker = Worker(game, tc, spsa, book)
        try:
            while not errors:
                with take:
                    k = next(todo, None)
                if k is None:
                    return
                result = worker.play_pair(k)
                save(spsa, state_path)
                log(f"[{spsa.state['done']}/{spsa.state['iterations']}] pair {result:+.0f} | "
                    + tune_text(spsa.values()))
        except BaseException as exc:  # a worker's failure stops the run, reported below
            errors.append(exc)
        finally:
            worker.close()

    threads = [threading.Thread(target=work, daemon=True) for _ in range(concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


def save(spsa: SPSA, path: Path) -> None:
    with spsa.lock:
        text = json.dumps(spsa.state, indent=1) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text)
    tmp.replace(path)  # never a half-written state


def load_or_new(args, game) -> SPSA:
    """The run of ``--state`` if it exists (the other arguments must agree), else a new one."""
    if args.state.is_file():
        state = json.loads(args.state.read_text())
        if state["game"] != game.name:
            raise ValueError(f"{args.state} is a {state['game']} run, not {game.name}")
        if args.param and set(parse_steps(args.param)) != set(state["params"]):
            raise ValueError(f"{args.state} tunes {', '.join(state['params'])}: resume with those")
        return SPSA(state)
    return SPSA.new(game, parse_steps(args.param), args.iterations, args.rate, args.nodes, args.seed)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tune.spsa", description=__doc__.split("\n\n")[0])
    ap.add_argument("game", type=game_argument, help="the game (normal, capablanca, ...)")
    ap.add_argument("--param", action="append", default=[], metavar="NAME:STEP",
                    help="a search setting and its last step, e.g. futility_margin:10 (repeat)")
    ap.add_argument("--state", type=Path, required=True, help="the run's state file (resumed)")
    ap.add_argument("--iterations", type=int, default=2000, help="game pairs (default 2000)")
    ap.add_argument("--nodes", type=int, default=25000, help="nodes a move (default 25000)")
    ap.add_argument("--rate", type=float, default=0.005,
                    help="the last iteration's move per step and point of result (default 0.005)")
    ap.add_argument("--random-plies", type=int, default=6, help="random opening plies (default 6)")
    ap.add_argument("--concurrency", type=int, default=1, help="pairs at once (default 1)")
    ap.add_argument("--seed", type=int, default=1, help="openings and signs (default 1)")
    args = ap.parse_args(argv)
    if args.iterations < 1 or args.nodes < 1 or args.concurrency < 1 or args.rate <= 0:
        print("error: --iterations, --nodes, --concurrency and --rate must be positive", file=sys.stderr)
        return 2
    try:
        spsa = load_or_new(args, args.game)
        print(f"SPSA {args.game.name}: {spsa.state['done']} of {spsa.state['iterations']} pairs done; "
              f"start {tune_text(spsa.values())}", flush=True)
        run(spsa, args.game, args.state, args.concurrency, args.random_plies,
            log=lambda text: print(text, flush=True))
    except (ValueError, EngineConfigError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"stopped; resume with the same command ({args.state})", file=sys.stderr)
        return 130
    wins = spsa.state["pairs"]
    print(f"done: {tune_text(spsa.values())} (pairs by result {wins})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
