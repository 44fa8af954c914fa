"""The peer engines and the games each plays with Leyden's rules: their configuration
files are in benchmarks/peers/ (its README.md says how each was made and checked).

``engine_tokens(peer, game)`` gives the ``--engine`` arguments of ``leyden match``; the
strength table, the depth yardstick, the peers' games and the position labeller use it.
"""
from __future__ import annotations

import os
import shutil

HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks", "peers")
FMAX_INI = os.path.join(HERE, "fmax.ini")
SJAAK_VARIANTS = os.path.join(HERE, "sjaakii_variants.txt")
FSF_VARIANTS = os.path.join(HERE, "fsf-variants.ini")


def find_binary(name: str) -> str | None:
    """``name`` on PATH, or in /usr/games (where Debian installs the engines)."""
    path = shutil.which(name)
    if path:
        return path
    candidate = os.path.join("/usr/games", name)
    return candidate if os.access(candidate, os.X_OK) else None


#: peer -> how to start it and the games it plays with our rules (per-game settings).
PEERS = {
    "fairymax": {
        "binary": "fairymax",
        "args": [FMAX_INI],
        "proto": "xboard",
        "options": {},
        # energizer: the start position cannot be written in fmax.ini; "edit" sets it
        "games": {"normal": {}, "capablanca": {}, "sultan": {}, "energizer": {"setup": "edit"}},
    },
    "sjaakii": {
        "binary": "sjaakii",
        "args": [SJAAK_VARIANTS],
        "proto": "xboard",
        "options": {},
        "games": {"normal": {}, "capablanca": {}, "caparandom": {}, "sultan": {}, "sultanrandom": {},
                  "energizer": {}},
    },
    "fairy-stockfish": {
        "binary": "fairy-stockfish",
        "args": [],
        "proto": "uci",
        "options": {"VariantPath": FSF_VARIANTS},
        "games": {"normal": {}, "capablanca": {}, "caparandom": {}, "energizer": {}},
    },
}


def plays(peer: str, game: str) -> bool:
    return game in PEERS[peer]["games"]


def engine_tokens(peer: str, game: str, name: str | None = None) -> list[str]:
    """``--engine`` tokens for ``peer`` playing ``game`` (KeyError if it does not)."""
    info = PEERS[peer]
    extra = info["games"][game]
    binary = find_binary(info["binary"])
    if binary is None:
        raise FileNotFoundError(f"{info['binary']} is not installed")
    cmd = " ".join([binary] + info["args"])
    tokens = [f"name={name or peer}", f"cmd={cmd}", f"proto={info['proto']}"]
    tokens += [f"option.{k}={v}" for k, v in info["options"].items()]
    tokens += [f"{k}={v}" for k, v in extra.items()]
    return tokens
