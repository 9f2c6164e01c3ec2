#!/usr/bin/env python3
"""Write sand_collapse: a granular column's friction angle fitted to a reference collapse.

A column of sand (MLS-MPM material points, Drucker-Prager plasticity) stands against
the left wall of a box and is let go: it slumps and runs out along the floor, less far
the steeper its friction angle. The reference is the same column collapsed with a
friction angle of REFERENCE degrees (run by Nudge itself, `nudge simulate`), of which
the final points are kept as a "shape" objective: the Chamfer distance between the
column's final points and that reference heap, what a camera or a scanner would give.
The scene starts from a wrong guess (GUESS degrees) and its optimiser fits the angle.

In 2D (the default) the column is a slice; with --dims 3 it is a square column standing
in a corner of the box, a quarter of a column that spreads in every direction (the two
walls it stands against slip, so they act as mirrors).

    python3 scripts/make_sand_collapse_scene.py scenes/sand_collapse.json \
        --nudge build/release/app/nudge
    python3 scripts/make_sand_collapse_scene.py scenes/sand_collapse_3d.json --dims 3 \
        --nudge build/release/app/nudge
"""
import argparse
import json

from nudge_points_run import simulate_points

# The grid of each dimension: cells along a side and the side (m).
GRID = {2: (96, 0.5), 3: (32, 0.25)}


def column_scene(args, angle, shape=None):
    cells, size = GRID[args.dims]
    dx = size / cells
    wall = 3 * dx  # the grid's walls are three nodes deep
    spacing = dx / 2
    nx, ny = int(round(args.width / spacing)), int(round(args.height / spacing))
    nz = nx if args.dims == 3 else 1
    positions = [[wall + (i + 0.5) * spacing, wall + (j + 0.5) * spacing,
                  wall + (k + 0.5) * spacing if args.dims == 3 else 0.0]
                 for i in range(nx) for j in range(ny) for k in range(nz)]
    volume = spacing ** args.dims
    steps = int(round(args.seconds / args.dt))
    name = "sand_collapse" if args.dims == 2 else "sand_collapse_3d"
    shape_text = (f"{args.width * 100:g} cm wide" if args.dims == 2 else
                  f"{args.width * 100:g} cm square (a quarter column in a corner whose two walls slip)")
    scene = {
        "format": "nudge-scene",
        "version": 1,
        "name": name,
        "description": (
            f"A column of sand {shape_text} and {args.height * 100:g} cm tall collapses along a "
            f"floor: {len(positions)} material points (MLS-MPM, Drucker-Prager sand), {args.dims}D. The heap it "
            f"leaves after {args.seconds:g} s is compared with a reference collapse (friction angle "
            f"{args.reference:g} degrees) by the Chamfer distance; the optimiser fits the friction angle from a "
            f"guess of {args.guess:g} degrees. Made by scripts/make_sand_collapse_scene.py."),
        "simulation": {"dt": args.dt, "steps": steps, "gravity": [0, -9.81, 0]},
        "material_points": {
            "dimensions": args.dims,
            "grid": {"cells": cells, "origin": [0, 0, 0], "size": size, "wall_cells": 3,
                     # a rough floor: the grains in contact with it stop
                     "wall_friction": [0.0, 0.0, -1.0, 0.0, 0.0, 0.0]},
            "materials": [{"name": "sand", "model": "sand", "youngs_modulus": args.youngs, "poisson_ratio": 0.3,
                           "friction_angle": angle}],
            "position": positions,
            "material": 0,
            "channel": -1,
            "mass": args.density * volume,
            "volume": volume,
        },
        "parameters": {"material_friction_angle": {"optimize": True, "lower": 5.0, "upper": 60.0}},
        "objectives": [],
        "optimizer": {"method": "adam", "iterations": args.iterations, "learning_rate": args.lr},
        "camera": {"eye": [0.17, 0.08, 0.42], "target": [0.17, 0.05, 0.0], "fov_degrees": 40} if args.dims == 2
        else {"eye": [0.26, 0.16, 0.26], "target": [0.06, 0.04, 0.06], "fov_degrees": 40},
    }
    if shape is not None:
        scene["objectives"].append({"type": "shape", "shape": shape, "step": -1, "weight": 1e4})
    return scene


def final_points(nudge, scene):
    """The last step's material points of `scene`, simulated by `nudge simulate`."""
    steps = simulate_points(nudge, scene)
    return [[round(x, 6), round(y, 6), round(z, 6)] for x, y, z in steps[max(steps)]]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--nudge", default="build/release/app/nudge", help="the nudge binary that runs the reference")
    parser.add_argument("--dims", type=int, choices=(2, 3), default=2, help="a 2D slice or a 3D column")
    parser.add_argument("--reference", type=float, default=35.0, help="the reference's friction angle (degrees)")
    parser.add_argument("--guess", type=float, default=20.0, help="the scene's first friction angle (degrees)")
    parser.add_argument("--width", type=float, help="the column's width (m; default 0.05 in 2D, 0.03 in 3D)")
    parser.add_argument("--height", type=float, default=0.1, help="the column's height (m)")
    parser.add_argument("--youngs", type=float, default=3e4, help="Young's modulus (Pa)")
    parser.add_argument("--density", type=float, default=1600.0, help="kg/m^3 (per metre of depth in 2D)")
    parser.add_argument("--dt", type=float, help="the step (s; default 3e-4 in 2D, 4e-4 in 3D)")
    parser.add_argument("--seconds", type=float, help="the collapse's duration (s; default 0.45 in 2D, 0.4 in 3D)")
    parser.add_argument("--iterations", type=int, default=8)
    parser.add_argument("--lr", type=float, default=3.0)
    args = parser.parse_args()
    defaults = {"width": (0.05, 0.03), "dt": (3e-4, 4e-4), "seconds": (0.45, 0.4)}  # 2D, 3D
    for key, (flat, deep) in defaults.items():
        if getattr(args, key) is None:
            setattr(args, key, flat if args.dims == 2 else deep)
    reference = final_points(args.nudge, column_scene(args, args.reference))
    scene = column_scene(args, args.guess, shape=reference)
    with open(args.out, "w") as f:
        json.dump(scene, f, indent=1)
        f.write("\n")
    print(f"wrote {args.out}: {len(reference)} points, reference heap at {args.reference:g} degrees")


if __name__ == "__main__":
    main()
