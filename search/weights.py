"""Evaluation weights, one readable record per game (centipawns unless noted).

Piece values come from the game definitions (movegen/games.py, which follow the rule
files); everything else an evaluation knows is here. ``hand_weights(game)`` merges the
common defaults, the family's and the game's (keyed on the game record: a game defined
elsewhere gets its family's weights). ``weights(game)``, what the engine plays with, is
that with the game's tuned weights on top: ``search/tuned/<game name>.json``, written by
the Texel tuner (tune/texel.py) with the losses it measured, when such a file exists
(a shuffle game without one: its standard game's, TUNED_LIKE).
"""
import json
from pathlib import Path

from movegen.games import (BATTERIES_GAME, CAPABLANCA, CAPARANDOM, ENDERS_GAME, ENERGIZER, NORMAL,
                           SULTAN, SULTANRANDOM)

COMMON = {
    "tempo": 10,  # side to move
    "eg_scale": {},  # letter -> endgame value as a percentage of the middlegame value
    # letter -> material in the piece-square tables (default: the rule value, and for the
    # endgame that scaled by eg_scale); the search's ordering, SEE and margins keep the rule value
    "material_mg": {},
    "material_eg": {},
    # piece-square terms derived from geometry (evaluate.py): per square of empty-board
    # mobility above/below the piece's average, and per step towards the centre
    "mobility_sq_mg": 3,
    "mobility_sq_eg": 3,
    "centre_mg": 3,
    "centre_eg": 2,
    # chess-likes: safe mobility, per square a piece moves to or captures on that no enemy
    # pawn attacks (own pieces block), by letter (a piece not listed: none), counted from
    # the piece's typical number of such squares (safe_mobility_centre: the mean over
    # self-play positions of normal, capablanca and energizer, rounded), so that the
    # term moves little material on average
    "safe_mobility_mg": {"Q": 2, "C": 3, "A": 3, "R": 3, "B": 5, "N": 5},
    "safe_mobility_eg": {"Q": 4, "C": 4, "A": 4, "R": 5, "B": 5, "N": 4},
    "safe_mobility_centre": {"Q": 8, "C": 7, "A": 7, "R": 5, "B": 4, "N": 4},
    "bishop_pair": 50,
    "rook_open_file": 20,  # for every piece with an unlimited orthogonal slide
    "rook_half_open_file": 10,
    "pawn_doubled": -12,
    "pawn_isolated": -10,
    # pawn advance by fraction of the way to promotion (tenths: index 0 = start rank)
    "pawn_advance_mg": [0, 0, 3, 6, 10, 15, 22, 30, 40, 50, 60],
    "pawn_advance_eg": [0, 3, 8, 14, 22, 32, 45, 60, 80, 100, 120],
    "pawn_centre_mg": 10,  # central files, ranks 3..6 from own side
    "passed_mg": [0, 5, 8, 12, 18, 28, 40, 55, 70, 85, 100],  # same tenths
    "passed_eg": [0, 10, 15, 22, 32, 48, 70, 95, 125, 155, 185],
    "king_back_rank_mg": 15,  # per rank a king stands off its back rank (penalty)
    "king_file_edge_mg": 6,  # per file away from the centre on the back rank (bonus)
    "king_centre_eg": 6,  # per step towards the centre in the endgame (bonus)
    # letter -> a correction per square on top of the tables above: a list of ranks
    # (White's side first), each of the files from the edge to the centre (the two wings
    # mirrored); fitted all at once by ``tune.texel --pst`` (tune/pst.py)
    "pst_mg": {},
    "pst_eg": {},
    "king_shield": 12,  # own pawn on one of the three squares in front of the king
    "king_shield2": 6,  # ... or two squares in front
    "king_open_file": -20,  # no own pawn on the king's file
    # attack units of an enemy piece near the king, by its value
    "king_attack_super": 4,  # value >= 800 (Q, C, A)
    "king_attack_rook": 2,  # value >= 450
    "king_attack_minor": 1,
    "king_attack_radius": 2,  # Chebyshev distance of an enemy piece to the king
    "king_attack_table": [0, 0, 5, 12, 22, 35, 50, 68, 90, 115, 140, 170, 200, 230, 260,
                          290, 320, 350, 380, 400],
    # chess-likes' threats (a piece attacked by an enemy piece worth less; evaluate._threats),
    # from the side to move's view: a bonus when it has one, a penalty for each of the
    # opponent's first two (counted per attacker), plus a percentage of the value difference
    # (up to 300)
    "threat_to_move": 0,
    "threatened": 0,
    "threatened_twice": 0,
    "threat_gain_pct": 0,
    "threat_gain2_pct": 0,
    "super_piece_vs_light": 0,  # per super piece (Q, C, A) per enemy R/B/N/Courier
    "drawish_scale": 4,  # no pawns, stronger side ahead by less than a rook: score / this
    "no_mate_scale": 16,  # stronger side cannot force mate: score / this
}

