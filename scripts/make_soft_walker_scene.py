#!/usr/bin/env python3
"""Write scenes/soft_walker.json: a soft robot of tetrahedra that learns to walk along +x.

The robot is a voxel shape of cubic cells (H a side): a body slab 8 cells long, 2 high
and 2 deep on two legs of 2 x 2 x 2 cells under its ends, feet on the ground at y = 0.
Each cell is split into five tets as nudge's tet_box splits its cells (a central tet whose
edges are the cell's face diagonals and four corner ones, the split alternating with the
parity of i + j + k, so neighbouring cells cut their shared face along the same diagonal
and the mesh is conforming; and with two cells across, the robot is its own mirror image
in z, so it walks in the plane z = 0.05 m), every tet positively oriented; cells that
share a corner share its particle.
Masses come from a density (the loader lumps density * volume / 4 onto each corner).

The legs' tets are muscles: each leg's rear column of cells is on one control channel and
its front column on another (four channels), with an actuation gain, so a positive
control contracts that half of the leg (its volume) and a negative one swells it, bending
the leg. The open-loop controls (STEPS x 4) start as a gentle phase-shifted sinusoid with
which the robot only rocks in place, and Adam optimises them within [-1, 1] to carry the
centroid as far as it can along +x, less a small control-effort penalty.

    python3 scripts/make_soft_walker_scene.py

Python 3 standard library only.
"""

import json
import math
import os

H = 0.05          # cell size, m
DENSITY = 1000.0  # kg/m^3
K_MU = 3.0e4      # Pa
K_LAMBDA = 6.0e4  # Pa
K_DAMP = 50.0     # Pa s
ACTUATION = 0.3
DT = 1e-3
STEPS = 1000
AMPLITUDE = 0.5   # of the starting controls
FREQUENCY = 2.0   # Hz
LIFT = 0.0        # the feet's height above the ground, m

# The cells (i, j, k): i along x, j up, k along z.
BODY = [(i, j, k) for i in range(8) for j in (2, 3) for k in (0, 1)]
LEGS = [(i, j, k) for i in (0, 1, 6, 7) for j in (0, 1) for k in (0, 1)]
# Channel of a leg cell by its column: the rear leg's rear and front columns, then the front leg's.
CHANNEL_OF_COLUMN = {0: 0, 1: 1, 6: 2, 7: 3}
CHANNELS = 4

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def oriented(positions, tet):
    """The tet with its last two corners swapped if it is negatively oriented."""
    a, b, c, d = (positions[v] for v in tet)
    u, v, w = ([b[i] - a[i] for i in range(3)], [c[i] - a[i] for i in range(3)], [d[i] - a[i] for i in range(3)])
    volume = (u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0]))
    return tet if volume > 0 else [tet[0], tet[1], tet[3], tet[2]]


def robot():
    """Positions, tets, and each tet's channel (-1 passive)."""
    vertex_of = {}
    positions = []

    def vertex(i, j, k):
        key = (i, j, k)
        if key not in vertex_of:
            vertex_of[key] = len(positions)
            positions.append([round(i * H, 9), round(LIFT + j * H, 9), round(k * H, 9)])
        return vertex_of[key]

    # Visit the corners in x-fastest order first, so particle indices follow a grid.
    cells = sorted(set(BODY + LEGS), key=lambda c: (c[2], c[1], c[0]))
    corners = sorted({(i + di, j + dj, k + dk) for (i, j, k) in cells for di in (0, 1) for dj in (0, 1) for dk in (0, 1)},
                     key=lambda c: (c[2], c[1], c[0]))
    for c in corners:
        vertex(*c)
    tets, channels = [], []
    for cell in cells:
        channel = CHANNEL_OF_COLUMN[cell[0]] if cell in LEGS else -1
        # Corner c = a + 2b + 4c' (a, b, c' in {0, 1} along x, y, z), as in tet_box.
        corner = [vertex(cell[0] + (c & 1), cell[1] + (c >> 1 & 1), cell[2] + (c >> 2 & 1)) for c in range(8)]
        centre = []
        for c in range(8):
            if (sum(cell) + (c & 1) + (c >> 1 & 1) + (c >> 2 & 1)) % 2 == 1:
                centre.append(c)
            else:
                tets.append(oriented(positions, [corner[c], corner[c ^ 1], corner[c ^ 2], corner[c ^ 4]]))
                channels.append(channel)
        tets.append(oriented(positions, [corner[c] for c in centre]))
        channels.append(channel)
    return positions, tets, channels


