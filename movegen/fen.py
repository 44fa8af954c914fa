"""FEN (with holes ``*`` and ``[reserve]``) to position arrays and back.

Bad input raises ``ValueError`` with the reason; nothing deeper ever sees it.
"""
import numpy as np

from . import layout as L
from .games import ENDERS, Game
from .tables import Geometry, Tables, geometry

MAX_HALF = 10_000  # half-move clock: far past any draw rule, small enough for every array
MAX_FULL = 1_000_000  # move number


def _parse_board(game: Game, geo: Geometry, text: str, board: np.ndarray) -> None:
    rows = text.split("/")
    if len(rows) != game.ranks:
        raise ValueError(f"FEN has {len(rows)} ranks, {game.name} has {game.ranks}")
    letters = game.letters
    for i, row in enumerate(rows):
        r = game.ranks - 1 - i
        f = 0
        j = 0
        while j < len(row):
            ch = row[j]
            if ch.isdigit():
                k = j
                while k < len(row) and row[k].isdigit():
                    k += 1
                run = int(row[j:k])
                if row[j] == "0":
                    raise ValueError(f"rank {r + 1}: bad run of empty squares {row[j:k]!r}")
                for ff in range(f, min(f + run, game.files)):
                    if geo.name_fr(ff, r) in game.holes:
                        raise ValueError(f"{geo.name_fr(ff, r)} is a hole and must be written '*'")
                f += run
                j = k
                continue
            if f >= game.files:
                raise ValueError(f"rank {r + 1} is longer than {game.files} squares")
            name = geo.name_fr(f, r)
            sq = geo.index(f, r)
            if ch == "*":
                if name not in game.holes:
                    raise ValueError(f"'*' (hole) on {name}, which is a square of {game.name}")
            elif ch.upper() in letters:
                if name in game.holes:
                    raise ValueError(f"piece {ch!r} on {name}, which is a hole in {game.name}")
                t = letters.index(ch.upper()) + 1
                board[sq] = t if ch.isupper() else t + L.BLACK_BIT
            else:
                raise ValueError(f"unknown piece letter {ch!r} for {game.name} (letters: {letters})")
            f += 1
            j += 1
        if f != game.files:
            raise ValueError(f"rank {r + 1} has {f} squares, {game.name} has {game.files} files")


def _parse_reserve(game: Game, text: str, st: np.ndarray) -> None:
    if text and not game.drops:
        raise ValueError(f"{game.name} has no pieces in hand, but the FEN gives [{text}]")
    for ch in text:
        if ch == "-":
            continue
        if ch.upper() not in game.letters:
            raise ValueError(f"unknown piece letter {ch!r} in the reserve")
        colour = 0 if ch.isupper() else 1
        L.ST.view(st, "RES")[colour, game.letters.index(ch.upper()) + 1] += 1


def _rook_for_right(game, geo, board, colour, ch, king_sq):
    """Rook square named by one castling letter (X-FEN K/Q or a Shredder file letter)."""
    rook = game.letters.index("R") + 1 + L.BLACK_BIT * colour
    back = 0 if colour == 0 else game.ranks - 1
    kf = geo.file_rank(king_sq)[0]
    files = range(game.files)
    if ch.upper() == "K":
        cands = [f for f in files if f > kf and board[geo.index(f, back)] == rook]
        f = max(cands) if cands else None
    elif ch.upper() == "Q":
        cands = [f for f in files if f < kf and board[geo.index(f, back)] == rook]
        f = min(cands) if cands else None
    else:
        f = ord(ch.lower()) - ord("a")
        if not 0 <= f < game.files or board[geo.index(f, back)] != rook or f == kf:
            f = None
    if f is None:
        side = "White" if colour == 0 else "Black"
        raise ValueError(f"castling right {ch!r}: {side} has no rook for it on the back rank")
    return geo.index(f, back)


def _parse_castling(game, geo, board, st, text) -> bool:
    """Fill the castling rooks; return True if the text used Shredder-FEN letters."""
    if text == "-":
        return False
    if game.castling == "none":
        raise ValueError(f"{game.name} has no castling, but the FEN gives {text!r}")
    for ch in text:
        colour = 0 if ch.isupper() else 1
        if not ch.isalpha():
            raise ValueError(f"bad castling field {text!r}")
        king_sq = st[L.S_KING + colour]
        back = 0 if colour == 0 else game.ranks - 1
        if geo.file_rank(king_sq)[1] != back:
            raise ValueError(f"castling right {ch!r} but the king is not on its back rank")
        rsq = _rook_for_right(game, geo, board, colour, ch, king_sq)
        if game.castling == "fixed" and not game.chess960:
            _check_home_squares(game, geo, ch, king_sq, rsq)
        wing = 0 if rsq > king_sq else 1
        slot = L.S_CR + 2 * colour + wing
        if st[slot] not in (0, rsq):
            raise ValueError(f"two castling rights for the same side of the king in {text!r}")
        st[slot] = rsq
    return all(ch.upper() not in "KQ" for ch in text)


