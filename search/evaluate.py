"""Static evaluation: centipawns from the side to move's point of view.

``build_eval(game)`` (Python, cached per game record) turns the game's geometry, piece values
and the weights of ``search/weights.py`` into one flat int64 array ``ev``: tapered
piece-square tables (material included), per-type classes, tables for passed pawns,
safe mobility (score by count, and the leaps and slides counted), king attack, Ender's
gate distances, the search's reduction table and its settings (weights.SEARCH: margins
and depths the pruning reads from here, so that the ``Tune`` option can change them
without compiling). The numba ``evaluate(G, board, st, ev, ss)`` reads it; one compiled
evaluation serves every game.
The material + piece-square sums and the game phase are kept incrementally, per ply, in
the search state (see "incremental sums" below: the search calls ``evaluate_node``);
the rest is a scan of the board, with the chess-likes' pawn-structure terms taken from a
cache in the search state keyed by the pawns' placement (``_pawn_row``). Outside the
search, ``evaluate`` works on any position as it stands (a FEN set up, a fresh or a used
``ss``); after editing ``ev`` in place, call ``stamp_eval(ev)`` first.

Terms:
- all games: tapered material + piece-square terms computed from geometry (empty-board
  mobility of the piece on the square and centralisation; pawn advance; king shelter in
  the middlegame, king centralisation in the endgame), tempo.
- chess-likes: safe mobility (per piece other than pawns and the king, the squares its
  leaps and slides reach, empty or enemy-occupied, that no enemy pawn attacks: a weight
  per square by type, counted from a typical number), bishop pair, rook-like pieces on
  open files, doubled / isolated / passed pawns, pawn shield and enemy pieces near the
  king, super pieces (Q, C, A) losing value against many enemy light pieces, drawish
  material (a lone minor or two knights cannot force mate; no pawns and less than a rook
  ahead is drawish).
- batteries: charge (pieces next to an own Battery), Batteries close to the enemy
  President, President safety (enemy pieces near it, doubled when charged; guards).
- enders: material on board and in reserve, progress towards the enemy gate (distance
  in the piece's own moves), the gate race (who can occupy the enemy gate first, with
  the reply-turn rule), guards near the own gate, threats against the own gate.
"""
import hashlib
import math
from functools import cache, lru_cache

import numpy as np

from movegen import layout as L
from movegen.betza import CAPTURE, MOVE
from movegen.fields import occupied_words, pop_square, reserve_slot, zobrist
from movegen.flat import FlatLayout
from movegen.games import Game
from movegen.layout import Family
from movegen.tables import build_tables, geometry

from movegen.core import castle_rook_target, m_extra, m_flag, m_from, m_promo, m_to
from movegen.jit import inline_kernel, kernel
from .network import NET_FEATURES, NET_H, QA, QB, load_net, put_net
from .state import (
    ACC_ROW,
    NET_ACC,
    PSQ_PHASE_B,
    PAWN_CACHE,
    PAWN_EG,
    PAWN_ENTRIES,
    PAWN_FILES,
    PAWN_KEY,
    PAWN_MG,
    PAWN_ROW,
    PSQ,
    PSQ_EG,
    PSQ_KEY,
    PSQ_MG,
    PSQ_PHASE,
    PSQ_ROW,
    SC_BATT,
    SC_COUNT,
    SC_EVAL_NUMBER,
    SC_FILE_CNT,
    SC_FILE_HI,
    SC_FILE_LO,
    SC_LIST,
    SC_LIST_MAX,
    SC_NBATT,
    SC_NPM,
    SC_PAWN_ATT,
    SC_PAWN_ATT_SIDE,
    SC_PAWNS,
    SC_PIECES,
    SC_SIDE,
    SC_THREAT,
    SC_THREAT_SIDE,
    SCRATCH,
)
from .weights import merge, weights

NSQ = L.NSQ_MAX
MOB_COUNTS = 32  # safe-mobility table entries per type (counts beyond: the last entry)
THREAT_GAIN_CAP = 300  # a threat's value difference counts up to this (_threats)

_EV_SCALARS = (
    "FAMILY", "PAWN", "KING", "BISHOP", "KNIGHT", "MAXPHASE", "BATTERY",
    "ROOK_VALUE",  # "less than a rook ahead" threshold
    "STAMP",  # digest of the table: keys the incremental sums to it (stamp_eval)
    "NET",  # 1: the game's evaluation is its network (search/network.py)
    "NET_BASE",  # 1: ... added to the tapered piece-square sums it was trained over
)
_WEIGHTS = (
    "TEMPO", "BISHOP_PAIR", "ROOK_OPEN", "ROOK_HALF", "DOUBLED", "ISOLATED", "SHIELD", "SHIELD2",
    "KING_OPEN", "KATT_RADIUS", "SUPER_VS_LIGHT", "DRAWISH", "NOMATE", "ASPIRATION",
    "BATT_NEAR", "PRES_CHARGED", "PRES_GUARD", "RESERVE_PCT", "GATE_GUARD", "GATE_THREAT",
    "RACE_LEAD", "RACE_MAX", "REPLY_LOST",
    "THREAT_MOVE", "THREATENED", "THREATENED2", "THREAT_GAIN", "THREAT_GAIN2",
    # the search's settings (weights.SEARCH)
    "FUTILITY", "PRUNE_DEPTH", "LMP_BASE", "RAZOR", "DELTA", "QS_FUTILITY", "NULL_R", "NULL_DIV",
    "SINGULAR_DEPTH", "SINGULAR_MARGIN",
)
#: The evaluation tables ``ev`` of one game: scalars, weights, then tables.
EV = FlatLayout(
    [("EV_" + name, ()) for name in _EV_SCALARS] + [("W_" + name, ()) for name in _WEIGHTS] + [
        ("EV_VALUE", 16),  # middlegame value per type (move ordering, pruning margins)
        ("EV_PHASE_W", 16),
        ("EV_ORTHO", 16),  # 1: has an unlimited orthogonal slide (rook-like)
        ("EV_ATTACK_W", 16),  # king attack units
        ("EV_CHARGE", 16),  # batteries: bonus when charged
        ("EV_CLASS", 16),  # 1 super piece (Q, C, A), 2 light piece (R, B, N, Courier)
        ("EV_NOMATE", 16),  # 1: alone with its king it cannot force mate (B, N, Courier)
        ("EV_PASSED_MG", 16),  # by rank from the own side
        ("EV_PASSED_EG", 16),
        ("EV_KATT", 32),  # king attack penalty by attack units
        ("EV_MOB_MG", (16, MOB_COUNTS)),  # chess-likes: safe mobility score by type and count
        ("EV_MOB_EG", (16, MOB_COUNTS)),
        ("EV_MOB_NLEAP", (2, 16)),  # ... the plain leaps and slides it counts [colour, type]
        ("EV_MOB_NSLIDE", (2, 16)),
        ("EV_MOB_LEAP", (2, 16, L.MAX_ATOMS)),
        ("EV_MOB_SLIDE", (2, 16, L.MAX_ATOMS)),
        ("EV_LMR", (64, 64)),  # late-move reduction by depth and move number
        ("EV_PST_MG", (32, NSQ)),  # by cell code (material included, Black negative)
        ("EV_PST_EG", (32, NSQ)),
        ("EV_DIST", (2, 16, NSQ)),  # Ender's: own moves to the enemy gate [colour, type, square]
        # the network's integer weights (search/network.py): feature by [view, code, square]
        ("NET_FEAT", (2, 32, NSQ)),
        ("NET_W1", (NET_FEATURES, NET_H)),
        ("NET_B1", NET_H),
        ("NET_W2", 2 * NET_H),
        ("NET_B2", ()),
    ])
