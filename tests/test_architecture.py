"""The engine's shape holds: the computer players' light positions follow the
game modules' own rules move for move, the players never read the screen data,
every view says the same way whether a joint secret move is open, and an
option can be called anything without reaching Python's keyword arguments."""

from __future__ import annotations

import ast
import json
import random
import re
from pathlib import Path

import pytest

import quetgames
from quetgames import InvalidOptions, bridge
from quetgames.players.search import StateSim

GAME_IDS = list(quetgames.GAMES)
PLAYERS = Path(quetgames.__file__).parent / "players"


# -- the search positions follow the rules ----------------------------------------


OPTIONS = {
    "convoluted-coprimality": [{}, {"players": 3, "size": 5}, {"players": 2, "size": 4, "max_rounds": 3}],
    "enumeration": [{}, {"players": 1, "size": 4, "goal": "parity", "target": "even"}, {"goal": "parity", "size": 5}, {"players": 1, "size": 5}],
    "prime-target": [{}, {"players": 3, "rays": 5}, {"rays": 12, "k": 2}],
    "multiplications": [{}, {"players": 3, "k": 3}],
}


@pytest.mark.parametrize("game_id", sorted(OPTIONS))
def test_search_positions_play_the_games_rules(game_id):
    """Every move of random games played on a game's search position and on
    the state itself: the same seat to move, the same legal moves (as
    notation), the same scores and the same winners, all the way (through
    Convoluted Coprimality's wiped grids and Enumeration's second grid)."""
    player = quetgames.players.player_for(quetgames.GAMES[game_id])
    rng = random.Random(game_id)
    for options in OPTIONS[game_id]:
        for _ in range(4):
            state = quetgames.new_game(game_id, **options)
            sim = player.sim(state)
            assert not isinstance(sim, StateSim), "a built-in game searches its own light position"
            while True:
                to_move = state.to_move
                assert sim.mover() == (to_move[0] if to_move else -1), state
                assert list(sim.scores()) == list(state.scores), state
                if not to_move:
                    assert sim.winners() == state.winners
                    break
                legal = sim.legal()
                assert sorted(player.notation(sim, m) for m in legal) == sorted(state.legal_moves()), state
                # A search position made from this state mid-game says the same.
                fresh = player.sim(state)
                assert (fresh.mover(), list(fresh.scores())) == (sim.mover(), list(sim.scores())), state
                assert sorted(map(str, fresh.legal())) == sorted(map(str, legal)), state
                move = rng.choice(legal)
                notation = player.notation(sim, move)
                twin, scores = sim.copy(), list(sim.scores())
                sim.play(move)
                state = state.play(notation)
                # A copy is left as it was by a move played on its original.
                assert twin.mover() == to_move[0] and list(twin.scores()) == scores
            assert state.is_over


def test_nonconformity_search_position_scores_as_the_rules_do():
    from quetgames.players.nonconformity import NonconformitySim

    rng = random.Random(2)
    for seed in range(6):
        state = quetgames.new_game("nonconformity", length=8, seed=seed)
        sim = NonconformitySim(state)
        while not state.is_over:
            picks = [None, None]
            for seat in state.to_move:
                legal = state.legal_moves(seat)
                assert all(sim.legal(seat, int(m)) for m in legal)
                assert sum(sim.legal(seat, x) for x in range(2, sim.top + 1)) == len(legal)
                picks[seat] = int(rng.choice(legal))
            for seat in (0, 1):
                if picks[seat] is not None:
                    assert sim.scores_with(seat, picks[seat]) == state.preview(str(picks[seat]), seat)["scores"]
            for seat in (0, 1):
                if picks[seat] is not None:
                    state = state.play(str(picks[seat]), seat)
            sim.reveal(picks)
            assert sim.points == list(state.scores)
            assert [min(t) for t in sim.terms] == [s[0] for s in state.spans]


def test_the_players_never_read_the_view():
    # The view is screen data: renaming one of its fields must not change how the computer plays.
    for path in PLAYERS.glob("*.py"):
        assert not re.search(r"\.view\(", path.read_text()), path.name