def _check_home_squares(game, geo, ch, king_sq, rook_sq) -> None:
    """Fixed-setup games castle only from the king's and rooks' start squares."""
    home = game.start_fen.split()[0].split("/")[-1]
    files = []
    for c in home:
        files += [""] * int(c) if c.isdigit() else [c]
    if files[geo.file_rank(king_sq)[0]] != "K" or files[geo.file_rank(rook_sq)[0]] != "R":
        raise ValueError(f"castling right {ch!r} needs the king and that rook on their "
                         f"start squares in {game.name}")


def _check_pieces(game: Game, geo: Geometry, t: Tables, board, st) -> None:
    king = t.gi[L.GI_KING]
    pawn = t.gi[L.GI_PAWN]
    kings = [[], []]
    for sq in geo.valid:
        p = int(board[sq])
        if p == 0:
            continue
        colour, typ = divmod(p, L.BLACK_BIT)
        if typ == king:
            kings[colour].append(sq)
        if typ == pawn and geo.file_rank(sq)[1] in (0, game.ranks - 1):
            raise ValueError(f"{game.pieces[pawn - 1].name} on {geo.name(sq)}, a last rank")
    if king:
        name = game.pieces[king - 1].name
        for colour, side in ((0, "White"), (1, "Black")):
            if len(kings[colour]) != 1:
                raise ValueError(f"{side} has {len(kings[colour])} {name}s; exactly one is needed")
            st[L.S_KING + colour] = kings[colour][0]


