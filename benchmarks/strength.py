"""The strength table: Leyden against every peer engine that plays each game with our
rules, and against itself at time and depth odds where no peer plays the game.

    python benchmarks/strength.py                  # all matches, then benchmarks/strength.md
    python benchmarks/strength.py --games 20 --only capablanca,sultan
    python benchmarks/strength.py --report-only    # rebuild the table from the PGN files
    python benchmarks/strength.py --dry-run        # print the match commands
    python benchmarks/strength.py --cluster tcp://HOST:8786   # games on a Dask cluster
    python benchmarks/strength.py --only batteries --odds 0 --depth 0   # the baseline row alone

Each match writes ``benchmarks/strength/<time control>/<game>-<pair>.pgn`` and is
resumed from it (``leyden match --resume``): an interrupted run continues where it
stopped; delete the PGN files to start again. The table has one section per time
control found there, so ``--tc 10+0.1`` adds a longer-game table beside the default
2+0.02 one. The games are played by the ``match`` package (the runner referees them with
Leyden's rules); the peers are configured by ``benchmarks/peers/`` (verified there with
perft and move-list comparisons). Openings: fixed-setup games start with
``--random-plies`` balanced random plies, the shuffle games from seeded shuffles; every
opening is played twice, colours reversed.
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))

from match.peers import PEERS, engine_tokens, find_binary  # noqa: E402
import strength_chart  # noqa: E402

from match import runner  # noqa: E402
from match.pgn import move_depths, read_games  # noqa: E402
from match.stats import WHITE_SCORE, Tally, fmt_elo  # noqa: E402

GAMES = ("normal", "capablanca", "caparandom", "energizer", "sultan", "sultanrandom", "batteries", "enders")
SELF_PLAY = ("batteries", "enders")  # no other engine plays them
#: the Leyden the strength issue counts from: in the games no peer plays, the Leyden of
#: today plays it at equal time (``--baseline``)
BASELINE = "2da1ad8"
ODDS, ODDS_DEPTH = 4, 3  # the self-play rows' time odds and shallow depth (0: not played)


def leyden_tokens(name: str = "leyden", *extra: str, checkout: str = ROOT) -> list[str]:
    return [f"name={name}", f"cmd={sys.executable} -m engine", "proto=xboard", f"dir={checkout}", *extra]


def plan(args, quiet: bool = False) -> list[dict]:
    """Every match: game, the two engine specs (Leyden's side first), tc text."""
    todo = []
    games = args.only.split(",") if args.only else list(GAMES)
    for game in games:
        if game in SELF_PLAY:
            base = args.tc
            slow = _scaled(args.tc, args.odds)
            if args.odds:
                todo.append(dict(game=game, label=f"time odds {args.odds}:1",
                                 first=leyden_tokens(f"leyden-x{args.odds}", f"tc={slow}"),
                                 second=leyden_tokens("leyden", f"tc={base}"), tc=base,
                                 note=f"{slow} against {base}"))
            if args.depth:
                todo.append(dict(game=game, label=f"depth {args.depth + 2} vs {args.depth}",
                                 first=leyden_tokens(f"leyden-d{args.depth + 2}",
                                                     f"depth={args.depth + 2}"),
                                 second=leyden_tokens(f"leyden-d{args.depth}", f"depth={args.depth}"),
                                 tc=base, note=f"fixed depth within the {base} clock"))
            if args.baseline:
                todo.append(dict(game=game, label=f"leyden {args.baseline}", first=leyden_tokens(),
                                 second=leyden_tokens(f"leyden-{args.baseline}",
                                                      checkout=baseline_dir(args.baseline)),
                                 tc=base, note="equal time", baseline=args.baseline))
            continue
        for peer in args.peers.split(","):
            if game not in PEERS[peer]["games"]:
                continue
            if find_binary(PEERS[peer]["binary"]) is None:
                if not quiet:
                    print(f"skipped: {peer} is not installed", file=sys.stderr)
                continue
            todo.append(dict(game=game, label=peer, first=leyden_tokens(),
                             second=engine_tokens(peer, game), tc=args.tc, note=""))
    return todo


def _scaled(tc: str, factor: int) -> str:
    base, _, inc = tc.partition("+")
    text = f"{float(base) * factor:g}"
    if inc:
        text += f"+{float(inc) * factor:g}"
    return text


def baseline_dir(commit: str) -> str:
    """Where the baseline commit's checkout lives (a git worktree, made by
    ``prepare_baseline`` before its first match)."""
    return os.path.join(os.path.expanduser("~"), ".cache", "leyden", f"baseline-{commit}")


def prepare_baseline(commit: str) -> None:
    """Check the baseline commit out beside this one and compile its kernels, so that its
    first game does not spend its clock compiling."""
    where = baseline_dir(commit)
    if not os.path.isdir(where):
        subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", where, commit], check=True)
    subprocess.run([sys.executable, "-m", "engine", "warmup"], cwd=where, check=True)


def tc_dir(args, tc: str) -> str:
    """One directory of PGN files per time control, so runs at several can coexist."""
    return os.path.join(args.results, tc)


def pgn_path(args, m) -> str:
    name = m["label"].replace(" ", "-").replace(":", "to")
    return os.path.join(tc_dir(args, m["tc"]), f"{m['game']}-{name}.pgn")


def leyden_revision() -> str:
    """The commit of the Leyden that plays (``-dirty`` with uncommitted changes)."""
    return subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"],
                          capture_output=True, text=True).stdout.strip() or "?"


