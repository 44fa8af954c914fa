"""Leyden's rules: game definitions, positions, FEN, numba move generation, perft."""
from .jit import drop_stale_cache

drop_stale_cache()  # before any kernel is loaded

from .games import GAMES, Game, find_game
from .position import Position
from .shuffle import energizer_switched_fen, shuffled_fen

__all__ = ["GAMES", "Game", "Position", "energizer_switched_fen", "find_game", "shuffled_fen"]
