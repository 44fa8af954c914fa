"""Play Leyden's games in a web browser: ``leyden serve`` (see app.py for the API,
session.py for a game and Leyden's turns, static/ for the page)."""
