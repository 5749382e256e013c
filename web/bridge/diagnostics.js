// The Python behind worker.js?diagnostics: a few calls named "_…" that reach
// past the bridge (Python's random module, a timed computer move, the bridge
// tour run on the shipped standard library), for the benchmark (tools/bench.py)
// and the tests; the site never asks for them. In a module of its own so that
// only a worker started with ?diagnostics loads it (worker.js imports it then).
//
// DIAGNOSTICS_PY, run by the worker, ends in call(name, args_json) -> JSON
// text, like the bridge.

export const DIAGNOSTICS_PY = `
import json, random, time
import quetgames, quetgames.bridge

def call(name, args_json):
    args = json.loads(args_json)
    if name == "_random":
        return json.dumps({"random": [random.random() for _ in range(4)], "hash": hash("quet games")})
    if name == "_computer_move":
        state = quetgames.load(args["record"])
        seat = args.get("seat")
        seat = state.to_move[0] if seat is None else seat
        started = time.perf_counter()
        move = quetgames.computer_move(state, seat, args["level"], seed=args.get("seed", 0), budget=args.get("budget", 1.0))
        return json.dumps({"move": move, "ms": (time.perf_counter() - started) * 1000})
    if name == "_tour":  # tools/bridge_tour.py's source, run here on the shipped standard library
        namespace = {}
        exec(args["source"], namespace)
        return json.dumps(namespace["tour"](quetgames.bridge.call, list(quetgames.bridge._CALLS)))
    raise ValueError(f"no diagnostic call {name!r}")

call
`;
