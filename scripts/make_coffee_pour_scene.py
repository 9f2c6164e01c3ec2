#!/usr/bin/env python3
"""Write the coffee pour: a cup of liquid on a hinge pours into a mug 20 cm away and lower.

A 2D scene (a vertical slice through the cup and the mug) of material points: weakly
compressible liquid (MLS-MPM) in a cup of three boxes that one control channel turns
about the cup's bottom right corner, and a mug of three fixed boxes on the table (the
grid's sticky floor), its centre 20 cm to the right of the cup's and its floor 26 cm
lower. The turning rate is a curve through nine keyframes over the 2 s (a controller:
keyframe inputs through a linear layer), whose values are optimised. The objectives:
"inside", the share of the liquid outside the mug at the end (a smooth indicator of the
mug's box), and "target", the liquid's centroid pulled towards the mug's middle (a
gradient from anywhere). The first pour's keyframes sample an ease-in-out tilt of 2.2 rad
in 0.4 s (the curve through them turns the cup by 2 rad in 0.5 s): too fast, so a third
of the coffee flies over the mug; optimisation slows it down.

    python3 scripts/make_coffee_pour_scene.py scenes/coffee_pour.json
"""
import argparse
import json
import math

CELLS = 96
SIZE = 0.6  # m: the domain's side
DX = SIZE / CELLS

# The cup: inner width and height, wall thickness; the bottom's top at CUP_FLOOR.
CUP_X = 0.15  # centre, m
CUP_FLOOR = 0.30
CUP_INNER_W = 0.06
CUP_INNER_H = 0.12
WALL = 0.01875  # three cells: thinner walls leak
# The mug: 20 cm to the right, its floor lower.
MUG_X = CUP_X + 0.20
MUG_FLOOR = 3 * 0.6 / 96 + 0.01875  # on the grid's floor (its walls three cells deep)
MUG_INNER_W = 0.12
MUG_INNER_H = 0.12


def box(cx, cy, hx, hy):
    return {"type": "box", "position": [cx, cy, 0.0], "orientation": [0, 0, 0, 1], "half_extents": [hx, hy, 0.05]}


def container(cx, floor, inner_w, inner_h):
    """Three boxes: a bottom under the floor and two walls up from it."""
    half_w = inner_w / 2 + WALL
    return [
        box(cx, floor - WALL / 2, half_w, WALL / 2),
        box(cx - inner_w / 2 - WALL / 2, floor + inner_h / 2 - WALL / 2, WALL / 2, inner_h / 2 + WALL / 2),
        box(cx + inner_w / 2 + WALL / 2, floor + inner_h / 2 - WALL / 2, WALL / 2, inner_h / 2 + WALL / 2),
    ]


