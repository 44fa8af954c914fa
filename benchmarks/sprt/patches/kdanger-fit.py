"""Parked prototype (session 48), run from the repository root:
    python benchmarks/sprt/patches/kdanger-fit.py 400
How much of Fairy-Stockfish's own king-safety term (per side, middlegame, from its `eval`
trace) a few features of Leyden's board explain: attackers of the king ring by class,
attacks next to the king, weak ring squares, safe and unsafe checks by class, enemy super
pieces, flank attacks, and the pawn shelter; fitted linearly and as shelter less the
square of a linear danger. On 10,242 king sides of 400 games against the peer: linear
R2 0.68, quadratic 0.77 (with the PGNs of 6e275c2). The start of a king-danger term for the chess-likes."""
import sys, re, glob
import numpy as np
sys.path.insert(0, ".")
from benchmarks import peer_eval as pe  # noqa
from movegen import Position, layout as L
from search.evaluate import build_eval, EV
from scipy.optimize import least_squares

game = "capablanca"
files = sorted(glob.glob("benchmarks/strength*/*/capablanca-fairy-stockfish.pgn")) + \
        sorted(glob.glob("benchmarks/sprt/gauntlet-*.pgn"))
drawn = pe.quiet_positions(game, files, 0.25, 5, int(sys.argv[1]) if len(sys.argv) > 1 else 500)
fens = [f for f, _ in drawn]
parts = [table for table, _ in pe.peer_traces(game, fens, "/usr/games/fairy-stockfish")]
ev = build_eval(Position(game).game)
nleap = EV.view(ev, "EV_MOB_NLEAP"); nslide = EV.view(ev, "EV_MOB_NSLIDE")
leap = EV.view(ev, "EV_MOB_LEAP"); slide = EV.view(ev, "EV_MOB_SLIDE")
from search.evaluate import EV_VALUE
P0 = Position(game)
G = P0.tables.G
pawn_dir = [int(G[L.PAWN_DIR]), int(G[L.PAWN_DIR + 1])]
stride = P0.geo.stride
KING_D = [1, -1, stride, -stride, stride + 1, stride - 1, -stride + 1, -stride - 1]

def attacks(board, sq, p):
    """Squares the piece on sq attacks (leaps, slides to the first piece)."""
    t, c = p & 15, p >> 4
    out = []
    if t == ev_pawn:
        for d in (pawn_dir[c] - 1, pawn_dir[c] + 1):
            if board[sq + d] != 64: out.append(sq + d)
        return out
    if t == ev_king:
        return [sq + d for d in KING_D if board[sq + d] != 64]
    for k in range(nleap[c, t]):
        to = sq + leap[c, t, k]
        if board[to] != 64: out.append(to)
    for k in range(nslide[c, t]):
        d = slide[c, t, k]; to = sq + d
        while board[to] == 0:
            out.append(to); to += d
        if board[to] != 64: out.append(to)
    return out

from search.evaluate import EV_PAWN, EV_KING
ev_pawn, ev_king = int(ev[EV_PAWN]), int(ev[EV_KING])
def cls(t):
    v = ev[EV_VALUE + t]
    return 0 if v >= 800 else 1 if v >= 450 else 2

