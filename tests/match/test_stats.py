"""Match statistics, time controls and PGN text of the match runner, on known numbers."""
import math

import pytest

from match.pgn import GameRecord, format_game, parse_games
from match.stats import PAIR_POINTS, SPRT, PairTally, Tally, elo_to_score, score_to_elo
from match.tc import Clock, TimeControl


def test_elo_of_known_scores():
    assert score_to_elo(0.5) == 0
    assert score_to_elo(0.6) == pytest.approx(70.437, abs=1e-3)  # -400 log10(2/3)
    assert score_to_elo(0.75) == pytest.approx(190.849, abs=1e-3)  # 400 log10(3)
    assert score_to_elo(1.0) == math.inf
    assert elo_to_score(score_to_elo(0.3)) == pytest.approx(0.3)


def test_elo_interval_of_60_40():
    """60 wins, 40 losses: per-game variance 0.24, so the score is 0.6 +- 1.96*0.049,
    i.e. between 0.504 and 0.696: +2.8 to +143.9 Elo."""
    t = Tally(60, 40, 0)
    elo, low, high = t.elo_interval()
    assert elo == pytest.approx(70.44, abs=0.01)
    assert low == pytest.approx(score_to_elo(0.6 - 1.959964 * math.sqrt(0.24 / 100)), abs=0.01)
    assert high == pytest.approx(score_to_elo(0.6 + 1.959964 * math.sqrt(0.24 / 100)), abs=0.01)
    assert (low, high) == (pytest.approx(2.77, abs=0.01), pytest.approx(143.91, abs=0.01))
    assert t.elo_error() == pytest.approx(70.57, abs=0.01)
    assert Tally(30, 30, 40).elo() == 0


def test_los():
    assert Tally(10, 5, 7).los() == pytest.approx(0.90165, abs=1e-4)  # 0.5(1+erf(5/sqrt(30)))
    assert Tally(5, 5, 100).los() == 0.5
    assert Tally(0, 0, 9).los() == 0.5
    assert Tally(3, 10, 0).los() < 0.05


def _exact_llr(t: Tally | PairTally, sprt: SPRT) -> float:
    """The generalised log-likelihood ratio computed directly: the trinomial (games) or
    pentanomial (pairs) that maximises the likelihood under each hypothesis' expected score."""
    if isinstance(t, Tally):
        counts = [(t.losses, 0.0), (t.draws, 0.5), (t.wins, 1.0)]
    else:
        counts = [(c, p / 2) for c, p in zip(t.counts, PAIR_POINTS)]
    n = sum(c for c, _ in counts)

    def loglik(score):
        lo, hi = -1 / (1 - score) + 1e-12, 1 / score - 1e-12  # keep 1 + lam (x - s) > 0
        for _ in range(200):
            lam = (lo + hi) / 2
            g = sum(c * (x - score) / (1 + lam * (x - score)) for c, x in counts)
            lo, hi = (lam, hi) if g > 0 else (lo, lam)
        lam = (lo + hi) / 2
        return sum(c * math.log((c / n) / (1 + lam * (x - score))) for c, x in counts if c)

    return loglik(elo_to_score(sprt.elo1)) - loglik(elo_to_score(sprt.elo0))


def test_sprt_llr_matches_the_exact_ratio():
    sprt = SPRT(0, 10, 0.05, 0.05)
    for t in (Tally(500, 450, 1050), Tally(1200, 1100, 2700), Tally(300, 330, 370)):
        assert sprt.llr(t) == pytest.approx(_exact_llr(t, sprt), rel=0.03, abs=0.02)


def test_pair_tally_of_known_pairs():
    """10 pairs: 2 lost both, 6 split (1 point), 2 won both: mean 0.5 a game; the pair
    means 0, 0.5, 1 give variance (2 * 0.25 + 2 * 0.25) / 10 = 0.1."""
    t = PairTally()
    for points, k in ((0, 2), (1, 6), (2, 2)):
        for _ in range(k):
            t.add(points)
    assert t.counts == [2, 0, 6, 0, 2] and t.pairs == 10
    assert t.sample_stats() == (10, pytest.approx(0.5), pytest.approx(0.1))
    t.add(1.5)
    assert t.counts[3] == 1 and t.score == pytest.approx(11.5 / 22)  # points over games
    assert "1.5: 1" in t.describe()


def test_pentanomial_llr_matches_the_exact_ratio():
    sprt = SPRT(0, 10, 0.05, 0.05)
    for counts in ([60, 150, 400, 170, 70], [20, 90, 300, 80, 30], [100, 100, 100, 100, 100]):
        t = PairTally(list(counts))
        assert sprt.llr(t) == pytest.approx(_exact_llr(t, sprt), rel=0.03, abs=0.02)


def test_pairs_that_split_by_colour_weigh_less_than_independent_games():
    """The same 400 games: as pairs, the 1-1 pairs (one opening, each side won with the
    same colour) carry no variance, so the same score says more."""
    pairs = PairTally([10, 0, 160, 0, 30])
    games = Tally(wins=2 * 30 + 160, losses=2 * 10 + 160, draws=0)
    assert pairs.score == pytest.approx(games.score)
    sprt = SPRT(0, 20)
    assert abs(sprt.llr(pairs)) > abs(sprt.llr(games))


