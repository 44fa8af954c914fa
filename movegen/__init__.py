"""Leyden's rules: game definitions, positions, FEN, numba move generation, perft."""
from .jit import drop_stale_cache

drop_stale_cache()  # before any kernel is loaded

from .games import GAMES, Game, find_game
from .move import PASSES, IllegalMoveError, Move, Outcome
from .position import Position
from .shuffle import energizer_switched_fen, shuffled_fen

__all__ = ["GAMES", "PASSES", "Game", "IllegalMoveError", "Move", "Outcome", "Position",
           "energizer_switched_fen", "find_game", "shuffled_fen"]
