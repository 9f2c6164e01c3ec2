#!/usr/bin/env python3
"""examples/python/pendulum_sysid.py written against NVIDIA Warp, for the README's comparison.

The same problem as scenes/pendulum_length.json: a 1 kg bob on a damped spring (4000 N/m,
20 N s/m) from a pinned pivot at (0, 1.5, 0), released from rest at (0.4, 0.80718, 0);
1500 semi-implicit Euler steps of 1 ms; the loss is Nudge's `markers` objective, the mean
over the track's 151 rows of |x(frame * 10) - marker|^2. The spring's rest length is fitted
from the guess 0.65 m with the same Adam loop as the Nudge example (200 gradients, rate
0.02 decaying by 0.99 a step), its gradients from wp.Tape, in float64 on the CPU. The
pivot is pinned, so only the bob is simulated. --check exits non-zero unless the fit is
within 1 mm of 0.8 m.

    pip install warp-lang==1.9.1 numpy
    python bench/peers/warp_pendulum_sysid.py --check
"""
import argparse
import os
import sys
import time

import numpy as np
import warp as wp

HERE = os.path.dirname(os.path.abspath(__file__))
TRACK = os.path.join(HERE, "..", "..", "assets", "tracks", "pendulum_track.csv")
STEPS, EVERY, DT = 1500, 10, 0.001
PIVOT, GRAVITY = wp.vec3d(0.0, 1.5, 0.0), wp.vec3d(0.0, -9.81, 0.0)
MASS, STIFFNESS, DAMPING = 1.0, 4000.0, 20.0


@wp.kernel
def step(x: wp.array(dtype=wp.vec3d), v: wp.array(dtype=wp.vec3d), rest: wp.array(dtype=wp.float64), t: int,
         pivot: wp.vec3d, gravity: wp.vec3d, mass: wp.float64, k: wp.float64, c: wp.float64, dt: wp.float64):
    d = x[t] - pivot
    l = wp.length(d)
    u = d / l
    f = mass * gravity - (k * (l - rest[0]) + c * wp.dot(v[t], u)) * u
    vn = v[t] + dt * f / mass
    v[t + 1] = vn
    x[t + 1] = x[t] + dt * vn


@wp.kernel
def markers(x: wp.array(dtype=wp.vec3d), frame: wp.array(dtype=int), track: wp.array(dtype=wp.vec3d), every: int,
            loss: wp.array(dtype=wp.float64)):
    i = wp.tid()
    e = x[frame[i] * every] - track[i]
    wp.atomic_add(loss, 0, wp.dot(e, e) / wp.float64(track.shape[0]))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--check", action="store_true", help="fail unless the fit is within 1 mm of 0.8 m")
    args = parser.parse_args()
    wp.config.quiet = True
    wp.set_device("cpu")

    rows = np.loadtxt(TRACK, delimiter=",", skiprows=1)
    frame = wp.array(rows[:, 0].astype(np.int32), dtype=int)
    track = wp.array(rows[:, 2:5], dtype=wp.vec3d)
    x = wp.array(np.tile([0.4, 0.807179676972449, 0.0], (STEPS + 1, 1)), dtype=wp.vec3d, requires_grad=True)
    v = wp.zeros(STEPS + 1, dtype=wp.vec3d, requires_grad=True)
    rest = wp.zeros(1, dtype=wp.float64, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float64, requires_grad=True)

    def loss_and_grad(length):
        rest.assign([length])
        loss.zero_()
        tape = wp.Tape()
        with tape:
            for t in range(STEPS):
                wp.launch(step, dim=1, inputs=[x, v, rest, t, PIVOT, GRAVITY, MASS, STIFFNESS, DAMPING, DT])
            wp.launch(markers, dim=len(rows), inputs=[x, frame, track, EVERY, loss])
        tape.backward(loss)
        value, grad = loss.numpy()[0], rest.grad.numpy()[0]
        tape.zero()
        return value, grad

    start = time.perf_counter()
    value, _ = loss_and_grad(0.65)  # the first call compiles the kernels, or loads them from Warp's cache
    print(f"warp {wp.config.version}, cpu, float64; guess 0.6500 m, loss {value:.6g}; "
          f"first gradient, with compilation, {time.perf_counter() - start:.2f} s")

    # The example's Adam, on one number.
    fit = time.perf_counter()
    length, m, s = 0.65, 0.0, 0.0
    for k in range(1, args.iterations + 1):
        _, g = loss_and_grad(length)
        m = 0.9 * m + 0.1 * g
        s = 0.999 * s + 0.001 * g * g
        length -= 0.02 * 0.99**k * (m / (1 - 0.9**k)) / (np.sqrt(s / (1 - 0.999**k)) + 1e-12)
    value, _ = loss_and_grad(length)
    end = time.perf_counter()
    print(f"Adam, {args.iterations} steps ({args.iterations + 2} gradients in all): {length:.5f} m, "
          f"loss {value:.3g}, {end - fit:.2f} s fitting, {end - start:.2f} s to the answer with compilation")

    if args.check and abs(length - 0.8) > 1e-3:
        sys.exit(f"the fit is {abs(length - 0.8) * 1000:.2f} mm from the true length 0.8 m")


if __name__ == "__main__":
    main()
