#!/usr/bin/env python3
"""Write DiffTaichi's diffmpm robot (examples/diffmpm.py) as a Nudge scene.

DiffTaichi (Hu et al., ICLR 2020, github.com/taichi-dev/difftaichi) trains a 2D soft robot
made of material points (MLS-MPM): a body of 76 x 24 points on four legs of 12 x 24, each
leg a muscle driven by tanh(sum_j w_ij sin(20 t + 2 pi j / 4) + b_i), on a 128-cell grid
with sticky walls three nodes deep, dt 1e-3, gravity 3.8, fixed-corotated solid with
mu = lambda = 10 (Young's modulus 25, Poisson ratio 0.25), point mass 1 and volume 1,
muscle strength 4, for 1023 steps; its loss is -x_avg, the solid's centroid's x at the
last step, and it descends with learning rate 0.1 on the weights and biases.

This script writes the same robot: the same points (add_rect's layout), the same grid,
walls, material, muscles and clock (a controller with one sine input of 4 phases and one
tanh layer), the weights a seeded run starts from (np.random.seed(SEED), then
randn() * 0.01 for each w_ij in DiffTaichi's order; biases 0), and the objective travel
along +x over every point, which is DiffTaichi's loss plus the starting centroid's x (a
constant: the same gradients).

    python3 scripts/make_diffmpm_scene.py scenes/diffmpm.json [--seed 0] [--steps 1023]
"""
import argparse
import json

import numpy as np

N_GRID = 128
DX = 1.0 / N_GRID


def robot_points():
    """DiffTaichi's robot(scene): (x, y, actuator id) for every point, in its order."""
    points = []
    offset = (0.1, 0.03)

    def add_rect(x, y, w, h, actuation):
        w_count = int(w / DX) * 2
        h_count = int(h / DX) * 2
        real_dx, real_dy = w / w_count, h / h_count
        for i in range(w_count):
            for j in range(h_count):
                points.append((x + (i + 0.5) * real_dx + offset[0], y + (j + 0.5) * real_dy + offset[1], actuation))

    add_rect(0.0, 0.1, 0.3, 0.1, -1)
    add_rect(0.0, 0.0, 0.05, 0.1, 0)
    add_rect(0.05, 0.0, 0.05, 0.1, 1)
    add_rect(0.2, 0.0, 0.05, 0.1, 2)
    add_rect(0.25, 0.0, 0.05, 0.1, 3)
    return points


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--steps", type=int, default=1023)
    parser.add_argument("--iterations", type=int, default=100)
    args = parser.parse_args()

    points = robot_points()
    np.random.seed(args.seed)
    n_actuators, n_sin_waves = 4, 4
    weights = [np.random.randn() * 0.01 for _ in range(n_actuators * n_sin_waves)]  # w[i][j], row-major
    biases = [0.0] * n_actuators

    scene = {
        "format": "nudge-scene",
        "version": 1,
        "name": "diffmpm",
        "description": (
            "DiffTaichi's diffmpm robot (examples/diffmpm.py), reproduced: a 2D soft robot of "
            f"{len(points)} material points (MLS-MPM on a 128-cell grid, fixed-corotated solid, "
            "mu = lambda = 10), a body on four legs, each leg a muscle pulling along y with strength 4, "
            "driven by a controller tanh(W sin(20 t + 2 pi j / 4) + b). Gradient descent (learning "
            "rate 0.1) tunes W and b so that the robot walks along +x; the loss is the travel of the "
            "points' centroid, DiffTaichi's -x_avg plus a constant. Made by scripts/make_diffmpm_scene.py."
        ),
        "simulation": {"dt": 1e-3, "steps": args.steps, "gravity": [0, -3.8, 0]},
        "controls": {"channels": n_actuators},
        "controller": {
            "inputs": [{"type": "sine", "count": n_sin_waves, "omega": 20}],
            "layers": [{"size": n_actuators, "activation": "tanh"}],
            "channels": list(range(n_actuators)),
            "weights": weights + biases,
        },
        "material_points": {
            "dimensions": 2,
            "grid": {"cells": N_GRID, "origin": [0, 0, 0], "size": 1.0, "wall_cells": 3, "wall_friction": -1},
            "actuation": 4.0,
            "materials": [{"name": "robot", "model": "fixed_corotated", "youngs_modulus": 25.0, "poisson_ratio": 0.25}],
            "position": [[x, y, 0.0] for x, y, _ in points],
            "material": 0,
            "channel": [a for _, _, a in points],
            "mass": 1.0,
            "volume": 1.0,
        },
        "parameters": {"controller_weights": {"optimize": True}},
        "objectives": [{"type": "travel", "points": list(range(len(points))), "direction": [1, 0, 0], "step": -1,
                        "weight": 1}],
        "optimizer": {"method": "gd", "iterations": args.iterations, "learning_rate": 0.1, "momentum": 0},
    }
    with open(args.out, "w") as f:
        json.dump(scene, f, indent=None, separators=(",", ": "))
        f.write("\n")
    print(f"wrote {args.out}: {len(points)} points, {args.steps} steps")


if __name__ == "__main__":
    main()
