#!/usr/bin/env python3
"""Throughput of a 200-point sweep, three ways in one run: serial (one point at a time on
one thread), local threads (nudge.sweep's threads, one simulator each), and Ray with two
workers (a Ray instance started here with 2 CPUs, once, before the sweeps: its start is
reported on its own; then one task per batch of points).
Each way writes its own table; the three tables must be equal to the bit, or this fails.

Two kinds of point: a cheap one, where per-point overhead shows (the pendulum's loss, a
1500-step rollout of one particle), and a costly one, where it does not (the 1024-particle
cloth of scenes/cloth.json: its loss and gradient, 500 steps).

    PYTHONPATH=build/release/python ~/.cache/nudge/python-venv/bin/python bench/sweep_throughput.py
"""
import argparse
import os
import sys
import tempfile
import time

import numpy as np

import nudge

HERE = os.path.dirname(os.path.abspath(__file__))
SCENES = os.path.join(HERE, "..", "scenes")
CASES = [
    ("pendulum loss", "pendulum_length.json", "rest_length=0.5:1.2:{n}", "loss"),
    ("cloth gradient", "cloth.json", "initial_velocity[0,0]=-1:1:{n}", "gradient"),
]


def run(case, n, folder, threads, address):
    name, scene, param, mode = case
    out = os.path.join(folder, f"{scene}-{threads}-{address}.csv")
    start = time.perf_counter()
    table = nudge.sweep(os.path.join(SCENES, scene), [param.format(n=n)], out, mode=mode, threads=threads, ray=address)
    return time.perf_counter() - start, table


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--points", type=int, default=200)
    parser.add_argument("--threads", type=int, default=2, help="local threads for the second way")
    args = parser.parse_args()
    import ray
    start = time.perf_counter()
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    print(f"{args.points}-point sweeps; {os.cpu_count()} cores; Ray started in {time.perf_counter() - start:.1f} s")
    print(f"{'sweep':<16} {'way':<26} {'seconds':>8} {'points/s':>9}")
    failed = False
    for case in CASES:
        with tempfile.TemporaryDirectory() as folder:
            results = []
            for way, threads, address in (("serial (1 thread)", 1, None), (f"local threads ({args.threads})",
                                                                         args.threads, None),
                                      ("Ray, 2 workers (local)", 1, "local")):
                seconds, table = run(case, args.points, folder, threads, address)
                results.append(table)
                print(f"{case[0]:<16} {way:<26} {seconds:8.2f} {args.points / seconds:9.1f}", flush=True)
            for other in results[1:]:
                for column in results[0]:
                    same = (results[0][column] == other[column]) if column == "status" else \
                        np.array_equal(results[0][column], other[column])
                    if not same:
                        print(f"  the tables differ in {column}", file=sys.stderr)
                        failed = True
    ray.shutdown()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