(EV_FAMILY, EV_PAWN, EV_KING, EV_BISHOP, EV_KNIGHT, EV_MAXPHASE, EV_BATTERY, EV_ROOK_VALUE,
 EV_STAMP, EV_NET, EV_NET_BASE) = (EV.offset["EV_" + name] for name in _EV_SCALARS)
NET_OFFSETS = {name: EV.offset[name] for name in ("NET_FEAT", "NET_W1", "NET_B1", "NET_W2", "NET_B2")}
NET_FEAT, NET_W1, NET_B1, NET_W2, NET_B2 = NET_OFFSETS.values()
_NET_VIEW = EV.stride("NET_FEAT", 0)
(W_TEMPO, W_BISHOP_PAIR, W_ROOK_OPEN, W_ROOK_HALF, W_DOUBLED, W_ISOLATED, W_SHIELD,
 W_SHIELD2, W_KING_OPEN, W_KATT_RADIUS, W_SUPER_VS_LIGHT, W_DRAWISH, W_NOMATE, W_ASPIRATION,
 W_BATT_NEAR, W_PRES_CHARGED, W_PRES_GUARD, W_RESERVE_PCT, W_GATE_GUARD, W_GATE_THREAT,
 W_RACE_LEAD, W_RACE_MAX, W_REPLY_LOST, W_THREAT_MOVE, W_THREATENED, W_THREATENED2, W_THREAT_GAIN,
 W_THREAT_GAIN2, W_FUTILITY, W_PRUNE_DEPTH, W_LMP_BASE, W_RAZOR, W_DELTA, W_QS_FUTILITY, W_NULL_R,
 W_NULL_DIV, W_SINGULAR_DEPTH, W_SINGULAR_MARGIN) = (
    EV.offset["W_" + name] for name in _WEIGHTS)
(EV_VALUE, EV_PHASE_W, EV_ORTHO, EV_ATTACK_W, EV_CHARGE, EV_CLASS, EV_NOMATE, EV_PASSED_MG,
 EV_PASSED_EG, EV_KATT, EV_MOB_MG, EV_MOB_EG, EV_MOB_NLEAP, EV_MOB_NSLIDE, EV_MOB_LEAP,
 EV_MOB_SLIDE, EV_LMR, EV_PST_MG, EV_PST_EG, EV_DIST) = (
    EV.offset[name] for name in (
        "EV_VALUE", "EV_PHASE_W", "EV_ORTHO", "EV_ATTACK_W", "EV_CHARGE", "EV_CLASS", "EV_NOMATE",
        "EV_PASSED_MG", "EV_PASSED_EG", "EV_KATT", "EV_MOB_MG", "EV_MOB_EG", "EV_MOB_NLEAP",
        "EV_MOB_NSLIDE", "EV_MOB_LEAP", "EV_MOB_SLIDE", "EV_LMR", "EV_PST_MG", "EV_PST_EG",
        "EV_DIST"))
EV_SIZE = EV.size
_PST_CODE = EV.stride("EV_PST_MG", 0)
_DIST_SIDE, _DIST_TYPE = EV.stride("EV_DIST", 0), EV.stride("EV_DIST", 1)
_LMR_DEPTH = EV.stride("EV_LMR", 0)
_MOB_TYPE = EV.stride("EV_MOB_MG", 0)
_MOB_N_SIDE = EV.stride("EV_MOB_NLEAP", 0)
_MOB_ATOM_SIDE, _MOB_ATOM_TYPE = EV.stride("EV_MOB_LEAP", 0), EV.stride("EV_MOB_LEAP", 1)


@kernel
def pst(ev, table, code, sq):
    """Piece-square value (``table`` EV_PST_MG or EV_PST_EG) of cell code ``code`` on ``sq``."""
    return ev[table + _PST_CODE * code + sq]


@kernel
def gate_distance(ev, side, t, sq):
    """Ender's: moves a ``side`` piece of type ``t`` on ``sq`` needs to the enemy gate."""
    return ev[EV_DIST + _DIST_SIDE * side + _DIST_TYPE * t + sq]


@kernel
def lmr(ev, depth, searched):
    """Late-move reduction at ``depth`` for the ``searched``-th move."""
    return ev[EV_LMR + _LMR_DEPTH * min(depth, 63) + min(searched, 63)]


FAR = 99  # distance of an unreachable square


# ------------------------------------------------------------------ building the tables

def _empty_board_reach(G, geo, colour, t, sq):
    """Squares a piece of type ``t`` could go to from ``sq`` on an empty board."""
    reach = set()
    atoms = L.G_LAYOUT.view(G, "ADELTA")[colour, t], L.G_LAYOUT.view(G, "ARANGE")[colour, t]
    for k in range(L.G_LAYOUT.view(G, "ACOUNT")[colour, t]):
        d, rng = int(atoms[0][k]), int(atoms[1][k])
        s, steps = sq + d, 1
        while s in geo.valid_set:
            reach.add(s)
            if rng == 1 or (rng > 1 and steps == rng):
                break
            s += d
            steps += 1
    return reach


def _gate_distances(G, geo, colour, t, target):
    """Moves a piece needs from each cell to ``target`` on an empty board (BFS)."""
    dist = {target: 0}
    frontier = [target]
    # Moves are reversible in these games (all atoms are symmetric), so BFS from the target.
    while frontier:
        nxt = []
        for s in frontier:
            for r in _empty_board_reach(G, geo, colour, t, s):
                if r not in dist:
                    dist[r] = dist[s] + 1
                    nxt.append(r)
        frontier = nxt
    return dist


def _tenths(rr, start, last):
    if rr <= start or last <= start:
        return 0
    return max(0, min(10, round(10 * (rr - start) / (last - start))))


def _safe_mobility_table(ev, t, per_mg, per_eg, centre):
    """Safe-mobility scores of type ``t`` by count: ``per_mg`` / ``per_eg`` per square
    above ``centre`` (a typical count: the term moves little material on average)."""
    for n in range(MOB_COUNTS):
        EV.view(ev, "EV_MOB_MG")[t, n] = round(per_mg * (n - centre))
        EV.view(ev, "EV_MOB_EG")[t, n] = round(per_eg * (n - centre))


def _mobility_atoms(G, ev, t):
    """The atoms safe mobility counts for type ``t``: its plain leaps and unlimited slides
    that both move and capture (every piece of the chess-likes has only those; a lame,
    range-limited, move-only or capture-only atom of a game defined elsewhere is left out)."""
    for colour in (0, 1):
        leaps, slides = [], []
        for k in range(L.G_LAYOUT.view(G, "ACOUNT")[colour, t]):
            d, rng, mode, lame = (int(L.G_LAYOUT.view(G, name)[colour, t, k])
                                  for name in ("ADELTA", "ARANGE", "AMODE", "ALAME"))
            if mode == MOVE | CAPTURE and lame == 0 and rng in (0, 1):
                (leaps if rng == 1 else slides).append(d)
        EV.view(ev, "EV_MOB_NLEAP")[colour, t] = len(leaps)
        EV.view(ev, "EV_MOB_NSLIDE")[colour, t] = len(slides)
        EV.view(ev, "EV_MOB_LEAP")[colour, t, :len(leaps)] = leaps
        EV.view(ev, "EV_MOB_SLIDE")[colour, t, :len(slides)] = slides


