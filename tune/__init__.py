"""Texel tuning of the evaluation weights (search/weights.py), per game.

datagen.py   self-play games -> labelled quiet positions (data/tune/<game>.txt)
positions.py the data file format, and the positions as the engine's arrays
kernels.py   numba: evaluation of a batch of positions, the quiescence test
params.py    the tunable numbers of a game's weights
texel.py     the loss, K, the local search -> search/tuned/<game>.json
"""
