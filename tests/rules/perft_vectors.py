"""The reference perft vectors: counts of an independent engine, one JSON object a line in
``data/perft.jsonl`` beside this file (its origin is described in ``data/README.md``)."""
import json
from pathlib import Path

PERFT_VECTORS = Path(__file__).resolve().parent / "data" / "perft.jsonl"


def read_vectors() -> list[dict]:
    """Every row: ``{"variant": ..., "fen": ..., "perft": {"1": n1, "2": n2, ...}}``."""
    return [json.loads(line) for line in PERFT_VECTORS.read_text().splitlines() if line.strip()]
