"""Leyden as a user installs it: the wheel built from this checkout, installed (not
editable) into a fresh virtual environment, run as ``leyden`` from a directory outside
the checkout, with the package's own directories unwritable for numba's cache.

The default test installs once and runs perft, the engine file and the cache checks
(about 40 s, most of it pip and the move generator's first compile). The ``packaging``
test adds what compiles the whole search (about 2 minutes more): ``leyden bench``, a
``leyden match`` and an XBoard game with the installed engine (``make test-install``).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests import drivers
from tests.drivers import find_program
from tests.rules.perft_vectors import read_vectors

ROOT = Path(drivers.ROOT)
KERNEL_PACKAGES = ("movegen", "search")


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(leyden executable, its site-packages, an outside work dir) of a fresh install."""
    base = tmp_path_factory.mktemp("install")
    wheels = base / "wheels"
    # build from a copy, so that the checkout gets no build/ or egg-info from this test
    source = base / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", "__pycache__", "*.egg-info", "build", ".installed", ".pytest_cache", "*.pgn"))
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(wheels),
          str(source)], cwd=base, timeout=300)
    (wheel,) = wheels.glob("leyden-*.whl")
    env_dir = base / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    _run([str(python), "-m", "pip", "install", "--quiet", str(wheel)], cwd=base, timeout=600)
    site = Path(_run([str(python), "-c", "import engine, os; print(os.path.dirname("
                      "os.path.dirname(engine.__file__)))"], cwd=base).strip())
    # Unwritable for numba whoever runs the test (root ignores permission bits): where
    # numba wants a __pycache__ directory there is a plain file, so it cannot cache in
    # the package and must fall back to the user-wide cache directory.
    for package in KERNEL_PACKAGES:
        shutil.rmtree(site / package / "__pycache__", ignore_errors=True)
        (site / package / "__pycache__").write_text("not a directory\n")
    outside = base / "outside"
    outside.mkdir()
    return env_dir / "bin" / "leyden", site, outside


def _run(cmd, cwd, env=None, timeout=600) -> str:
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)
    assert proc.returncode == 0, f"{cmd} exited {proc.returncode}:\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}"
    return proc.stdout


def _reference_count(variant: str, depth: int) -> int:
    """Fairy-Stockfish's count for the game's start position (the reference vectors)."""
    from movegen import find_game
    start = find_game(variant).start_fen
    for row in read_vectors():
        if row["variant"] == variant and row["fen"] == start:
            return row["perft"][str(depth)]
    raise LookupError(f"no reference row for the {variant} start position")


def _env(outside: Path, **extra) -> dict:
    """A user's environment: nothing of this checkout on PYTHONPATH, its own cache home."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "NUMBA_CACHE_DIR", "VIRTUAL_ENV")}
    env["XDG_CACHE_HOME"] = str(outside / "cache")
    env.update(extra)
    return env


def _cache_files(directory: Path) -> list[Path]:
    return sorted(directory.rglob("*.nbi")) if directory.exists() else []


def test_installed_perft_runs_outside_the_checkout(installed):
    leyden, site, outside = installed
    out = _run([str(leyden), "perft", "capablanca", "3"], cwd=outside, env=_env(outside))
    assert out.strip().splitlines()[-1] == f"Nodes: {_reference_count('capablanca', 3)}"
    # the engine came from the installed wheel, not from this checkout
    assert str(ROOT) not in str(site)
    assert (site / "movegen" / "games.py").is_file()
    assert (site / "search" / "nets" / "capablanca.npz").is_file()  # the evaluation network came along


def test_numba_cache_falls_back_to_the_user_cache_dir(installed):
    leyden, site, outside = installed
    _run([str(leyden), "perft", "sultan", "2"], cwd=outside, env=_env(outside))
    user_cache = outside / "cache" / "numba"
    cached = _cache_files(user_cache)
    assert cached, f"no numba cache in {user_cache}"
    assert {p.parent.name.split("_")[0] for p in cached} == {"movegen"}
    # the stale-cache guard keeps its fingerprint beside the kernels it guards
    assert list(user_cache.glob("movegen_*/leyden-kernels.stamp"))
    assert (site / "movegen" / "__pycache__").is_file()  # numba wrote nothing there


def test_numba_cache_dir_is_honoured(installed):
    leyden, _, outside = installed
    chosen = outside / "chosen-cache"
    _run([str(leyden), "perft", "energizer", "2"], cwd=outside,
         env=_env(outside, NUMBA_CACHE_DIR=str(chosen)))
    assert _cache_files(chosen), f"NUMBA_CACHE_DIR={chosen} was ignored"


def test_installed_engine_file(installed, tmp_path):
    leyden, _, outside = installed
    shipped = (ROOT / "engine" / "data" / "leyden.eng").read_text()
    assert _run([str(leyden), "engine-file"], cwd=outside, env=_env(outside)) == shipped
    out = _run([str(leyden), "engine-file", "--install", str(tmp_path / "plugins")],
               cwd=outside, env=_env(outside))
    written = (tmp_path / "plugins" / "leyden.eng").read_text().splitlines()
    assert str(tmp_path / "plugins" / "leyden.eng") in out
    # same file, but naming this installation's command, which need not be on PATH
    assert written[0] == shipped.splitlines()[0] and written[2] == shipped.splitlines()[2]
    assert Path(written[1]) == leyden.resolve()


@pytest.mark.packaging
def test_installed_bench_and_match(installed, tmp_path):
    leyden, _, outside = installed
    env = _env(outside)
    bench = _run([str(leyden), "bench", "--depth", "2"], cwd=outside, env=env, timeout=900)
    assert bench.splitlines()[-2].startswith("Nodes: ") and int(bench.splitlines()[-2].split()[1]) > 0
    pgn = tmp_path / "games.pgn"
    out = _run([str(leyden), "match", "--variant", "sultan", "--games", "2", "--tc", "depth=2",
                "--concurrency", "1", "--pgn", str(pgn), "--quiet",
                "--engine", "name=a", f"cmd={leyden}", "--engine", "name=b", f"cmd={leyden}"],
               cwd=outside, env=env, timeout=900)
    results = [line for line in pgn.read_text().splitlines() if line.startswith("[Result ")]
    assert len(results) == 2 and all('"*"' not in r for r in results), (results, out)


@pytest.mark.packaging
@pytest.mark.skipif(not (find_program("xboard") and shutil.which("xvfb-run")),
                    reason="needs XBoard and Xvfb: apt-get install xboard xvfb")
def test_installed_engine_plays_under_xboard(installed, tmp_path):
    leyden, _, outside = installed
    pgn = tmp_path / "game.pgn"
    cmd = [shutil.which("xvfb-run"), "-a", "-s", "-screen 0 1024x768x24", find_program("xboard"),
           "-fcp", str(leyden), "-scp", str(leyden), "-variant", "capablanca",
           "-mg", "1", "-tc", "0:10", "-inc", "0.1", "-saveGameFile", str(pgn),
           "-popupExitMessage", "false", "-popupMoveErrors", "false",
           "-ponderNextMove", "false", "-autoCallFlag", "true"]
    subprocess.run(cmd, cwd=outside, env=_env(outside), capture_output=True, timeout=900,
                   check=False)
    text = pgn.read_text()
    result = [line for line in text.splitlines() if line.startswith("[Result ")]
    assert result and result[0] in ('[Result "1-0"]', '[Result "0-1"]', '[Result "1/2-1/2"]'), text[-1500:]
    assert "illegal" not in text.lower() and "forfeit" not in text.lower(), text[-1500:]
