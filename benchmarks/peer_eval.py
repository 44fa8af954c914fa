"""Leyden's static evaluation against Fairy-Stockfish's, as predictors of game results:
where the evaluation lacks knowledge, measured before any term is written.

    python benchmarks/peer_eval.py --game capablanca benchmarks/sprt/*.pgn
    python benchmarks/peer_eval.py --game capablanca --games 1000 --rate 0.1 --seed 3 GAMES.pgn

Quiet positions (not after a capture, not in check, plies 10 to 120) are drawn from
``--games`` games of the files, at ``--rate`` a position. Each gets Leyden's static
evaluation and Fairy-Stockfish's (its ``eval`` command: the total and every term of its
trace, middlegame and endgame), all from the side to move's view. The game's result, for
that side, is the target: each evaluation's Texel loss (the mean squared error of the
logistic of K x evaluation, K fitted) says how well it predicts results, and for each of
the peer's terms the loss of Leyden's evaluation plus a fitted share of that term says how
much the term would add to Leyden's. A term that closes much of the gap between the two
totals is knowledge Leyden lacks; one that adds nothing is knowledge it has, or that does
not decide games.

The peer's static evaluation is no search: both numbers are a position's first guess.
The defaults (400 games, a fifth of their positions, about 8,000) take about a minute.
"""
from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
from scipy.optimize import minimize

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from match.peers import find_binary  # noqa: E402
from match.pgn import read_games  # noqa: E402
from match.stats import WHITE_SCORE  # noqa: E402
from movegen import Position  # noqa: E402
from search.evaluate import build_eval, evaluate  # noqa: E402
from search.state import new_state  # noqa: E402
from tune.texel import fit_k, texel_loss  # noqa: E402

VARIANTS = ROOT / "benchmarks" / "peers" / "fsf-variants.ini"
FIRST_PLY, LAST_PLY = 10, 120
_TERM = re.compile(r"^\s*([A-Za-z][A-Za-z ]*?)\s*\|.*\|\s*(-?[\d.]+)\s+(-?[\d.]+)\s*$")


def quiet_positions(game: str, pgns: list[str], rate: float, seed: int,
                    max_games: int) -> list[tuple[str, float]]:
    """(FEN, the game's result for the side to move) of quiet positions of ``max_games``
    finished games of ``game`` drawn from the files."""
    rng = random.Random(seed)
    games = [g for path in pgns for g in read_games(path)
             if g.tags.get("Variant", "normal").lower() == game and g.result in WHITE_SCORE]
    out = []
    for g in rng.sample(games, min(max_games, len(games))):
        white = WHITE_SCORE[g.result]
        pos = Position(game, g.tags.get("FEN"))
        for i, move in enumerate(g.moves[:LAST_PLY + 1]):
            squares = re.findall(r"[a-z]\d+", move)
            capture = len(squares) > 1 and pos.piece_at(squares[1]) is not None
            pos.push(move)
            if i >= FIRST_PLY and not capture and not pos.in_check() and rng.random() < rate:
                fen = pos.fen()
                out.append((fen, white if fen.split()[1] == "w" else 1.0 - white))
    return out


def peer_traces(game: str, fens: list[str], binary: str) -> list[tuple[str, str]]:
    """Fairy-Stockfish's ``eval`` output for each position: (its trace table, the text
    after "Total evaluation:"), in one run of the program."""
    lines = [f"setoption name VariantPath value {VARIANTS}", f"setoption name UCI_Variant value {game}"]
    for fen in fens:
        lines += [f"position fen {fen}", "eval"]
    lines.append("quit")
    text = subprocess.run([binary], input="\n".join(lines) + "\n", capture_output=True,
                          text=True, timeout=600).stdout
    pieces = text.split("Total evaluation:")
    return list(zip(pieces[:-1], pieces[1:]))


def peer_evaluations(game: str, fens: list[str], binary: str) -> list[dict | None]:
    """Fairy-Stockfish's static evaluation of each position, side to move's view, in its
    pawns: {"Total": t, "<term> mg": .., "<term> eg": ..}; None where it gives none."""
    out = []
    for fen, (table, total) in zip(fens, peer_traces(game, fens, binary)):
        value = total.split("(")[0].strip()
        if not re.fullmatch(r"-?[\d.]+", value):
            out.append(None)  # in check: no static evaluation
            continue
        sign = 1.0 if fen.split()[1] == "w" else -1.0
        row = {"Total": sign * float(value)}
        for line in table.splitlines()[-40:]:
            m = _TERM.match(line)
            if m and m.group(1) not in ("Term", "Total"):
                row[f"{m.group(1)} mg"] = sign * float(m.group(2))
                row[f"{m.group(1)} eg"] = sign * float(m.group(3))
        out.append(row)
    return out