def match_argv(args, m) -> list[str]:
    # the Event tag names the commit that played, so a table built later says which
    # Leyden each row measured
    event = f"Leyden strength: {m['game']} {m['label']} (Leyden {leyden_revision()})"
    argv = ["--variant", m["game"], "--games", str(args.games), "--tc", m["tc"],
            "--pgn", pgn_path(args, m), "--resume",
            "--seed", str(args.seed), "--event", event,
            "--engine", *m["first"], "--engine", *m["second"]]
    if args.concurrency:
        argv += ["--concurrency", str(args.concurrency)]
    if args.cluster:
        argv += ["--cluster", args.cluster]
    if not m["game"].endswith("random"):
        argv += ["--random-plies", str(args.random_plies)]
    if args.quiet:
        argv.append("--quiet")
    return argv


def summarize(path: str, first: str) -> dict:
    """Score of engine ``first`` over the finished games of one PGN file, and the mean
    search depth of each side (from the ``score/depth time`` move comments)."""
    tally = Tally()
    reasons: dict = {}
    plies, seeds, revisions = [], set(), set()
    depths = {"first": [], "other": []}
    for g in read_games(path):
        if g.result not in ("1-0", "0-1", "1/2-1/2"):
            continue
        value = WHITE_SCORE[g.result]
        tally.add(value if g.tags.get("White") == first else 1.0 - value)
        term = g.tags.get("Termination", "?")
        if term != "normal":
            reasons[term] = reasons.get(term, 0) + 1
        plies.append(int(g.tags.get("PlyCount", "0") or 0))
        seeds.add(g.tags.get("MatchSeed", "?"))
        found = _REVISION.search(g.tags.get("Event", ""))
        revisions.add(found.group(1) if found else "?")
        for mover, depth in move_depths(g):
            depths["first" if mover == first else "other"].append(depth)
    return {"tally": tally, "reasons": reasons, "seeds": seeds, "revisions": revisions,
            "plies": sum(plies) / len(plies) if plies else 0.0,
            "depth": {k: sum(v) / len(v) if v else 0.0 for k, v in depths.items()}}


_REVISION = re.compile(r"\(Leyden ([^)]+)\)$")


def match_results(args, tc: str):
    """(match, its summary) of every match of the whole plan with games at ``tc``: the
    table keeps every row, also when a run played only some games (``--only``, ``--peers``)."""
    whole = argparse.Namespace(**{**vars(args), "tc": tc, "only": None, "peers": ",".join(PEERS),
                                  "odds": args.odds or ODDS, "depth": args.depth or ODDS_DEPTH})
    for m in plan(whole, quiet=True):
        s = summarize(pgn_path(args, m), m["first"][0].split("=", 1)[1])
        if s["tally"].games:
            yield m, s


