#!/usr/bin/env python3
"""Write jelly_bounce: an elastic ball's Young's modulus fitted to its bounce.

A 2D ball of jelly (MLS-MPM material points, fixed corotated elasticity) falls onto the
floor, squashes and bounces. How deep it squashes and when it leaves the floor depend on
its stiffness. The reference bounce is the same ball with Young's modulus REFERENCE
(run by Nudge itself, `nudge simulate`), of which the ball's centre is kept every SAMPLE
seconds, as a tracker following the ball in a video would give it: one "target"
objective per sample on the points' centroid at that step. The scene starts from a
ball too soft (GUESS Pa) and its optimiser fits the modulus.

    python3 scripts/make_jelly_bounce_scene.py scenes/jelly_bounce.json --nudge build/release/app/nudge
"""
import argparse
import json

from nudge_points_run import simulate_points

CELLS = 64
SIZE = 0.5  # m
DX = SIZE / CELLS


def ball_scene(args, youngs, samples=None):
    spacing = DX / 2
    r = args.radius
    cx, cy = SIZE / 2, args.drop
    positions = []
    k = int(r / spacing) + 1
    for i in range(-k, k + 1):
        for j in range(-k, k + 1):
            x, y = (i + 0.5) * spacing, (j + 0.5) * spacing
            if x * x + y * y <= r * r:
                positions.append([round(cx + x, 9), round(cy + y, 9), 0.0])
    volume = spacing * spacing
    steps = int(round(args.seconds / args.dt))
    everyone = list(range(len(positions)))
    scene = {
        "format": "nudge-scene",
        "version": 1,
        "name": "jelly_bounce",
        "description": (
            f"A ball of jelly {2 * r * 100:g} cm across ({len(positions)} material points, MLS-MPM, fixed "
            f"corotated, 2D) drops from {args.drop * 100:g} cm and bounces off the floor. Its centre, sampled every "
            f"{args.sample:g} s from a reference bounce (Young's modulus {args.reference:g} Pa), is matched by "
            f"fitting the Young's modulus from a guess of {args.guess:g} Pa. Made by "
            "scripts/make_jelly_bounce_scene.py."),
        "simulation": {"dt": args.dt, "steps": steps, "gravity": [0, -9.81, 0]},
        "material_points": {
            "dimensions": 2,
            "grid": {"cells": CELLS, "origin": [0, 0, 0], "size": SIZE, "wall_cells": 3, "wall_friction": 0.0},
            "materials": [{"name": "jelly", "model": "fixed_corotated", "youngs_modulus": youngs,
                           "poisson_ratio": 0.3}],
            "position": positions,
            "material": 0,
            "channel": -1,
            "velocity": [0.0, -args.speed, 0.0],
            "mass": args.density * volume,
            "volume": volume,
        },
        "parameters": {"material_youngs_modulus": {"optimize": True, "lower": 1e3, "upper": 1e5}},
        "objectives": [],
        "optimizer": {"method": "adam", "iterations": args.iterations, "learning_rate": args.lr},
        "camera": {"eye": [0.25, 0.15, 0.7], "target": [0.25, 0.12, 0.0], "fov_degrees": 40},
    }
    for step, centre in samples or []:
        scene["objectives"].append({"type": "target", "points": everyone, "target": centre, "step": step,
                                    "weight": 1e3})
    return scene


def sampled_centres(nudge, scene, every):
    """The centroid of the material points every `every` steps, by `nudge simulate`."""
    centres = []
    for step, points in sorted(simulate_points(nudge, scene).items()):
        if step > 0 and step % every == 0:
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            centres.append((step, [round(sum(xs) / len(xs), 7), round(sum(ys) / len(ys), 7), 0.0]))
    return centres


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--nudge", default="build/release/app/nudge", help="the nudge binary that runs the reference")
    parser.add_argument("--reference", type=float, default=1.5e4, help="the reference's Young's modulus (Pa)")
    parser.add_argument("--guess", type=float, default=4e3, help="the scene's first Young's modulus (Pa)")
    parser.add_argument("--radius", type=float, default=0.04, help="m")
    parser.add_argument("--drop", type=float, default=0.14, help="the ball's centre at the start (m)")
    parser.add_argument("--speed", type=float, default=1.0, help="its downward speed at the start (m/s)")
    parser.add_argument("--density", type=float, default=1000.0, help="kg/m^3 (per metre of depth in 2D)")
    parser.add_argument("--dt", type=float, default=4e-4)
    parser.add_argument("--seconds", type=float, default=0.4)
    parser.add_argument("--sample", type=float, default=0.02, help="seconds between the reference's samples")
    parser.add_argument("--iterations", type=int, default=16)
    parser.add_argument("--lr", type=float, default=2000.0)
    args = parser.parse_args()
    every = int(round(args.sample / args.dt))
    samples = sampled_centres(args.nudge, ball_scene(args, args.reference), every)
    scene = ball_scene(args, args.guess, samples)
    with open(args.out, "w") as f:
        json.dump(scene, f, indent=1)
        f.write("\n")
    print(f"wrote {args.out}: {len(scene['material_points']['position'])} points, {len(samples)} samples of the "
          f"reference bounce at {args.reference:g} Pa")


if __name__ == "__main__":
    main()
