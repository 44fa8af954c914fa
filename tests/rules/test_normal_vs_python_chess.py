"""``normal`` against python-chess, the independent oracle (issue 2, "Proof").

Positions come from seeded random playouts (from the start position and from a few
well-known tricky positions), with the move choice biased towards castling, en passant,
promotions and double steps so that those rules are exercised often, plus hand-picked
positions for checkmate, stalemate, en passant pins and the draw rules.  For every
position: the set of legal moves, ``in_check``, the outcome, perft(2) (perft(3) on a
subset) agree with python-chess; along every playout the FEN after each push (and after
popping everything) agrees with python-chess's.

En passant convention: Leyden writes the e.p. square only when an enemy pawn stands next
to the pawn that double-stepped (a pseudo-legal capture exists), which is python-chess's
``fen(en_passant="xfen")``.
"""
import functools
import json
import random
import subprocess
import sys

import chess
import pytest

from movegen import Position
from tests.drivers import ROOT

# --------------------------------------------------------------------------- data

TRICKY_FENS = [
    # the classical perft suite (chessprogramming wiki)
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    # promotions (both colours, with captures and under-promotion)
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1",
    "8/P1k5/K7/8/8/8/8/8 w - - 0 1",
    # en passant: a pinned capturer (horizontal pin through both pawns), two capturers,
    # an e.p. capture that answers a check by the double-stepped pawn
    "8/8/8/KPp4r/8/8/8/6k1 w - c6 0 1",
    "4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 1",
    "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
    "4k3/8/8/3pP3/2K5/8/8/8 w - d6 0 1",
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
    # castling: free, through check, out of check, into check, rook attacked (legal)
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    "r3k2r/8/8/8/8/8/5b2/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/4q3/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K1rR w KQkq - 0 1",
    "1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1",
    "r3k2r/8/8/8/8/8/8/1R2K2R b Kkq - 0 1",
    "r3k2r/8/8/8/8/8/1q6/R3K2R w KQkq - 0 1",
    # game over and draw rules
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "k7/P7/K7/8/8/8/8/8 b - - 0 1",
    "8/8/8/8/8/5k2/5p2/5K2 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K - 100 80",
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
]

START = chess.STARTING_FEN


def _weight(board: chess.Board, move: chess.Move) -> float:
    """Bias the random playouts towards the special moves."""
    if board.is_castling(move):
        return 25.0
    if board.is_en_passant(move):
        return 25.0
    if move.promotion:
        return 10.0
    piece = board.piece_type_at(move.from_square)
    if piece == chess.PAWN:
        return 3.0 if abs(move.to_square - move.from_square) == 16 else 2.0
    return 1.0


def _expected_fen(board: chess.Board) -> str:
    return board.fen(en_passant="xfen")


def _expected_outcome(board: chess.Board):
    """Leyden's (score, reason) for ``board`` per the rules README, derived from python-chess."""
    if board.is_checkmate():
        return ("0-1" if board.turn == chess.WHITE else "1-0"), "checkmate"
    if board.is_stalemate():
        return "1/2-1/2", "stalemate"
    if board.halfmove_clock >= 100:
        return "1/2-1/2", "50-move rule"
    if board.is_repetition(3):
        return "1/2-1/2", "repetition"
    if len(board.piece_map()) == 2:
        return "1/2-1/2", "bare kings"
    return None


@functools.cache
def playouts():
    """Seeded biased random games: a list of (start FEN, [uci moves])."""
    rng = random.Random(20240611)
    games = []
    starts = [START] * 24 + TRICKY_FENS
    for i, fen in enumerate(starts):
        board = chess.Board(fen)
        limit = 400 if fen == START else rng.randint(6, 40)
        moves = []
        while len(moves) < limit and board.outcome(claim_draw=False) is None:
            legal = list(board.legal_moves)
            if not legal:
                break
            move = rng.choices(legal, weights=[_weight(board, m) for m in legal])[0]
            board.push(move)
            moves.append(move.uci())
            if board.halfmove_clock >= 100:
                break
        games.append((fen, moves))
    return games


