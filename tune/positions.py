"""Labelled positions: the data file the generator writes and the arrays the tuner reads.

A data file (one per game) is text, appended game by game::

    # game 17 seed 40321 variant capablanca nodes 3000 result 1-0 reason checkmate plies 143
    1 r1abqkbcnr/pppp1ppppp/2n7/4p5/4P5/5N4/PPPP1PPPPP/RNABQKBC1R w KQkq - 2 3
    ...

Each position line is the game's result from White's point of view (1, 0.5 or 0) and
the FEN, and in a scored file (tune/label.py) a peer engine's score of the position,
``cp=N``, White's view. The header line of every game says how it was played; the tuner
counts them.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from movegen import layout as L
from movegen.fen import parse_fen
from movegen.games import Game
from movegen.tables import build_tables, geometry

RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def result_text(value: float) -> str:
    return {1.0: "1", 0.5: "0.5", 0.0: "0"}[value]


def parse_line(line: str) -> tuple[float, str, float | None]:
    """(result, FEN, peer score or None) of a position line; ValueError when it is not one."""
    head, _, fen = line.strip().partition(" ")
    score = None
    rest, _, last = fen.rpartition(" ")
    if last.startswith("cp="):
        try:
            score = float(int(last[3:]))
        except ValueError:
            raise ValueError(f"not a position line: {line.strip()!r}") from None
        fen = rest
    try:
        result = float(head)
    except ValueError:
        raise ValueError(f"not a position line: {line.strip()!r}") from None
    if result not in (0.0, 0.5, 1.0) or not fen:
        raise ValueError(f"not a position line: {line.strip()!r}")
    return result, fen, score


def read_data(path: str | Path) -> tuple[list[tuple[float, str, float | None]], list[str], list[int]]:
    """Position lines and game header lines of a data file, and for each position the
    number of the game it came from (its header's index; -1 before the first header)."""
    positions, headers, game_of = [], [], []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                headers.append(line[1:].strip())
            elif line.strip():
                positions.append(parse_line(line))
                game_of.append(len(headers) - 1)
    return positions, headers, game_of


@dataclass
class PositionSet:
    """Positions of one game as arrays, ready for the batch evaluation."""

    game: Game
    boards: np.ndarray  #: (n, squares) int8, the engine's board arrays
    sts: np.ndarray  #: (n, NST) int64, the engine's state arrays
    results: np.ndarray  #: (n,) float64, White's score of the game
    games: np.ndarray  #: (n,) int64, which game each position came from
    scores: np.ndarray  #: (n,) float64, a peer's score (White's view, centipawns), NaN: none

    def __len__(self) -> int:
        return len(self.results)

    def take(self, index: np.ndarray) -> "PositionSet":
        return PositionSet(self.game, self.boards[index], self.sts[index], self.results[index],
                           self.games[index], self.scores[index])

    def split(self, holdout: float, seed: int = 0) -> tuple["PositionSet", "PositionSet"]:
        """(training, validation) sets: ``holdout`` of the games (at random) validate, every
        position of each. Whole games, because the positions of one game share its result:
        a validation position next to its training neighbours would hide overfitting."""
        games = np.unique(self.games)
        n_val = min(max(int(round(holdout * len(games))), 1), len(games) - 1)  # one at least, not all
        chosen = np.random.default_rng(seed).permutation(games)[:n_val]
        held = np.isin(self.games, chosen)
        return self.take(np.flatnonzero(~held)), self.take(np.flatnonzero(held))


def position_set(game: Game, labelled: list[tuple], game_of=None) -> PositionSet:
    """The arrays of ``labelled`` (result, FEN[, peer score or None]) tuples, ``game_of``
    the game number of each (default: each a game of its own); ValueError names a bad FEN."""
    tables = build_tables(game)
    n = len(labelled)
    boards = np.zeros((n, geometry(game).nsq), np.int8)
    sts = np.zeros((n, L.NST), np.int64)
    results = np.zeros(n, np.float64)
    scores = np.full(n, np.nan)
    for i, (result, fen, *score) in enumerate(labelled):
        if score and score[0] is not None:
            scores[i] = score[0]
        try:
            board, st, _ = parse_fen(game, tables, fen)
        except ValueError as exc:
            raise ValueError(f"position {i + 1}: {fen!r}: {exc}") from None
        boards[i], sts[i], results[i] = board, st, result
    games = np.arange(n) if game_of is None else np.asarray(game_of, np.int64)
    return PositionSet(game, boards, sts, results, games, scores)


def load_positions(game: Game, paths) -> tuple[PositionSet, list[str]]:
    """Every position of the data files ``paths`` (one path or several), and the game
    header lines found in them."""
    labelled, headers, game_of = [], [], []
    for path in [paths] if isinstance(paths, (str, Path)) else paths:
        found, games, of = read_data(path)
        labelled += found
        game_of += [len(headers) + g for g in of]  # numbered on across the files
        headers += games
    return position_set(game, labelled, game_of), headers
