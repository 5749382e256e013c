"""The slowest strong moves of each game, in CPU and wall time (issue 55).

Strong (seat g mod players) against random, games g = 0 .. --games - 1 of
every game at its default settings, each strong move timed with
time.thread_time (its own CPU, which a busy machine cannot lengthen) and
time.perf_counter (wall). Prints one JSON line per game with the five
slowest moves: (CPU s, wall s, moves played before it).

    python tools/slowest_moves.py [--budget 0.2] [--games 3]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=float, default=0.2)
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    for game_id in quetgames.GAMES:
        timed = []
        for g in range(args.games):
            state = quetgames.new_game(game_id)
            rng = random.Random(g)
            while not state.is_over:
                seat = state.to_move[0]
                if seat == g % state.players:
                    wall, cpu = time.perf_counter(), time.thread_time()
                    move = quetgames.computer_move(state, seat, "strong", seed=g, budget=args.budget)
                    timed.append((round(time.thread_time() - cpu, 3), round(time.perf_counter() - wall, 3), len(state.history)))
                else:
                    move = rng.choice(state.legal_moves(seat))
                state = state.play(move, seat)
        timed.sort(reverse=True)
        print(json.dumps({"game": game_id, "budget": args.budget, "strong_moves": len(timed), "slowest": timed[:5]}),
              flush=True)


if __name__ == "__main__":
    main()
