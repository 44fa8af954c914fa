"""One move at a time (movegen/kernel.py): ``is_pseudo_legal`` answers exactly what the
pseudo-legal list says, for any move code (the moves of other positions, corrupted codes,
junk), and ``is_legal`` exactly what the legal list says, in random positions of every
game and in positions chosen for the rare move kinds."""
import random

import numpy as np
import pytest

from movegen import GAMES, Position
from movegen import layout as L
from movegen.core import m_flag
from movegen.kernel import gen_pseudo, in_check, is_legal, is_pseudo_legal

PLAYOUTS, PLIES = 3, 60

# positions where the rare kinds are pseudo-legal: castling both ways, en passant,
# promotions (with captures), a charged Agent's overtaking, Ender's drops mid-army
SPECIAL = [
    ("normal", "r3k2r/pPpp1ppp/8/3Pp3/8/8/PPP2PPP/R3K2R w KQkq e6 0 1"),
    ("normal", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"),
    ("capablanca", "r4k3r/1P8/10/10/10/10/10/R4K3R w KQkq - 0 1"),
    ("caparandom", "1r2k4r/10/10/10/10/10/10/1R2K4R w KQkq - 0 1"),
    ("energizer", "r3k2r/pbppppbp/8/8/8/8/PBPPPPBP/R3K2R b KQkq - 0 1"),
    ("batteries", "9k/10/10/10/4s5/3BA5/10/10/10/K9 w - - 0 1"),
    ("batteries", "9k/4S5/10/10/10/10/10/10/3b6/K9 w - - 0 1"),
    ("batteries", "9k/10/10/10/10/10/3L6/10/1s8/K9 w - - 0 1"),  # in check (random games rarely are)
]


def _pseudo(pos: Position, buf: np.ndarray) -> set[int]:
    n = gen_pseudo(pos.tables.G, pos.board, pos.st, buf, 0)
    return {int(m) for m in buf[:n]}


def _candidates(rng: random.Random, pseudo: set[int], pool: list[int]) -> set[int]:
    """The position's own moves, moves of other positions of the game, those moves with
    one bit flipped (other squares, flags, promotions, extras) and junk words."""
    out = set(pseudo) | set(rng.sample(pool, min(len(pool), 150)))
    for m in list(out)[:120]:
        for bit in rng.sample(range(34), 4):
            out.add(m ^ (1 << bit))
    out |= {0, -1, -(1 << 40), 1 << 62, (1 << 34) - 1}
    out |= {rng.randrange(-(1 << 63), 1 << 63) for _ in range(20)}
    return out


def _check_position(pos: Position, rng: random.Random, pool: list[int], seen: dict) -> None:
    G, board, st, undo = pos.tables.G, pos.board, pos.st, pos.undo
    buf = np.zeros(L.MAX_MOVES, np.int64)
    pseudo = _pseudo(pos, buf)
    legal = {int(m) for m in pos.legal_move_codes()}
    chk = bool(in_check(G, board, st))
    board0, st0 = board.copy(), st.copy()
    for m in _candidates(rng, pseudo, pool):
        got = bool(is_pseudo_legal(G, board, st, np.int64(m), buf, 0))
        assert got == (m in pseudo), (pos.game.name, pos.fen(), m, got)
    for m in pseudo:
        assert bool(is_legal(G, board, st, undo, np.int64(m), chk)) == (m in legal), (pos.fen(), m)
        seen[m_flag(m)] = seen.get(m_flag(m), 0) + 1
    assert (board == board0).all() and (st == st0).all(), "the tests must leave the position as it was"
    pool.extend(pseudo)


def _playouts(game: str, rng: random.Random):
    """Positions of random games: every ply of a few playouts."""
    for k in range(PLAYOUTS):
        pos = Position(game, seed=k + 1) if game.endswith("random") else Position(game)
        for _ in range(PLIES):
            yield pos
            moves = pos.legal_move_codes()
            if len(moves) == 0 or pos.outcome() is not None:
                break
            pos.push_code(int(moves[rng.randrange(len(moves))]))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_pseudo_legality_and_legality_in_random_games(game):
    rng = random.Random(f"pseudo-{game}")
    pool: list[int] = []
    seen: dict[int, int] = {}
    checks = 0
    for pos in _playouts(game, rng):
        _check_position(pos, rng, pool, seen)
        checks += bool(in_check(pos.tables.G, pos.board, pos.st))
    assert sum(seen.values()) > 1000
    if game == "enders":
        assert seen.get(L.F_DROP) and seen.get(L.F_END)  # drops and ends of turn were asked
    elif game != "batteries":
        assert checks > 0  # positions in check were among them (Batteries: in SPECIAL)


@pytest.mark.parametrize("game,fen", SPECIAL)
def test_rare_move_kinds(game, fen):
    rng = random.Random(fen)
    pos = Position(game, fen)
    pool = [int(m) for m in Position(game).legal_move_codes()]
    seen: dict[int, int] = {}
    _check_position(pos, rng, pool, seen)
    flags = set(seen)
    expected = {"normal": {L.F_CASTLE}, "capablanca": {L.F_CASTLE}, "caparandom": {L.F_CASTLE},
                "energizer": {L.F_CASTLE}, "batteries": set()}[game]
    assert expected <= flags
    if "e6" in fen:
        assert L.F_EP in flags
    if game == "batteries" and "BA" in fen:
        assert L.F_OVERTAKE in flags
    if game == "batteries" and "1s8/K9" in fen:
        assert in_check(pos.tables.G, pos.board, pos.st)


def test_enders_drops_mid_turn_are_refused():
    """After a first action the drop that was pseudo-legal a moment ago is not."""
    pos = Position("enders")
    G, board, st = pos.tables.G, pos.board, pos.st
    buf = np.zeros(L.MAX_MOVES, np.int64)
    drops = [m for m in _pseudo(pos, buf) if m_flag(m) == L.F_DROP]
    assert drops and all(is_pseudo_legal(G, board, st, np.int64(m), buf, 0) for m in drops)
    pos.push_code(drops[0])
    assert not any(is_pseudo_legal(G, pos.board, pos.st, np.int64(m), buf, 0) for m in drops)
