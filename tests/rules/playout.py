"""One random game played in step by several generators, for the tests that compare them."""


def random_playout(rng, generators, plies, check=lambda: None) -> list:
    """Up to ``plies`` random legal moves, each drawn from the first generator's sorted move
    list and pushed on every generator; ``check()`` runs at the start and after every
    move. The moves played."""
    check()
    played = []
    for _ in range(plies):
        moves = sorted(generators[0].legal_moves())
        if not moves:
            break
        move = rng.choice(moves)
        for gen in generators:
            gen.push(move)
        played.append(move)
        check()
    return played
