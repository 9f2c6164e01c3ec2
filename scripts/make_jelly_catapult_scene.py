#!/usr/bin/env python3
"""Write jelly_catapult: a motor's torques that throw a ball of jelly through a target.

A catapult's arm (an articulation's link, hinged about the scene's z) carries a cup (a
base and an end wall, box shapes) holding a ball of jelly (MLS-MPM material points,
neo-Hookean, 3D). The material meets the arm's shapes through the grid, both ways: the
cup carries the ball, and the ball weighs on the arm. A motor on the hinge (a torque per
step on channel 0, in [-1, 1]) must throw the ball so that its centre passes a target at
a given time. A spring on the hinge holds the loaded arm level; the joint's range stops
it short of the vertical. The controls start at zero. (With the arm resting on a lower
limit instead of a spring, the gradient from zero was small and of mixed sign and L-BFGS
stalled, 0.440145 to 0.440108 in 30 iterations: the limit's penalty took the motor's
first pushes.)

    python3 scripts/make_jelly_catapult_scene.py scenes/jelly_catapult.json
"""
import argparse
import json
import math

CELLS, SIZE, WALL_CELLS = 28, 1.2, 3
HINGE = [0.55, 0.26, 0.6]  # m, the arm's pivot
RADIUS = 0.07              # m, the ball's
SPRING = 8.0               # N m/rad: the hinge's spring, which holds the arm level


def ball_points(centre, radius, spacing):
    """Points `spacing` apart filling a ball (a lattice clipped to the sphere)."""
    n = int(math.ceil(radius / spacing))
    points = []
    for i in range(-n, n + 1):
        for j in range(-n, n + 1):
            for k in range(-n, n + 1):
                p = [(i + 0.5) * spacing, (j + 0.5) * spacing, (k + 0.5) * spacing]
                if p[0] ** 2 + p[1] ** 2 + p[2] ** 2 <= radius ** 2:
                    points.append([round(centre[0] + p[0], 6), round(centre[1] + p[1], 6),
                                   round(centre[2] + p[2], 6)])
    return points


def scene(args):
    dx = SIZE / CELLS
    spacing = dx / 2
    # In the arm's frame (q = 0: the arm along -x, level): the cup's base, its top at
    # y = 0.03, and an end wall; the ball on the base, half a cell above it.
    base = {"kind": "box", "size": [0.09, 0.03, 0.09], "pos": [-0.32, 0, 0], "rgba": [0.55, 0.4, 0.3, 1]}
    wall = {"kind": "box", "size": [0.03, 0.08, 0.09], "pos": [-0.44, 0.05, 0], "rgba": [0.55, 0.4, 0.3, 1]}
    rod = {"kind": "box", "size": [0.13, 0.02, 0.03], "pos": [-0.13, 0, 0], "rgba": [0.35, 0.45, 0.6, 1]}
    centre = [HINGE[0] - 0.32, HINGE[1] + 0.03 + RADIUS + spacing, HINGE[2]]
    points = ball_points(centre, RADIUS, spacing)
    volume = spacing ** 3
    steps = int(round(args.seconds / args.dt))
    # The hinge's spring holds the loaded arm level: its rest turned up by the weights'
    # torque (the arm's centre of mass 0.25 m out, the ball's 0.32 m) over its stiffness.
    ball_mass = len(points) * args.density * volume
    spring_ref = round(9.81 * (args.arm_mass * 0.25 + ball_mass * 0.32) / SPRING, 6)
    return {
        "format": "nudge-scene",
        "version": 1,
        "name": "jelly_catapult",
        "description": (
            f"A catapult's arm (a link of {args.arm_mass:g} kg hinged about z at {HINGE}) carries a cup holding a "
            f"ball of jelly ({len(points)} material points, neo-Hookean, {args.youngs:g} Pa, 3D, radius "
            f"{RADIUS * 100:g} cm). The jelly meets the arm's shapes through the grid, both ways: the cup carries the "
            f"ball and the ball weighs on the arm. A motor of {args.gear:g} N m per unit of control (a torque per step "
            f"on channel 0, in [-1, 1]) must throw the ball so that its centre passes {args.target} at "
            f"{args.target_time:g} s. A spring on the hinge holds the loaded arm level, and the joint's range stops it "
            f"short of the vertical. L-BFGS tunes the {steps} controls from zero. "
            f"Made by scripts/make_jelly_catapult_scene.py."),
        "simulation": {"dt": args.dt, "steps": steps, "gravity": [0, -9.81, 0]},
        "controls": {"channels": 1},
        "articulations": {
            "links": [{
                "name": "arm", "joint": "hinge", "axis": [0, 0, -1], "pos": HINGE, "mass": args.arm_mass,
                "com": [-0.25, 0, 0], "inertia": [0.002, 0.03, 0.03, 0, 0, 0], "damping": 0.05, "armature": 0.01,
                "stiffness": SPRING, "spring_ref": spring_ref, "range": [-1, 1.45], "limit_stiffness": 400,
                "limit_damping": 15, "shapes": [rod, base, wall],
            }],
            "actuators": [{"name": "throw", "link": "arm", "channel": 0, "gear": args.gear, "ctrl_range": [-1, 1]}],
        },
        "material_points": {
            "dimensions": 3,
            "grid": {"cells": CELLS, "origin": [0, 0, 0], "size": SIZE, "wall_cells": WALL_CELLS},
            "materials": [{"name": "jelly", "model": "neo_hookean", "youngs_modulus": args.youngs,
                           "poisson_ratio": 0.3}],
            "position": points,
            "material": 0,
            "channel": -1,
            "mass": args.density * volume,
            "volume": volume,
            "collider_friction": 0.5,
        },
        "parameters": {"controls": {"optimize": True, "lower": -1, "upper": 1}},
        "objectives": [{"type": "target", "points": list(range(len(points))), "target": args.target,
                        "step": int(round(args.target_time / args.dt))}],
        "optimizer": {"method": "lbfgs", "iterations": args.iterations},
        "camera": {"eye": [0.6, 0.6, 2.2], "target": [0.6, 0.5, 0.6], "fov_degrees": 45},
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--arm-mass", type=float, default=1.0, help="the arm's mass (kg)")
    parser.add_argument("--gear", type=float, default=12.0, help="the motor's torque per unit of control (N m)")
    parser.add_argument("--density", type=float, default=300.0, help="the jelly's density (kg/m^3)")
    parser.add_argument("--youngs", type=float, default=3e4, help="the jelly's Young's modulus (Pa)")
    parser.add_argument("--dt", type=float, default=1e-3)
    parser.add_argument("--seconds", type=float, default=0.45)
    parser.add_argument("--target", type=float, nargs=3, default=[0.8, 0.65, 0.6])
    parser.add_argument("--target-time", type=float, default=0.45)
    parser.add_argument("--iterations", type=int, default=20)
    args = parser.parse_args()
    s = scene(args)
    with open(args.out, "w") as f:
        json.dump(s, f, indent=1)
        f.write("\n")
    print(f"wrote {args.out}: {len(s['material_points']['position'])} points, {s['simulation']['steps']} steps")


if __name__ == "__main__":
    main()
