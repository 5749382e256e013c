"""Build Prime Target's first-ring table (py/quetgames/games/prime_target_table.py).

Every class of full centres at the default settings (8 wedges, two seats,
two rings each; a class is a centre with its turns and mirrors) is proved
with the ring search of players/prime_target_proof.py: Player 1's margin
under best play and the first ring, in notation order, that forces it. The
entries are written into the table module between its ENTRIES quotes, and
the time, the entries and the module's bytes (raw, and xz-compressed as the
browser gets the engine) are printed.

    python tools/prime_target_table.py [--jobs N] [--check]

--check proves every class again and compares it with the table in place,
writing nothing. The build took 13 minutes with 3 processes on 2 busy cores
(12.4 CPU minutes; docs/BENCH.md).
"""

from __future__ import annotations

import argparse
import itertools
import lzma
import re
import sys
import time
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

from quetgames.games.prime_target import ring_notation  # noqa: E402
from quetgames.games.prime_target_table import RAYS, RINGS, canonical, entries  # noqa: E402
from quetgames.players.prime_target_proof import best_rings  # noqa: E402

MODULE = ROOT / "py" / "quetgames" / "games" / "prime_target_table.py"
PER_LINE = 6


def classes() -> list[tuple[int, ...]]:
    """The smallest centre of every class, in increasing order."""
    return [c for c in itertools.permutations(range(1, RAYS + 1)) if canonical(c)[0] == c]


def solve(centre: tuple[int, ...]) -> str:
    value, masks = best_rings(centre, RINGS)
    return f"{''.join(map(str, centre))}:{value}:{ring_notation(masks[0], RAYS)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    began = time.perf_counter()
    centres = classes()
    with Pool(args.jobs) as pool:
        solved = pool.map(solve, centres, chunksize=16)
    seconds = time.perf_counter() - began
    if args.check:
        known = entries()
        wrong = [e for e in solved if known.get(tuple(int(d) for d in e.split(":")[0])) !=
                 (int(e.split(":")[1]), e.split(":")[2])]
        print(f"{len(solved)} classes proved again in {seconds:.0f} s; {len(wrong)} differ from the table")
        raise SystemExit(1 if wrong else 0)
    lines = [" ".join(solved[i:i + PER_LINE]) for i in range(0, len(solved), PER_LINE)]
    text = MODULE.read_text()
    text = re.sub(r'ENTRIES = """\n.*?"""', lambda _: 'ENTRIES = """\n' + "\n".join(lines) + '\n"""', text, flags=re.S)
    MODULE.write_text(text)
    data = MODULE.read_bytes()
    packed = lzma.compress(data, preset=9 | lzma.PRESET_EXTREME)
    print(f"{len(solved)} classes in {seconds:.0f} s with {args.jobs} processes; "
          f"{MODULE.name}: {len(data)} bytes, {len(packed)} xz-compressed")


if __name__ == "__main__":
    main()
