"""PGN files of made-up games, as the match runner writes them, for the tests of the
scripts that read its games back."""
from match.pgn import GameRecord, format_game


def write_games(path, games, **common) -> None:
    """Write one game per item of ``games`` (a dict of ``GameRecord`` fields, over the
    fields in ``common``), numbered from round 1."""
    with open(path, "w", encoding="utf-8") as f:
        for i, fields in enumerate(games, 1):
            f.write(format_game(GameRecord(round=i, **{**common, **fields})))
