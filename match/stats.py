"""Match statistics: Elo difference with a 95% interval, likelihood of superiority, SPRT.

All from the point of view of the first engine of a pair; a draw is half a point.

* Elo: the logistic model, ``elo = -400 log10(1/score - 1)``.
* Interval: the normal approximation of the mean score (per-game variance from
  the observed wins, losses and draws), its ends mapped to Elo.
* LOS: ``0.5 * (1 + erf((W - L) / sqrt(2 (W + L))))`` (draws carry no information).
* SPRT: the generalised SPRT with the logistic Elo model (as used by Fishtest),
  ``LLR = N (s1 - s0) (2 s - s0 - s1) / (2 var)`` with ``s0, s1`` the expected scores
  at ``elo0, elo1``, ``s`` the observed mean score and ``var`` its variance per sample;
  bounds ``ln(beta / (1 - alpha))`` and ``ln((1 - beta) / alpha)``. While every
  result so far is the same (variance 0) the variance is taken with one pseudo-sample
  of each kind added, so that a short run of identical results decides only slowly.
  The samples are pairs of games by default (``model=pentanomial``): the two games of
  one opening, colours reversed, scored together (0, 1/4, 1/2, 3/4 or 1 a game on
  average). The two games of a pair are not independent: an opening that favours one
  side gives each engine one win, and counting them as two independent games
  overstates the variance. ``model=trinomial`` takes every game as a sample.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

Z95 = 1.959963984540054


#: a PGN result as White's score
WHITE_SCORE = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def score_to_elo(score: float) -> float:
    """Elo difference for an expected score in (0, 1); +-inf at the ends."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def elo_to_score(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


@dataclass
class Tally:
    """Wins, losses and draws of one engine against another."""

    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def points(self) -> float:
        return self.wins + 0.5 * self.draws

    @property
    def score(self) -> float:
        return self.points / self.games if self.games else 0.5

    def add(self, result: float) -> None:
        """``result``: 1, 0.5 or 0 for the first engine."""
        if result == 1:
            self.wins += 1
        elif result == 0:
            self.losses += 1
        else:
            self.draws += 1

    def variance(self) -> float:
        """Per-game variance of the score."""
        return self._variance(0)

    def _variance(self, extra: int) -> float:
        """The variance with ``extra`` more games of each kind (the mean kept)."""
        n = self.games + 3 * extra
        if n == 0:
            return 0.0
        s = self.score
        return ((self.wins + extra) * (1 - s) ** 2 + (self.losses + extra) * s ** 2
                + (self.draws + extra) * (0.5 - s) ** 2) / n

    def elo(self) -> float:
        return score_to_elo(self.score)

    def elo_interval(self, z: float = Z95) -> tuple[float, float, float]:
        """(elo, low, high): the estimate and its interval (95% by default)."""
        n = self.games
        if n == 0:
            return 0.0, -math.inf, math.inf
        s = self.score
        half = z * math.sqrt(self.variance() / n)
        return score_to_elo(s), score_to_elo(s - half), score_to_elo(s + half)

    def sample_stats(self) -> tuple[int, float, float]:
        """(samples, mean score, variance per sample) for the SPRT: every game a sample."""
        return self.games, self.score, self.variance()

    def pseudo_variance(self) -> float:
        """The variance with one more game of each kind (see the module docstring)."""
        return self._variance(1)

    def elo_error(self, z: float = Z95) -> float:
        """Half the width of the Elo interval (the "+-" figure)."""
        _, low, high = self.elo_interval(z)
        return (high - low) / 2

    def los(self) -> float:
        """Likelihood of superiority: probability that the first engine is the stronger."""
        decisive = self.wins + self.losses
        if decisive == 0:
            return 0.5
        return 0.5 * (1.0 + math.erf((self.wins - self.losses) / math.sqrt(2.0 * decisive)))