def features(fen):
    pos = Position(game, fen); board = pos.board
    sqs = [s for s in range(len(board)) if board[s] not in (0, 64)]
    att = [dict(), dict()]   # colour -> sq -> count
    att_by = [dict(), dict()]  # colour -> sq -> set of classes (0 super 1 rook 2 minor 3 pawn 4 king)
    plist = []
    for s in sqs:
        p = int(board[s]); t, c = p & 15, p >> 4
        a = attacks(board, s, p)
        plist.append((s, t, c, a))
        k = 3 if t == ev_pawn else 4 if t == ev_king else cls(t)
        for x in a:
            att[c][x] = att[c].get(x, 0) + 1
            att_by[c].setdefault(x, set()).add(k)
    kings = {c: s for s, t, c, a in plist if t == ev_king}
    out = []
    for D in (0, 1):
        A = 1 - D; k = kings[D]
        ring = {k} | {k + d for d in KING_D if board[k + d] != 64}
        near = ring - {k}
        f = np.zeros(16)
        for s, t, c, a in plist:
            if c != A or t == ev_king: continue
            hit = set(a) & ring
            if t == ev_pawn:
                f[3] += len(hit) > 0
                continue
            if hit:
                f[cls(t)] += 1            # attackers by class
                f[4] += len(set(a) & near)  # attacks on king-adjacent squares
        weak = [x for x in ring if att[A].get(x, 0) and (att[D].get(x, 0) <= 1 and (att_by[D].get(x, set()) <= {0, 4}))]
        f[5] = len(weak)
        # checks: squares from which a piece of A's type t would attack k; reachable by an A piece of that type
        safe_cls = set(); unsafe = 0
        for s, t, c, a in plist:
            if c != A or t in (ev_pawn, ev_king): continue
            # squares from which this type checks: attacks of a same-type piece of colour A placed on k (symmetric atoms)
            checks = set(attacks(board, k, t | (16 * A)))
            for x in set(a) & checks:
                q = int(board[x])
                if q != 0 and (q >> 4) == A: continue
                if att[D].get(x, 0) == 0:
                    safe_cls.add(cls(t))
                else:
                    unsafe += 1
        for cc in safe_cls: f[6 + cc] = 1
        f[9] = unsafe
        # shelter: own pawns on the 3 files around the king, one or two ranks ahead
        fwd = pawn_dir[D]
        sh = 0
        for df in (-1, 0, 1):
            for r in (1, 2):
                x = k + df + r * fwd
                if 0 <= x < len(board) and board[x] == ev_pawn | (16 * D): sh += 1
        f[10] = sh
        f[11] = sum(1 for s, t, c, a in plist if c == A and t != ev_pawn and t != ev_king and cls(t) == 0)  # enemy supers
        # flank attacks: A attacks on D's half within the king's files +-1 (by count)
        kf = k % stride
        fl = 0
        for x, n in att[A].items():
            if abs(x % stride - kf) <= 1 and ((x // stride - k // stride) * (1 if fwd > 0 else -1)) <= 3:
                fl += min(n, 2)
        f[12] = fl
        f[13] = 1.0
        out.append(f)
    return out

X, Y = [], []
for fen, blk in zip(fens, parts):
    m = [l for l in blk.splitlines() if l.strip().startswith("King safety")]
    if not m: continue
    nums = re.findall(r"-?\d+\.\d+", m[-1])
    if len(nums) < 6: continue
    w_mg, b_mg = float(nums[0]), float(nums[2])
    fw, fb = features(fen)
    X += [fw, fb]; Y += [w_mg, b_mg]
X = np.array(X); Y = np.array(Y)
print(len(Y), "king sides; FSF KS mg mean", Y.mean().round(3), "sd", Y.std().round(3))
# linear fit
lin = np.linalg.lstsq(X, Y, rcond=None)[0]
r2 = 1 - np.mean((X @ lin - Y) ** 2) / Y.var()
print("linear R2", round(r2, 3))
# shelter + quadratic danger: Y = a0 + a1*shelter - max(0, w.f)^2 / 100
dang_idx = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13]
def model(p):
    d = X[:, dang_idx] @ p[2:]
    d = np.maximum(d, 0)
    return p[0] + p[1] * X[:, 10] - d * d
fit = least_squares(lambda p: model(p) - Y, np.r_[0.0, 0.1, np.full(len(dang_idx), 0.1)])
r2q = 1 - np.mean((model(fit.x) - Y) ** 2) / Y.var()
print("quadratic R2", round(r2q, 3))
names = ["att super", "att rook", "att minor", "att pawn", "adj attacks", "weak ring", "safe chk super", "safe chk rook", "safe chk minor", "unsafe chks", "enemy supers", "flank", "const"]
print("shelter", fit.x[1].round(3), " danger weights:", {n: round(v, 3) for n, v in zip(names, fit.x[2:])})