def starting_controls():
    rows = []
    for t in range(STEPS):
        phase = 2 * math.pi * FREQUENCY * t * DT
        rows.append([round(AMPLITUDE * math.sin(phase + c * math.pi / 2), 4) + 0.0 for c in range(CHANNELS)])
    return rows


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
    positions, tets, channels = robot()
    actuation = [ACTUATION if c >= 0 else 0.0 for c in channels]
    scene = {
        "format": "nudge-scene",
        "version": 1,
        "name": "soft_walker",
        "description": "",
        "simulation": {
            "dt": DT,
            "steps": STEPS,
            "gravity": [0, -9.81, 0],
            "drag": 0,
            "ground": {"height": 0, "stiffness": 5000, "damping": 1, "friction": 1.0,
                       "contact_smoothing": 0.002, "friction_smoothing": 0.2},
        },
        "particles": {"position": positions},
        "tets": {"indices": tets, "k_mu": K_MU, "k_lambda": K_LAMBDA, "k_damp": K_DAMP,
                 "channel": channels, "actuation": actuation, "density": DENSITY},
        "controls": {"channels": CHANNELS, "values": starting_controls()},
        "parameters": {"controls": {"optimize": True, "lower": -1, "upper": 1}},
        "objectives": [
            {"type": "travel", "particles": list(range(len(positions))), "direction": [1, 0, 0], "step": -1, "weight": 1},
            {"type": "effort", "weight": 0.01},
        ],
        "optimizer": {"method": "adam", "iterations": 100, "learning_rate": 0.02, "clip": 1.0},
        "camera": {"eye": [0.5, 0.45, 1.2], "target": [0.3, 0.1, 0.05], "fov_degrees": 45},
    }
    scene["description"] = (
        f"A soft robot of stable Neo-Hookean tetrahedra: {len(BODY) + len(LEGS)} cubic cells of {H * 100:g} cm "
        f"(a body slab 40 x 10 x 10 cm on two legs 10 cm long under its ends), {len(tets)} tets and "
        f"{len(positions)} particles, {DENSITY:g} kg/m^3, k_mu {K_MU:g} Pa, k_lambda {K_LAMBDA:g} Pa. The legs' "
        f"tets are muscles on four channels, each leg's rear and front column of cells on its own (actuation "
        f"{ACTUATION:g}: a positive control contracts that half of the leg, a negative one swells it, bending the "
        f"leg). The open-loop controls ({STEPS} steps x 4 channels, {STEPS * DT:g} s) start as a phase-shifted "
        f"{FREQUENCY:g} Hz sinusoid of amplitude {AMPLITUDE:g}, with which the robot rocks in place, and Adam "
        "optimises them within [-1, 1] to carry the centroid as far as it can along +x, less a small "
        "control-effort penalty: in 100 iterations it learns to carry itself 0.46 m forward in the second (from "
        "-0.003 m), a shuffling, vibrating gait (open-loop controls per step leave it free to buzz). The ground has friction 1 with a friction smoothing of 0.2 m/s, which keeps "
        "its viscous regime within the explicit step's limit on the light corner particles.")
    with open(os.path.join(ROOT, "scenes", "soft_walker.json"), "w") as out:
        out.write(dumps(scene) + "\n")


if __name__ == "__main__":
    main()
