"""web/ keeps the shape docs/ARCHITECTURE.md draws: folders by job, each
importing only the folders below it (the rules below, as data, in the manner
of import-linter's contracts), no import cycle between modules, no module over
600 lines, and only the entry points at the top of web/.

Every import counts: static (`import … from "./x.js"`, `import "./x.js"`,
`export … from`) and dynamic (`import("./x.js")`, `new URL("./x.js",
import.meta.url)` for a worker)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parent.parent / "web"

# folder -> the folders its modules may import ("" is web/ itself: the entry
# points, which may import anything and which nothing imports). A folder may
# always import its own modules.
MAY_IMPORT: dict[str, set[str]] = {
    "bridge": set(),  # the page's side of quetgames.bridge: workers, requests, downloads
    "ui": set(),  # the kit every screen draws with: h(), messages, the status line, dialogs
    "boards": {"ui"},  # one renderer per game, drawing a view it is handed
    "share": {"ui", "boards", "bridge"},  # links, saves, tabs, backups, pictures, posters, embed snippets
    "features": {"ui", "boards", "bridge", "share"},  # analysis, puzzles, lessons, balance, help
    "view": {"ui", "boards", "bridge", "share", "features"},  # the game view and what it draws
    "shell": {"ui", "bridge", "features"},  # setup, loading, offline: the screens around a game
}
ENTRY_POINTS = {"app.js", "embed.js", "embed-host.js", "sw.js", "worker.js"}
MOST_LINES = 600

# An import of one of our modules: from, import "…", import("…"), or a
# worker's URL next to the module (new URL("../worker.js", import.meta.url)).
IMPORT = re.compile(
    r"""(?:\bfrom\s*|\bimport\s*\(?\s*|new\s+URL\(\s*)["'](\.\.?/[^"'`]+\.js)["']""")
COMMENT = re.compile(r"^\s*(?://|\*|/\*).*$", re.M)


def folder_of(module: str) -> str:
    return module.split("/")[0] if "/" in module else ""


def modules() -> list[str]:
    return sorted(p.relative_to(WEB).as_posix() for p in WEB.rglob("*.js"))


def imports_in(text: str, module: str) -> set[str]:
    """The modules of web/ that `text`, the source of `module`, imports."""
    found = set()
    for spec in IMPORT.findall(COMMENT.sub("", text)):
        found.add(os.path.normpath(os.path.join(os.path.dirname(module), spec)).replace(os.sep, "/"))
    return found


# Files the build puts beside ours (the npm dependencies, Pyodide): not modules of web/.
SHIPPED_BESIDE = ("vendor/", "pyodide/")


def graph() -> dict[str, set[str]]:
    return {m: {t for t in imports_in((WEB / m).read_text(), m) if not t.startswith(SHIPPED_BESIDE)} for m in modules()}


def broken_rules(edges: dict[str, set[str]]) -> list[str]:
    """Each import against MAY_IMPORT, as "a -> b (why)"."""
    problems = []
    for module, targets in sorted(edges.items()):
        here = folder_of(module)
        for target in sorted(targets):
            there = folder_of(target)
            if there == "" and target not in ("worker.js",):
                problems.append(f"{module} -> {target} (an entry point is imported by nobody)")
            elif here == "" or there == here or there == "":
                continue
            elif there not in MAY_IMPORT.get(here, set()):
                problems.append(f"{module} -> {target} ({here}/ may import {sorted(MAY_IMPORT.get(here, ())) or 'nothing'})")
    return problems


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    state: dict[str, int] = {}  # 1 on the path, 2 done
    found: list[list[str]] = []

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for nxt in sorted(edges.get(module, ())):
            if state.get(nxt) == 1:
                found.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[module] = 2

    for module in sorted(edges):
        if module not in state:
            visit(module, [module])
    return found


# -- the checks ----------------------------------------------------------------------


def test_the_imports_are_read():
    edges = graph()
    assert "bridge/engine.js" in edges["app.js"]
    assert "ui/dom.js" in edges["view/gameview.js"]
    assert "share/embed-snippet.js" in edges["view/gameview.js"] or any(
        "share/embed-snippet.js" in edges[m] for m in edges if m.startswith("view/"))  # a dynamic import
    assert "worker.js" in edges["bridge/engine.js"]  # the worker's URL


def test_every_import_keeps_to_the_layers():
    problems = broken_rules(graph())
    assert not problems, "\n".join(problems)


def test_no_import_cycle():
    found = cycles(graph())
    assert not found, " ; ".join(" -> ".join(c) for c in found)


def test_every_folder_has_its_rule_and_only_entry_points_sit_at_the_top():
    folders = {folder_of(m) for m in modules()} - {""}
    assert folders == set(MAY_IMPORT), folders ^ set(MAY_IMPORT)
    top = {m for m in modules() if folder_of(m) == ""}
    assert top == ENTRY_POINTS and len(top) <= 6, top


@pytest.mark.parametrize("module", modules())
def test_no_module_is_over_600_lines(module):
    lines = len((WEB / module).read_text().splitlines())
    assert lines <= MOST_LINES, f"web/{module} has {lines} lines: split it by concern"


# -- the checks can fail -------------------------------------------------------------


def test_an_import_against_the_layers_is_caught():
    edges = graph()
    edges["ui/dom.js"] = edges["ui/dom.js"] | {"view/gameview.js"}  # the kit reaching up into the game view
    edges["boards/grid.js"] = edges["boards/grid.js"] | {"app.js"}
    assert broken_rules(edges) == [
        "boards/grid.js -> app.js (an entry point is imported by nobody)",
        "ui/dom.js -> view/gameview.js (ui/ may import nothing)",
    ]


def test_a_cycle_is_caught():
    edges = graph()
    edges["ui/dom.js"] = edges["ui/dom.js"] | {"ui/dialog.js"}
    assert "ui/dom.js" in edges["ui/dialog.js"]
    assert ["ui/dialog.js", "ui/dom.js", "ui/dialog.js"] in cycles(edges) or ["ui/dom.js", "ui/dialog.js", "ui/dom.js"] in cycles(edges)


def test_imports_are_read_from_text_as_written():
    text = '''import { h } from "../ui/dom.js";
// import { x } from "./not-this.js";
export { y } from "./y.js";
const m = await import("../share/picture.js");
new Worker(new URL("../worker.js", import.meta.url));'''
    assert imports_in(text, "view/z.js") == {"ui/dom.js", "view/y.js", "share/picture.js", "worker.js"}


# -- the first script's board preloads (web/index.html) ---------------------------------

GRIDS = re.compile(r"const grid = \[([^\]]*)\], round = \[([^\]]*)\];")
BOARD_ENTRY = re.compile(r"\b([a-z]{2}): \[\"([a-z-]+)\"((?:, [^\]]*)?)\]")


def first_script_boards() -> dict[str, set[str]]:
    """The first script's list: record code -> the files it preloads for that game's board."""
    text = (WEB / "index.html").read_text()
    spreads = GRIDS.search(text)
    assert spreads, "index.html's first script no longer names the grid and round boards' files"
    named = {"grid": spreads[1], "round": spreads[2]}
    boards = {}
    for code, board, rest in BOARD_ENTRY.findall(text[spreads.end():text.index("const code")]):
        parts = set()
        for item in filter(None, (p.strip() for p in rest.split(","))):
            parts.update(re.findall(r'"([^"]+)"', named[item[3:]] if item.startswith("...") else item))
        boards[code] = {f"{board}.js", "svg.js", *parts}
    return boards


def board_needs(board: str, edges: dict[str, set[str]]) -> set[str]:
    """A board module's files: itself, what it imports in boards/ (all the way down, by `edges`) and their style sheets."""
    files, todo = set(), [f"boards/{board}.js"]
    while todo:
        module = todo.pop()
        if module in files or not module.startswith("boards/"):
            continue
        files.add(module)
        todo.extend(edges[module])
    sheets = set()
    for module in files:
        declared = re.search(r"\bstyles = \[([^\]]*)\]", (WEB / module).read_text())
        sheets.update(re.findall(r'"([a-z-]+\.css)"', declared[1]) if declared else ())
    return {m.removeprefix("boards/") for m in files} | sheets


def test_the_first_script_preloads_each_games_board_with_what_it_imports_and_its_sheets():
    import quetgames  # (the engine's registry: which code each game's records carry)

    boards, edges = first_script_boards(), graph()
    assert set(boards) == {quetgames.registry.GAMES[g].code for g in quetgames.GAMES}
    for game_id in quetgames.GAMES:
        assert boards[quetgames.registry.GAMES[game_id].code] == board_needs(game_id, edges), game_id
