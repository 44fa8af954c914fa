"""The engine process as a whole: the start-up handshake and survival of bad input."""
from __future__ import annotations

import time

from tests.drivers import EngineProcess, xboard_engine


def test_xboard_handshake_waits_with_done_0_then_ready():
    with EngineProcess() as eng:
        start = time.monotonic()
        eng.send("xboard", "protover 2")
        first = eng.expect("feature", 10)
        assert first == "feature done=0"  # XBoard must wait for the kernels
        eng.expect(lambda s: s == "feature done=1", 120)
        ready = time.monotonic() - start
        features = " ".join(eng.lines)
        for f in ("ping=1", "setboard=1", "usermove=1", "analyze=1", "memory=1", "colors=0",
                  "sigint=0", "sigterm=0", "highlight=1", 'myname="Leyden'):
            assert f in features, f
        assert ('variants="normal,capablanca,caparandom,energizer,sultan,sultanrandom,'
                'batteries,enders"') in features
        assert ready < 60


def test_xboard_handshake_answered_before_numba_loads(tmp_path):
    """XBoard, or a match runner, that hears nothing within 2 s of ``protover`` takes the
    engine for protocol 1 (no setboard: every shuffle game then breaks), and loading
    numba takes longer than that on a busy machine. Here numba never finishes loading
    (a stand-in package that blocks), and the answer must still come."""
    blocker = tmp_path / "numba"
    blocker.mkdir()
    (blocker / "__init__.py").write_text("import time\ntime.sleep(3600)\n")
    with EngineProcess(env={"PYTHONPATH": str(tmp_path)}) as eng:
        eng.send("xboard", "protover 2")
        assert eng.expect("feature", 30) == "feature done=0"


def test_end_of_input_and_truncated_last_line_end_cleanly():
    for data in (b"xboard\nprotover 2\nping 1\nusermove e2e", b"uci\nisready\ngo depth 1",
                 b"", b"\x00\xff\xfe garbage without newline"):
        eng = EngineProcess()
        eng.write(data)
        eng.proc.stdin.close()
        assert eng.proc.wait(120) == 0


def test_binary_and_oversized_lines_get_errors_not_crashes():
    with xboard_engine() as eng:
        eng.write(b"\x00\x01\x02\xff\xfe\xfd\n")
        eng.write(b"usermove " + b"e" * 1_000_000 + b"\n")
        eng.write("usermove \u00e9\u20ac\u4e2d\n".encode())
        eng.write(b"\r\n\t\n   \n")
        lines = eng.sync_xboard(1)
        assert any(s.startswith("Error (line too long") for s in lines)
        assert eng.proc.poll() is None
