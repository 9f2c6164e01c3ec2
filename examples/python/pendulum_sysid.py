#!/usr/bin/env python3
"""System identification of a pendulum from a script: its rod's length from a tracked
marker.

scenes/pendulum_length.json is a 1 kg bob on a stiff spring from a pivot, released 30
degrees from vertical; its `markers` objective compares the bob with a track recorded
with the true length, 0.8 m. The scene starts from a guess of 0.65 m. This script fits
the length twice: with an Adam loop written here in Python on Simulator.gradient, as
one would with any array library, and with the scene's own optimiser (L-BFGS,
Simulator.optimize). --check exits non-zero unless both land within 1 mm of 0.8 m.

    PYTHONPATH=build/release/python /usr/bin/python3 examples/python/pendulum_sysid.py --check
"""
import argparse
import os
import sys
import time

import numpy as np

import nudge

HERE = os.path.dirname(os.path.abspath(__file__))
TRUE_LENGTH = 0.8


def adam(sim, length, iterations, rate):
    """Adam on the rod's length, in plain Python: the gradient comes from the engine."""
    m = v = np.zeros_like(length)
    for k in range(1, iterations + 1):
        loss, grads = sim.gradient({"rest_length": length})
        g = grads["rest_length"]
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        step = rate * 0.99 ** k  # decaying, to settle rather than circle the minimum
        length = length - step * (m / (1 - 0.9 ** k)) / (np.sqrt(v / (1 - 0.999 ** k)) + 1e-12)
    return length, sim.loss({"rest_length": length})


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scene", default=os.path.join(HERE, "..", "..", "scenes", "pendulum_length.json"))
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--check", action="store_true", help="fail unless both fits are within 1 mm")
    args = parser.parse_args()

    scene = nudge.load_scene(args.scene)
    sim = nudge.Simulator(scene, device="cpu")
    guess = scene.parameter("rest_length")
    print(f"{scene.name}: {sim.device}; guess {guess[0, 0]:.4f} m, loss {sim.loss():.6g}")

    start = time.perf_counter()
    found, loss = adam(sim, guess, args.iterations, rate=0.02)
    print(f"Adam in Python, {args.iterations} gradients: {found[0, 0]:.5f} m, loss {loss:.3g}, "
          f"{time.perf_counter() - start:.2f} s")

    start = time.perf_counter()
    result = sim.optimize()
    fitted = result["parameters"]["rest_length"][0, 0]
    print(f"the scene's optimiser ({result['iterations']} iterations, {result['reason']}): {fitted:.5f} m, "
          f"loss {result['loss']:.3g}, {time.perf_counter() - start:.2f} s")

    if args.check:
        worst = max(abs(found[0, 0] - TRUE_LENGTH), abs(fitted - TRUE_LENGTH))
        if worst > 1e-3:
            sys.exit(f"a fit is {worst * 1000:.2f} mm from the true length {TRUE_LENGTH} m")


if __name__ == "__main__":
    main()
