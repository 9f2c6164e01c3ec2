#!/usr/bin/env python3
"""Write scenes/drape.json and its truth scene assets/tracks/drape_truth.json.

A square cloth of N x N particles (0.5 m a side), held flat and level at y = 1, is pinned
along its edge x = 0 and let go: it swings down about the pin line under gravity and
drapes, hanging and swaying. Its membrane is Warp's cloth triangles (two per grid cell,
the diagonals alternating so that the sheet has no preferred shear direction) and its
bending edges are the triangles' interior edges ("bending": {"edges": "triangles"}).

The cloth is soft enough to stretch visibly under its own weight at the bottom of the
swing (a few per cent near the pin line), so the membrane stiffness shows in the track,
and its bending stiffness is large enough that the sheet folds over the pin line as a
curve rather than a crease, and swings down slower than a limp sheet would: bending
shows in the track too.

The truth scene gives every triangle one stiffness and every bending edge one bending
stiffness. The example scene starts every triangle and edge from one wrong guess and
fits them (per element: the scene format cannot tie a parameter's rows to one value) to
a marker track of every other particle in each direction, recorded from the truth scene.
The time step (1 ms) is stable for every stiffness within the scene's bounds (up to
100 N/m and 1.5 N m/rad); the bending edges are undamped, as a bending damping of
0.002 N m s/rad was already too much for the step on these light particles.

    python3 scripts/make_drape_scene.py
    nudge simulate assets/tracks/drape_truth.json --out /tmp/drape_traj.csv
    python3 scripts/make_marker_track.py /tmp/drape_traj.csv --particles $(python3 scripts/make_drape_scene.py --markers) \
        --every 10 --out assets/tracks/drape_track.csv

Python 3 standard library only.
"""

import json
import os
import sys

N = 9                  # particles per side
SIDE = 0.5             # m
HEIGHT = 1.0           # m, the sheet's starting height
MASS = 0.05 / (N * N)  # kg per particle: 0.05 kg in all, 0.2 kg/m^2
DT = 1e-3
STEPS = 1200
EVERY = 10             # steps per marker frame

TRUE_STIFFNESS = 4.0  # N/m, triangles' stiffness (Warp's tri_ke)
TRUE_BENDING = 0.8     # N m/rad per unit edge length (Warp's edge_ke)
GUESS_STIFFNESS = 12.0
GUESS_BENDING = 0.2
AREA_STIFFNESS = 4.0  # N/m, known (tri_ka)
DAMPING = 0.05         # N s/m, the membrane's (tri_kd)
BENDING_DAMPING = 0.0
DRAG = 0.0005          # N s/m per particle

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def index(i, k):
    return i + N * k


def sheet():
    """Positions, pinned particles and triangles: i along x, k along z."""
    h = SIDE / (N - 1)
    positions = [[round(i * h, 9), HEIGHT, round(k * h, 9)] for k in range(N) for i in range(N)]
    pinned = [index(0, k) for k in range(N)]
    triangles = []
    for k in range(N - 1):
        for i in range(N - 1):
            a, b, c, d = index(i, k), index(i + 1, k), index(i, k + 1), index(i + 1, k + 1)
            if (i + k) % 2 == 0:  # diagonal a-d
                triangles += [[a, d, b], [a, c, d]]
            else:                 # diagonal b-c
                triangles += [[a, c, b], [b, c, d]]
    return positions, pinned, triangles


def markers():
    """Every other particle in each direction, the pinned ones left out."""
    return [index(i, k) for k in range(0, N, 2) for i in range(2, N, 2)]


def dumps(value, indent=""):
    """JSON with objects spread over lines and arrays of numbers (or of such rows) on one line each."""
    inner = indent + "  "
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k)}: {dumps(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list) and value and isinstance(value[0], (list, dict)):
        return "[\n" + ",\n".join(inner + dumps(v, inner) for v in value) + "\n" + indent + "]"
    return json.dumps(value)


def base_scene(name, description, stiffness, bending):
    positions, pinned, triangles = sheet()
    return {
        "format": "nudge-scene",
        "version": 1,
        "name": name,
        "description": description,
        "simulation": {"dt": DT, "steps": STEPS, "gravity": [0, -9.81, 0], "drag": DRAG},
        "particles": {"position": positions, "mass": MASS, "pinned": pinned},
        "triangles": {"indices": triangles, "stiffness": stiffness, "area_stiffness": AREA_STIFFNESS,
                      "damping": DAMPING},
        "bending": {"edges": "triangles", "stiffness": bending, "damping": BENDING_DAMPING},
    }


def main():
    if sys.argv[1:] == ["--markers"]:
        print(",".join(str(p) for p in markers()))
        return
    truth = base_scene(
        "drape_truth",
        f"The truth behind scenes/drape.json: the pinned cloth with every triangle's stiffness "
        f"{TRUE_STIFFNESS:g} N/m and every bending edge's stiffness {TRUE_BENDING:g} N m/rad. Simulated to make "
        "assets/tracks/drape_track.csv.",
        TRUE_STIFFNESS, TRUE_BENDING)
    marker_particles = markers()
    scene = base_scene(
        "drape",
        f"Cloth identification: a {SIDE:g} m square cloth of {N} x {N} particles (0.05 kg), "
        f"{2 * (N - 1) ** 2} triangles and the bending edges between them, held level at y = 1 m and pinned "
        "along its edge x = 0, is let go: it swings down about the pin line, stretching a few per cent under "
        "its own weight, folds over the pin line as a curve its bending stiffness sets, and sways for 1.2 s. "
        f"A marker track of {len(marker_particles)} particles (every other one each way, "
        "assets/tracks/drape_track.csv, one frame every 10 steps) records the motion made with the true "
        f"stiffnesses, {TRUE_STIFFNESS:g} N/m for every triangle and {TRUE_BENDING:g} N m/rad for every "
        f"bending edge. Every element starts from a wrong guess, {GUESS_STIFFNESS:g} N/m and "
        f"{GUESS_BENDING:g} N m/rad, and Adam fits them, per element (the format has no way to tie a "
        "parameter's rows to one value), to the track: the loss falls from 3.5e-4 to about 1e-8 m^2 in 200 "
        "iterations, the triangles' stiffnesses come to within a few per cent of the truth (mean 4.09 N/m), the "
        "bending stiffnesses to it in their mean (0.85 N m/rad), while single edges that hardly show in the track "
        "wander to their bounds. (L-BFGS stalls once such edges sit on their bounds.)",
        GUESS_STIFFNESS, GUESS_BENDING)
    scene["parameters"] = {
        "triangle_stiffness": {"optimize": True, "lower": 0.5, "upper": 100},
        "bending_stiffness": {"optimize": True, "lower": 0.01, "upper": 1.5},
    }
    scene["objectives"] = [{
        "type": "markers",
        "file": "../assets/tracks/drape_track.csv",
        "bind": [[m, p] for m, p in enumerate(marker_particles)],
        "steps_per_frame": EVERY,
        "weight": 1,
    }]
    scene["optimizer"] = {"method": "adam", "iterations": 200, "learning_rate": 0.2}
    scene["camera"] = {"eye": [1.3, 0.9, 1.4], "target": [0.1, 0.75, 0.25], "fov_degrees": 45}
    for path, data in ((os.path.join(ROOT, "assets", "tracks", "drape_truth.json"), truth),
                       (os.path.join(ROOT, "scenes", "drape.json"), scene)):
        with open(path, "w") as out:
            out.write(dumps(data) + "\n")


if __name__ == "__main__":
    main()
