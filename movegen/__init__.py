"""Leyden's rules: game definitions, positions, FEN, numba move generation, perft."""
from .games import GAMES, Game, find_game
from .position import Position
from .shuffle import shuffled_fen

__all__ = ["GAMES", "Game", "Position", "find_game", "shuffled_fen"]
