"""The rules as players read them: the in-app "How to play" texts and the
rules document (docs/RULES.md), both made from each game's own `rules`,
`examples` and options, so the engine's rules and the shown rules are one text.

Every text here is light Markdown: blank-line paragraphs, "- " lists,
**bold**, `code` and fenced ``` blocks (the page's renderer, web/dom.js
richText, knows exactly these).
"""

from __future__ import annotations


from .base import Game
from .registry import GAMES
from .data import JSONObject

__all__ = ["game_help", "rules_document", "conventions", "settings"]

_INTRO = (
    "All five games were invented by **Leroy Quet**, who posted them to rec.puzzles, "
    "rec.games.abstract and his blog between 2008 and 2010. The texts below are the "
    "project's own wording of his rules, including the decisions the project took where "
    "his posts leave a question open. This file is generated from the engine "
    "(`python -m quetgames rules > docs/RULES.md`), so the rules the engine plays and "
    "the rules shown to players are one text."
)

_TURNS = (
    "Seats are numbered from Player 1. Unless a game says otherwise, every part of a "
    "game starts with Player 1 (the lowest-numbered player still playing) and turns pass "
    "in seat order. The highest score wins, and players tied on it share the win."
)

_SQUARES = (
    "Squares are named like the cells of a spreadsheet: a column letter a, b, c, … "
    "counted from the left, then a row number 1, 2, 3, … counted from the top. So a1 is "
    "the upper-left square, b1 the one to its right and a2 the one below it."
)


def conventions(game: Game | None = None) -> str:
    """How to read the rules: turns, winning, and (for a grid, or for the whole
    document when `game` is None) how squares are named."""
    text = f"**Reading these rules.** {_TURNS}"
    if game is None or game.named_squares:
        text += " " + (_SQUARES if game else _SQUARES.replace("Squares are", "Squares of a grid are"))
    return text


def _default_words(option: JSONObject) -> str:
    default = option["default"]
    if default is None:
        return f"unless chosen: {option.get('unset') or 'not set'}"
    if option["kind"] == "bool":
        return f"{'on' if default else 'off'} unless chosen otherwise"
    return f"{default} unless chosen otherwise"


def _range_words(option: JSONObject) -> str:
    if "choices" in option:
        return " or ".join(option["choices"])
    if option["kind"] == "bool":
        return "on or off"
    span = f"{option['min']:,} to {option['max']:,}"
    return f"each {span}" if option["kind"] == "pair" else span


def settings(game: Game, *, names: bool = False) -> str:
    """The game's settings as the setup screen words them, each with its range
    and what it is unless chosen; `names`: also the option's name in the
    Python API and in records."""
    lines = ["**Settings.** Chosen on the setup screen before a game starts:", ""]
    for option in game.describe()["options"]:
        label = option["help"] or option["name"].replace("_", " ")
        label = label[:1].upper() + label[1:]
        code = f" (option `{option['name']}`)" if names else ""
        lines.append(f"- {label}: {_range_words(option)}; {_default_words(option)}{code}.")
    return "\n".join(lines)


def game_help(game: Game) -> dict[str, str]:
    """The pieces of a game's "How to play" besides its `rules` (which the
    catalog already carries), each light Markdown: who invented it and how to
    read the rules (`intro`), and the settings (`settings`)."""
    intro = f"{game.name} was invented by **{game.inventor}**; the rules below are told in Quet Games' own words.\n\n{conventions(game)}"
    return {"intro": intro, "settings": settings(game)}


def _example_boards(game: Game) -> str:
    from .registry import load

    parts = []
    for example in game.examples:
        board = load(example.record).text_board()
        parts.append(f"*{example.caption}*\n\n```\n{board}\n```")
    return "\n\n".join(parts)


def rules_document() -> str:
    """The project's rules document (docs/RULES.md), made from each game's own text."""
    parts = ["# The rules of Quet Games\n", _INTRO + "\n", conventions() + "\n"]
    for game in GAMES.values():
        section = [
            f"## {game.name}\n",
            f"Invented by {game.inventor}. Game id `{game.id}`.\n",
            game.rules.strip() + "\n",
        ]
        boards = _example_boards(game)
        if boards:
            section.append(boards + "\n")
        section.append(settings(game, names=True) + "\n")
        parts.append("\n".join(section))
    return "\n".join(parts)
