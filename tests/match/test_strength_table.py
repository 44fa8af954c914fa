"""benchmarks/strength.py: the strength table is built from the PGN files the matches
write, scored from the first-named engine's side whatever colour it had."""
import os

from match.pgn import GameRecord, format_game
from tests.drivers import load_script

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def _strength():
    return load_script("benchmarks/strength.py")


def _write(path, games, event="Leyden match"):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        for i, (white, black, result, termination) in enumerate(games, 1):
            rec = GameRecord(round=i, white=white, black=black, variant="batteries", event=event,
                             start_fen=START, moves=["e2e4", "e7e5"], result=result,
                             termination=termination, extra={"MatchSeed": "7"},
                             comments={0: f"+0.10/{len(white)} 0.2s", 1: "+M2 0.1s"})
            f.write(format_game(rec))


def test_table_scores_each_row_from_the_first_engine_and_groups_time_controls(tmp_path):
    strength = _strength()
    results = tmp_path / "strength"
    _write(str(results / "2+0.02" / "batteries-time-odds-4to1.pgn"), [
        ("leyden-x4", "leyden", "1-0", "normal"),        # x4 wins with White
        ("leyden", "leyden-x4", "1-0", "normal"),        # x4 loses with Black
        ("leyden", "leyden-x4", "0-1", "time forfeit"),  # x4 wins with Black, on time
        ("leyden-x4", "leyden", "1/2-1/2", "normal"),
        ("leyden-x4", "leyden", "*", "unterminated"),    # interrupted: not counted
    ], event="Leyden strength: batteries time odds 4:1 (Leyden 1a2b3c4)")
    _write(str(results / "10+0.1" / "batteries-depth-5-vs-3.pgn"), [
        ("leyden-d3", "leyden-d5", "0-1", "normal"),
    ])
    out = tmp_path / "strength.md"
    out.write_text(f"# title\n\nwritten by hand\n{strength.BEGIN}\nold table\n{strength.END}\n"
                   "what limits it\n")
    assert strength.main(["--report-only", "--only", "batteries", "--results", str(results),
                          "--out", str(out)]) == 0
    text = out.read_text()
    # the commentary around the generated block is kept, the old table replaced
    assert text.startswith("# title\n\nwritten by hand\n") and text.endswith("what limits it\n")
    assert "old table" not in text
    fast, slow = text.index("## Time control 2+0.02"), text.index("## Time control 10+0.1")
    assert fast < slow  # the default time control comes first
    odds = [line for line in text.splitlines() if "time odds" in line]
    assert len(odds) == 1 and "8+0.08 against 2+0.02" in odds[0]
    cells = [c.strip() for c in odds[0].split("|")]
    assert cells[3:7] == ["1a2b3c4", "4", "+2 -1 =1", "62.5%"]  # the commit that played
    assert cells[-2] == "time forfeit 1"
    # depth from the move comments (White's only: mate scores carry none), by engine:
    # len("leyden-x4") = 9 in the two games it had White, len("leyden") = 6 in the others
    assert cells[-3] == "9.0 : 6.0"
    depth = [line for line in text[slow:].splitlines() if "depth 5 vs 3" in line]
    assert len(depth) == 1 and "| ? | 1 | +1 -0 =0 |" in depth[0]  # no commit named
    assert "Opening seed(s): 7." in text
    assert "Openings: 6 balanced random plies" in text  # the header's numbers filled in
    _check_chart(tmp_path / "strength.svg")


