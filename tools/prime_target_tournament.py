"""Does the strong player keep what is proved? Prime Target at the default
settings, from random full centres (issue 55).

Each game starts from a centre filled at random (seeded), then the two seats
complete the four rings: strong against strong with a longer budget, or
strong against greedy, seats swapped every other game. Before and after
every ring move the position is proved (players/prime_target.proved: the
first-ring table, then the exact ring search), and a move that leaves its
mover a worse proved result (a win turned into a shared win or a loss, a
shared win into a loss) is counted against its player; so is a move that
gives up margin, separately. Printed as one JSON line, with the slowest
strong move.

    python tools/prime_target_tournament.py [--games 200] [--budget 1.0] [--long 3.0]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "py"))

import quetgames  # noqa: E402
from quetgames.players import computer_move  # noqa: E402
from quetgames.players.prime_target import _PROVED, proved  # noqa: E402


def result(final: int, seat: int) -> float:
    """A seat's result from Player 1's final margin: 1 won, 0.5 shared, 0 lost."""
    mine = final if seat == 0 else -final
    return 1.0 if mine > 0 else 0.5 if mine == 0 else 0.0


def random_centre(seed: int) -> quetgames.State:
    rng = random.Random(f"centre|{seed}")
    state = quetgames.new_game("prime-target")
    while state.opening:  # type: ignore[attr-defined]
        state = state.play(rng.choice(state.legal_moves()))
    return state


def play(seed: int, levels: tuple[tuple[str, float], tuple[str, float]], tally: dict[str, dict[str, float]]) -> None:
    state = random_centre(seed)
    while not state.is_over:
        seat = state.to_move[0]
        level, budget = levels[seat]
        name = f"{level} {budget:g} s" if level == "strong" else level
        before = proved(state)
        assert before is not None
        _PROVED.clear()  # the move proves its own position, as it would in a game
        began = time.process_time()
        move = computer_move(state, seat, level, seed=seed, budget=budget)
        spent = time.process_time() - began
        after_state = state.play(move, seat)
        after = proved(after_state) if not after_state.is_over else (after_state.scores[0] - after_state.scores[1], "")
        assert after is not None
        row = tally.setdefault(name, {"moves": 0, "worse": 0, "margin_given": 0, "slowest_cpu_s": 0.0})
        row["moves"] += 1
        row["worse"] += result(after[0], seat) < result(before[0], seat)
        row["margin_given"] += (before[0] - after[0]) * (1 if seat == 0 else -1) > 0
        row["slowest_cpu_s"] = round(max(row["slowest_cpu_s"], spent), 3)
        state = after_state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--budget", type=float, default=1.0)
    parser.add_argument("--long", type=float, default=3.0)
    args = parser.parse_args()
    began = time.perf_counter()
    report = {}
    for label, other in (("against strong with a longer budget", ("strong", args.long)), ("against greedy", ("greedy", 0.2))):
        tally: dict[str, dict[str, float]] = {}
        for g in range(args.games):
            mine = ("strong", args.budget)
            play(g, (mine, other) if g % 2 == 0 else (other, mine), tally)
        report[label] = tally
    print(json.dumps({"games": args.games, "budget": args.budget, "long": args.long, "report": report,
                      "seconds": round(time.perf_counter() - began)}))


if __name__ == "__main__":
    main()
