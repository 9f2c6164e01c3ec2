#!/usr/bin/env python3
"""Write float_block: a floating block's density fitted to how deep it floats.

A wooden block (a rigid body) is let go just above the surface of a tank of water
(MLS-MPM material points, weakly compressible liquid, 3D). It dips in, bobs and floats:
the water holds it up through the grid (the two-way coupling of material points and
bodies), and the lighter the block the higher it rides. The reference is the same block
at REFERENCE kg/m^3 (run by Nudge itself, `nudge simulate --bodies-out`): its centre at a
few late steps is what the objectives pull the block's centre to. The scene starts from a
wrong guess (GUESS kg/m^3) and its optimiser fits the density.

    python3 scripts/make_float_block_scene.py scenes/float_block.json \
        --nudge build/release/app/nudge
"""
import argparse
import json

from nudge_points_run import simulate_bodies

CELLS, SIZE, WALL_CELLS = 16, 0.5, 3
HALF = [0.05, 0.03, 0.05]  # the block's half extents (m)


def tank_scene(args, density, targets=None):
    dx = SIZE / CELLS
    wall = WALL_CELLS * dx
    spacing = dx / 2
    across = int(round((SIZE - 2 * wall) / spacing))  # the water fills the floor between the walls
    positions = [[wall + (i + 0.5) * spacing, wall + (j + 0.5) * spacing, wall + (k + 0.5) * spacing]
                 for i in range(across) for j in range(args.rows) for k in range(across)]
    surface = wall + args.rows * spacing
    volume = spacing ** 3
    steps = int(round(args.seconds / args.dt))
    scene = {
        "format": "nudge-scene",
        "version": 1,
        "name": "float_block",
        "description": (
            f"A block {2 * HALF[0] * 100:g} x {2 * HALF[1] * 100:g} x {2 * HALF[2] * 100:g} cm is let go just above "
            f"a tank of water ({len(positions)} material points, MLS-MPM liquid, 3D): it dips in, bobs and floats, "
            f"held up by the water through the grid (material points and bodies coupled both ways). Its centre at "
            f"{len(args.sample_steps)} late steps is compared with a reference block of {args.reference:g} kg/m^3; "
            f"the optimiser fits the density from a guess of {args.guess:g} kg/m^3. "
            f"Made by scripts/make_float_block_scene.py."),
        "simulation": {"dt": args.dt, "steps": steps, "gravity": [0, -9.81, 0]},
        "bodies": [{"name": "block", "shape": "box", "half_extents": HALF, "density": density,
                    "position": [SIZE / 2, surface + HALF[1] + 0.005, SIZE / 2]}],
        "material_points": {
            "dimensions": 3,
            "grid": {"cells": CELLS, "origin": [0, 0, 0], "size": SIZE, "wall_cells": WALL_CELLS,
                     "wall_friction": [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]},
            "materials": [{"name": "water", "model": "liquid", "bulk_modulus": args.bulk, "viscosity": 0.05}],
            "position": positions,
            "material": 0,
            "channel": -1,
            "mass": 1000.0 * volume,
            "volume": volume,
            "collider_friction": 0.0,
        },
        "parameters": {"body_density": {"optimize": True, "lower": 100.0, "upper": 990.0}},
        "objectives": [],
        "optimizer": {"method": "adam", "iterations": args.iterations, "learning_rate": args.lr},
        "camera": {"eye": [0.75, 0.45, 0.85], "target": [0.25, 0.15, 0.25], "fov_degrees": 40},
    }
    for step, centre in (targets or {}).items():
        scene["objectives"].append({"type": "target", "bodies": [0], "target": centre, "step": step,
                                    "weight": 1e3 / len(targets)})
    return scene


def body_centres(nudge, scene, steps):
    """The block's centre at each of `steps`, simulated by `nudge simulate`."""
    centres = simulate_bodies(nudge, scene)
    return {step: [round(v, 6) for v in centres[step][0]] for step in steps}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--nudge", default="build/release/app/nudge", help="the nudge binary that runs the reference")
    parser.add_argument("--reference", type=float, default=500.0, help="the reference block's density (kg/m^3)")
    parser.add_argument("--guess", type=float, default=850.0, help="the scene's first density (kg/m^3)")
    parser.add_argument("--rows", type=int, default=6, help="the water's depth in rows of points (half a cell each)")
    parser.add_argument("--bulk", type=float, default=5e4, help="the water's bulk modulus (Pa)")
    parser.add_argument("--dt", type=float, default=1e-3, help="the step (s)")
    parser.add_argument("--seconds", type=float, default=0.8, help="the duration (s)")
    parser.add_argument("--sample-steps", type=int, nargs="+", default=[400, 500, 600, 700, 800],
                        help="the steps whose reference centres the objectives keep")
    parser.add_argument("--iterations", type=int, default=12)
    parser.add_argument("--lr", type=float, default=40.0)
    args = parser.parse_args()
    targets = body_centres(args.nudge, tank_scene(args, args.reference), args.sample_steps)
    scene = tank_scene(args, args.guess, targets)
    with open(args.out, "w") as f:
        json.dump(scene, f, indent=1)
        f.write("\n")
    print(f"wrote {args.out}: reference block at {args.reference:g} kg/m^3, centres {targets}")


if __name__ == "__main__":
    main()