#: The search's own settings, kept with the weights so that a game (its family's record
#: or its tuned file) can have its own and a running engine can be given others (the
#: ``Tune`` option): centipawns and plies. Not evaluation weights: the Texel tuner leaves
#: them alone; ``tune.spsa`` tunes them by games.
SEARCH = {
    "aspiration": 25,  # the first aspiration window's half-width
    # per ply: reverse futility and futility pruning (SPRTs: beat 120; 180 lost; 70 even)
    "futility_margin": 90,
    # reverse futility, late-move and futility pruning up to this depth (5 lost)
    "prune_depth": 3,
    "lmp_base": 3,  # late-move pruning after this many quiet moves plus depth squared
    "razor_margin": 300,  # per ply: razoring, this far below alpha
    "delta_margin": 200,  # quiescence: a capture that cannot lift the score near alpha
    "qs_futility": 150,  # quiescence: this far below alpha, only winning captures
    "null_reduction": 3,  # null move: the reduction is this plus depth / null_depth_div
    "null_depth_div": 6,
    "singular_depth": 7,  # singular extension from this depth
    "singular_margin": 2,  # per ply: how far below the table's score the others must stay
    "lmr_base": 75,  # late-move reduction: (lmr_base + 100 ln(depth) ln(move) /
    "lmr_divisor": 225,  # (lmr_divisor / 100)) / 100 plies, rounded down
}
#: the smallest and largest value each search setting may be given (divisors at least 1)
SEARCH_BOUNDS = {
    "aspiration": (1, 1000), "futility_margin": (0, 1000), "prune_depth": (0, 12),
    "lmp_base": (0, 64), "razor_margin": (0, 2000), "delta_margin": (0, 2000),
    "qs_futility": (0, 2000), "null_reduction": (1, 12), "null_depth_div": (1, 64),
    "singular_depth": (2, 64), "singular_margin": (0, 64), "lmr_base": (0, 400),
    "lmr_divisor": (50, 2000),
}
COMMON.update(SEARCH)

FAMILY = {
    0: {},
    1: {  # batteries
        "bishop_pair": 0,
        "rook_open_file": 0,
        "rook_half_open_file": 0,
        "king_shield": 0,
        "king_shield2": 0,
        "king_open_file": 0,
        "mobility_sq_mg": 1,
        "mobility_sq_eg": 1,
        "centre_mg": 4,
        "centre_eg": 3,
        # charge: a piece standing next to one of its own Batteries
        "charge": {"L": 45, "A": 40, "E": 35, "O": 30, "D": 25, "S": 10},
        "battery_near_enemy_president": 8,  # per step closer than 7 (Chebyshev)
        "battery_centre": 4,
        "president_attack_weight": {"L": 3, "A": 3, "E": 2, "O": 2, "D": 2, "S": 1, "B": 1},
        "president_attack_charged": 2,  # an attacker that is charged counts this many times
        "president_guard": 8,  # own piece next to the President
        "aspiration": 35,
    },
    2: {  # enders
        "tempo": 0,
        "reserve_pct": 90,  # a piece in reserve is worth this percentage of one on the board
        # bonus for a piece by its distance (own moves) to the enemy gate
        "gate_progress": [0, 120, 60, 30, 15, 8, 4, 2, 0, 0, 0, 0, 0, 0, 0, 0],
        "gate_guard": 20,  # own piece within two steps (Chebyshev) of the own gate, up to 3
        "gate_threat": 250,  # enemy piece one move from the own gate when we are not to move
        "race_lead": 150,  # per turn we would reach the enemy gate before the enemy
        "race_max": 3,
        "reply_lost": 3000,  # Black's reply turn with no piece able to reach c1
        "aspiration": 50,
    },
}