# -- simultaneous and secret moves, the same way in every game ---------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_sequential_games_have_no_joint_move(game_id):
    state = quetgames.new_game(game_id)
    if game_id == "nonconformity":
        return
    for _ in range(5):
        for seat in [None, *range(state.players)]:
            assert state.view(seat)["choosing"] is None
        state = state.play(state.legal_moves()[0])


def test_nonconformity_round_is_a_joint_secret_move():
    state = quetgames.new_game("nonconformity", starts=(6, 4), length=4)
    # Round 1: both seats to choose, nobody has chosen.
    for seat in (None, 0, 1):
        assert state.view(seat)["choosing"] == {"chosen": [], "to_choose": [0, 1], "secret": True}
    # Player 2 chooses 8: everyone may know that Player 2 has chosen, only Player 2 what.
    waiting = state.play("8", 1)
    for seat in (None, 0, 1):
        view = waiting.view(seat)
        assert view["choosing"] == {"chosen": [1], "to_choose": [0], "secret": True}
        assert view["board"]["picked"] == [False, True]  # the board's own field stays, for now
        assert view["board"]["pending"] == [None, 8 if seat == 1 else None]
    assert "8" not in json.dumps(waiting.view(0)["choosing"])
    # Player 1 chooses: the round is revealed and the next one opens.
    revealed = waiting.play("12", 0)
    assert revealed.history == ("12", "8")
    assert revealed.view()["choosing"] == {"chosen": [], "to_choose": [0, 1], "secret": True}
    # Over: no joint move.
    over = revealed.play("18", 0).play("2", 1).play("24", 0).play("6", 1)
    assert over.is_over and over.view()["choosing"] is None


def test_nonconformity_seat_that_sits_out_leaves_no_joint_move():
    # 53 is a prime above half of max_pick 100: its only multiple is itself, so Player 1 sits out.
    state = quetgames.new_game("nonconformity", starts=(53, 4), length=4, max_pick=100)
    assert state.to_move == (1,)
    assert state.view()["choosing"] is None


def test_bridge_views_carry_choosing():
    answer = json.loads(bridge.call("new", json.dumps({"game": "nonconformity", "options": {"starts": [6, 4]}})))
    assert answer["ok"] and answer["result"]["view"]["choosing"]["to_choose"] == [0, 1]


# -- options are names, not Python keywords ----------------------------------------------


@pytest.mark.parametrize("name", ["self", "game_id", "options", "seat", "__class__"])
def test_any_option_name_is_refused_in_words(name):
    with pytest.raises(InvalidOptions, match="no option"):
        quetgames.new_game("multiplications", **{name: 3})
    with pytest.raises(InvalidOptions, match="no option"):
        quetgames.GAMES["enumeration"].new(**{name: 3})
    answer = json.loads(bridge.call("new", json.dumps({"game": "prime-target", "options": {name: 1}})))
    assert answer["error"]["type"] == "InvalidOptions" and "no option" in answer["error"]["message"]


# -- the search itself --------------------------------------------------------------


def test_uct_scores_each_move_by_playouts_from_after_it():
    """One move for Player 1, then the game is over: picking 7 wins, any other
    number loses. The prior puts 7 last, and ten iterations try each pick once:
    the search finds 7 only if each new child's playout starts from that child."""
    from quetgames.players.search import Budget, Player, Sim, uct

    class Pick(Sim):
        __slots__ = ("players", "picked")

        def __init__(self) -> None:
            self.players, self.picked = 2, None

        def mover(self) -> int:
            return 0 if self.picked is None else -1

        def legal(self) -> list[int]:
            return list(range(10))

        def play(self, move: int) -> None:
            self.picked = move

        def copy(self) -> "Pick":
            new = Pick()
            new.picked = self.picked
            return new

        def scores(self) -> list[int]:
            return [1, 0] if self.picked == 7 else [0, 1]

    class Stubborn(Player):
        def candidates(self, sim, seat, rng):
            return [9, 8, 6, 5, 4, 3, 2, 1, 0, 7]  # the winning pick last

    for seed in range(8):
        assert uct(Stubborn(), Pick(), random.Random(seed), Budget(0.0, iterations=10)) == 7


# -- the generic layers name no game, and no module imports itself round a cycle ---------

