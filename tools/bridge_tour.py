"""A walk through every call of the browser boundary, for every game.

The build runs it inside Pyodide (in Node, with Python's whole standard
library) to learn which standard-library modules the engine really imports, and
ships only those; the browser tests run it again inside the site's own worker,
on the trimmed library, so a module the build left out fails a test instead of
a player's game. It needs nothing but the bridge's `call` and this file's own
imports, which are part of what it measures.

    tour(call) -> {"calls": [names toured], "problems": [what went wrong]}

`call` is `quetgames.bridge.call` (JSON text in, JSON text out). A problem is an
answer of type InternalError (an exception the engine did not expect, such as a
missing module), a call that should fail and did not, or a call of the bridge
this tour does not visit.
"""

import json
import random

PUZZLE = '{"id":"cc-5459ab7c","game":"convoluted-coprimality","record":"q1.cc.p2_s9_r3.kkkkffffq","seat":1,"solutions":["h8"],"line":[{"move":"h8","seat":1,"only":true},{"move":"g8","seat":0,"only":false}],"line_end":"over","others":{"i7":{"value":0.0,"reply":"i6"}},"rating":{"strong_miss":0,"greedy_miss":0,"raters":6,"legal":2,"miss":0.0,"elo":800}}'

# A random 4-wedge Prime Target game (seeded play) whose rings give proved wins away.
MISTAKE = "q1.pt.p2_k2_r4.41321324APADAJAG"