#: a pair's outcome for the first engine: its points in the two games, 0 to 2 by halves
PAIR_POINTS = (0.0, 0.5, 1.0, 1.5, 2.0)


@dataclass
class PairTally:
    """Pairs of games (one opening, colours reversed): how many ended with each of
    PAIR_POINTS for the first engine (the pentanomial counts)."""

    counts: list = field(default_factory=lambda: [0] * len(PAIR_POINTS))

    def add(self, points: float) -> None:
        """``points``: the first engine's points in the pair's two games."""
        self.counts[round(2 * points)] += 1

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    @property
    def score(self) -> float:
        """Mean score a game."""
        n = self.pairs
        return sum(c * p / 2 for c, p in zip(self.counts, PAIR_POINTS)) / n if n else 0.5

    def _variance(self, extra: int) -> float:
        n = self.pairs + extra * len(PAIR_POINTS)
        if n == 0:
            return 0.0
        s = self.score
        return sum((c + extra) * (p / 2 - s) ** 2 for c, p in zip(self.counts, PAIR_POINTS)) / n

    def sample_stats(self) -> tuple[int, float, float]:
        """(pairs, mean score a game, variance of a pair's mean score)."""
        return self.pairs, self.score, self._variance(0)

    def pseudo_variance(self) -> float:
        return self._variance(1)

    def describe(self) -> str:
        return "pairs by points " + ", ".join(f"{p:g}: {c}" for p, c in zip(PAIR_POINTS, self.counts))


@dataclass(frozen=True)
class SPRT:
    """Sequential probability ratio test of H0: elo = elo0 against H1: elo = elo1."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "pentanomial"  #: pairs of games as samples, or "trinomial": single games

    @classmethod
    def parse(cls, fields: list[str]) -> SPRT:
        values = {}
        for field in fields:
            key, eq, value = field.partition("=")
            if not eq or key not in ("elo0", "elo1", "alpha", "beta", "model"):
                raise ValueError(f"bad SPRT parameter {field!r} (elo0= elo1= alpha= beta= model=)")
            if key == "model":
                if value not in ("pentanomial", "trinomial"):
                    raise ValueError(f"SPRT model must be pentanomial or trinomial, not {value!r}")
                values[key] = value
            else:
                values[key] = float(value)
        sprt = cls(**values)
        if not (0 < sprt.alpha < 1 and 0 < sprt.beta < 1):
            raise ValueError("SPRT alpha and beta must lie between 0 and 1")
        if sprt.elo1 <= sprt.elo0:
            raise ValueError("SPRT needs elo1 > elo0")
        return sprt

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, tally: Tally | PairTally) -> float:
        """The log-likelihood ratio of the samples counted in ``tally``: games (a
        ``Tally``) or pairs of games (a ``PairTally``)."""
        n, score, var = tally.sample_stats()
        if n == 0:
            return 0.0
        if var <= 0:
            var = tally.pseudo_variance()
        s0, s1 = elo_to_score(self.elo0), elo_to_score(self.elo1)
        return n * (s1 - s0) * (2 * score - s0 - s1) / (2 * var)

    def decision(self, tally: Tally | PairTally) -> str | None:
        """"H1" (elo1 accepted), "H0" (elo0 accepted) or None (go on)."""
        llr = self.llr(tally)
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    def describe(self, tally: Tally | PairTally) -> str:
        verdict = self.decision(tally)
        text = (f"SPRT elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} beta={self.beta:g} "
                f"{self.model}: "
                f"LLR {self.llr(tally):.2f} [{self.lower:.2f}, {self.upper:.2f}]")
        if verdict == "H1":
            return text + f" - H1 accepted (elo >= {self.elo1:g} more likely)"
        if verdict == "H0":
            return text + f" - H0 accepted (elo <= {self.elo0:g} more likely)"
        return text + " - undecided"


def fmt_elo(x: float) -> str:
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    if abs(x) < 0.05:
        return "0.0"
    return f"{x:+.1f}"
