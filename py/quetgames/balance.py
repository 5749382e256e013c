"""Balance: which settings are fair. Strong plays strong over a grid of every
game's options, and where search proves the outcome the proof replaces the
estimate.

Per setting the report gives the first seat's score share (a win 1, a win
shared by k seats 1/k, so a fair game gives it 1/players) with a 95% Wilson
interval, how often a game was shared, and the mean game length in moves.
Every game of a setting gets its own seed (the searches' and, for a game
that draws its start from a seed, the draw's), so strong against strong does
not replay one game N times; with every seat strong, seat alternation changes
nothing, so the seeds are what vary. The settings are each game's own
`Game.balance_settings`, in menu order.

Proved: where a game's adapter can solve the start (its `prove` hook: say,
an alpha-beta that resolves every line within a few seconds), the setting
reports the proved winner instead of playing games.

With ``jobs`` > 1 the proofs and the games run in worker processes
(`concurrent.futures`, started with 'spawn'), each proof and each game a
task, all submitted at once; with ``iterations`` set the games are
reproducible on any machine, and the rows the same in one process or many.
Pyodide has no processes: there only ``jobs=1`` works (the import happens
only when processes are asked for).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .errors import RulesError
from .players import computer_move, player_for
from .registry import GAMES
from .data import JSONObject, Options, OptionsGiven

__all__ = ["SETTINGS", "wilson", "prove", "balance", "balance_markdown", "setting_key", "lookup", "page_data"]

PROOF_SECONDS = 5.0  # the most a proof may take before the setting is played instead

SETTINGS: tuple[tuple[str, Options], ...] = tuple(
    (game_id, dict(options)) for game_id, game in GAMES.items() for options in game.balance_settings)


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate `score / n` (ties counted as half)."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def prove(game_id: str, options: Options, seconds: float = PROOF_SECONDS) -> float | None:
    """The first seat's proved result under best play (1 won, 0 lost, 0.5 a
    shared win), or None when no search here proves it within `seconds`."""
    game = GAMES[game_id]
    return player_for(game).prove(game.new(**options), seconds)


def _timed_proof(task: tuple[str, Options]) -> tuple[float | None, float]:
    """`prove` and the seconds it took (a task for a worker process)."""
    start = time.perf_counter()
    proved = prove(*task)
    return proved, time.perf_counter() - start


def _drawn(game_id: str, options: OptionsGiven) -> bool:
    """Whether the setting leaves its start to a seeded draw (a game with a
    `seed` option, with neither seed nor starts given): such a row is
    measured over many draws."""
    return any(o.name == "seed" for o in GAMES[game_id].options) and "seed" not in options and "starts" not in options


def _one_game(task: tuple[str, Options, int, float, int | None]) -> tuple[float, bool, int]:
    """Strong against itself: the first seat's result, whether the win was
    shared, and the number of moves."""
    game_id, options, seed, budget, iterations = task
    state = GAMES[game_id].new(**options)
    while not state.is_over:
        seat = state.to_move[0]
        state = state.play(computer_move(state, seat, "strong", seed=seed, budget=budget, iterations=iterations), seat)
    winners = state.winners
    return (1.0 / len(winners) if 0 in winners else 0.0), len(winners) > 1, len(state.history)


def balance(
    settings: Sequence[tuple[str, Options]] = SETTINGS,
    games: int = 10,
    iterations: int | None = 100,
    budget: float = 1.0,
    jobs: int = 1,
    seed: int = 0,
    progress: Callable[[JSONObject], None] | None = None,
) -> list[JSONObject]:
    """One row per setting (see the module's docstring); `progress(row)` as each is done."""
    if jobs > 1:
        # Imported here: Pyodide has no processes, and the browser never gets here.
        from concurrent.futures import ProcessPoolExecutor
        from multiprocessing import get_context

        with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn")) as pool:
            return _balance(settings, games, iterations, budget, seed, progress, pool.map, pool.submit)
    return _balance(settings, games, iterations, budget, seed, progress, map, _now)


class _Done:
    """A call already made: what `pool.submit` returns, in one process."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def result(self) -> Any:
        return self.value


def _now(function: Callable[[Any], Any], task: Any) -> _Done:
    return _Done(function(task))


def _balance(settings: Sequence[tuple[str, Options]], games: int, iterations: int | None, budget: float, seed: int,
             progress: Callable[[JSONObject], None] | None, mapping: Callable[..., Iterable[Any]],
             submit: Callable[..., Any]) -> list[JSONObject]:
    """`balance` over `mapping` (map, or a pool's) and `submit`: the proofs of
    every setting first, all at once, then every game of every setting left
    unproved, all submitted before any is awaited so no process waits at a
    setting's end; the rows are finished in order."""
    proofs = list(mapping(_timed_proof, [(game_id, options) for game_id, options in settings]))
    rows: list[JSONObject] = []
    plan = []
    for (game_id, options), (proved, seconds) in zip(settings, proofs):
        game = GAMES[game_id]
        # Games that draw their start from a seed (the seed left unset) get
        # seed + g in game g; the row's own record options use `seed`, so they
        # are the same in every run and every process.
        seeded = _drawn(game_id, options)
        resolved = game.resolve_options(dict(options, seed=seed) if seeded else options)
        players = resolved["players"] if "players" in resolved else 2
        row: JSONObject = {
            "game": game_id, "options": options, "record_options": game.encode_options(resolved),
            "players": players, "fair": 1.0 / players, "proved": proved,
            "proof_seconds": round(seconds, 3) if proved is not None else None,
            "games": 0, "first_score": None, "share": None, "low": None, "high": None,
            "shared": None, "mean_length": None,
        }
        rows.append(row)
        if proved is None:
            tasks = [(game_id, dict(options, seed=seed + g) if seeded else options, seed + g, budget, iterations)
                     for g in range(games)]
            plan.append((row, [submit(_one_game, t) for t in tasks]))
        elif progress is not None:
            progress(row)
    for row, futures in plan:
        _finish(row, [f.result() for f in futures], progress)
    return rows


def _finish(row: JSONObject, results: list[tuple[float, bool, int]], progress: Callable[[JSONObject], None] | None) -> None:
    n = len(results)
    score = sum(r for r, _, _ in results)
    low, high = wilson(score, n)
    row.update(games=n, first_score=score, share=score / n, low=low, high=high,
               shared=sum(s for _, s, _ in results) / n, mean_length=sum(m for _, _, m in results) / n)
    if progress is not None:
        progress(row)


def describe(row: JSONObject) -> str:
    """What is known of a setting, in words: the line a setup screen can show."""
    if row["proved"] is not None:
        v = row["proved"]
        return "Solved: Player 1 can always win" if v == 1 else "Solved: Player 2 can always win" if v == 0 else "Solved: a shared win"
    if row["share"] is None:
        return "no figures for these settings yet"
    half = (row["high"] - row["low"]) / 2
    return f"Player 1 scores {row['share']:.0%} ± {half:.0%} under strong play (fair: {row['fair']:.0%})"


def fairest(rows: Sequence[JSONObject], count: int = 3) -> dict[str, list[JSONObject]]:
    """Per game, the measured settings whose first seat's share is nearest the
    fair share (proved settings are never fair: someone can always win)."""
    out: dict[str, list[JSONObject]] = {}
    for game_id in dict.fromkeys(r["game"] for r in rows):
        measured = [r for r in rows if r["game"] == game_id and r["share"] is not None]
        measured.sort(key=lambda r: (abs(r["share"] - r["fair"]), r["high"] - r["low"]))
        out[game_id] = [{"options": r["options"], "share": r["share"], "fair": r["fair"],
                         "fair_inside_interval": r["low"] <= r["fair"] <= r["high"]} for r in measured[:count]]
    return out


def balance_markdown(rows: Sequence[JSONObject]) -> str:
    """The table of docs/BALANCE.md."""
    lines = ["| game | options | seats | games | Player 1's share (fair) | 95% CI (Wilson) | shared | mean moves | known |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        opts = ", ".join(f"{k}={v}" for k, v in r["options"].items()) or "defaults"
        if r["proved"] is not None:
            lines.append(f"| {r['game']} | {opts} | {r['players']} | — | **{r['proved']:.0%}** proved ({r['fair']:.0%}) | — | — | — | {describe(r)} |")
        else:
            lines.append(
                f"| {r['game']} | {opts} | {r['players']} | {r['games']} | {r['share']:.0%} ({r['fair']:.0%}) | "
                f"{r['low']:.0%} – {r['high']:.0%} | {r['shared']:.0%} | {r['mean_length']:.1f} | {describe(r)} |"
            )
    return "\n".join(lines)



# -- looking figures up ---------------------------------------------------------


def setting_key(game_id: str, options: OptionsGiven, seed: int = 0) -> tuple[str, str, bool]:
    """What makes two settings the same for the figures: the game, the engine's
    own record spelling of the options once resolved (defaults filled, options
    that do not apply dropped), and whether the start is left to a draw. A
    drawn start is resolved from `seed` (the run's), so it compares equal to a
    row of that run; a seed or starts given names one particular start, which
    no drawn row covers. Raises InvalidOptions for options the game refuses."""
    game = GAMES[game_id]
    drawn = _drawn(game_id, options)
    resolved = game.resolve_options(dict(options, seed=seed) if drawn else options)
    return game_id, game.encode_options(resolved), drawn


def lookup(report: JSONObject, game_id: str, options: OptionsGiven) -> JSONObject | None:
    """The row of a balance report (docs/balance.json) for a game and options,
    matched on the engine's normalised options and so on the seat count too
    (``players`` is an option, and a game without it always has two seats),
    or None when the report has no figures for that setting."""
    seed = int(report.get("seed") or 0)
    wanted = setting_key(game_id, options, seed)
    for row in report["rows"]:
        if row["game"] == game_id and setting_key(game_id, row["options"], seed) == wanted:
            return dict(row)
    return None


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def page_data(report: JSONObject) -> JSONObject:
    """The part of a balance report the web page needs (build.py writes it into
    build.json), per game: its rows, each with its full option set (every
    option, defaults filled, as a setup form's values are) and seat count,
    the figures rounded, and the proved winner where search proved one; and
    `fairest`, the report's fairest settings as indices into those rows.

    A row whose options no longer resolve to what was measured (a default
    changed since the run) is left out and named in `stale`: old figures must
    not be shown for a different game."""
    seed = int(report.get("seed") or 0)
    games: dict[str, JSONObject] = {}
    stale: list[str] = []
    report_rows: dict[str, list[JSONObject]] = {}  # the report's rows kept, in the order of `games`
    for row in report["rows"]:
        game_id = row["game"]
        game = GAMES.get(game_id)
        if game is None:
            stale.append(f"{game_id} {row['options']}")
            continue
        drawn = _drawn(game_id, row["options"])
        try:
            resolved = game.resolve_options(dict(row["options"], seed=seed) if drawn else row["options"])
            full = game.defaults | {name: game.option(name).validate(value) for name, value in row["options"].items()}
        except RulesError:
            stale.append(f"{game_id} {row['options']}")
            continue
        if game.encode_options(resolved) != row["record_options"]:
            stale.append(f"{game_id} {row['options']}")
            continue
        seats = row["players"]
        proved = row["proved"]
        page_row: JSONObject = {
            "options": {name: list(value) if isinstance(value, tuple) else value for name, value in full.items()},
            "seats": seats,
            "fair": _rounded(row["fair"]),
        }
        if proved is not None:
            # the first seat's proved value: 1 it wins, 0 it loses (with two
            # seats, the other wins), anything else a shared win
            page_row["proved"] = proved
            page_row["proved_winner"] = 1 if proved == 1 else 2 if proved == 0 and seats == 2 else None
        else:
            page_row.update(games=row["games"], share=_rounded(row["share"]), low=_rounded(row["low"]),
                            high=_rounded(row["high"]), shared=_rounded(row["shared"]))
        games.setdefault(game_id, {"rows": [], "fairest": []})["rows"].append(page_row)
        report_rows.setdefault(game_id, []).append(row)
    for game_id, picks in report.get("fairest", {}).items():
        if game_id not in games:
            continue
        for pick in picks:
            found = [i for i, r in enumerate(report_rows[game_id]) if r["options"] == pick["options"]]
            if found:
                games[game_id]["fairest"].append(found[0])
    return {
        "games_per_setting": report.get("games_per_setting"),
        "iterations": report.get("iterations"),
        "budget": report.get("budget"),
        "games": games,
        "stale": stale,
    }
