#!/usr/bin/env python3
"""Python overhead: the same 1000-box scene stepped from Python (the `tumble` package: World.step
and World.get_body_snapshots, one NumPy table of every pose per step) and from C
(bench/python_overhead.c: tbWorld_Step and tbWorld_GetBodySnapshots). Runs alternate, C then
Python, ROUNDS times; prints each run, the medians and the ratio Python / C, and checks that both
end on the same state hash (the same work to the bit). Writes bench/results/python_overhead.md
with the machine, date and command.

usage: bench/python_overhead.py BUILD_DIR [--steps N] [--rounds R] [--no-write]"""

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def python_run(steps):
    import tumble

    with tumble.World() as world:
        world.create_body("static", position=(0, -0.5, 0)).create_shape(tumble.Box(20, 0.5, 20))
        for k in range(10):
            for i in range(10):
                for j in range(10):
                    b = world.create_body(position=(0.5 * (i - 5), 1.0 + 0.5 * k, 0.5 * (j - 5)))
                    b.create_shape(tumble.Box(0.2, 0.2, 0.2))
        total = 0.0
        t0 = time.perf_counter()
        for _ in range(steps):
            world.step(1.0 / 60.0, 4)
            states = world.get_body_snapshots()
            total += float(states.positions[-1, 1])
        seconds = time.perf_counter() - t0
        return {"seconds": seconds, "steps": steps, "hash": f"{world.get_state_hash():016x}", "last_y": total / steps}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--no-write", action="store_true")
    a = ap.parse_args()
    build = Path(a.build).resolve()
    os.environ.setdefault("TUMBLE_LIBRARY", str(build / "libtumble.so.0"))
    sys.path.insert(0, str(ROOT / "python"))
    c_exe = build / "bench" / "python_overhead_c"
    runs = {"C": [], "Python": []}
    hashes = set()
    for r in range(a.rounds):
        out = subprocess.run([str(c_exe), str(a.steps)], check=True, capture_output=True, text=True)
        c = json.loads(out.stdout.strip().splitlines()[-1])
        p = python_run(a.steps)
        for name, res in (("C", c), ("Python", p)):
            runs[name].append(res["seconds"])
            hashes.add(res["hash"])
            print(f"round {r + 1} {name:6s} {1000.0 * res['seconds'] / a.steps:.3f} ms/step  hash {res['hash']}")
    mc, mp = statistics.median(runs["C"]), statistics.median(runs["Python"])
    ratio = mp / mc
    same = len(hashes) == 1
    print(f"median C {1000 * mc / a.steps:.3f} ms/step, Python {1000 * mp / a.steps:.3f} ms/step: Python / C = {ratio:.3f} (+{100 * (ratio - 1):.1f} %)")
    print("same state hash" if same else f"HASHES DIFFER: {sorted(hashes)}")
    if not a.no_write:
        res = ROOT / "bench" / "results" / "python_overhead.md"
        cmd = "bench/python_overhead.py " + " ".join(sys.argv[1:])
        res.write_text(
            "# Python overhead: 1000 boxes stepped and read from Python and from C\n\n"
            f"Written by `{cmd}` on {datetime.date.today().isoformat()}, {platform.machine()}, "
            f"{os.cpu_count()} cores, {platform.python_implementation()} {platform.python_version()}.\n"
            f"{a.steps} steps at 60 Hz with 4 substeps, every body's pose read after each step "
            f"(C: `tbWorld_GetBodySnapshots`; Python: `World.get_body_snapshots`, a NumPy table); "
            f"{a.rounds} rounds alternating C and Python, creation excluded.\n\n"
            "| | ms per step (median) | runs |\n|---|---|---|\n"
            f"| C | {1000 * mc / a.steps:.3f} | {', '.join(f'{1000 * s / a.steps:.3f}' for s in runs['C'])} |\n"
            f"| Python | {1000 * mp / a.steps:.3f} | {', '.join(f'{1000 * s / a.steps:.3f}' for s in runs['Python'])} |\n\n"
            f"Python / C = {ratio:.3f}; state hashes {'equal' if same else 'DIFFERENT'}.\n"
        )
        print(f"wrote {res.relative_to(ROOT)}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
