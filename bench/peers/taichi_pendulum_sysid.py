#!/usr/bin/env python3
"""examples/python/pendulum_sysid.py written against Taichi, for the README's comparison.

The same problem as scenes/pendulum_length.json: a 1 kg bob on a damped spring (4000 N/m,
20 N s/m) from a pinned pivot at (0, 1.5, 0), released from rest at (0.4, 0.80718, 0);
1500 semi-implicit Euler steps of 1 ms; the loss is Nudge's `markers` objective, the mean
over the track's 151 rows of |x(frame * 10) - marker|^2. The spring's rest length is fitted
from the guess 0.65 m with the same Adam loop as the Nudge example (200 gradients, rate
0.02 decaying by 0.99 a step), its gradients from ti.ad.Tape, in float64 on the CPU with
one thread. The pivot is pinned, so only the bob is simulated. --check exits non-zero
unless the fit is within 1 mm of 0.8 m.

    pip install taichi numpy
    python bench/peers/taichi_pendulum_sysid.py --check
"""
import argparse
import os
import sys
import time

import numpy as np
import taichi as ti

HERE = os.path.dirname(os.path.abspath(__file__))
TRACK = os.path.join(HERE, "..", "..", "assets", "tracks", "pendulum_track.csv")
STEPS, EVERY, DT = 1500, 10, 0.001
MASS, STIFFNESS, DAMPING = 1.0, 4000.0, 20.0

ti.init(arch=ti.cpu, default_fp=ti.f64, cpu_max_num_threads=1)
PIVOT, GRAVITY = ti.Vector([0.0, 1.5, 0.0]), ti.Vector([0.0, -9.81, 0.0])
rows = np.loadtxt(TRACK, delimiter=",", skiprows=1)
x = ti.Vector.field(3, ti.f64, shape=STEPS + 1, needs_grad=True)
v = ti.Vector.field(3, ti.f64, shape=STEPS + 1, needs_grad=True)
rest = ti.field(ti.f64, shape=(), needs_grad=True)
loss = ti.field(ti.f64, shape=(), needs_grad=True)
frame = ti.field(ti.i32, shape=len(rows))
track = ti.Vector.field(3, ti.f64, shape=len(rows))


@ti.kernel
def step(t: ti.i32):
    d = x[t] - PIVOT
    l = d.norm()
    u = d / l
    f = MASS * GRAVITY - (STIFFNESS * (l - rest[None]) + DAMPING * v[t].dot(u)) * u
    vn = v[t] + DT * f / MASS
    v[t + 1] = vn
    x[t + 1] = x[t] + DT * vn


@ti.kernel
def markers():
    for i in frame:
        e = x[frame[i] * EVERY] - track[i]
        loss[None] += e.dot(e) / frame.shape[0]


def loss_and_grad(length):
    rest[None] = length
    with ti.ad.Tape(loss=loss):  # zeroes the gradients, and runs the kernels backwards at the end
        for t in range(STEPS):
            step(t)
        markers()
    return loss[None], rest.grad[None]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--check", action="store_true", help="fail unless the fit is within 1 mm of 0.8 m")
    args = parser.parse_args()

    frame.from_numpy(rows[:, 0].astype(np.int32))
    track.from_numpy(rows[:, 2:5])
    x[0] = [0.4, 0.807179676972449, 0.0]

    start = time.perf_counter()
    value, _ = loss_and_grad(0.65)  # the first call compiles the kernels, or loads them from Taichi's cache
    print(f"taichi {'.'.join(map(str, ti.__version__))}, cpu, 1 thread, float64; guess 0.6500 m, loss {value:.6g}; "
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