def test_sprt_decisions():
    sprt = SPRT.parse(["elo0=0", "elo1=10", "alpha=0.05", "beta=0.05"])
    assert sprt.lower == pytest.approx(math.log(0.05 / 0.95))
    assert sprt.upper == pytest.approx(math.log(0.95 / 0.05))
    assert sprt.decision(Tally(600, 400, 500)) == "H1"
    assert sprt.decision(Tally(400, 600, 500)) == "H0"
    assert sprt.decision(Tally(3, 2, 5)) is None
    assert sprt.decision(Tally(0, 0, 0)) is None
    # a run of identical results decides, but not at once
    strong = SPRT(0, 200)
    assert strong.decision(Tally(1, 0, 0)) is None
    assert strong.decision(Tally(8, 0, 0)) == "H1"
    assert strong.decision(Tally(0, 8, 0)) == "H0"
    with pytest.raises(ValueError):
        SPRT.parse(["elo0=10", "elo1=0"])
    with pytest.raises(ValueError):
        SPRT.parse(["gamma=1"])
    assert SPRT.parse(["elo0=0", "elo1=5"]).model == "pentanomial"
    assert SPRT.parse(["elo0=0", "elo1=5", "model=trinomial"]).model == "trinomial"
    with pytest.raises(ValueError):
        SPRT.parse(["model=binomial"])
    # identical pairs decide too, slowly (one pseudo-pair of each kind)
    assert strong.decision(PairTally([0, 0, 0, 0, 1])) is None
    assert strong.decision(PairTally([0, 0, 0, 0, 8])) == "H1"
    assert strong.decision(PairTally([8, 0, 0, 0, 0])) == "H0"


def test_time_controls():
    tc = TimeControl.parse("40/60")
    assert (tc.moves, tc.base, tc.inc) == (40, 60, 0) and tc.pgn() == "40/60"
    tc = TimeControl.parse("10+0.1")
    assert (tc.moves, tc.base, tc.inc) == (0, 10, 0.1) and tc.pgn() == "10+0.1"
    assert TimeControl.parse("40/1:30+2").base == 90
    assert TimeControl.parse("st=1").movetime == 1 and TimeControl.parse("st=1").pgn() == "1/1"
    tc = TimeControl.parse("depth=4")
    assert tc.depth == 4 and not tc.timed and tc.pgn() == "-"
    tc = TimeControl.parse("10+0.1,nodes=5000")
    assert tc.nodes == 5000 and tc.clocked and str(tc) == "10+0.1,nodes=5000"
    for bad in ("", "40/", "x", "depth=0", "10+-1", "st=0"):
        with pytest.raises(ValueError):
            TimeControl.parse(bad)


def test_clock_bookkeeping():
    clock = Clock(TimeControl.parse("2/10+1"))
    assert clock.budget() == 10 and clock.moves_to_go() == 2
    clock.punch(3.0)
    assert clock.remaining == pytest.approx(8.0) and clock.moves_to_go() == 1
    clock.punch(4.0)  # end of the session: 4 + 1 + 10
    assert clock.remaining == pytest.approx(15.0) and clock.moves_to_go() == 2
    fixed = Clock(TimeControl.parse("st=0.5"))
    assert fixed.budget() == 0.5
    fixed.punch(0.4)
    assert fixed.budget() == 0.5
    assert Clock(TimeControl.parse("depth=3")).budget() is None


def test_pgn_text_round_trip():
    rec = GameRecord(round=3, white="a", black="b", variant="sultan",
                     start_fen="rnbcqkcbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBCQKCBNR b KQkq - 0 7",
                     moves=["e7e5", "e2e4", "f8i8"], comments={0: "+0.10/5 0.2s", 2: "x } y"},
                     result="0-1", termination="time forfeit", reason="White loses on time",
                     time_control="10+0.1", extra={"Opening": 'a "quoted" label'})
    text = format_game(rec)
    assert '[Variant "sultan"]' in text and '[SetUp "1"]' in text
    assert '[Termination "time forfeit"]' in text and '[TimeControl "10+0.1"]' in text
    assert text.splitlines()[-2].endswith("{White loses on time} 0-1") or "0-1" in text
    assert "7... e7e5 {+0.10/5 0.2s} 8. e2e4 f8i8" in text
    (g,) = parse_games(text)
    assert g.moves == ["e7e5", "e2e4", "f8i8"] and g.result == "0-1"
    assert g.tags["Opening"] == 'a "quoted" label' and g.tags["Round"] == "3"
    # comments belong to the move before them; the result reason joins the last one
    assert g.comments == {0: "+0.10/5 0.2s", 2: "x ) y White loses on time"}
    (g,) = parse_games('[Result "*"]\n\n1. e4 {a comment\nover two lines} e5 {x} {y} *\n')
    assert g.comments == {0: "a comment over two lines", 1: "x y"}
