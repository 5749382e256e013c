"""Command line.

- ``python -m quetgames rules`` prints the rules document;
- ``python -m quetgames show <record>`` prints a game's position as text;
- ``python -m quetgames play --game multiplications --level strong`` plays a
  game against the computer in the terminal (moves read from stdin);
- ``python -m quetgames tournament --game enumeration --games 20`` plays the
  computer levels against each other and prints their win rates with 95%
  Wilson confidence intervals (ties count half);
- ``python -m quetgames analyse <record>`` judges every move of a game (the
  mover's expected result before and after, the best move, a class) and
  prints each seat's accuracy (see analysis.py); ``--workers N`` spreads the
  moves over N processes;
- ``python -m quetgames balance`` plays strong against strong over a grid of
  settings of every game and reports the first seat's share (docs/BALANCE.md);
- ``python -m quetgames puzzles --out ../docs/puzzles.json`` finds proved
  puzzles in seeded games (docs/PUZZLES.md); ``puzzles --check FILE``
  re-proves every puzzle of a file; ``puzzles --rate FILE`` rates every puzzle
  of a file again (sampled weak players) and writes it back.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import time
from collections.abc import Sequence
from typing import TextIO

from . import GAMES, RulesError, analyse, load, new_game
from .analysis import table as analysis_table
from .balance import wilson
from .base import State
from .help import rules_document
from .players import LEVELS, computer_move
from .data import JSON, JSONObject, Options


# -- text boards -------------------------------------------------------------


def notes_text(state: State) -> str:
    """The game id, comments and side lines, as lines of text ("" when a
    record has none): what `show` prints after the moves."""
    out = [f"Game id: {state.game_id}"] if state.game_id else []
    for ply, text in state.comments:
        where = "Before the first move" if ply == 0 else f"After move {ply}"
        out.append(f"{where}: {_indented(text)}")
    for index, line in enumerate(state.notes_view()["lines"], start=1):
        out.append(f"Side line {index}, instead of move {line['ply'] + 1}:")
        comments = {c["n"]: c["text"] for c in line["comments"]}
        for n, move in enumerate(line["moves"], start=1):
            said = f"  -- {_indented(comments[n])}" if n in comments else ""
            out.append(f"  {line['ply'] + n}. {state.seat_name(move['seat'])}: {move['words']} ({move['move']}){said}")
    return "".join(line + "\n" for line in out)


def _indented(text: str) -> str:
    return text.replace("\n", "\n    ")


def position_text(state: State, seat: int | None = None) -> str:
    """A position as text: the game, its board (drawn by the game itself), the
    scores and whose turn it is."""
    game = state.game
    return "\n".join([
        f"{game.name} (a game by {game.inventor})",
        state.text_board(),
        "Scores: " + ", ".join(f"{state.seat_name(s)} {score}" for s, score in enumerate(state.scores)),
        state.view(seat)["status"],
    ])


# -- options on the command line ---------------------------------------------


def parse_options(game_id: str, pairs: Sequence[str]) -> Options:
    """``name=value`` pairs, values read as JSON where they parse (numbers,
    true/false, [2, 3]) and as text otherwise; checked by the game itself."""
    options: Options = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep:
            raise RulesError(f"write an option as name=value, like size=8, not {pair!r:.40}")
        try:
            value = json.loads(text)
        except ValueError:
            value = text
        options[name.strip()] = value
    if game_id not in GAMES:
        raise RulesError(f"there is no game {game_id!r:.40}; the games are {', '.join(GAMES)}")
    GAMES[game_id].resolve_options(options)  # raises InvalidOptions
    return options


# -- play ------------------------------------------------------------------------


def play(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    options = parse_options(args.game, args.option or [])
    state = new_game(args.game, **options)
    humans = {s - 1 for s in args.seat} if args.seat else {0}
    if any(not 0 <= s < state.players for s in humans):
        raise RulesError(f"seats run from 1 to {state.players}")
    state = state.with_seats([("You" if s in humans else f"Computer ({args.level})") for s in range(state.players)],
                             [("human" if s in humans else args.level) for s in range(state.players)])
    print("Type a move, or 'moves' to list the legal moves, 'quit' to stop.", file=stdout)
    while not state.is_over:
        human = [s for s in state.to_move if s in humans]
        if not human:
            seat = state.to_move[0]
            move = computer_move(state, seat, args.level, seed=args.seed, budget=args.budget, iterations=args.iterations)
            print(f"{state.seat_name(seat)} plays {move}", file=stdout)
            state = state.play(move, seat)
            continue
        seat = human[0]
        print(position_text(state, seat), file=stdout)
        print(f"{state.seat_name(seat)}> ", end="", file=stdout, flush=True)
        line = stdin.readline()
        if not line:
            print("\nNo more input: the game stops here. Its record:", state.record, file=stdout)
            return 0
        text = line.strip()
        if text in ("quit", "exit"):
            print("Stopped. The game's record:", state.record, file=stdout)
            return 0
        if text in ("moves", "?", "help"):
            legal = state.legal_moves(seat)
            shown = " ".join(legal[:200]) + (f" … ({len(legal)} in all)" if len(legal) > 200 else "")
            print("Legal moves:", shown, file=stdout)
            continue
        try:
            state = state.play(text, seat)
        except RulesError as exc:
            print(f"That move cannot be played: {exc}", file=stdout)
    print(position_text(state), file=stdout)
    print("Record:", state.record, file=stdout)
    return 0


# -- tournament ----------------------------------------------------------------


def _one_game(task: tuple[str, Options, tuple[str, ...], int, float, int | None]) -> tuple[list[float], dict[str, list[float]]]:
    """Play one game; the result per seat (a win 1, a win shared by k seats 1/k)
    and the seconds each level spent per move."""
    game_id, options, seat_levels, seed, budget, iterations = task
    state = new_game(game_id, **options)
    spent: dict[str, list[float]] = {level: [] for level in set(seat_levels)}
    while not state.is_over:
        for seat in state.to_move:
            level = seat_levels[seat]
            start = time.perf_counter()
            move = computer_move(state, seat, level, seed=seed, budget=budget, iterations=iterations)
            spent[level].append(time.perf_counter() - start)
            state = state.play(move, seat)
            if state.is_over:
                break
    winners = state.winners
    return [1.0 / len(winners) if s in winners else 0.0 for s in range(state.players)], spent


def tournament(
    game_id: str,
    options: Options,
    levels: Sequence[str],
    games: int,
    budget: float = 1.0,
    iterations: int | None = None,
    jobs: int = 1,
    seed: int = 0,
) -> list[JSONObject]:
    """Round robin: every pair of levels plays `games` games, the seats
    alternating (game g gives seat s to the first level when s + g is even).
    Games with a `seed` option (Nonconformity's random starts) get a new
    seed each game unless the options fix it."""
    game = GAMES[game_id]
    seeded = any(o.name == "seed" for o in game.options) and "seed" not in options and "starts" not in options
    players = new_game(game_id, **options).players
    rows = []
    for a, b in itertools.combinations(levels, 2):
        tasks = []
        for g in range(games):
            seat_levels = tuple(a if (s + g) % 2 == 0 else b for s in range(players))
            opts = dict(options, seed=seed + g) if seeded else options
            tasks.append((game_id, opts, seat_levels, seed + g, budget, iterations))
        if jobs > 1:
            import multiprocessing

            with multiprocessing.Pool(jobs) as pool:
                results = pool.map(_one_game, tasks)
        else:
            results = [_one_game(t) for t in tasks]
        score = 0.0
        times: dict[str, list[float]] = {a: [], b: []}
        for (rewards, spent), task in zip(results, tasks):
            score += sum(r for r, level in zip(rewards, task[2]) if level == a)
            for level, seconds in spent.items():
                times[level].extend(seconds)
        low, high = wilson(score, games)
        rows.append({
            "game": game_id, "a": a, "b": b, "games": games, "score": score, "rate": score / games,
            "low": low, "high": high,
            "seconds_per_move": {level: (sum(t) / len(t) if t else 0.0) for level, t in times.items()},
            "max_seconds": {level: (max(t) if t else 0.0) for level, t in times.items()},
        })
    return rows


def tournament_table(rows: list[JSONObject]) -> str:
    lines = ["| game | pairing | games | first's score | first's win rate | 95% CI (Wilson) | s/move first | s/move second |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        t = r["seconds_per_move"]
        lines.append(
            f"| {r['game']} | {r['a']} vs {r['b']} | {r['games']} | {r['score']:g} | {r['rate']:.1%} | "
            f"{r['low']:.1%} – {r['high']:.1%} | {t[r['a']]:.3f} | {t[r['b']]:.3f} |"
        )
    return "\n".join(lines)


def _levels(text: str) -> list[str]:
    levels = [x.strip() for x in text.split(",") if x.strip()]
    bad = [x for x in levels if x not in LEVELS]
    if bad or len(levels) < 2 or len(set(levels)) != len(levels):
        raise RulesError(f"--levels takes two or more different levels from {', '.join(LEVELS)}, like random,greedy")
    return levels


# -- main ------------------------------------------------------------------------


def main(argv: list[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    parser = argparse.ArgumentParser(prog="python -m quetgames", description="Leroy Quet's number games.")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("rules", help="print the rules of every game (Markdown)")
    show = commands.add_parser("show", help="print the position of a game record")
    show.add_argument("record")
    show.add_argument("--json", action="store_true", help="print the whole view as JSON")

    game_ids = sorted(GAMES)
    play_cmd = commands.add_parser("play", help="play a game against the computer in the terminal")
    play_cmd.add_argument("--game", choices=game_ids, default="multiplications")
    play_cmd.add_argument("--option", "-o", action="append", metavar="NAME=VALUE", help="a game option, e.g. -o size=8 (repeatable)")
    play_cmd.add_argument("--level", choices=LEVELS, default="strong")
    play_cmd.add_argument("--seat", type=int, action="append", help="your seat, from 1 (repeatable; default 1)")
    play_cmd.add_argument("--budget", type=float, default=1.0, help="the computer's seconds per move")
    play_cmd.add_argument("--iterations", type=int, default=None, help="search iterations per move instead of a time budget")
    play_cmd.add_argument("--seed", type=int, default=0)

    tour = commands.add_parser("tournament", help="play computer levels against each other")
    tour.add_argument("--game", choices=game_ids + ["all"], default="all")
    tour.add_argument("--option", "-o", action="append", metavar="NAME=VALUE", help="a game option (repeatable; one game only)")
    tour.add_argument("--games", type=int, default=20, help="games per pairing")
    tour.add_argument("--levels", default=",".join(LEVELS), help="comma-separated levels, e.g. random,greedy,strong")
    tour.add_argument("--pairs", default=None, help="only these pairings, e.g. strong:greedy,greedy:random")
    tour.add_argument("--budget", type=float, default=1.0, help="seconds per move of the strong level")
    tour.add_argument("--iterations", type=int, default=None, help="search iterations per move (reproducible; overrides --budget)")
    tour.add_argument("--jobs", type=int, default=1, help="games played in parallel")
    tour.add_argument("--seed", type=int, default=0)
    tour.add_argument("--json", action="store_true", help="print the results as JSON lines")
    ana = commands.add_parser("analyse", help="judge every move of a game record: values, best moves, classes, accuracy")
    ana.add_argument("record")
    ana.add_argument("--budget", type=float, default=None,
                     help="seconds of search a move (default: the game's own setting, as the page analyses)")
    ana.add_argument("--iterations", type=int, default=None, help="search iterations per position (reproducible; overrides --budget)")
    ana.add_argument("--seed", type=int, default=0)
    ana.add_argument("--workers", type=int, default=1, help="processes the moves are spread over")
    ana.add_argument("--json", action="store_true", help="print the analysis as JSON")
    bal = commands.add_parser("balance", help="strong against strong over a grid of every game's settings: is the first seat favoured?")
    bal.add_argument("--game", choices=game_ids + ["all"], default="all")
    bal.add_argument("--games", type=int, default=10, help="games per setting")
    bal.add_argument("--iterations", type=int, default=100, help="strong's search iterations per move (0: use --budget)")
    bal.add_argument("--budget", type=float, default=1.0, help="strong's seconds per move when --iterations is 0")
    bal.add_argument("--jobs", "--workers", type=int, default=os.cpu_count() or 1,
                     help="proofs and games run in parallel (processes)")
    bal.add_argument("--seed", type=int, default=0)
    bal.add_argument("--out", default=None, help="write the table into this Markdown file (between its balance markers)")
    bal.add_argument("--json", default=None, help="write the rows to this JSON file")
    puz = commands.add_parser("puzzles", help="find positions with one proved winning move, or re-prove a file of them")
    puz.add_argument("--game", choices=game_ids + ["all"], default="all")
    puz.add_argument("--games", type=int, default=60, help="source games per setting")
    puz.add_argument("--iterations", type=int, default=30, help="strong's search iterations per move in the source games")
    puz.add_argument("--per-setting", type=int, default=None, help="stop a setting once this many are found")
    puz.add_argument("--seed", type=int, default=0)
    puz.add_argument("--out", default=None, help="write the puzzles to this JSON file")
    puz.add_argument("--check", default=None, metavar="FILE", help="re-prove every puzzle of FILE instead; exit 1 if one fails")
    puz.add_argument("--rate", default=None, metavar="FILE", help="rate every puzzle of FILE again (its sampled weak players) and write it back")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse has printed its message
        return int(exc.code or 0)
    try:
        if args.command == "rules":
            print(rules_document(), end="", file=stdout)
            return 0
        if args.command == "show":
            try:
                state = load(args.record)
            except RulesError as exc:
                print(f"That record cannot be opened: {exc}", file=sys.stderr)
                return 2
            if args.json:
                print(json.dumps(state.view(), indent=1), file=stdout)
            else:
                print(position_text(state), file=stdout)
                print("Moves:", " ".join(state.history) or "none yet", file=stdout)
                print(notes_text(state), end="", file=stdout)
            return 0
        if args.command == "play":
            return play(args, stdin, stdout)
        if args.command == "analyse":
            return _analyse_command(args, stdout)
        if args.command == "balance":
            return _balance_command(args, stdout)
        if args.command == "puzzles":
            return _puzzles_command(args, stdout)
        return _tournament_command(args, stdout)
    except RulesError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 2


def _analyse_command(args: argparse.Namespace, stdout: TextIO) -> int:
    try:
        state = load(args.record)
    except RulesError as exc:
        print(f"That record cannot be opened: {exc}", file=sys.stderr)
        return 2
    report = analyse(state, args.budget, args.seed, iterations=args.iterations, workers=args.workers)
    if args.json:
        print(json.dumps(report.to_json(), indent=1), file=stdout)
    else:
        names = [state.seat_name(s) for s in range(state.players)]
        print(analysis_table(report, names), file=stdout)
    return 0


BALANCE_START = "<!-- balance table: written by python -m quetgames balance --out -->"
BALANCE_END = "<!-- end of balance table -->"


def _balance_command(args: argparse.Namespace, stdout: TextIO) -> int:
    from .balance import SETTINGS, balance, balance_markdown, fairest

    if not 1 <= args.games <= 100_000:
        raise RulesError("--games is a whole number from 1 to 100000")
    if not 1 <= args.jobs <= 64:
        raise RulesError("--jobs is a whole number from 1 to 64")
    iterations = args.iterations or None
    computer_move(new_game("multiplications"), 0, "random", seed=args.seed, budget=args.budget, iterations=iterations)
    settings = [s for s in SETTINGS if args.game in ("all", s[0])]
    start = time.perf_counter()

    def report(row: JSONObject) -> None:
        print(f"{row['game']} {row['options']}: " + ("proved" if row["proved"] is not None else f"{row['share']:.2f}"),
              file=sys.stderr, flush=True)

    rows = balance(settings, args.games, iterations, args.budget, args.jobs, args.seed, report)
    seconds = time.perf_counter() - start
    table = balance_markdown(rows)
    how = f"{iterations} iterations a move" if iterations else f"{args.budget:g} s a move"
    played = sum(r["games"] for r in rows)
    note = (f"{len(rows)} settings, {args.games} games each where not proved ({played} games), strong at {how}, "
            f"seeds from {args.seed}, {args.jobs} processes: {seconds:.0f} s.")
    print(table + "\n\n" + note, file=stdout)
    if args.out:
        try:
            with open(args.out, encoding="utf-8") as f:
                text = f.read()
        except FileNotFoundError:
            text = f"# Balance\n\n{BALANCE_START}\n{BALANCE_END}\n"
        if BALANCE_START not in text or BALANCE_END not in text:
            raise RulesError(f"{args.out} has no balance markers to write between")
        head, rest = text.split(BALANCE_START, 1)
        tail = rest.split(BALANCE_END, 1)[1]
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(f"{head}{BALANCE_START}\n{note}\n\n{table}\n{BALANCE_END}{tail}")
    if args.json:
        data = {"games_per_setting": args.games, "iterations": iterations, "budget": None if iterations else args.budget,
                "seed": args.seed, "seconds": round(seconds, 1), "rows": rows, "fairest": fairest(rows)}
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1)
            f.write("\n")
    return 0


def _puzzles_command(args: argparse.Namespace, stdout: TextIO) -> int:
    from .puzzles import SETTINGS, check_all, make, rerate, spread

    if args.rate:
        with open(args.rate, encoding="utf-8") as f:
            data = json.load(f)
        start = time.perf_counter()
        data = rerate(data)
        with open(args.rate, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1)
            f.write("\n")
        print(f"{len(data['puzzles'])} puzzles rated again in {time.perf_counter() - start:.1f} s", file=stdout)
        for game, s in spread(data["puzzles"]).items():
            print(f"{game}: {s['near']} of {s['puzzles']} within 200 of 1200, at most {s['most']} on one rating "
                  f"({s['at']}), {s['low']} to {s['high']}", file=stdout)
        return 0
    if args.check:
        with open(args.check, encoding="utf-8") as f:
            data = json.load(f)
        start = time.perf_counter()
        problems = check_all(data)
        for problem in problems:
            print(problem, file=stdout)
        print(f"{len(data['puzzles'])} puzzles re-proved in {time.perf_counter() - start:.1f} s: "
              + (f"{len(problems)} problems" if problems else "all hold"), file=stdout)
        return 1 if problems else 0
    if not 1 <= args.games <= 100_000:
        raise RulesError("--games is a whole number from 1 to 100000")
    settings = [s for s in SETTINGS if args.game in ("all", s[0])]

    def report(puzzle: JSONObject) -> None:
        print(f"{puzzle['id']} {puzzle['options']}: {' or '.join(puzzle['solutions'])} "
              f"(rating {puzzle['rating']['elo']})", file=sys.stderr, flush=True)

    data = make(settings, args.games, args.seed, args.iterations, args.per_setting, report)
    counts = ", ".join(f"{game}: {n}" for game, n in data["counts"].items()) or "none"
    print(f"{len(data['puzzles'])} puzzles ({counts}) in {data['seconds']} s", file=stdout)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1)
            f.write("\n")
    return 0


def _tournament_command(args: argparse.Namespace, stdout: TextIO) -> int:
    if not 1 <= args.games <= 100_000:
        raise RulesError("--games is a whole number from 1 to 100000")
    if not 1 <= args.jobs <= 64:
        raise RulesError("--jobs is a whole number from 1 to 64")
    games = sorted(GAMES) if args.game == "all" else [args.game]
    if args.option and len(games) > 1:
        raise RulesError("options need one game: add --game")
    rows = []
    if args.pairs:
        pairs = []
        for item in args.pairs.split(","):
            pair = _levels(item.replace(":", ","))
            if len(pair) != 2:
                raise RulesError("--pairs takes pairs like strong:greedy")
            pairs.append(pair)
    else:
        pairs = [_levels(args.levels)]
    # Check the budget and iterations once, before any game starts.
    computer_move(new_game(games[0]), new_game(games[0]).to_move[0], "random", seed=args.seed, budget=args.budget, iterations=args.iterations)
    for game_id in games:
        options = parse_options(game_id, args.option or [])
        for levels in pairs:
            for row in tournament(game_id, options, levels, args.games, args.budget, args.iterations, args.jobs, args.seed):
                rows.append(row)
                if args.json:
                    print(json.dumps(row), file=stdout, flush=True)
    if not args.json:
        print(tournament_table(rows), file=stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
