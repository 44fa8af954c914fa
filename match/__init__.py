"""The match runner: engine-vs-engine games refereed by Leyden's rules.

A program of its own beside the engine process (``engine/``): it starts engines as
child processes, talks to them as an XBoard or UCI *client* and judges every move on a
``movegen.Position``. It depends on ``movegen`` only, never on ``search`` or ``engine``.

    runner.py    ``leyden match``: arguments, the schedule of games, scoring, resume
    game.py      one refereed game between two players
    engines.py   the XBoard/CECP and UCI clients (engine processes and their dialogue)
    openings.py  start positions: FEN/EPD/PGN files, random plies, seeded shuffles
    pgn.py       game records, PGN writing and reading
    stats.py     W/L/D tallies, Elo with its interval, LOS, SPRT
    tc.py        time controls and clocks
"""