@functools.cache
def sample_fens():
    """Distinct positions: every tricky FEN, every 8th position of every playout, its last
    one (mate, stalemate and draws come from there), and every position where castling,
    an e.p. capture or a promotion is legal."""
    seen = dict.fromkeys(TRICKY_FENS)
    for fen, moves in playouts():
        board = chess.Board(fen)
        for i, uci in enumerate(moves, start=1):
            board.push_uci(uci)
            special = any(board.is_castling(m) or board.is_en_passant(m) or m.promotion
                          for m in board.legal_moves)
            if special or i % 8 == 0 or i == len(moves):
                seen.setdefault(_expected_fen(board))
    return list(seen)


def pc_perft(board: chess.Board, depth: int) -> int:
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    n = 0
    for move in board.legal_moves:
        board.push(move)
        n += pc_perft(board, depth - 1)
        board.pop()
    return n


def _fails(failures):
    return f"{len(failures)} mismatches, first ones:\n" + "\n".join(map(str, failures[:8]))


# --------------------------------------------------------------------------- tests

def test_sample_is_large_and_covers_the_special_rules():
    fens = sample_fens()
    assert len(fens) >= 200
    castle = ep = promo = mate = stale = check = 0
    for fen in fens:
        board = chess.Board(fen)
        legal = list(board.legal_moves)
        castle += any(board.is_castling(m) for m in legal)
        ep += any(board.is_en_passant(m) for m in legal)
        promo += any(m.promotion for m in legal)
        mate += board.is_checkmate()
        stale += board.is_stalemate()
        check += board.is_check()
    assert castle >= 40, castle
    assert ep >= 12, ep
    assert promo >= 40, promo
    assert mate >= 4 and stale >= 2 and check >= 20, (mate, stale, check)


def test_legal_move_sets_match():
    failures = []
    for fen in sample_fens():
        ours = Position("normal", fen).legal_moves()
        board = chess.Board(fen)
        theirs = {m.uci() for m in board.legal_moves}
        if len(ours) != len(set(ours)) or set(ours) != theirs:
            failures.append((fen, sorted(set(ours) - theirs), sorted(theirs - set(ours)),
                             len(ours) - len(set(ours))))
    assert not failures, _fails(failures)


def test_in_check_and_outcome_match():
    failures = []
    for fen in sample_fens():
        pos = Position("normal", fen)
        board = chess.Board(fen)
        want = _expected_outcome(board)
        got = pos.outcome()
        if pos.in_check() != board.is_check() or got != want:
            failures.append((fen, pos.in_check(), board.is_check(), got, want))
    assert not failures, _fails(failures)


def test_turn_matches():
    for fen in sample_fens()[:60]:
        assert Position("normal", fen).turn == ("w" if chess.Board(fen).turn else "b")


def test_perft2_matches():
    failures = []
    for fen in sample_fens():
        ours = Position("normal", fen).perft(2)
        theirs = pc_perft(chess.Board(fen), 2)
        if ours != theirs:
            failures.append((fen, ours, theirs))
    assert not failures, _fails(failures)


def test_perft3_matches_on_a_subset():
    fens = TRICKY_FENS[:16] + sample_fens()[len(TRICKY_FENS)::25]
    failures = []
    for fen in fens:
        ours = Position("normal", fen).perft(3)
        theirs = pc_perft(chess.Board(fen), 3)
        if ours != theirs:
            failures.append((fen, ours, theirs))
    assert len(fens) >= 25
    assert not failures, _fails(failures)