def first_pour(keys, seconds, seconds_to_tilt, final_angle):
    """Keyframes (rad/s) of the turning rate of an ease-in-out tilt to final_angle over
    seconds_to_tilt, then held: the rate at each key's time."""
    values = []
    for j in range(keys):
        s = j * seconds / (keys - 1) / seconds_to_tilt
        values.append(final_angle * 0.5 * math.pi / seconds_to_tilt * math.sin(math.pi * s) if s < 1 else 0.0)
    return values


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--dt", type=float, default=1e-3)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--tilt-seconds", type=float, default=0.4)
    parser.add_argument("--angle", type=float, default=2.2, help="the first pour's final tilt (rad)")
    parser.add_argument("--bulk", type=float, default=5e3, help="the liquid's bulk modulus (Pa)")
    parser.add_argument("--viscosity", type=float, default=0.5, help="the liquid's viscosity (Pa s)")
    parser.add_argument("--iterations", type=int, default=12)
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--keys", type=int, default=9, help="keyframes of the turning rate")
    parser.add_argument("--softness", type=float, default=0.008)
    parser.add_argument("--target-weight", type=float, default=10.0)
    parser.add_argument("--mug-floor", type=float, default=MUG_FLOOR)
    args = parser.parse_args()
    steps = int(round(args.seconds / args.dt))
    mug_floor = args.mug_floor

    # Liquid: two points per cell along each axis, filling the cup to 45 %.
    spacing = DX / 2
    fill = 0.45 * CUP_INNER_H
    nx, ny = int(CUP_INNER_W / spacing), int(fill / spacing)
    positions = []
    for i in range(nx):
        for j in range(ny):
            positions.append([CUP_X - CUP_INNER_W / 2 + (i + 0.5) * spacing, CUP_FLOOR + (j + 0.5) * spacing, 0.0])
    density = 1000.0  # kg/m^3; per metre of depth in 2D
    volume = spacing * spacing

    hinge = [CUP_X + CUP_INNER_W / 2 + WALL, CUP_FLOOR - WALL, 0.0]  # the bottom right corner
    scene = {
        "format": "nudge-scene",
        "version": 1,
        "name": "coffee_pour",
        "description": (
            "A cup of coffee on a hinge pours into a mug 20 cm away and lower: a 2D slice, "
            f"{len(positions)} material points of weakly compressible liquid (MLS-MPM, bulk modulus "
            f"{args.bulk:g} Pa) in a cup that one control channel turns about its bottom right corner, "
            f"its turning rate a curve through {args.keys} keyframes. The first pour tilts too fast and a "
            "third of the coffee flies over the mug; optimisation (Adam on the keyframes) slows the pour "
            "until the coffee lands in the mug. Made by scripts/make_coffee_pour_scene.py."),
        "simulation": {"dt": args.dt, "steps": steps, "gravity": [0, -9.81, 0]},
        "controls": {"channels": 1, "values": 0},
        # The turning rate: keyframes a linear layer interpolates (its weights; bias 0).
        "controller": {"inputs": [{"type": "keyframes", "count": args.keys, "duration": args.seconds}],
                       "layers": [{"size": 1, "activation": "linear"}], "channels": [0],
                       "weights": first_pour(args.keys, args.seconds, args.tilt_seconds, args.angle) + [0.0]},
        "material_points": {
            "dimensions": 2,
            "grid": {"cells": CELLS, "origin": [0, 0, 0], "size": SIZE, "wall_cells": 3,
                     # the floor is a table: what spills stays where it lands
                     "wall_friction": [0.0, 0.0, -1.0, 0.0, 0.0, 0.0]},
            "materials": [{"name": "coffee", "model": "liquid", "bulk_modulus": args.bulk, "viscosity": args.viscosity}],
            "position": positions,
            "material": 0,
            "channel": -1,
            "mass": density * volume,
            "volume": volume,
            "collider_friction": 0.0,
            "vessels": [
                {"name": "cup", "parts": container(CUP_X, CUP_FLOOR, CUP_INNER_W, CUP_INNER_H), "pivot": hinge,
                 "axis": [0, 0, -1], "angle": 0.0, "channel": 0, "gain": 1.0, "friction": 0.0},
                {"name": "mug", "parts": container(MUG_X, mug_floor, MUG_INNER_W, MUG_INNER_H), "channel": -1,
                 "friction": 0.0},
            ],
        },
        "parameters": {"controller_weights": {"optimize": True, "lower": -10.0, "upper": 10.0}},
        "objectives": [
            {"type": "inside",
             # The mug, walls and all (no liquid is inside a wall): liquid in it is a wall's
             # thickness from the region's faces, and what lands beside it is near them.
             "region": {"lower": [MUG_X - MUG_INNER_W / 2 - WALL, mug_floor - WALL, -0.1],
                        "upper": [MUG_X + MUG_INNER_W / 2 + WALL, mug_floor + MUG_INNER_H + 0.02, 0.1],
                        "softness": args.softness},
             "step": -1, "weight": 1.0},
        ],
        "optimizer": {"method": "adam", "iterations": args.iterations, "learning_rate": args.lr},
        "camera": {"eye": [0.3, 0.25, 0.9], "target": [0.3, 0.22, 0.0], "fov_degrees": 40},
    }
    if args.target_weight > 0:  # the liquid's centroid towards the mug's middle: a gradient from anywhere
        scene["objectives"].insert(1, {"type": "target", "points": list(range(len(positions))),
                                       "target": [MUG_X, mug_floor + 0.03, 0.0], "step": -1,
                                       "weight": args.target_weight})
    with open(args.out, "w") as f:
        json.dump(scene, f, indent=1)
        f.write("\n")
    print(f"wrote {args.out}: {len(positions)} points, {steps} steps")


if __name__ == "__main__":
    main()
