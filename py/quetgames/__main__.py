"""Command line: ``python -m quetgames rules`` prints the rules document,
``python -m quetgames show <record>`` prints a game's position as text."""

from __future__ import annotations

import argparse
import json
import sys

from . import GAMES, RulesError, load


def rules_document() -> str:
    """The project's rules document (docs/RULES.md), made from each game's own text."""
    parts = [
        "# The rules of Quet Games\n",
        "All five games were invented by **Leroy Quet**, who posted them to rec.puzzles, "
        "rec.games.abstract and his blog between 2008 and 2010. The texts below are the "
        "project's own wording of his rules, including the decisions the project took where "
        "his posts leave a question open. This file is generated from the engine "
        "(`python -m quetgames rules > docs/RULES.md`), so the rules the engine plays and "
        "the rules shown to players are one text.\n",
        "Throughout: seats are numbered from Player 1; unless a game says otherwise, every "
        "phase of a game starts with Player 1 (the lowest-numbered seat still playing) and "
        "turns pass in seat order; the highest score wins and tied seats share the win. "
        "Squares of a grid are named like a spreadsheet: columns a, b, c, … from the left and "
        "rows 1, 2, 3, … from the top, so a1 is the upper-left square.\n",
    ]
    for game in GAMES.values():
        options = ", ".join(
            f"`{o['name']}` ({_describe_range(o)}, default {json.dumps(o['default'])})" for o in game.describe()["options"]
        )
        parts.append(f"## {game.name}\n\nGame id `{game.id}`. Options: {options}.\n\n{game.rules.strip()}\n")
    return "\n".join(parts)


def _describe_range(option: dict) -> str:
    if "choices" in option:
        return " or ".join(f'"{c}"' for c in option["choices"])
    if "min" in option:
        return f"{option['min']}–{option['max']}"
    return option["kind"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m quetgames", description="Leroy Quet's number games.")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("rules", help="print the rules of every game (Markdown)")
    show = commands.add_parser("show", help="print the position of a game record")
    show.add_argument("record")
    args = parser.parse_args(argv)
    if args.command == "rules":
        print(rules_document(), end="")
        return 0
    try:
        state = load(args.record)
    except RulesError as exc:
        print(f"That record cannot be opened: {exc}", file=sys.stderr)
        return 2
    view = state.view()
    print(f"{view['name']} (a game by {view['inventor']})")
    print(view["status"])
    print("Moves:", " ".join(view["history"]) or "none yet")
    print("Scores:", ", ".join(f"{s['name']} {score}" for s, score in zip(view["seats"], view["scores"])))
    print(json.dumps(view["board"], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