def test_a_run_of_some_games_keeps_every_row(tmp_path):
    """``--only``/``--peers`` (and ``--odds 0``/``--depth 0``) choose what is played, not
    what the table shows: a run of other games rewrites the table with the rows it already had."""
    strength = _strength()
    results = tmp_path / "strength"
    _write(str(results / "2+0.02" / "batteries-time-odds-4to1.pgn"), [("leyden-x4", "leyden", "1-0", "normal")])
    out = tmp_path / "strength.md"
    for only in (["--only", "capablanca", "--peers", "fairymax"], [], ["--odds", "0", "--depth", "0"]):
        out.write_text(f"{strength.BEGIN}\n{strength.END}\n")
        assert strength.main(["--report-only", *only, "--results", str(results), "--out", str(out)]) == 0
        rows = [line for line in out.read_text().splitlines() if line.startswith("| batteries |")]
        assert len(rows) == 1 and "time odds 4:1" in rows[0]


def test_the_table_names_its_games_folder_from_its_own_checkout(tmp_path):
    """Run from another worktree (``--results``/``--out`` pointing into this one), the table
    still names the PGN folder as this checkout's reader finds it."""
    strength = _strength()
    repo = tmp_path / "checkout"
    (repo / ".git").mkdir(parents=True)
    results = repo / "benchmarks" / "strength"
    _write(str(results / "2+0.02" / "batteries-time-odds-4to1.pgn"), [("leyden-x4", "leyden", "1-0", "normal")])
    out = repo / "benchmarks" / "strength.md"
    out.write_text(f"{strength.BEGIN}\n{strength.END}\n")
    assert strength.main(["--report-only", "--results", str(results), "--out", str(out)]) == 0
    assert "are in `benchmarks/strength/<time control>/`" in out.read_text()


def _check_chart(path):
    """The chart beside the table: one row (dot, interval bar, label, value) per match and
    time control, the values those of the table."""
    import xml.etree.ElementTree as ET

    from match.stats import score_to_elo
    ns = "{http://www.w3.org/2000/svg}"
    root = ET.parse(path).getroot()  # well-formed SVG
    texts = [t.text for t in root.iter(f"{ns}text")]
    assert "Time control 2+0.02 (seconds + increment per move)" in texts
    assert "Time control 10+0.1 (seconds + increment per move)" in texts
    labels = [t for t in texts if " · " in t]
    assert labels == ["batteries · time odds 4:1", "batteries · depth 5 vs 3"]
    assert f"{score_to_elo(0.625):+.0f}" in texts  # +2 -1 =1 at 2+0.02
    assert "+inf" in texts  # 1 win of 1 at 10+0.1: the interval is open
    dots = [c for c in root.iter(f"{ns}circle") if c.get("r") == "5"]
    assert len(dots) == 2 + 4  # the two matches, and the legend's four colours


def test_plan_covers_every_game(capsys):
    strength = _strength()
    assert strength.main(["--dry-run", "--games", "10"]) == 0
    commands = capsys.readouterr().out.splitlines()
    games = {c.split("--variant ")[1].split()[0] for c in commands}
    assert games == set(strength.GAMES)
    # the games without another implementation are played at time and depth odds, and
    # against the strength issue's baseline commit at equal time, from its own checkout
    batteries = [c for c in commands if "--variant batteries" in c]
    assert len(batteries) == 3
    baseline = [c for c in batteries if f"name=leyden-{strength.BASELINE}" in c]
    assert len(baseline) == 1 and f"dir={strength.baseline_dir(strength.BASELINE)}" in baseline[0]
    assert "tc=" not in baseline[0]  # both sides on the match's clock
    assert all("--games 10" in c and "--resume" in c for c in commands)
    # each match's Event tag names the commit that plays, for the table's Leyden column
    # (`?` where git cannot name it, as in a checkout without its history)
    revision = strength.leyden_revision()
    assert revision and all(f"(Leyden {revision})" in c for c in commands)
    assert strength.main(["--dry-run", "--only", "batteries", "--baseline", ""]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2
    # the baseline row alone, as when it is replayed with a newer engine
    assert strength.main(["--dry-run", "--only", "batteries", "--odds", "0", "--depth", "0"]) == 0
    commands = capsys.readouterr().out.splitlines()
    assert len(commands) == 1 and f"name=leyden-{strength.BASELINE}" in commands[0]