def tour(call, calls=None):
    """Visit every bridge call; `calls` is the bridge's list of call names."""
    toured = set()
    problems = []

    def ask(name, args=None, *, fails=False, may_fail=False):
        """The call's result; `fails`: it must be refused; `may_fail`: a
        refusal in words is fine (only an unexpected exception is a problem)."""
        toured.add(name)
        reply = json.loads(call(name, json.dumps(args if args is not None else {})))
        error = reply.get("error") or {}
        if error.get("type") == "InternalError":
            problems.append(f"{name}({json.dumps(args)[:120]}): {error.get('message')}")
        elif fails and reply.get("ok"):
            problems.append(f"{name}({json.dumps(args)[:120]}) should have been refused")
        elif not fails and not may_fail and not reply.get("ok"):
            problems.append(f"{name}({json.dumps(args)[:120]}) was refused: {error.get('message')}")
        return reply.get("result")

    games = ask("games")
    rng = random.Random(0)
    for game in games or []:
        players = next((o for o in game["options"] if o["name"] == "players"), None)
        made = ask("new", {"game": game["id"], "options": {}})
        ask("new", {"game": game["id"], "options": {},
                    "seats": [{"name": "Ada", "kind": "human"}, {"name": "", "kind": "strong"}]})
        if made is None:
            continue
        record = made["record"]
        for level in game.get("computer_levels", []):
            ask("computer", {"record": record, "seat": 0, "level": level, "budget": 0.05, "seed": 1})
        ask("open", {"record": record, "seat": 0})
        ask("view", {"record": record, "seat": 1})
        # A few moves of the game, each the first or a random legal one; a move
        # with parts (a Prime Target ring) is previewed first.
        for ply in range(12):
            view = ask("view", {"record": record})
            if not view or view.get("over"):
                break
            seat = view["to_move"][0]
            moves = ask("legal", {"record": record, "seat": seat}) or []
            if not moves:
                break
            move = moves[0] if ply == 0 else rng.choice(moves)
            ask("preview", {"record": record, "move": move, "seat": seat}, may_fail=True)
            played = ask("play", {"record": record, "move": move, "seat": seat})
            if played is None:
                break
            record = played["private_record"]
        begun = (ask("at", {"record": record, "ply": 0}) or {}).get("private_record", record)
        ask("compare", {"mine": record, "theirs": record, "seats": [0]})
        ask("news", {"mine": begun, "theirs": record})
        # Notes (docs/RECORD.md): a comment, a side line from the start, its
        # extension and comment, stepping into it, dropping it; ids.
        record = (ask("annotate", {"record": record, "ply": 0, "text": "Before the first move ✓"}) or {}).get("private_record", record)
        start = ask("at", {"record": record, "ply": 0}) or {}
        first = (ask("at", {"record": record, "ply": 1}, may_fail=True) or {}).get("view", {}).get("history", [])
        seat0 = (start.get("view") or {}).get("to_move", [0])[0]
        others = [m for m in (start.get("view") or {}).get("legal_moves", []) if [m] != first]
        branched = ask("branch", {"record": record, "ply": 0, "move": others[0], "seat": seat0}, may_fail=True) if others else None
        if branched is not None:
            lined = branched["private_record"]
            inside = ask("at", {"record": lined, "line": 0, "ply": 1}) or {}
            view = inside.get("view") or {}
            if view.get("to_move") and view.get("legal_moves"):
                lined = (ask("extend", {"record": lined, "line": 0, "move": view["legal_moves"][0],
                                        "seat": view["to_move"][0]}, may_fail=True) or {}).get("private_record", lined)
            lined = (ask("annotate", {"record": lined, "line": 0, "ply": 1, "text": "A side line"}) or {}).get("private_record", lined)
            ask("drop_line", {"record": lined, "line": 0})
        ask("annotate", {"record": record, "ply": 0, "text": "\u202e"}, fails=True)
        ask("annotate_many", {"record": record, "comments": [{"ply": 0, "text": "First"}, {"ply": 1, "text": "Then ✓"}]})
        ask("annotate_many", {"record": record, "comments": [{"ply": 0, "text": "ok"}, {"ply": 0, "text": "\u202e"}]}, fails=True)
        ask("new_id", {"record": record, "branch": 0})
        ask("record_info", {"record": record})
        ask("analyse", {"record": record, "iterations": 5, "seed": 1})
        ask("analyse", {"record": record, "iterations": 5, "span": [0, 1]})
        ask("analyse", {"record": record, "iterations": 0}, fails=True)
        ask("play", {"record": record, "move": "not a move"}, fails=True)
        if players is not None and players["min"] == 1 and game["id"] == "enumeration":
            solo = ask("new", {"game": game["id"], "options": {"players": 1, "size": 3}})
            if solo is not None:
                ask("solitaire_best", {"record": solo["record"]})
    # A puzzle as puzzles.json ships it (one of docs/puzzles.json): shown, a
    # right and a wrong move answered, the solution; a forged one refused.
    puzzle = json.loads(PUZZLE)
    ask("puzzle", {"puzzle": puzzle})
    ask("puzzle", {"puzzle": puzzle, "move": puzzle["solutions"][0]})
    ask("puzzle", {"puzzle": puzzle, "move": next(iter(puzzle["others"]))})
    ask("puzzle", {"puzzle": puzzle, "solution": True})
    ask("puzzle", {"puzzle": {**puzzle, "solutions": []}}, fails=True)
    ask("puzzle", {"puzzle": puzzle, "move": "not a move"}, fails=True)
    ask("puzzle_of_the_day", {"ids": [puzzle["id"], "other"], "date": "2026-11-25"})
    ask("puzzle_of_the_day", {"ids": [], "date": "2026-11-25"}, fails=True)
    # Practise your mistakes (docs/PUZZLES.md): a short Prime Target game
    # whose last but one ring gives the win away; its exercises, the right
    # move and the played one tried again, a move that is no exercise refused.
    mistaken = ask("mistakes", {"record": MISTAKE})
    exercise = ((mistaken or {}).get("exercises") or [{}])[0]
    if exercise:
        ask("mistakes", {"record": MISTAKE, "ply": exercise["ply"], "move": exercise["solutions"][0]})
        ask("mistakes", {"record": MISTAKE, "ply": exercise["ply"], "move": exercise["move"]})
    else:
        problems.append("mistakes found no exercise in the tour's game")
    ask("mistakes", {"record": MISTAKE, "analysis": {"moves": [{"ply": 1, "grade": "blunder", "exact": True}]}})
    ask("mistakes", {"record": MISTAKE, "ply": 1, "move": "1@1"}, fails=True)
    ask("mistakes", {"record": MISTAKE, "analysis": {"moves": "none"}}, fails=True)
    # Lessons (docs/LEARN.md): the list, each game's lesson, on every step its
    # answer, a passing and a failing move and a move the engine refuses (a
    # refusal is an answer in words, not an error); the game that ends each
    # lesson played one move; an unknown game and step refused.
    for entry in ask("lesson") or []:
        lesson = ask("lesson", {"game": entry["game"]}) or {}
        for step in lesson.get("steps", []):
            named = {"game": entry["game"], "step": step["id"]}
            if step["check"] == "play":
                named["record"] = step["record"]
                ask("lesson", {**named, "answer": True})
                ask("lesson", {**named, "move": step["view"]["legal_moves"][0]})
                ask("lesson", {**named, "move": "not a move"})
                continue
            passing = (ask("lesson", {**named, "answer": True}) or {}).get("moves") or []
            failing = [m for m in step["view"]["legal_moves"] if m not in passing]
            for move in passing[:1] + failing[:1] + ["not a move"]:
                ask("lesson", {**named, "move": move})
    ask("lesson", {"game": "no-such-game"}, fails=True)
    ask("lesson", {"game": "enumeration", "step": "no-such-step", "move": "b2=0"}, fails=True)
    ask("commitment", {"salt": "s" * 24, "pick": "12"})
    # A Nonconformity round played by link: Player 1 seals 12, Player 2 picks 8
    # in the open, Player 1 reveals; a wrong reveal is refused.
    nc = ask("new", {"game": "nonconformity", "options": {"starts": [6, 4]}})
    if nc is not None:
        salt = "Salt0123456789ab"
        sealed = ask("seal", {"record": nc["record"], "seat": 0, "pick": "12", "salt": salt})
        if sealed is not None:
            answered = ask("play", {"record": sealed["record"], "move": "8", "seat": 1})
            if answered is not None:
                ask("reveal", {"record": answered["record"], "seat": 0, "pick": "18", "salt": salt}, fails=True)
                ask("reveal", {"record": answered["record"], "seat": 0, "pick": "12", "salt": salt})
        ask("seal", {"record": nc["record"], "seat": 0, "pick": "12", "salt": "short"}, fails=True)
    ask("open", {"record": "q1.zz.bad"}, fails=True)
    ask("open", {"record": "%%%"}, fails=True)
    ask("new", {"game": "no-such-game"}, fails=True)
    ask("no_such_call", fails=True)
    toured.discard("no_such_call")
    # Not JSON at all, and JSON that is not an object.
    for text in ("{", "[1, 2]"):
        reply = json.loads(call("games", text))
        if reply.get("ok") or reply["error"]["type"] == "InternalError":
            problems.append(f"games with arguments {text!r} gave {reply}")
    problems.extend(f"the tour never calls {name!r}" for name in sorted(set(calls or ()) - toured))
    return {"calls": sorted(toured), "problems": problems}