def _occupancy(geo: Geometry, board, st) -> None:
    """st's OCC words (movegen/fields.py) for ``board``: a bit per cell each colour holds."""
    words = np.zeros((2, 2), np.uint64)
    for cell, sq in enumerate(geo.valid):
        p = int(board[sq])
        if p != 0:
            words[p // L.BLACK_BIT, cell // 64] |= np.uint64(1) << np.uint64(cell % 64)
    L.ST.view(st, "OCC")[:] = words.view(np.int64)


def _parse_ep(game, geo, board, st, text) -> None:
    if text == "-":
        return
    sq = geo.parse(text)
    side = st[L.S_SIDE]
    want_rank = game.ranks - 3 if side == 0 else 2
    pawn = game.letters.index("P") + 1 if "P" in game.letters else 0
    f, r = geo.file_rank(sq)
    behind = geo.index(f, r - 1 if side == 0 else r + 1)
    them = pawn + L.BLACK_BIT * (1 - side)
    if not game.en_passant or r != want_rank or board[sq] != 0 or board[behind] != them:
        raise ValueError(f"en passant square {text} is impossible in this position")
    # Kept only where a pawn could take (as make does), so equal positions hash equally.
    if board[behind - 1] == pawn + L.BLACK_BIT * side or board[behind + 1] == pawn + L.BLACK_BIT * side:
        st[L.S_EP] = sq


def _army(game: Game) -> dict[str, int]:
    """How many of each piece letter one side owns at the start (board and reserve)."""
    army: dict[str, int] = {}
    for ch in game.start_fen.split()[0]:
        if ch.isupper():
            army[ch] = army.get(ch, 0) + 1
    return army


def _check_army(game: Game, geo: Geometry, board, st) -> None:
    """Drop games have no promotion and no captures into the hand: each side owns at most
    its starting army of each piece, counting the board and the reserve together."""
    army = _army(game)
    for colour, side in ((0, "White"), (1, "Black")):
        for typ, piece in enumerate(game.pieces, start=1):
            p = typ + L.BLACK_BIT * colour
            have = sum(1 for sq in geo.valid if board[sq] == p) + int(L.ST.view(st, "RES")[colour, typ])
            if have > army.get(piece.letter, 0):
                raise ValueError(f"{side} has {have} {piece.name}s on the board and in hand; "
                                 f"the army of {game.name} has {army.get(piece.letter, 0)}")


def _ender_state(game, geo, board, st) -> None:
    gw, gb = (geo.parse(s) for s in game.gates)
    for colour in (0, 1):
        on_board = sum(1 for sq in geo.valid if board[sq] != 0 and board[sq] // L.BLACK_BIT == colour)
        st[L.S_COUNT + colour] = on_board + L.ST.view(st, "RES")[colour].sum()
    white_on_b = 0 < board[gb] < L.BLACK_BIT
    black_on_w = board[gw] > L.BLACK_BIT
    if white_on_b and black_on_w:
        raise ValueError("both gates are occupied by the enemy")
    if black_on_w:
        st[L.S_RESULT], st[L.S_WHY] = L.Result.BLACK_WINS, L.WHY_GATE
    elif white_on_b:
        if st[L.S_SIDE] == 1:
            st[L.S_REPLY] = 1
        else:
            st[L.S_RESULT], st[L.S_WHY] = L.Result.WHITE_WINS, L.WHY_REPLY_END
    for colour in (0, 1):
        if st[L.S_COUNT + colour] == 0 and st[L.S_RESULT] == 0:
            st[L.S_RESULT], st[L.S_WHY] = L.Result.BLACK_WINS - colour, L.WHY_ELIMINATION


def compute_hash(t: Tables, board, st) -> int:
    """The Zobrist hash of a position from scratch (make/unmake keep it incrementally)."""
    h = 0
    for sq in t.squares:
        if board[sq]:
            h ^= int(t.zp[board[sq], sq])
    if st[L.S_SIDE] == 1:
        h ^= int(t.gi[L.GI_ZSIDE])
    for i in range(4):
        if st[L.S_CR + i]:
            h ^= int(t.zc[st[L.S_CR + i]])
    if st[L.S_EP]:
        h ^= int(t.zep[st[L.S_EP]])
    if t.gi[L.GI_FAMILY] == ENDERS:
        for colour in (0, 1):
            for typ in range(1, t.gi[L.GI_NT] + 1):
                h ^= int(t.zres[colour, typ, L.ST.view(st, "RES")[colour, typ]])
        if st[L.S_REPLY]:
            h ^= int(t.zmisc[1])
    return h


def parse_fen(game: Game, t: Tables, fen: str):
    """Board and scalar arrays of ``fen``; also whether castling was in Shredder-FEN."""
    if not isinstance(fen, str) or not fen.strip():
        raise ValueError("empty FEN")
    geo = geometry(game)
    fields = fen.split()
    if len(fields) < 2:
        raise ValueError("FEN has no side to move")
    if len(fields) > 6:
        raise ValueError(f"FEN has {len(fields)} fields, at most 6 are allowed")
    fields += ["-", "-", "0", "1"][len(fields) - 2:]
    placement, side, castling, ep, half, full = fields
    board = np.full(geo.nsq, L.OFF, np.int8)
    board[geo.valid] = 0
    st = np.zeros(L.NST, np.int64)
    reserve = ""
    if "[" in placement:
        if not placement.endswith("]"):
            raise ValueError("reserve must be written as [letters] after the board")
        placement, reserve = placement[:-1].split("[", 1)
    _parse_board(game, geo, placement, board)
    _occupancy(geo, board, st)
    _parse_reserve(game, reserve, st)
    if side not in ("w", "b"):
        raise ValueError(f"side to move must be 'w' or 'b', not {side!r}")
    st[L.S_SIDE] = 0 if side == "w" else 1
    _check_pieces(game, geo, t, board, st)
    shredder = _parse_castling(game, geo, board, st, castling)
    _parse_ep(game, geo, board, st, ep)
    for name, value, top in (("half-move clock", half, MAX_HALF), ("move number", full, MAX_FULL)):
        if not (value.isascii() and value.isdigit()):
            raise ValueError(f"{name} must be a number, not {value[:30]!r}")
        if int(value) > top:
            raise ValueError(f"{name} {value[:30]} is out of range (at most {top})")
    st[L.S_HALF], st[L.S_FULL] = int(half), max(1, int(full))
    if game.drops:
        _check_army(game, geo, board, st)
    if game.family == ENDERS:
        _ender_state(game, geo, board, st)
    st[L.S_HASH] = compute_hash(t, board, st)
    return board, st, shredder


def _board_text(game: Game, geo: Geometry, board) -> str:
    letters = game.letters  # spelled out afresh on each access: once per board
    rows = []
    for r in range(game.ranks - 1, -1, -1):
        row, run = "", 0
        for f in range(game.files):
            p = int(board[geo.index(f, r)])
            if p == 0:
                run += 1
                continue
            if run:
                row, run = row + str(run), 0
            if p == L.OFF:
                row += "*"
            else:
                letter = letters[p % L.BLACK_BIT - 1]
                row += letter if p < L.BLACK_BIT else letter.lower()
        rows.append(row + (str(run) if run else ""))
    return "/".join(rows)


def _castling_text(game, geo, board, st, shredder: bool) -> str:
    out = ""
    for colour in (0, 1):
        king = st[L.S_KING + colour]
        for wing in (0, 1):
            rsq = st[L.S_CR + 2 * colour + wing]
            if not rsq:
                continue
            letter = "KQ"[wing]
            if shredder or _rook_for_right(game, geo, board, colour, letter, king) != rsq:
                letter = "abcdefghij"[geo.file_rank(rsq)[0]].upper()
            out += letter if colour == 0 else letter.lower()
    return out or "-"


def write_fen(game: Game, board, st, shredder: bool = False) -> str:
    geo = geometry(game)
    text = _board_text(game, geo, board)
    if game.drops:
        res = ""
        for colour in (0, 1):
            for typ, p in enumerate(game.pieces, start=1):
                k = int(L.ST.view(st, "RES")[colour, typ])
                res += (p.letter if colour == 0 else p.letter.lower()) * k
        text += f"[{res}]"
    castling = _castling_text(game, geo, board, st, shredder) if game.castling != "none" else "-"
    ep = geo.name(st[L.S_EP]) if st[L.S_EP] else "-"
    side = "wb"[st[L.S_SIDE]]
    return f"{text} {side} {castling} {ep} {st[L.S_HALF]} {st[L.S_FULL]}"