@cache
def build_eval(game: Game, network: bool = True) -> np.ndarray:
    """The evaluation table ``ev`` of ``game`` (its weights from search/weights.py), with
    the game's network if it has one (``network`` False: the hand-written evaluation)."""
    ev = eval_table(game, weights(game))
    return with_network(ev, game) if network else ev


def with_network(ev: np.ndarray, game: Game) -> np.ndarray:
    """``ev`` evaluating with ``game``'s network (search/network.py), when the game is a
    chess-like that has one; restamped."""
    net = load_net(game) if game.family == Family.CHESS else None
    if net is not None:
        put_network(ev, game, net)
    return ev


def put_network(ev: np.ndarray, game: Game, net: dict) -> None:
    """Make ``ev`` evaluate with the network ``net`` (float weights; search/network.py).
    A network trained over a base (the tapered material and piece-square sums of the
    hand-written tables, which it corrects) brings those tables along, so that the engine
    adds the very base it learned over even after the hand-written weights are retuned."""
    put_net(ev, game, net, NET_OFFSETS)
    ev[EV_NET] = 1
    ev[EV_NET_BASE] = "pst_mg" in net
    if ev[EV_NET_BASE]:
        EV.view(ev, "EV_PST_MG")[:] = net["pst_mg"]
        EV.view(ev, "EV_PST_EG")[:] = net["pst_eg"]
        EV.view(ev, "EV_PHASE_W")[:] = net["phase_w"]
        ev[EV_MAXPHASE] = int(net["maxphase"])
    stamp_eval(ev)


@lru_cache(maxsize=32)
def changed_eval(game: Game, changes: tuple) -> np.ndarray:
    """``build_eval(game)`` with some of its weights or search settings changed:
    ``changes``, sorted (name, value) pairs of ``weights.parse_changes`` (the ``Tune``
    option); cached, as a tuning run sets a few values again and again."""
    if not changes:
        return build_eval(game)
    return with_network(eval_table(game, merge(weights(game), dict(changes))), game)