PACKAGE = Path(quetgames.__file__).parent
GENERIC_LAYERS = ["analysis.py", "balance.py", "bridge.py", "compare.py", "puzzles.py", "mistakes.py", "sealing.py", "players/__init__.py",
                  "players/search.py"]


def _game_words() -> dict[str, re.Pattern[str]]:
    """What names a game, read from the registry's catalog: for each game its
    id, its name and its classes (as words, in any case), the module of the
    game and of its adapter, its record code (quoted, or between a record's
    dots), and the board keys no other game's board has (quoted)."""
    from quetgames.players import player_for

    boards: dict[str, set[str]] = {}
    for game_id, game in quetgames.GAMES.items():
        state = quetgames.new_game(game_id)
        keys = set(state.view()["board"])
        for _ in range(4):  # a few moves in, in case a board grows keys
            if state.is_over:
                break
            seat = state.to_move[0]
            state = state.play(state.legal_moves(seat)[0], seat)
            keys |= set(state.view(seat)["board"])
        boards[game_id] = keys
    # Keys every board has, and the engine's own words for a view and for
    # sealed moves, are no game's.
    from quetgames.sealing import Seal, SealedState

    engine = set(next(iter(quetgames.GAMES.values())).new().view()) | set(Seal(1, 0, "").to_json())
    engine |= set(SealedState.__slots__)
    for game_id in quetgames.GAMES:
        engine |= set(quetgames.new_game(game_id).view()["sealing"] or ())
    shared = set.intersection(*boards.values()) | engine
    words: dict[str, re.Pattern[str]] = {}
    for game_id, game in quetgames.GAMES.items():
        names = {game_id, game.name, type(game).__name__, game.state_class.__name__,
                 type(game).__module__.rpartition(".")[2], type(player_for(game)).__module__.rpartition(".")[2],
                 type(player_for(game)).__name__}
        names -= {"search", "Player"}  # a game with the generic player
        for name in names:
            words[name] = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])", re.IGNORECASE)
        words[f"code {game.code}"] = re.compile(rf"""["'.]{re.escape(game.code)}["'.]""")
        for key in boards[game_id] - shared:
            words[f"board key {key}"] = re.compile(rf"""["']{re.escape(key)}["']""")
    return words


def test_the_word_list_finds_what_it_looks_for():
    # The check below is only as good as its list: it must catch a game's id,
    # name, module, code and own board keys where a generic file would hold them.
    words = _game_words()
    for game_id, game in quetgames.GAMES.items():
        module = type(game).__module__.rpartition(".")[2]
        samples = [f"if game.id == {game_id!r}:", f"from .games.{module} import X", f"# {game.name} only",
                   f'parts.code == "{game.code}"']
        for sample in samples:
            assert any(p.search(sample) for p in words.values()), sample
    # ... and board keys that belong to one game only
    assert any(name.startswith("board key") for name in words)


@pytest.mark.parametrize("path", GENERIC_LAYERS)
def test_generic_layers_name_no_game(path):
    text = (PACKAGE / path).read_text()
    found = sorted({name for name, pattern in _game_words().items() if pattern.search(text)})
    assert not found, f"{path} names {found}: game knowledge belongs in the game's module or adapter, reached through hooks"


# The page's generic modules: they draw what the view says and send back
# moves, for every game alike (a game's own drawing is its board module).
WEB = Path(__file__).resolve().parent.parent / "web"
GENERIC_WEB = ["view/gameview.js", "view/phases.js", "view/sealing.js", "view/commit.js", "view/handover.js", "view/computer.js",
               "features/analysis.js", "bridge/pool.js", "share/picture.js", "features/puzzles.js", "features/puzzle-board.js",
               "view/history.js", "view/sidelines.js", "view/earlier-comments.js", "view/position.js", "view/address.js", "view/drawing.js",
               "view/regions.js", "view/focus.js", "view/frames.js", "view/other-tabs.js", "view/play-through.js",
               "share/svg-writer.js", "share/gif.js"]


