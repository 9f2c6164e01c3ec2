#!/usr/bin/env python3
"""Write scenes/softbody_properties.json and its truth scene assets/tracks/softbody_truth.json.

A soft cube of 3 x 3 x 3 cells (0.1 m each, 64 particles) split conformingly into 162
tetrahedra, six per cell around the cell's main diagonal (Kuhn's subdivision, the same in
every cell, so neighbouring cells share their faces' triangles), every tet positively
oriented. Its masses come from a density (the loader lumps density * volume / 4 onto each
corner). It is dropped, moving sideways and spinning about the vertical, onto the ground,
where it bounces and wobbles.

The truth scene gives each tet its true k_mu and k_lambda: a stiff lower layer and a
softer top, varying across the cube. The example scene starts every tet from one wrong
guess and fits all of them (per tet) to a marker track of every particle recorded from
the truth scene (see assets/tracks/README.md for how the track is made):

    python3 scripts/make_softbody_scene.py
    nudge simulate assets/tracks/softbody_truth.json --out /tmp/softbody_traj.csv
    python3 scripts/make_marker_track.py /tmp/softbody_traj.csv --particles 0,1,...,63 --every 20 \
        --out assets/tracks/softbody_track.csv

Python 3 standard library only.
"""

import json
import math
import os

CELLS = 3
H = 0.1           # cell size, m
LIFT = 0.12       # height of the cube's bottom above the ground, m
DENSITY = 1000.0  # kg/m^3
DT = 1e-3
STEPS = 500
EVERY = 20        # steps per marker frame

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def index(i, j, k):
    return i + (CELLS + 1) * (j + (CELLS + 1) * k)


def cube():
    """Positions, velocities and tets of the cube."""
    positions, velocities = [], []
    centre = 0.5 * CELLS * H
    spin = 4.0  # rad/s about the vertical through the centre
    for k in range(CELLS + 1):
        for j in range(CELLS + 1):
            for i in range(CELLS + 1):
                x, y, z = i * H, LIFT + j * H, k * H
                positions.append([round(x, 9), round(y, 9), round(z, 9)])
                velocities.append([round(0.6 + spin * (z - centre), 9) + 0.0, -0.5, round(-spin * (x - centre), 9) + 0.0])
    paths = [(0, 1, 2), (1, 2, 0), (2, 0, 1), (0, 2, 1), (2, 1, 0), (1, 0, 2)]
    tets, layers = [], []
    for k in range(CELLS):
        for j in range(CELLS):
            for i in range(CELLS):
                for p, path in enumerate(paths):
                    c = [i, j, k]
                    corners = [index(*c)]
                    for axis in path:
                        c[axis] += 1
                        corners.append(index(*c))
                    if p >= 3:  # odd permutations: swap two corners for a positive volume
                        corners[2], corners[3] = corners[3], corners[2]
                    tets.append(corners)
                    layers.append((i, j, k))
    return positions, velocities, tets, layers


def round_sig(x):
    return float(f"{x:.6g}")


def true_material(layer):
    """The truth: stiff at the bottom, softer towards the top, and varying across."""
    i, j, k = layer
    mu = 3.0e4 * (1.6 - 0.35 * j) * (1.0 + 0.1 * (i - 1))
    lam = 6.0e4 * (1.5 - 0.25 * j) * (1.0 - 0.08 * (k - 1))
    return round_sig(mu), round_sig(lam)


def base_scene(name, description, positions, velocities, tets, k_mu, k_lambda):
    return {
        "format": "nudge-scene",
        "version": 1,
        "name": name,
        "description": description,
        "simulation": {
            "dt": DT,
            "steps": STEPS,
            "gravity": [0, -9.81, 0],
            "drag": 0,
            "ground": {"height": 0, "stiffness": 20000, "damping": 5, "friction": 0.5,
                       "contact_smoothing": 0.002, "friction_smoothing": 0.2},
        },
        "particles": {"position": positions, "velocity": velocities},
        "tets": {"indices": tets, "k_mu": k_mu, "k_lambda": k_lambda, "k_damp": 20, "density": DENSITY},
    }


def dumps(value, indent=""):
    """JSON with objects spread over lines and arrays of numbers (or of such rows) on one line each."""
    inner = indent + "  "
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k)}: {dumps(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list) and value and isinstance(value[0], (list, dict)):
        return "[\n" + ",\n".join(inner + dumps(v, inner) for v in value) + "\n" + indent + "]"
    return json.dumps(value)


def main():
    positions, velocities, tets, layers = cube()
    truth = [true_material(layer) for layer in layers]
    truth_scene = base_scene(
        "softbody_truth",
        "The truth behind scenes/softbody_properties.json: the soft cube with each tet's true k_mu and "
        "k_lambda (stiff at the bottom, softer at the top). Simulated to make "
        "assets/tracks/softbody_track.csv.",
        positions, velocities, tets, [t[0] for t in truth], [t[1] for t in truth])
    scene = base_scene(
        "softbody_properties",
        "Material identification of a soft body: a 0.3 m cube of 162 stable Neo-Hookean tetrahedra "
        "(27 kg from a density of 1000 kg/m^3) is dropped, moving sideways and spinning, onto the ground, "
        "where it bounces and wobbles for 0.5 s. A marker track of all 64 particles "
        "(assets/tracks/softbody_track.csv, one frame every 20 steps) records the motion made with each "
        "tet's true k_mu and k_lambda (stiff at the bottom, softer at the top). Every tet starts from the "
        "same wrong guess, k_mu = 20 kPa and k_lambda = 50 kPa, and L-BFGS fits all 324 values, per tet, "
        "to the track (the loss falls from 5e-4 to about 1e-8 m^2 in 100 iterations). The ground's friction "
        "smoothing (0.2 m/s) keeps its viscous regime within the explicit step's limit on the light corner "
        "particles, so the gradients through the landing hold.",
        positions, velocities, tets, 20000, 50000)
    scene["parameters"] = {
        "tet_mu": {"optimize": True, "lower": 1000, "upper": 200000},
        "tet_lambda": {"optimize": True, "lower": 1000, "upper": 400000},
    }
    scene["objectives"] = [{
        "type": "markers",
        "file": "../assets/tracks/softbody_track.csv",
        "bind": [[p, p] for p in range(len(positions))],
        "steps_per_frame": EVERY,
        "weight": 1,
    }]
    scene["optimizer"] = {"method": "lbfgs", "iterations": 100, "history": 10}
    for path, data in ((os.path.join(ROOT, "assets", "tracks", "softbody_truth.json"), truth_scene),
                       (os.path.join(ROOT, "scenes", "softbody_properties.json"), scene)):
        with open(path, "w") as out:
            out.write(dumps(data) + "\n")


if __name__ == "__main__":
    main()