def eval_table(game: Game, w: dict) -> np.ndarray:
    """The hand-written evaluation's table of ``game`` with the weights ``w`` (the tuner
    tries many; ``with_network`` adds a network)."""
    tables = build_tables(game)
    geo = geometry(game)
    G = tables.G
    ev = np.zeros(EV_SIZE, np.int64)
    fam = game.family
    ev[EV_FAMILY] = fam
    W, H = game.files, game.ranks
    pawn = king = bishop = knight = battery = 0
    for t, p in enumerate(game.pieces, start=1):
        if p.pawn:
            pawn = t
        if p.royal:
            king = t
        if fam == Family.CHESS and p.letter == "B":
            bishop = t
        if fam == Family.CHESS and p.letter == "N":
            knight = t
        if fam == Family.BATTERIES and p.letter == "B":
            battery = t
    ev[EV_PAWN], ev[EV_KING], ev[EV_BISHOP], ev[EV_KNIGHT], ev[EV_BATTERY] = pawn, king, bishop, knight, battery
    ev[EV_ROOK_VALUE] = 400
    for idx, key in ((W_TEMPO, "tempo"), (W_BISHOP_PAIR, "bishop_pair"),
                     (W_ROOK_OPEN, "rook_open_file"), (W_ROOK_HALF, "rook_half_open_file"),
                     (W_DOUBLED, "pawn_doubled"), (W_ISOLATED, "pawn_isolated"),
                     (W_SHIELD, "king_shield"), (W_SHIELD2, "king_shield2"),
                     (W_KING_OPEN, "king_open_file"), (W_KATT_RADIUS, "king_attack_radius"),
                     (W_SUPER_VS_LIGHT, "super_piece_vs_light"), (W_DRAWISH, "drawish_scale"),
                     (W_NOMATE, "no_mate_scale"), (W_ASPIRATION, "aspiration"),
                     (W_THREAT_MOVE, "threat_to_move"), (W_THREATENED, "threatened"),
                     (W_THREATENED2, "threatened_twice"), (W_THREAT_GAIN, "threat_gain_pct"),
                     (W_THREAT_GAIN2, "threat_gain2_pct"), (W_FUTILITY, "futility_margin"),
                     (W_PRUNE_DEPTH, "prune_depth"), (W_LMP_BASE, "lmp_base"),
                     (W_RAZOR, "razor_margin"), (W_DELTA, "delta_margin"),
                     (W_QS_FUTILITY, "qs_futility"), (W_NULL_R, "null_reduction"),
                     (W_NULL_DIV, "null_depth_div"), (W_SINGULAR_DEPTH, "singular_depth"),
                     (W_SINGULAR_MARGIN, "singular_margin")):
        ev[idx] = w[key]
    if fam == Family.BATTERIES:
        ev[W_BATT_NEAR] = w["battery_near_enemy_president"]
        ev[W_PRES_CHARGED] = w["president_attack_charged"]
        ev[W_PRES_GUARD] = w["president_guard"]
    if fam == Family.ENDERS:
        ev[W_RESERVE_PCT] = w["reserve_pct"]
        ev[W_GATE_GUARD] = w["gate_guard"]
        ev[W_GATE_THREAT] = w["gate_threat"]
        ev[W_RACE_LEAD] = w["race_lead"]
        ev[W_RACE_MAX] = w["race_max"]
        ev[W_REPLY_LOST] = w["reply_lost"]

    # per-type tables
    eg_scale = w["eg_scale"]
    for t, p in enumerate(game.pieces, start=1):
        v = p.value
        ev[EV_VALUE + t] = v
        plain = not p.pawn and not p.royal
        if plain and fam != Family.ENDERS:
            ev[EV_PHASE_W + t] = 0 if v < 200 else 1 if v <= 400 else 2 if v <= 600 else 4
        deltas, ranges = L.G_LAYOUT.view(G, "ADELTA")[0, t], L.G_LAYOUT.view(G, "ARANGE")[0, t]
        rook_like = any(int(deltas[k]) in (1, -1, geo.stride, -geo.stride) and ranges[k] == 0
                        for k in range(L.G_LAYOUT.view(G, "ACOUNT")[0, t]))
        ev[EV_ORTHO + t] = int(plain and rook_like and fam == Family.CHESS)
        if plain:
            ev[EV_ATTACK_W + t] = (w["king_attack_super"] if v >= 800 else
                                   w["king_attack_rook"] if v >= 450 else w["king_attack_minor"])
            ev[EV_CLASS + t] = 1 if v >= 800 else 2 if v <= 500 else 0
            ev[EV_NOMATE + t] = int(v <= 350 and fam == Family.CHESS)
        if plain and fam == Family.CHESS:
            _safe_mobility_table(ev, t, w["safe_mobility_mg"].get(p.letter, 0),
                                 w["safe_mobility_eg"].get(p.letter, 0),
                                 w["safe_mobility_centre"].get(p.letter, 0))
            _mobility_atoms(G, ev, t)
        if fam == Family.BATTERIES:
            ev[EV_CHARGE + t] = w["charge"].get(p.letter, 0)
            if p.letter in w["president_attack_weight"]:
                ev[EV_ATTACK_W + t] = w["president_attack_weight"][p.letter]
    start_rr = game.pawn_double_rank - 1
    for rr in range(min(H, 16)):
        k = _tenths(rr, start_rr, H - 1)
        ev[EV_PASSED_MG + rr] = w["passed_mg"][k]
        ev[EV_PASSED_EG + rr] = w["passed_eg"][k]
    table = w["king_attack_table"]
    for u in range(32):
        ev[EV_KATT + u] = table[min(u, len(table) - 1)]
    for d in range(1, 64):
        for m in range(1, 64):
            EV.view(ev, "EV_LMR")[d, m] = int(w["lmr_base"] / 100 + math.log(d) * math.log(m)
                                              / (w["lmr_divisor"] / 100))

    # piece-square tables (White's view; Black's are mirrored and negated)
    def centrality(sq):
        f, r = geo.file_rank(sq)
        return ((W - 1) + (H - 1) - abs(2 * f - (W - 1)) - abs(2 * r - (H - 1))) / 2

    cells = geo.valid
    mean_cen = sum(centrality(s) for s in cells) / len(cells)
    gate_b = geo.parse(game.gates[1]) if game.gates else 0
    gate_w = geo.parse(game.gates[0]) if game.gates else 0
    progress = w.get("gate_progress", [0] * 16)
    for t, p in enumerate(game.pieces, start=1):
        v = p.value
        # material in the piece-square tables: the rule value unless the weights say
        # otherwise (ordering, SEE and pruning margins keep the rule value, EV_VALUE)
        mat_mg = w["material_mg"].get(p.letter, v)
        mat_eg = w["material_eg"].get(p.letter, v * eg_scale.get(p.letter, 100) // 100)
        mob = {s: len(_empty_board_reach(G, geo, 0, t, s)) for s in cells}
        mean_mob = sum(mob.values()) / len(cells)
        if fam == Family.ENDERS:
            for colour, target in ((0, gate_b), (1, gate_w)):
                dist = _gate_distances(G, geo, colour, t, target)
                for s in cells:
                    EV.view(ev, "EV_DIST")[colour, t, s] = dist.get(s, FAR)
        for s in cells:
            f, rr = geo.file_rank(s)
            cen = centrality(s) - mean_cen
            if fam == Family.ENDERS:
                d = int(EV.view(ev, "EV_DIST")[0, t, s])
                mg = eg = mat_mg + (progress[d] if d < len(progress) else 0)
            elif p.pawn:
                k = _tenths(rr, start_rr, H - 1)
                mg = mat_mg + w["pawn_advance_mg"][k]
                eg = mat_eg + w["pawn_advance_eg"][k]
                centre_files = {(W - 1) // 2, W // 2}
                if 2 <= rr <= H - 3:
                    if f in centre_files:
                        mg += w["pawn_centre_mg"]
                    elif f - 1 in centre_files or f + 1 in centre_files:
                        mg += w["pawn_centre_mg"] // 2
            elif p.royal:
                mg = -w["king_back_rank_mg"] * min(rr, 4)
                if rr == 0:
                    mg += w["king_file_edge_mg"] * (abs(2 * f - (W - 1)) // 2)
                eg = round(w["king_centre_eg"] * cen)
            else:
                mg = mat_mg + round(w["mobility_sq_mg"] * (mob[s] - mean_mob) + w["centre_mg"] * cen)
                eg = mat_eg + round(w["mobility_sq_eg"] * (mob[s] - mean_mob) + w["centre_eg"] * cen)
                if fam == Family.BATTERIES and t == battery:
                    mg += round(w["battery_centre"] * cen)
            edge = min(f, W - 1 - f)
            mg += w["pst_mg"][p.letter][rr][edge] if p.letter in w["pst_mg"] else 0
            eg += w["pst_eg"][p.letter][rr][edge] if p.letter in w["pst_eg"] else 0
            mirror = geo.index(f, H - 1 - rr)
            EV.view(ev, "EV_PST_MG")[t, s] = mg
            EV.view(ev, "EV_PST_EG")[t, s] = eg
            EV.view(ev, "EV_PST_MG")[L.BLACK_BIT + t, mirror] = -mg
            EV.view(ev, "EV_PST_EG")[L.BLACK_BIT + t, mirror] = -eg

    # game phase of the start position (the taper's full middlegame)
    maxphase = 0
    board = np.zeros(geo.nsq, np.int8)
    from movegen.fen import parse_fen
    board, _, _ = parse_fen(game, tables, game.start_fen)
    for s in cells:
        c = int(board[s])
        if c:
            maxphase += ev[EV_PHASE_W + (c & 15)]
    ev[EV_MAXPHASE] = max(1, maxphase)
    stamp_eval(ev)
    return ev


def stamp_eval(ev: np.ndarray) -> None:
    """Set ``ev``'s stamp from its contents. The incremental sums cached in a search state
    are keyed to it, so a table edited in place (a tuner) must be stamped again before
    the next ``evaluate``, or sums of the old table could be reused."""
    ev[EV_STAMP] = 0
    digest = hashlib.blake2b(ev.tobytes(), digest_size=8).digest()
    ev[EV_STAMP] = int.from_bytes(digest, "little") >> 2


# ------------------------------------------------------------------ incremental sums
# The material + piece-square sums (middlegame, endgame) and the game phase of a position
# change by a few table entries per move. The search keeps them per ply in its state:
# row st[S_PLY] of ss[PSQ] holds the sums of the position at that ply and a key (its
# hash xor the table's stamp) saying which position they belong to. When the search
# evaluates a node (``evaluate_node``) whose parent's row is known, the node's row is
# the parent's plus the change of the move, read from the record make leaves on the
# undo stack; otherwise (the root's children, a position set up outside the search) it
# is computed from the board. A node in check is not evaluated, but the search asks for
# its row (``psq_node``) so that its children's follow from it. Computed only where an
# evaluation needs it, not in every make: the search makes about three moves per node
# (many only to see whether they give check). Movegen is untouched (perft pays nothing)
# and knows nothing of it; unmake has nothing to undo, the parent's row is still there.

@kernel
def _psq_row(ply):
    return PSQ + PSQ_ROW * ply


@kernel
def _psq_key(st, ev):
    return st[L.S_HASH] ^ ev[EV_STAMP]


@kernel
def _psq_of(ev, code, sq):
    """Middlegame and endgame piece-square values and phase weight of ``code`` on ``sq``."""
    return (pst(ev, EV_PST_MG, code, sq), pst(ev, EV_PST_EG, code, sq),
            ev[EV_PHASE_W + (code & L.TYPE_MASK)])


@kernel
def _black_phase(code, c):
    """A piece's phase weight ``c`` when it is Black's, else 0."""
    return c if code & L.BLACK_BIT else 0


@kernel
def _acc_row(ply):
    return NET_ACC + ACC_ROW * ply


@inline_kernel
def _acc_change(ev, ss, acc, code, sq, sign):
    """Add (``sign`` 1) or remove (-1) the first-layer rows of ``code`` on ``sq``, both views."""
    for view in range(2):
        w = NET_W1 + NET_H * ev[NET_FEAT + _NET_VIEW * view + NSQ * code + sq]
        a = acc + NET_H * view
        for j in range(NET_H):
            ss[a + j] += sign * ev[w + j]


@kernel
def _acc_from_scratch(G, board, ev, ss, acc):
    for j in range(2 * NET_H):
        ss[acc + j] = ev[NET_B1 + j % NET_H]
    for i in range(G[L.GI_NCELLS]):
        sq = G[L.SQUARES + i]
        p = np.int64(board[sq])
        if p != 0:
            _acc_change(ev, ss, acc, p, sq, 1)


@kernel
def net_score(ev, ss, acc, side):
    """The network's evaluation (centipawns, the side to move ``side``'s view) of the hidden
    sums at ``acc``: the side to move's clipped units, then the other side's."""
    us, them = acc + NET_H * side, acc + NET_H * (1 - side)
    total = 0
    for j in range(NET_H):
        total += (min(max(ss[us + j], 0), QA) * ev[NET_W2 + j]
                  + min(max(ss[them + j], 0), QA) * ev[NET_W2 + NET_H + j])
    return total // (QA * QB) + ev[NET_B2]


@kernel
def psq_from_scratch(G, board, st, ev, ss):
    """Compute the sums of the position on the board into its row; returns the row."""
    row = _psq_row(st[L.S_PLY])
    mg = eg = phase = phase_b = 0
    for i in range(G[L.GI_NCELLS]):
        sq = G[L.SQUARES + i]
        p = np.int64(board[sq])
        if p != 0:
            a, b, c = _psq_of(ev, p, sq)
            mg, eg, phase, phase_b = mg + a, eg + b, phase + c, phase_b + _black_phase(p, c)
    ss[row + PSQ_MG] = mg
    ss[row + PSQ_EG] = eg
    ss[row + PSQ_PHASE] = phase
    ss[row + PSQ_PHASE_B] = phase_b
    ss[row + PSQ_KEY] = _psq_key(st, ev)
    if ev[EV_NET]:
        _acc_from_scratch(G, board, ev, ss, _acc_row(st[L.S_PLY]))
    return row


@inline_kernel
def _psq_from_parent(G, board, st, undo, ev, ss, row):
    """The row of the position on the board from its parent's row (one ply up, known)
    and the record of the move between them (the move, the piece it took, the mover).
    Summed in locals and stored once: stores to ss would each be a memory round trip.
    Inlined (with ``psq_node``) into its callers: as calls, they cost Ender's evaluation
    (a few pieces on the board) more than the board scan they spare."""
    parent = row - PSQ_ROW
    ply = st[L.S_PLY] - 1
    mg, eg, phase = ss[parent + PSQ_MG], ss[parent + PSQ_EG], ss[parent + PSQ_PHASE]
    phase_b = ss[parent + PSQ_PHASE_B]
    net = ev[EV_NET] != 0
    acc = _acc_row(ply + 1)
    if net:
        for j in range(2 * NET_H):
            ss[acc + j] = ss[acc - ACC_ROW + j]
    m = undo[ply, L.U_MOVE]
    flag = m_flag(m)
    to = m_to(m)
    if flag == L.F_DROP:
        p = np.int64(board[to])
        a, b, c = _psq_of(ev, p, to)
        mg, eg, phase, phase_b = mg + a, eg + b, phase + c, phase_b + _black_phase(p, c)
        if net:
            _acc_change(ev, ss, acc, p, to, 1)
    elif flag == L.F_CASTLE:
        fr, rook_sq = m_from(m), m_extra(m)
        rdest = castle_rook_target(fr, to, rook_sq)
        king, rook = np.int64(board[to]), np.int64(board[rdest])
        a, b, _ = _psq_of(ev, king, to)
        a0, b0, _ = _psq_of(ev, king, fr)
        a1, b1, _ = _psq_of(ev, rook, rdest)
        a2, b2, _ = _psq_of(ev, rook, rook_sq)
        mg += a - a0 + a1 - a2
        eg += b - b0 + b1 - b2
        if net:
            _acc_change(ev, ss, acc, king, fr, -1)
            _acc_change(ev, ss, acc, rook, rook_sq, -1)
            _acc_change(ev, ss, acc, king, to, 1)
            _acc_change(ev, ss, acc, rook, rdest, 1)
    elif flag != L.F_NULL and flag != L.F_END:  # a move of one piece, maybe capturing
        fr = m_from(m)
        now = np.int64(board[to])
        before = now
        if m_promo(m) != 0:  # only a pawn (Soldier) promotes
            before = G[L.GI_PAWN] + L.BLACK_BIT * undo[ply, L.S_SIDE]
        a, b, c = _psq_of(ev, now, to)
        a0, b0, c0 = _psq_of(ev, before, fr)
        mg, eg, phase = mg + a - a0, eg + b - b0, phase + c - c0
        phase_b += _black_phase(now, c) - _black_phase(before, c0)
        if net:
            _acc_change(ev, ss, acc, before, fr, -1)
            _acc_change(ev, ss, acc, now, to, 1)
        cap = undo[ply, L.U_CAP]
        if cap != 0:
            capsq = m_extra(m) if flag == L.F_EP or flag == L.F_OVERTAKE else to
            a, b, c = _psq_of(ev, cap, capsq)
            mg, eg, phase, phase_b = mg - a, eg - b, phase - c, phase_b - _black_phase(cap, c)
            if net:
                _acc_change(ev, ss, acc, cap, capsq, -1)
    ss[row + PSQ_MG] = mg
    ss[row + PSQ_EG] = eg
    ss[row + PSQ_PHASE] = phase
    ss[row + PSQ_PHASE_B] = phase_b
    ss[row + PSQ_KEY] = _psq_key(st, ev)


@kernel
def psq_sums(G, board, st, ev, ss):
    """The row of ss holding the sums of the current position (computed if not known)."""
    row = _psq_row(st[L.S_PLY])
    if ss[row + PSQ_KEY] != _psq_key(st, ev):
        row = psq_from_scratch(G, board, st, ev, ss)
    return row


@inline_kernel
def psq_node(G, board, st, undo, ev, ss):
    """``psq_sums`` in a search: from the parent's row when that one is known."""
    ply = st[L.S_PLY]
    row = _psq_row(ply)
    if ss[row + PSQ_KEY] == _psq_key(st, ev):
        return row
    if ply > 0 and ss[row - PSQ_ROW + PSQ_KEY] == undo[ply - 1, L.S_HASH] ^ ev[EV_STAMP]:
        _psq_from_parent(G, board, st, undo, ev, ss, row)
        return row
    return psq_from_scratch(G, board, st, ev, ss)


# ------------------------------------------------------------------ numba evaluation

@kernel
def _cheb(G, a, b):
    return max(abs(G[L.SQ_FILE + a] - G[L.SQ_FILE + b]), abs(G[L.SQ_RANK + a] - G[L.SQ_RANK + b]))


@kernel
def _taper(ev, mg, eg, phase):
    maxp = ev[EV_MAXPHASE]
    phase = min(phase, maxp)
    return (mg * phase + eg * (maxp - phase)) // maxp


@kernel
def _king_shelter(G, board, ev, k, colour, pawn_code):
    """Middlegame bonus for own pawns in front of the king, penalty for an open king file."""
    stride = G[L.GI_STRIDE]
    fwd = stride if colour == 0 else -stride
    s = 0
    has_file_pawn = False
    for df in (-1, 0, 1):
        if board[k + fwd + df] == pawn_code:
            s += ev[W_SHIELD]
            if df == 0:
                has_file_pawn = True
        elif board[k + 2 * fwd + df] == pawn_code:
            s += ev[W_SHIELD2]
            if df == 0:
                has_file_pawn = True
    if not has_file_pawn:
        s += ev[W_KING_OPEN]
    return s


@kernel
def _drawish(ev, ss, score, npm0, npm1):
    """Scale a score towards 0 when the side ahead cannot (easily) force mate."""
    pawn = ev[EV_PAWN]
    strong = 0 if score > 0 else 1
    base = SCRATCH + SC_COUNT
    if ss[base + SC_SIDE * strong + pawn] > 0:
        return score
    npm_s = npm0 if strong == 0 else npm1
    npm_w = npm1 if strong == 0 else npm0
    # the strong side's pieces: a single piece that cannot mate, or exactly two knights
    pieces = 0
    nomate = 0
    knights = 0
    for t in range(1, 16):
        n = ss[base + SC_SIDE * strong + t]
        if t != pawn and t != ev[EV_KING] and n > 0:
            pieces += n
            if ev[EV_NOMATE + t]:
                nomate += n
            if t == ev[EV_KNIGHT]:
                knights += n
    if pieces == 0 or (pieces == 1 and nomate == 1) or (pieces == 2 and knights == 2):
        return score // ev[W_NOMATE]
    if npm_s - npm_w < ev[EV_ROOK_VALUE]:
        return score // ev[W_DRAWISH]
    return score


@kernel
def _note_threat(ev, ss, by, victim_t, attacker_t):
    """Colour ``by`` attacks an enemy piece of type ``victim_t`` with one of type
    ``attacker_t``: a threat if the victim is worth more (ss's SC_THREAT row of ``by``).
    Never the king: its value is 0 in every chess-like game."""
    gain = ev[EV_VALUE + victim_t] - ev[EV_VALUE + attacker_t]
    if gain > 0:
        k = SCRATCH + SC_THREAT + SC_THREAT_SIDE * by
        ss[k] += 1
        if gain > ss[k + 1]:
            ss[k + 2] = ss[k + 1]
            ss[k + 1] = gain
        elif gain > ss[k + 2]:
            ss[k + 2] = gain


@inline_kernel
def safe_mobility(ev, board, ss, s, t, c, number):
    """Squares the piece of type ``t`` and colour ``c`` on ``s`` moves to or captures on
    (its leaps and slides) that no enemy pawn attacks (the enemy's squares of ss's
    SC_PAWN_ATT marked with this evaluation's ``number``). Own pieces block and are not
    counted. Branch-free where it can be: whether a square counts is a coin toss. The
    enemy pieces it attacks go to ``_note_threat``."""
    watched = SCRATCH + SC_PAWN_ATT + SC_PAWN_ATT_SIDE * (1 - c)
    enemy = L.BLACK_BIT * (1 - c)  # an enemy piece's code less this is its type, 1..15
    atoms = _MOB_ATOM_SIDE * c + _MOB_ATOM_TYPE * t
    n = 0
    for k in range(ev[EV_MOB_NLEAP + _MOB_N_SIDE * c + t]):
        to = s + ev[EV_MOB_LEAP + atoms + k]
        q = np.int64(board[to])
        e = q - enemy
        hit = (e > 0) & (e <= L.TYPE_MASK)
        n += ((q == L.EMPTY) | hit) & (ss[watched + to] != number)
        if hit:
            _note_threat(ev, ss, c, e, t)
    for k in range(ev[EV_MOB_NSLIDE + _MOB_N_SIDE * c + t]):
        d = ev[EV_MOB_SLIDE + atoms + k]
        to = s + d
        while board[to] == L.EMPTY:
            n += ss[watched + to] != number
            to += d
        e = np.int64(board[to]) - enemy
        if (e > 0) & (e <= L.TYPE_MASK):
            n += ss[watched + to] != number
            _note_threat(ev, ss, c, e, t)
    return n


PAWN_FILE_SIDE = 16  # PAWN_FILES: bit f for a white pawn on file f, bit 16 + f for a black one


@kernel
def _pawn_files(G, board, ss, nlist):
    """File tables of the pawns at SC_LIST[:nlist]: per colour and file, their number and
    lowest and highest rank (99 and -1 on a file without them). Returns the files that
    hold pawns, as PAWN_FILES bits."""
    base = SCRATCH
    for c in range(2):
        for f in range(G[L.GI_W]):
            ss[base + SC_FILE_CNT + SC_SIDE * c + f] = 0
            ss[base + SC_FILE_LO + SC_SIDE * c + f] = 99
            ss[base + SC_FILE_HI + SC_SIDE * c + f] = -1
    bits = 0
    for i in range(nlist):
        sq = ss[base + SC_LIST + i]
        c = np.int64(board[sq]) >> 4
        f = G[L.SQ_FILE + sq]
        r = G[L.SQ_RANK + sq]
        k = base + SC_SIDE * c + f
        ss[k + SC_FILE_CNT] += 1
        ss[k + SC_FILE_LO] = min(ss[k + SC_FILE_LO], r)
        ss[k + SC_FILE_HI] = max(ss[k + SC_FILE_HI], r)
        bits |= 1 << (PAWN_FILE_SIDE * c + f)
    return bits


@kernel
def _pawn_structure(G, board, ev, ss, nlist):
    """Doubled, isolated and passed pawns among those at SC_LIST[:nlist] (their file
    tables made by ``_pawn_files``): (middlegame, endgame), White's view."""
    base = SCRATCH
    files = G[L.GI_W]
    mg = 0
    eg = 0
    for i in range(nlist):
        sq = ss[base + SC_LIST + i]
        p = np.int64(board[sq])
        c = p >> 4
        f = G[L.SQ_FILE + sq]
        r = G[L.SQ_RANK + sq]
        sign = 1 if c == 0 else -1
        own = base + SC_SIDE * c
        opp = base + SC_SIDE * (1 - c)
        if ss[own + SC_FILE_CNT + f] > 1:
            mg += sign * ev[W_DOUBLED]
            eg += sign * ev[W_DOUBLED]
        left = ss[own + SC_FILE_CNT + f - 1] if f > 0 else 0
        right = ss[own + SC_FILE_CNT + f + 1] if f + 1 < files else 0
        if left == 0 and right == 0:
            mg += sign * ev[W_ISOLATED]
            eg += sign * ev[W_ISOLATED]
        passed = True
        for ff in range(max(0, f - 1), min(files, f + 2)):
            if c == 0:
                if ss[opp + SC_FILE_HI + ff] > r:
                    passed = False
            elif ss[opp + SC_FILE_LO + ff] < r:
                passed = False
        if passed:
            rr = r if c == 0 else G[L.GI_H] - 1 - r
            mg += sign * ev[EV_PASSED_MG + rr]
            eg += sign * ev[EV_PASSED_EG + rr]
    return mg, eg


@kernel
def _pawn_row(G, board, ss, ev, pawn_key, nlist):
    """The row of ss's pawn-structure cache for the pawns at SC_LIST[:nlist], whose
    Zobrist keys xor to ``pawn_key``; filled first if it holds other pawns. Pawns move
    seldom in a search, so most evaluations find their structure there. The key holds
    the evaluation table's stamp: a row of another game's (or edited) table never matches."""
    key = pawn_key ^ ev[EV_STAMP]
    row = PAWN_CACHE + PAWN_ROW * (key & (PAWN_ENTRIES - 1))
    if ss[row + PAWN_KEY] != key:
        bits = _pawn_files(G, board, ss, nlist)
        mg, eg = _pawn_structure(G, board, ev, ss, nlist)
        ss[row + PAWN_KEY] = key
        ss[row + PAWN_MG] = mg
        ss[row + PAWN_EG] = eg
        ss[row + PAWN_FILES] = bits
    return row


@kernel
def _count_piece(board, ss, sq):
    """The piece on ``sq``, counted in the scan's SC_COUNT: its cell code, type and colour."""
    p = np.int64(board[sq])
    ss[SCRATCH + SC_COUNT + p] += 1
    return p, p & L.TYPE_MASK, p >> 4


@kernel
def eval_chess(G, board, st, ev, ss, mg, eg, phase):
    """``mg``, ``eg``, ``phase``: the position's piece-square sums and phase (psq_sums)."""
    base = SCRATCH
    for i in range(32):
        ss[base + SC_COUNT + i] = 0
    for i in range(2 * SC_THREAT_SIDE):
        ss[base + SC_THREAT + i] = 0
    pawn = ev[EV_PAWN]
    king = ev[EV_KING]
    kings = (st[L.S_KING], st[L.S_KING + 1])
    number = ss[base + SC_EVAL_NUMBER] + 1  # marks this evaluation's pawn attacks
    ss[base + SC_EVAL_NUMBER] = number
    npieces = 0
    radius = ev[W_KATT_RADIUS]
    npm0 = 0
    npm1 = 0
    att0 = 0  # attack units against White's king
    att1 = 0
    nlist = 0  # pawns from the front of SC_LIST, rook-like pieces from the back
    nrooks = 0
    pawn_key = 0  # the pawns' placement (their Zobrist keys), for the pawn-structure cache
    sup0 = sup1 = light0 = light1 = 0  # super and light pieces per colour (EV_CLASS)
    for i in range(occupied_words(G)):
        bits = st[L.S_OCC + i] | st[L.S_OCC + 2 + i]  # either colour's, lowest cell first
        while bits != 0:
            sq, bits = pop_square(G, bits, i)
            p, t, c = _count_piece(board, ss, sq)
            if t == pawn:
                pawn_key ^= zobrist(G, p, sq)
                if nlist < SC_LIST_MAX // 2:
                    ss[base + SC_LIST + nlist] = sq
                    nlist += 1
                ahead = base + SC_PAWN_ATT + SC_PAWN_ATT_SIDE * c + sq + G[L.PAWN_DIR + c]
                ss[ahead - 1] = number
                ss[ahead + 1] = number
                continue
            cl = ev[EV_CLASS + t]
            if c == 0:
                npm0 += ev[EV_VALUE + t]
                sup0 += cl == 1
                light0 += cl == 2
            else:
                npm1 += ev[EV_VALUE + t]
                sup1 += cl == 1
                light1 += cl == 2
            if t != king and npieces < SC_LIST_MAX:
                ss[base + SC_PIECES + npieces] = sq
                npieces += 1
            if ev[EV_ORTHO + t] and nrooks < SC_LIST_MAX // 2:
                ss[base + SC_LIST + SC_LIST_MAX - 1 - nrooks] = sq
                nrooks += 1
            aw = ev[EV_ATTACK_W + t]
            if aw != 0 and _cheb(G, sq, kings[1 - c]) <= radius:
                if c == 0:
                    att1 += aw
                else:
                    att0 += aw

    # safe mobility (the pawns' attacks are all marked now)
    for i in range(npieces):
        sq = ss[base + SC_PIECES + i]
        p = np.int64(board[sq])
        t = p & L.TYPE_MASK
        c = p >> 4
        k = _MOB_TYPE * t + min(safe_mobility(ev, board, ss, sq, t, c, number), MOB_COUNTS - 1)
        if ss[base + SC_PAWN_ATT + SC_PAWN_ATT_SIDE * (1 - c) + sq] == number:
            _note_threat(ev, ss, 1 - c, t, pawn)
        if c == 0:
            mg += ev[EV_MOB_MG + k]
            eg += ev[EV_MOB_EG + k]
        else:
            mg -= ev[EV_MOB_MG + k]
            eg -= ev[EV_MOB_EG + k]

    # pawn structure, from the cache when these pawns have been seen before
    row = _pawn_row(G, board, ss, ev, pawn_key, nlist)
    mg += ss[row + PAWN_MG]
    eg += ss[row + PAWN_EG]
    pawn_files = ss[row + PAWN_FILES]

    # rook-like pieces on open files
    for i in range(nrooks):
        sq = ss[base + SC_LIST + SC_LIST_MAX - 1 - i]
        c = np.int64(board[sq]) >> 4
        f = G[L.SQ_FILE + sq]
        if (pawn_files >> (PAWN_FILE_SIDE * c + f)) & 1 == 0:
            sign = 1 if c == 0 else -1
            if (pawn_files >> (PAWN_FILE_SIDE * (1 - c) + f)) & 1 == 0:
                mg += sign * ev[W_ROOK_OPEN]
                eg += sign * ev[W_ROOK_OPEN] // 2
            else:
                mg += sign * ev[W_ROOK_HALF]

    # king safety (middlegame)
    if pawn != 0:
        mg += _king_shelter(G, board, ev, kings[0], 0, pawn)
        mg -= _king_shelter(G, board, ev, kings[1], 1, pawn + 16)
    mg -= ev[EV_KATT + min(att0, 31)]
    mg += ev[EV_KATT + min(att1, 31)]

    # piece-set terms
    cnt = base + SC_COUNT
    b = ev[EV_BISHOP]
    if b != 0:
        if ss[cnt + b] >= 2:
            mg += ev[W_BISHOP_PAIR]
            eg += ev[W_BISHOP_PAIR]
        if ss[cnt + 16 + b] >= 2:
            mg -= ev[W_BISHOP_PAIR]
            eg -= ev[W_BISHOP_PAIR]
    svl = ev[W_SUPER_VS_LIGHT]
    if svl != 0:
        d = svl * (sup1 * light0 - sup0 * light1)
        mg += d
        eg += d

    ss[base + SC_NPM] = npm0
    ss[base + SC_NPM + 1] = npm1
    ss[base + SC_PAWNS] = ss[cnt + pawn] if pawn != 0 else 0
    ss[base + SC_PAWNS + 1] = ss[cnt + 16 + pawn] if pawn != 0 else 0
    score = _taper(ev, mg, eg, phase)
    if score != 0:
        score = _drawish(ev, ss, score, npm0, npm1)
    if st[L.S_SIDE] == 1:
        score = -score
    return score + ev[W_TEMPO] + _threats(ev, ss, st[L.S_SIDE])


@kernel
def _threats(ev, ss, side):
    """The threats term, for the side to move: it may take a piece worth more than its
    attacker (a quiet position's static score misses that), while the opponent's threats
    cost it, the more so when it cannot answer two (gains counted up to THREAT_GAIN_CAP).
    Threats are counted per attacker: a piece attacked by two cheaper ones is two."""
    mine = SCRATCH + SC_THREAT + SC_THREAT_SIDE * side
    theirs = SCRATCH + SC_THREAT + SC_THREAT_SIDE * (1 - side)
    score = ev[W_THREAT_MOVE] if ss[mine] > 0 else 0
    if ss[theirs] > 0:
        score -= ev[W_THREATENED] + min(ss[theirs + 1], THREAT_GAIN_CAP) * ev[W_THREAT_GAIN] // 100
    if ss[theirs] > 1:
        score -= ev[W_THREATENED2] + min(ss[theirs + 2], THREAT_GAIN_CAP) * ev[W_THREAT_GAIN2] // 100
    return score


@kernel
def eval_batteries(G, board, st, ev, ss, mg, eg, phase):
    base = SCRATCH
    for i in range(32):
        ss[base + SC_COUNT + i] = 0
    ss[base + SC_NBATT] = 0
    ss[base + SC_NBATT + 1] = 0
    battery = ev[EV_BATTERY]
    king = ev[EV_KING]
    pawn = ev[EV_PAWN]
    npm0 = 0
    npm1 = 0
    nlist = 0
    for i in range(occupied_words(G)):
        bits = st[L.S_OCC + i] | st[L.S_OCC + 2 + i]
        while bits != 0:
            sq, bits = pop_square(G, bits, i)
            p, t, c = _count_piece(board, ss, sq)
            if t == battery:
                nb = ss[base + SC_NBATT + c]
                if nb < 8:
                    ss[base + SC_BATT + 8 * c + nb] = sq
                    ss[base + SC_NBATT + c] = nb + 1
            elif t != king:
                if t != pawn:
                    if c == 0:
                        npm0 += ev[EV_VALUE + t]
                    else:
                        npm1 += ev[EV_VALUE + t]
                if nlist < SC_LIST_MAX:
                    ss[base + SC_LIST + nlist] = sq
                    nlist += 1
    pres = (st[L.S_KING], st[L.S_KING + 1])
    stride = G[L.GI_STRIDE]
    # Batteries: charge of the pieces around them, closeness to the enemy President
    for c in range(2):
        sign = 1 if c == 0 else -1
        for j in range(ss[base + SC_NBATT + c]):
            b = ss[base + SC_BATT + 8 * c + j]
            for d in (1, -1, stride, -stride, stride + 1, stride - 1, -stride + 1, -stride - 1):
                q = np.int64(board[b + d])
                if q != 0 and q != L.OFF and (q >> 4) == c:
                    mg += sign * ev[EV_CHARGE + (q & 15)]
                    eg += sign * ev[EV_CHARGE + (q & 15)]
            near = 7 - _cheb(G, b, pres[1 - c])
            if near > 0:
                mg += sign * near * ev[W_BATT_NEAR]
    # President safety: enemy pieces near it (charged ones count more), own guards
    att0 = 0
    att1 = 0
    for i in range(nlist):
        sq = ss[base + SC_LIST + i]
        p = np.int64(board[sq])
        t = p & 15
        c = p >> 4
        dist = _cheb(G, sq, pres[1 - c])
        if dist <= 2:
            units = ev[EV_ATTACK_W + t]
            for j in range(ss[base + SC_NBATT + c]):
                if _cheb(G, sq, ss[base + SC_BATT + 8 * c + j]) == 1:
                    units *= ev[W_PRES_CHARGED]
                    break
            if c == 0:
                att1 += units
            else:
                att0 += units
        if _cheb(G, sq, pres[c]) == 1:
            g = ev[W_PRES_GUARD]
            mg += g if c == 0 else -g
    mg -= ev[EV_KATT + min(att0, 31)]
    mg += ev[EV_KATT + min(att1, 31)]
    eg -= ev[EV_KATT + min(att0, 31)] // 2
    eg += ev[EV_KATT + min(att1, 31)] // 2
    ss[base + SC_NPM] = npm0
    ss[base + SC_NPM + 1] = npm1
    ss[base + SC_PAWNS] = ss[base + SC_COUNT + pawn]
    ss[base + SC_PAWNS + 1] = ss[base + SC_COUNT + 16 + pawn]
    score = _taper(ev, mg, eg, phase)
    # a side without any capturing piece (President and Batteries only) cannot mate
    strong = 0 if score > 0 else 1
    if score != 0 and ss[base + SC_PAWNS + strong] == 0 and ss[base + SC_NPM + strong] == 0:
        score = score // ev[W_NOMATE]
    if st[L.S_SIDE] == 1:
        score = -score
    return score + ev[W_TEMPO]


@kernel
def eval_enders(G, board, st, ev, ss, mg):
    side = st[L.S_SIDE]
    moved = st[L.S_MOVED]
    gates = (G[L.GI_GATE_W], G[L.GI_GATE_B])
    score = mg  # White's view
    turns0 = FAR  # own turns each side needs to occupy the enemy gate
    turns1 = FAR
    guards0 = 0
    guards1 = 0
    near0 = 0  # pieces one move from the enemy gate
    near1 = 0
    bits = st[L.S_OCC] | st[L.S_OCC + 2]  # one word: Ender's boards have at most 64 cells
    while bits != 0:
        cell_bit = bits & -bits  # the piece's cell, as MOVED marks it
        sq, bits = pop_square(G, bits, 0)
        p = np.int64(board[sq])
        t = p & 15
        c = p >> 4
        d = gate_distance(ev, c, t, sq)
        turns = d
        if c == side and (moved & cell_bit) != 0:
            turns += 1  # it has moved this turn already
        if c == 0:
            turns0 = min(turns0, turns)
            if d == 1:
                near0 += 1
            if _cheb(G, sq, gates[0]) <= 2:
                guards0 += 1
        else:
            turns1 = min(turns1, turns)
            if d == 1:
                near1 += 1
            if _cheb(G, sq, gates[1]) <= 2:
                guards1 += 1
    pct = ev[W_RESERVE_PCT]
    for t in range(1, G[L.GI_NT] + 1):
        v = ev[EV_VALUE + t] * pct // 100
        score += v * (st[reserve_slot(0, t)] - st[reserve_slot(1, t)])
    score += ev[W_GATE_GUARD] * (min(guards0, 3) - min(guards1, 3))
    if side == 1:
        score = -score
    t_us = turns0 if side == 0 else turns1
    t_them = turns1 if side == 0 else turns0
    near_them = near1 if side == 0 else near0
    if st[L.S_REPLY] != 0:
        # Black's reply turn: reach c1 now (a draw) or lose when the turn ends
        return 0 if t_us <= 1 else -ev[W_REPLY_LOST]
    # The side to move is first in the race. White reaching first gives Black a reply
    # turn (a draw if Black arrives in it), Black reaching first wins at once.
    t_us = min(t_us, 12)
    t_them = min(t_them, 12)
    adv = t_them - t_us if side == 0 else t_them - t_us + 1
    lim = ev[W_RACE_MAX]
    adv = max(-lim, min(lim, adv))
    score += ev[W_RACE_LEAD] * adv * 3 // (min(t_us, t_them) + 2)
    if t_us > 1:
        score -= ev[W_GATE_THREAT] * near_them
    return score


@kernel
def evaluate(G, board, st, ev, ss):
    """Static score of the position for the side to move (centipawns), for any caller:
    a position set up from a FEN, a fresh or a used ``ss``. The piece-square sums are
    taken from ss's row for this ply if it holds this position's, else computed from
    the board (and kept there). A caller that edits ``ev`` in place must call
    ``stamp_eval(ev)`` before evaluating again."""
    return _evaluate_row(G, board, st, ev, ss, psq_sums(G, board, st, ev, ss))


@kernel
def evaluate_node(G, board, st, undo, ev, ss):
    """``evaluate`` in the search: the sums follow from the parent node's by the move."""
    return _evaluate_row(G, board, st, ev, ss, psq_node(G, board, st, undo, ev, ss))


@kernel
def _net_evaluation(st, ss, ev, row):
    """A chess-like with a network: its score; and each side's non-pawn material (the
    null move's zugzwang guard reads it) from the phase sums, as the board is not scanned."""
    phase_b = ss[row + PSQ_PHASE_B]
    ss[SCRATCH + SC_NPM] = ss[row + PSQ_PHASE] - phase_b
    ss[SCRATCH + SC_NPM + 1] = phase_b
    score = net_score(ev, ss, _acc_row(st[L.S_PLY]), st[L.S_SIDE])
    if ev[EV_NET_BASE]:
        base = _taper(ev, ss[row + PSQ_MG], ss[row + PSQ_EG], ss[row + PSQ_PHASE])
        score += base if st[L.S_SIDE] == 0 else -base
    return score


@kernel
def _evaluate_row(G, board, st, ev, ss, row):
    """The evaluation, the piece-square sums and phase read from row ``row`` of ss."""
    if ev[EV_NET]:
        return _net_evaluation(st, ss, ev, row)
    mg = ss[row + PSQ_MG]
    fam = ev[EV_FAMILY]
    if fam == Family.ENDERS:
        return eval_enders(G, board, st, ev, ss, mg)
    eg = ss[row + PSQ_EG]
    phase = ss[row + PSQ_PHASE]
    if fam == Family.BATTERIES:
        return eval_batteries(G, board, st, ev, ss, mg, eg, phase)
    return eval_chess(G, board, st, ev, ss, mg, eg, phase)