def _web_words() -> dict[str, re.Pattern[str]]:
    """The game words of `_game_words`, with a game's own board keys caught
    where JavaScript reads them (`view.board.key`, `board?.key`), and
    the engine's sealing tokens written out instead of read from the view."""
    words = _game_words()
    # (record codes are two letters, like a language tag: the page reads no
    # record at all, which test_the_page_splits_no_record checks instead)
    words = {name: pattern for name, pattern in words.items() if not name.startswith("code ")}
    for name in [n for n in words if n.startswith("board key ")]:
        key = name.removeprefix("board key ")
        words[name] = re.compile(rf"""board\??\.{re.escape(key)}\b|board\??\.?\[["']{re.escape(key)}["']\]""")
    from quetgames.sealing import FORFEIT

    words["the forfeit move"] = re.compile(rf"""["']{re.escape(FORFEIT)}["']""")
    return words


def test_the_web_word_list_finds_what_it_looks_for():
    words = _web_words()
    keys = [n.removeprefix("board key ") for n in words if n.startswith("board key ")]
    assert keys
    samples = [f"const x = view.board?.{keys[0]};", f"view.board.{keys[-1]}.at(-1)", f'view.board["{keys[0]}"]',
               'play({ move: "f" })']
    for sample in samples:
        assert any(p.search(sample) for p in words.values()), sample


@pytest.mark.parametrize("path", GENERIC_WEB)
def test_generic_web_modules_name_no_game(path):
    text = (WEB / path).read_text()
    found = sorted({name for name, pattern in _web_words().items() if pattern.search(text)})
    assert not found, f"web/{path} names {found}: what a game needs comes from its view, or from its board module"


# The one place the page reads a record itself: naming the game and its
# players on the loading screen, before the engine has started (first paint
# must not wait for Python). The engine reads the record again, in full.
SPLITS_FOR_DISPLAY = {"loading.js": 1}


def test_the_page_splits_no_record():
    # The engine reads records (record.py, the bridge's record_info); the page only carries them.
    split = re.compile(r"""\.split\(\s*["']\.["']\s*\)""")
    found: dict[str, int] = {}
    for path in sorted(WEB.rglob("*.js")):
        count = sum(bool(split.search(line)) for line in path.read_text().splitlines())
        if count:
            found[path.name] = count
    assert found == SPLITS_FOR_DISPLAY, found


def _imports() -> dict[str, set[str]]:
    """Every quetgames module and the quetgames modules it imports anywhere
    (at the top, inside a function, or for the type checker only)."""
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                edges |= {a.name for a in node.names if a.name in modules}
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                    target = f"{base}.{node.module}" if node.module else base
                else:
                    target = node.module or ""
                for a in node.names:
                    if f"{target}.{a.name}" in modules:
                        edges.add(f"{target}.{a.name}")  # a module imported from its package
                    elif target in modules:
                        edges.add(target)
        graph[name] = edges - {name}
    return graph


def test_the_import_graph_is_read():
    graph = _imports()
    assert "quetgames.players.search" in graph["quetgames.analysis"]
    assert "quetgames.base" in graph["quetgames.players.search"]
    assert "quetgames.analysis" in graph["quetgames.bridge"]  # imported inside a function


def test_no_import_cycle():
    graph = _imports()
    state: dict[str, int] = {}  # 1 on the path, 2 done
    cycles = []

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for nxt in sorted(graph[module]):
            if state.get(nxt) == 1:
                cycles.append(path[path.index(nxt):] + [nxt] if nxt in path else [module, nxt])
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert not cycles, " ; ".join(" -> ".join(c) for c in cycles)


def test_base_imports_nothing_of_the_players():
    assert not {m for m in _imports()["quetgames.base"] if m.startswith("quetgames.players")}


@pytest.mark.parametrize("path", GENERIC_LAYERS + ["registry.py"])
def test_generic_layers_call_no_private_hook_of_another_object(path):
    # A hook used across modules has a public name; `_private` stays inside its class.
    tree = ast.parse((PACKAGE / path).read_text())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            owner = node.value
            mine = isinstance(owner, ast.Name) and owner.id in ("self", "cls", "new")
            parent = isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super"
            if not (mine or parent):
                found.append(f"line {node.lineno}: .{node.attr}")
    assert not found, found