def leyden_evaluations(game: str, fens: list[str]) -> np.ndarray:
    """Leyden's static evaluation of each position, side to move's view, in pawns."""
    ev, ss = build_eval(Position(game).game), new_state()
    values = []
    for fen in fens:
        pos = Position(game, fen)
        values.append(evaluate(pos.tables.G, pos.board.copy(), pos.st.copy(), ev, ss) / 100)
    return np.array(values)


def texel(x: np.ndarray, results: np.ndarray) -> tuple[float, float]:
    """(K, loss): the scale K (a pawn) of the logistic of K x that predicts the results
    best, and the mean squared error there (the tuner's fit)."""
    k = fit_k(x, results, lo=1e-3, hi=5.0)
    return k, texel_loss(x, results, k)


def added_term(leyden: np.ndarray, term: np.ndarray, results: np.ndarray) -> tuple[float, float]:
    """(share, loss): Leyden's evaluation plus the share of the peer's term that predicts
    the results best (with its own K), and its loss."""
    k0, _ = texel(leyden, results)
    fit = minimize(lambda p: texel_loss(p[0] * leyden + p[1] * term, results, 1.0), [k0, 0.0],
                   method="Nelder-Mead")
    k, c = fit.x
    return float(c / k), float(fit.fun)


def report(game: str, pgns: list[str], rate: float, seed: int, max_games: int,
           binary: str) -> list[str]:
    drawn = quiet_positions(game, pgns, rate, seed, max_games)
    peer = peer_evaluations(game, [fen for fen, _ in drawn], binary)
    kept = [(fen, r, p) for (fen, r), p in zip(drawn, peer) if p is not None]
    if len(kept) < 20:
        return [f"{len(kept)} positions: too few to fit"]
    results = np.array([r for _, r, _ in kept])
    leyden = leyden_evaluations(game, [fen for fen, _, _ in kept])
    terms = sorted({k for _, _, p in kept for k in p if k != "Total"})
    cols = {k: np.array([p.get(k, 0.0) for _, _, p in kept]) for k in ["Total", *terms]}
    k_l, loss_l = texel(leyden, results)
    k_p, loss_p = texel(cols["Total"], results)
    lines = [f"{game}: {len(kept)} quiet positions of {len(pgns)} file(s), the side to move's "
             f"mean result {results.mean():.3f}",
             f"  always the mean result: loss {np.mean((results - results.mean()) ** 2):.5f}",
             f"  Leyden's static evaluation: loss {loss_l:.5f} (K {k_l:.3f} a pawn)",
             f"  Fairy-Stockfish's: loss {loss_p:.5f} (K {k_p:.3f} a pawn)",
             "  Leyden's plus a share of one of the peer's terms (the share fitted; the terms' "
             "spread, their correlation with Leyden's evaluation):"]
    rows = []
    for name in terms:
        col = cols[name]
        if col.std() < 1e-6:
            continue
        share, loss = added_term(leyden, col, results)
        corr = float(np.corrcoef(col, leyden)[0, 1])
        rows.append((loss, f"    {name:18s} loss {loss:.5f} ({100 * (loss - loss_l) / loss_l:+.2f}%)"
                           f" share {share:+.2f}  sd {col.std():.2f}  corr {corr:+.2f}"))
    lines += [text for _, text in sorted(rows)]
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pgns", nargs="+")
    ap.add_argument("--game", default="capablanca")
    ap.add_argument("--games", type=int, default=400, help="games drawn from the files")
    ap.add_argument("--rate", type=float, default=0.2, help="share of their quiet positions drawn")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    binary = find_binary("fairy-stockfish")
    if binary is None:
        print("Fairy-Stockfish is not installed (apt-get install fairy-stockfish)", file=sys.stderr)
        return 2
    print("\n".join(report(args.game, args.pgns, args.rate, args.seed, args.games, binary)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