def test_divide_matches_on_kiwipete():
    """``Position.divide`` runs in a child process: a crash there (it has segfaulted when
    its numba code was loaded from the on-disk cache) must fail this test, not kill pytest."""
    fen = TRICKY_FENS[0]
    board = chess.Board(fen)
    theirs = {}
    for move in board.legal_moves:
        board.push(move)
        theirs[move.uci()] = pc_perft(board, 1)
        board.pop()
    code = ("import json, sys; from movegen import Position; "
            "print(json.dumps(Position('normal', sys.argv[1]).divide(2)))")
    for attempt in range(2):  # the second run loads the kernels from the numba cache
        proc = subprocess.run([sys.executable, "-c", code, fen], cwd=ROOT, check=False,
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, (
            f"Position.divide crashed (run {attempt + 1}, exit {proc.returncode}): {proc.stderr[-500:]}")
        assert dict(json.loads(proc.stdout.splitlines()[-1])) == theirs


def test_fen_after_every_push_and_pop_matches():
    """Replay every playout on both: FEN (incl. clocks, castling, e.p.) after each push,
    outcome after each push (repetition, 50 moves, mate), and the start FEN after popping."""
    failures = []
    for fen, moves in playouts():
        pos = Position("normal", fen)
        board = chess.Board(fen)
        assert pos.fen() == _expected_fen(board)
        for uci in moves:
            pos.push(uci)
            board.push_uci(uci)
            if pos.fen() != _expected_fen(board):
                failures.append(("fen", fen, board.move_stack[-1].uci(), pos.fen(), _expected_fen(board)))
                break
            if pos.outcome() != _expected_outcome(board):
                failures.append(("outcome", fen, uci, pos.fen(), pos.outcome(), _expected_outcome(board)))
                break
        assert pos.move_stack == moves[: len(pos.move_stack)]
        while pos.move_stack:
            pos.pop()
        if pos.fen() != chess.Board(fen).fen(en_passant="xfen"):
            failures.append(("pop", fen, pos.fen()))
    assert not failures, _fails(failures)
    assert sum(len(m) for _, m in playouts()) >= 1500


def test_playouts_reach_castling_en_passant_promotion_and_mate():
    """The playouts themselves (not only the sampled positions) castle, capture e.p.,
    promote and end in mate, so the push/FEN test above covers those moves."""
    kinds = {"castle": 0, "ep": 0, "promo": 0}
    endings = set()
    for fen, moves in playouts():
        board = chess.Board(fen)
        for uci in moves:
            move = chess.Move.from_uci(uci)
            kinds["castle"] += board.is_castling(move)
            kinds["ep"] += board.is_en_passant(move)
            kinds["promo"] += bool(move.promotion)
            board.push(move)
        o = _expected_outcome(board)
        if o:
            endings.add(o[1])
    assert kinds["castle"] >= 20 and kinds["ep"] >= 5 and kinds["promo"] >= 20, kinds
    assert "checkmate" in endings, endings


def test_en_passant_field_convention():
    """e.p. square written only when an enemy pawn stands next to the double-stepped pawn
    (even if that capture is illegal because of a pin)."""
    pos = Position("normal")
    pos.push("e2e4")
    assert pos.fen().split()[3] == "-"
    for m in ("a7a6", "e4e5", "d7d5"):
        pos.push(m)
    assert pos.fen().split()[3] == "d6"
    assert "e5d6" in pos.legal_moves()
    pinned = Position("normal", "8/8/8/KPp4r/8/8/8/6k1 w - c6 0 1")
    assert pinned.fen().split()[3] == "c6"
    assert "b5c6" not in pinned.legal_moves()
    assert pinned.perft(2) == pc_perft(chess.Board(pinned.fen()), 2)


@pytest.mark.parametrize("fen", [
    # castling rights python-chess drops in standard chess: a right for a rook that is not
    # on its corner, or with the king off e1.  FIDE chess has no castling here.
    "4k3/8/8/8/8/8/8/4K1R1 w K - 0 1",
    "4k3/8/8/8/8/8/8/1R2K2R w KQ - 0 1",
    "4k3/8/8/8/8/8/8/R2K3R w KQ - 0 1",
    "4k3/8/8/8/8/8/8/R1K4R w KQ - 0 1",
    "4k3/8/8/8/8/8/8/RK5R w KQ - 0 1",
])
def test_castling_rights_off_the_orthodox_squares(fen):
    """Either the FEN is refused, or the legal moves are FIDE's (python-chess's)."""
    try:
        pos = Position("normal", fen)
    except ValueError:
        return
    ours = pos.legal_moves()
    theirs = {m.uci() for m in chess.Board(fen).legal_moves}
    duplicates = sorted({m for m in ours if ours.count(m) > 1})
    assert not duplicates and set(ours) == theirs, (
        f"extra {sorted(set(ours) - theirs)}, missing {sorted(theirs - set(ours))}, "
        f"move strings listed twice {duplicates}")