# Shatranj al-Sultan's C is the Courier (a leaper to 8 squares like the knight), not a
# Chancellor
_SULTAN_MOBILITY = {"safe_mobility_mg": {**COMMON["safe_mobility_mg"], "C": 5},
                    "safe_mobility_eg": {**COMMON["safe_mobility_eg"], "C": 4},
                    "safe_mobility_centre": {**COMMON["safe_mobility_centre"], "C": 4}}

GAMES = {
    NORMAL: {},
    CAPABLANCA: {"super_piece_vs_light": 6},
    CAPARANDOM: {"super_piece_vs_light": 6},
    ENERGIZER: {"super_piece_vs_light": 4},
    SULTAN: _SULTAN_MOBILITY,
    SULTANRANDOM: _SULTAN_MOBILITY,
    BATTERIES_GAME: {},
    ENDERS_GAME: {},
}


TUNED_DIR = Path(__file__).parent / "tuned"


def hand_weights(game) -> dict:
    """The hand-set weights of ``game`` (a movegen ``Game``)."""
    w = dict(COMMON)
    w.update(FAMILY.get(game.family, {}))
    w.update(GAMES.get(game, {}))
    return w


#: A shuffle game without tuned weights of its own plays with its standard game's: the
#: same pieces on the same board, only the setup differs.
TUNED_LIKE = {"caparandom": "capablanca", "sultanrandom": "sultan"}


def _named_file(name: str, directory: Path) -> Path:
    return Path(directory) / f"{name}.json"


def tuned_file(game, directory: Path = TUNED_DIR) -> Path:
    """Where the tuner writes ``game``'s tuned weights."""
    return _named_file(game.name, directory)


def _tuned_source(game, directory: Path) -> Path | None:
    """The tuned file ``game`` plays with: its own, else its standard game's (TUNED_LIKE)."""
    for name in (game.name, TUNED_LIKE.get(game.name)):
        if name is not None and _named_file(name, directory).is_file():
            return _named_file(name, directory)
    return None


DIVISORS = ("drawish_scale", "no_mate_scale")  #: weights the evaluation divides by


def merge(base: dict, changes: dict) -> dict:
    """``base`` with ``changes`` on top; a table given as a dict (letter -> value) is
    merged entry by entry, anything else replaced. Unknown names are refused, so that a
    tuned file cannot silently set a weight no evaluation reads."""
    w = dict(base)
    for key, value in changes.items():
        if key not in base:
            raise ValueError(f"unknown weight {key!r}")
        w[key] = {**base[key], **value} if isinstance(base[key], dict) else value
    return w


def weights(game, directory: Path = TUNED_DIR) -> dict:
    """The weights the engine plays ``game`` with: the hand weights, with the tuned ones
    of ``directory`` on top (``<game name>.json``, or for a shuffle game without one its
    standard game's) when there are some."""
    w = hand_weights(game)
    path = _tuned_source(game, directory)
    if path is not None:
        w = merge(w, json.loads(path.read_text())["weights"])
    check_limits(w)
    return w


def check_limits(w: dict) -> None:
    """ValueError unless the divisors are at least 1 (the kernels divide by them without
    a zero test, movegen/jit.py) and each search setting is within SEARCH_BOUNDS."""
    for key in DIVISORS:
        if w[key] < 1:
            raise ValueError(f"weight {key!r} must be at least 1, not {w[key]}")
    for key, (lo, hi) in SEARCH_BOUNDS.items():
        if not lo <= w[key] <= hi:
            raise ValueError(f"search setting {key!r} must be from {lo} to {hi}, not {w[key]}")


def parse_changes(text: str) -> tuple:
    """The ``Tune`` option's value, ``name=value`` pairs separated by spaces or commas,
    as sorted (name, value) pairs: the search's settings (SEARCH) or any integer weight
    every game has (COMMON), for every game alike. ValueError, saying what is wrong, for
    an unknown name, a value that is not an integer or one outside the limits."""
    changes = {}
    for item in text.replace(",", " ").split():
        name, eq, value = item.partition("=")
        if not eq or not name:
            raise ValueError(f"{item!r} is not name=value")
        if not isinstance(COMMON.get(name), int):
            raise ValueError(f"unknown setting {name!r} (the search's: {', '.join(SEARCH)})")
        try:
            changes[name] = int(value)
        except ValueError:
            raise ValueError(f"{name} needs an integer, not {value!r}") from None
    check_limits({**COMMON, **changes})
    return tuple(sorted(changes.items()))
