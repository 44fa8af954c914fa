"""Leyden's tests, in folders by kind: rules/ (move generation against references and the
rule texts), search/, protocol/ (the engine process over XBoard and UCI), match/ (the match
runner), serve/ (the browser page and its HTTP API), packaging/ (the installed wheel).
drivers.py holds the programs they drive; a folder's conftest.py its shared fixtures."""
