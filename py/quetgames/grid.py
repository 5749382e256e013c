"""Square names on a grid, spreadsheet style: columns a, b, c, ... from the
left, rows 1, 2, 3, ... from the top; ``a1`` is the upper-left square.

Inside the engine a square is a ``(row, col)`` pair of 0-based ints.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .errors import IllegalMove

__all__ = ["Square", "square_name", "parse_square", "grid_text", "LETTERS"]

Square = tuple[int, int]
LETTERS = "abcdefghijklmnopqrstuvwxyz"
_SQUARE = re.compile(r"([a-z])([1-9][0-9]?)")


def square_name(square: Square) -> str:
    """>>> square_name((1, 2))
    'c2'
    """
    row, col = square
    return f"{LETTERS[col]}{row + 1}"


def parse_square(text: str, size: int, rows: int | None = None) -> Square:
    """Parse a canonical square name on a grid of `size` columns (and `rows` rows,
    default the same), raising IllegalMove in plain words otherwise.

    >>> parse_square("c2", 6)
    (1, 2)
    """
    rows = size if rows is None else rows
    m = _SQUARE.fullmatch(text)
    if m is None:
        raise IllegalMove(
            f"{text[:40]!r} is not a square name: write a column letter and a row number, like 'c2'"
        )
    col = LETTERS.index(m.group(1))
    row = int(m.group(2)) - 1
    if col >= size or row >= rows:
        raise IllegalMove(
            f"{text!r} is off the board: columns run a to {LETTERS[size - 1]}, rows 1 to {rows}"
        )
    return row, col


def grid_text(rows: Sequence[Sequence[object]]) -> str:
    """A grid as text, for the command line: column letters on top, row numbers
    on the left, ``.`` for an empty square (None).

    >>> print(grid_text([[1, None], [2, "x"]]))
        a b
      1 1 .
      2 2 x
    """
    cells = [["." if v is None else str(v) for v in row] for row in rows]
    width = max([len(x) for row in cells for x in row] + [1])
    head = "    " + " ".join(LETTERS[c].rjust(width) for c in range(len(rows[0]) if rows else 0))
    lines = [head] + [f"{r + 1:>3} " + " ".join(x.rjust(width) for x in row) for r, row in enumerate(cells)]
    return "\n".join(lines)
