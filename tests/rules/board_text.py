"""The board field of a FEN as text and back, for the slow reference generators and the
tests' position builders. A rank is a list of cells: ``None`` for an empty square, else the
character standing there (a piece letter, or ``*`` for a hole in Ender's Chess). Written
apart from movegen's FEN reader, which the slow generators must not share."""
import re
from string import ascii_lowercase as FILES


def rank_text(cells) -> str:
    """One FEN rank: the cells, each run of empty ones written as its length."""
    text, empties = "", 0
    for cell in cells:
        if cell is None:
            empties += 1
        else:
            text += (str(empties) if empties else "") + cell
            empties = 0
    return text + (str(empties) if empties else "")


def rank_cells(text: str) -> list:
    """The cells of one FEN rank; a run of empties may have several digits ("10" is ten
    empty squares) but is never 0."""
    cells = []
    for token in re.findall(r"\d+|.", text):
        if token.isdigit():
            if int(token) == 0:
                raise ValueError("empty run of 0 in %r" % text)
            cells += [None] * int(token)
        else:
            cells.append(token)
    return cells


def placement(pieces: dict, files: int, ranks: int, holes=()) -> str:
    """The board field from ``{square name: letter}``, top rank first; squares in ``holes``
    are written ``*``."""
    rows = []
    for rank in range(ranks, 0, -1):
        names = [FILES[f] + str(rank) for f in range(files)]
        rows.append(rank_text(["*" if name in holes else pieces.get(name) for name in names]))
    return "/".join(rows)