def table_rows(args, tc: str) -> tuple[list[str], set]:
    """Markdown rows of every planned match that has games at time control ``tc``."""
    rows, seeds = [], set()
    for m, s in match_results(args, tc):
        t = s["tally"]
        seeds |= s["seeds"]
        elo, low, high = t.elo_interval()
        other = ", ".join(f"{k} {v}" for k, v in sorted(s["reasons"].items())) or "-"
        who = m["label"] if not m["note"] else f"{m['label']} ({m['note']})"
        rows.append(f"| {m['game']} | {who} | {', '.join(sorted(s['revisions']))} | {t.games} | +{t.wins} -{t.losses} ={t.draws} | "
                    f"{100 * t.score:.1f}% | {fmt_elo(elo)} [{fmt_elo(low)}, {fmt_elo(high)}] | "
                    f"{100 * t.los():.1f}% | {s['plies']:.0f} | "
                    f"{s['depth']['first']:.1f} : {s['depth']['other']:.1f} | {other} |")
    return rows, seeds


def played_tcs(args) -> list[str]:
    """Time controls with results, the default one first."""
    found = sorted(d for d in os.listdir(args.results)
                   if os.path.isdir(tc_dir(args, d))) if os.path.isdir(args.results) else []
    return sorted(found, key=lambda tc: (tc != args.tc, tc))


def _checkout_of(path: str) -> str:
    """The checkout that holds ``path`` (its nearest folder with a ``.git``), else this
    script's: the table names its PGN folder as a reader of that checkout finds it, also
    when this script runs from another worktree."""
    d = os.path.dirname(os.path.abspath(path))
    while d != os.path.dirname(d):
        if os.path.exists(os.path.join(d, ".git")):
            return d
        d = os.path.dirname(d)
    return ROOT


