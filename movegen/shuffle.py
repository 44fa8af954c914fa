"""Random start positions for the shuffle games (``caparandom``, ``sultanrandom``).

Back ranks are drawn by rejection from a seeded generator: simple, uniform over the
allowed arrangements, and reproducible from the seed the user gives.
"""
import random

from .games import Game

_ARMIES = {
    "capablanca": "KQCARRBBNN",
    "sultan": "KQRRBBNNCC",
}


def _king_between_rooks(rank: list[str]) -> bool:
    rooks = [i for i, p in enumerate(rank) if p == "R"]
    return rooks[0] < rank.index("K") < rooks[1]


def _opposite_colours(rank: list[str], letter: str) -> bool:
    a, b = [i for i, p in enumerate(rank) if p == letter]
    return (a + b) % 2 == 1


def _pawns_protected(rank: list[str]) -> bool:
    """Every pawn of the start position is guarded by a back-rank piece."""
    def at(f):
        return rank[f] if 0 <= f < len(rank) else ""
    for f in range(len(rank)):
        guards = (at(f) in "KQRC" or any(at(f + d) in "KQBA" for d in (-1, 1) if at(f + d))
                  or any(at(f + d) in "NAC" for d in (-2, 2) if at(f + d)))
        if not guards:
            return False
    return True


def valid_back_rank(game: Game, rank: list[str], strict: bool = False) -> bool:
    ok = _king_between_rooks(rank) and _opposite_colours(rank, "B")
    if game.shuffle == "sultan":
        ok = ok and _opposite_colours(rank, "C")
    if strict and game.shuffle == "capablanca":
        q, a = rank.index("Q"), rank.index("A")
        bishops = [i for i, p in enumerate(rank) if p == "B"]
        ok = (ok and (q + a) % 2 == 1 and abs(bishops[0] - bishops[1]) != 1
              and _pawns_protected(rank))
    return ok


def shuffled_fen(game: Game, seed: int | None = None, strict: bool = False) -> str:
    """A random legal start position of ``game`` (seeded: the same seed, the same setup).

    ``strict`` adds the optional Capablanca Random Chess restrictions: Queen and
    Archbishop on different colours, Bishops not side by side, every pawn protected.
    """
    if game.shuffle not in _ARMIES:
        raise ValueError(f"{game.name} has no shuffled setups")
    rng = random.Random(seed)
    rank = list(_ARMIES[game.shuffle])
    while True:
        rng.shuffle(rank)
        if valid_back_rank(game, rank, strict):
            break
    white = "".join(rank)
    pawns = "P" * game.files
    return (f"{white.lower()}/{pawns.lower()}/{game.files}/{game.files}/{game.files}/"
            f"{game.files}/{pawns}/{white} w KQkq - 0 1")


def energizer_switched_fen(seed: int | None = None) -> str:
    """An Energizer start where each player may have swapped two Grand pieces (K Q A C).

    Each side independently keeps its setup or swaps one random pair; castling rights
    stay (castling is "king two squares towards the rook" from wherever the king is).
    """
    from .games import ENERGIZER
    rng = random.Random(seed)
    rows = ENERGIZER.start_fen.split()[0].split("/")

    def switched(rank: str) -> str:
        cells = list(rank)
        grand = [i for i, p in enumerate(cells) if p.upper() in "KQAC"]
        if rng.random() < 0.75:  # most draws change something
            a, b = rng.sample(grand, 2)
            cells[a], cells[b] = cells[b], cells[a]
        return "".join(cells)

    rows[0], rows[-1] = switched(rows[0]), switched(rows[-1])
    return "/".join(rows) + " " + " ".join(ENERGIZER.start_fen.split()[1:])