def write_table(args) -> str:
    lines = [
        f"Generated by `make strength` (`python benchmarks/strength.py`) on "
        f"{datetime.date.today().isoformat()}, {platform.machine()} with "
        f"{os.cpu_count()} cores; the Leyden column is the commit that played (from the "
        f"PGN files' Event tags; `?`: games from before they named it). Openings: {args.random_plies} "
        "balanced random plies for the "
        "fixed setups, seeded shuffles for `caparandom`/`sultanrandom`, each played with both "
        "colours. Elo is Leyden's (or the first-named configuration's) advantage with its 95% "
        "interval; LOS is the likelihood that it is the stronger; plies is the average game "
        "length; depth is the mean depth each side reported for its moves (Leyden : "
        "opponent; engines count depth differently, so compare within a column); other "
        "endings are games not ended by the rules (time forfeit, illegal move, crash). The PGN files (XBoard reads them) are in "
        f"`{os.path.relpath(args.results, _checkout_of(args.out))}/<time control>/`; the runner is "
        "`leyden match` and the peers' configurations are in `benchmarks/peers/`.",
    ]
    for tc in played_tcs(args):
        rows, seeds = table_rows(args, tc)
        if not rows:
            continue
        lines += ["", f"## Time control {tc} (seconds + increment per move)", "",
                  f"Opening seed(s): {', '.join(sorted(seeds))}.", "",
                  "| game | opponent | Leyden | games | Leyden +W -L =D | score | "
                  "Elo (95% interval) | LOS | plies | depth | other endings |",
                  "|---|---|---|---|---|---|---|---|---|---|---|", *rows]
    lines += [
        "",
        "Batteries and Ender's Chess have no other implementation: their rows show Leyden "
        "with more time (or a deeper fixed search) against itself, a sanity check that "
        "deeper search wins and so that the evaluation points the right way, and Leyden "
        f"against the Leyden of commit {args.baseline or BASELINE} at equal time (the "
        "strength issue's baseline: how much the work since has bought).",
        "",
    ]
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Leyden's strength table (see the module docstring)")
    ap.add_argument("--games", type=int, default=100, help="games per pair (default 100)")
    ap.add_argument("--tc", default="2+0.02", help="time control (default 2+0.02)")
    ap.add_argument("--concurrency", type=int, default=None,
                    help="games at once (default: the cores here, or twice the cluster's threads)")
    ap.add_argument("--cluster", default=None, metavar="ADDRESS",
                    help="play the games on this Dask scheduler (see leyden match --cluster)")
    ap.add_argument("--random-plies", type=int, default=6)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--odds", type=int, default=ODDS,
                    help="time odds factor for the self-play rows (0: no time-odds rows)")
    ap.add_argument("--depth", type=int, default=ODDS_DEPTH,
                    help="shallow depth of the depth-odds rows (0: no depth-odds rows)")
    ap.add_argument("--baseline", default=BASELINE,
                    help=f"in the self-play games, also play this Leyden commit at equal time "
                         f"(default {BASELINE}, the strength issue's; '' for none)")
    ap.add_argument("--only", default=None, help="comma-separated games (default: all)")
    ap.add_argument("--peers", default=",".join(PEERS))
    ap.add_argument("--results", default=os.path.join(ROOT, "benchmarks", "strength"))
    ap.add_argument("--out", default=os.path.join(ROOT, "benchmarks", "strength.md"))
    ap.add_argument("--report-only", action="store_true", help="only rebuild the table")
    ap.add_argument("--dry-run", action="store_true", help="print the match commands only")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    todo = plan(args)
    if not args.dry_run:
        os.makedirs(args.results, exist_ok=True)
    status = 0
    if not args.report_only:
        for m in todo:
            argv_m = match_argv(args, m)
            if args.dry_run:
                print("python -m match " + " ".join(_quote(a) for a in argv_m))
                continue
            names = [spec[0].split("=", 1)[1] for spec in (m["first"], m["second"])]
            print(f"== {m['game']}: {names[0]} vs {names[1]} ({m['label']})", flush=True)
            if m.get("baseline"):
                prepare_baseline(m["baseline"])
            status = runner.cli(argv_m)
            if status == 130:
                print("interrupted: writing the table of what was played", file=sys.stderr)
                break
            if status != 0:
                print(f"match failed (status {status}); going on", file=sys.stderr)
    if args.dry_run:
        return 0
    text = write_table(args)
    save_table(args.out, text)
    chart = os.path.splitext(args.out)[0] + ".svg"
    with open(chart, "w", encoding="utf-8") as f:
        f.write(strength_chart.svg([(tc, [_chart_row(m, s) for m, s in match_results(args, tc)])
                                    for tc in played_tcs(args)]))
    print(text)
    print(f"chart: {chart}")
    return status


def _chart_row(m: dict, s: dict) -> tuple[str, str, float, float, float]:
    """(game, opponent, Elo, low, high) of one match for the chart."""
    elo, low, high = s["tally"].elo_interval()
    return m["game"], m["label"], elo, low, high


BEGIN = "<!-- generated by benchmarks/strength.py: begin -->"
END = "<!-- generated by benchmarks/strength.py: end -->"


def save_table(path: str, text: str) -> None:
    """Write the generated tables between the markers of ``path``, keeping the
    commentary written by hand around them (a new file gets just the tables)."""
    try:
        with open(path, encoding="utf-8") as f:
            old = f.read()
    except FileNotFoundError:
        old = ""
    block = f"{BEGIN}\n{text.rstrip()}\n{END}"
    if BEGIN in old and END in old:
        head, rest = old.split(BEGIN, 1)
        new = head + block + rest.split(END, 1)[1]
    else:
        new = f"# Leyden strength table\n\n{block}\n"
    with open(path, "w", encoding="utf-8") as f:
        f.write(new)


def _quote(a: str) -> str:
    return f'"{a}"' if " " in a else a


if __name__ == "__main__":
    raise SystemExit(main())
