#!/usr/bin/env python3
"""Write scenes/softbody_bounce.json: NVIDIA Warp's example_softbody_properties in Nudge.

Reads the model Warp's own example builds, as dumped by
tests/engine/warp_reference/softbody_properties.py --dump (committed as
tests/engine/warp_reference/softbody_properties_model.json), and writes the same scene:

  - the 27 particles of add_soft_grid (2 x 2 x 2 cells of 0.1 m from (-0.5, 1, -0.1)), in
    Warp's order, each position the shortest decimal that reads back as Warp's float32
    value, all thrown at (5, -5, 0), each of mass 0.2 / 27 kg (add_soft_grid gives every
    particle cell volume x density = 0.2 / 27; add_tetrahedron adds no mass), radius 0.0005;
  - the 40 tets with Warp's indices in Warp's order (5 per cell, alternating the split by
    cell parity) and the example's k_mu = E / (2 (1 + nu)), k_lambda = E nu / ((1 + nu)
    (1 - 2 nu)) for E = 1.5e4, nu = 0.3, k_damp 0 (given as k_mu and k_lambda, not
    young/poisson: Nudge's young/poisson conversion is the stable Neo-Hookean one, which
    the example does not use);
  - the 48 surface triangles add_soft_grid adds, tri_ke = tri_ka = tri_kd = 1e-4, no drag
    or lift (negligible, kept for fidelity);
  - the ground and the box at (2, 1, 0) (half extents 0.25, 1, 1) as colliders with Warp's
    soft contact: ke 1e3, kd 1 on approach only (min(v_n, 0)), switched on exactly at the
    surface, no friction (Warp's friction is min(kf |v_t|, mu |f_n|) with kf = 0). Warp's
    ground is eval_particle_ground_contacts with model.soft_contact_*; its box contact
    averages the particle's and the shape's ke, kd, kf, mu, which are the same values.
    (The ground-plane shape Warp's finalize adds is left out of particle contacts.)
  - 960 steps of 1/960 s, gravity 9.80665;
  - the loss |centroid of the 27 particles at the end - (-1, 1.5, 0)|^2;
  - per-tet k_mu and k_lambda optimised by plain gradient descent at lr 1e7, 300
    iterations (the example's default --train_iters), kept within [500, 4e6].

    python3 scripts/make_softbody_bounce_scene.py [MODEL_JSON]

Python 3 standard library only.
"""

import json
import os
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL = os.path.join(ROOT, "tests", "engine", "warp_reference", "softbody_properties_model.json")


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def shortest_f32(x):
    """The shortest decimal that reads back (rounded to float32) as float32 x."""
    x = f32(x)
    for digits in range(1, 18):
        s = "%.*g" % (digits, x)
        if f32(float(s)) == x:
            v = float(s)
            return int(v) if v == int(v) and abs(v) < 1e15 else v
    return x


def main():
    model_path = sys.argv[1] if len(sys.argv) > 1 else MODEL
    m = json.load(open(model_path))
    n = len(m["particle_q"])
    assert n == 27 and len(m["tet_indices"]) == 40 and len(m["tri_indices"]) == 48
    assert len({tuple(v) for v in m["particle_qd"]}) == 1 and len(set(m["particle_mass"])) == 1
    assert set(m["particle_radius"]) == {f32(0.0005)}
    assert m["shape_type"][0] == 1 and m["shape_count"] == 2  # the box, then finalize's ground-plane shape
    young, poisson = 1.5e4, 0.3
    k_mu = 0.5 * young / (1.0 + poisson)
    k_lambda = young * poisson / ((1 + poisson) * (1 - 2 * poisson))
    assert all(f32(k_mu) == t[0] and f32(k_lambda) == t[1] and t[2] == 0 for t in m["tet_materials"])
    assert all(t[:3] == [f32(1e-4)] * 3 and t[3:] == [0, 0] for t in m["tri_materials"])
    mass = 0.2 / 27
    assert f32(mass) == m["particle_mass"][0]
    sc = m["soft_contact"]
    assert (sc["ke"], sc["kd"], sc["kf"]) == (1000.0, 1.0, 0.0)
    assert (m["shape_ke"][0], m["shape_kd"][0], m["shape_kf"][0]) == (1000.0, 1.0, 0.0)
    box_pos = m["shape_transform"][0][:3]
    box_half = m["shape_scale"][0]
    assert m["shape_transform"][0][3:] == [0, 0, 0, 1]
    assert m["ground_plane"] == [0, 1, 0, 0] and m["ground"]
    lr = m["train_rate"]
    lower, upper = m["bounds"]

    scene = {
        "format": "nudge-scene",
        "version": 1,
        "name": "softbody_bounce",
        "description": (
            "NVIDIA Warp's example_softbody_properties (warp/examples/optim, Warp 1.9.1), the same model: "
            "a soft cube of 2 x 2 x 2 cells (27 particles of 0.2/27 kg, Warp's 40 tets from add_soft_grid "
            "in its order, k_mu 5769 Pa and k_lambda 8654 Pa from E = 15 kPa and nu = 0.3, and its 48 "
            "surface triangles of negligible stiffness 1e-4) is thrown at (5, -5, 0) m/s from (-0.5, 1, -0.1), "
            "bounces off the ground and a box wall (its face at x = 1.75) and should end with its centroid "
            "at (-1, 1.5, 0) after 1 s (960 steps of 1/960 s). Each tet's k_mu and k_lambda are fitted by "
            "plain gradient descent at Warp's rate of 1e7 for its 300 iterations, kept within [500, 4e6] Pa. "
            "Contact as in Warp: stiffness 1e3, damping 1 on approach only, switched on exactly at the "
            "surface, no friction (Warp's is min(kf |v_t|, mu |f_n|) with kf = 0). Made by "
            "scripts/make_softbody_bounce_scene.py from Warp's own model; bench/compare_softbody.sh "
            "runs both."),
        "simulation": {
            "dt": m["sim_dt"],
            "steps": m["sim_steps"],
            "gravity": [0, m["gravity"][1], 0],
        },
        "particles": {
            "position": [[shortest_f32(v) for v in p] for p in m["particle_q"]],
            "velocity": [[shortest_f32(v) for v in m["particle_qd"][0]]] * n,
            "mass": mass,
            "radius": 0.0005,
        },
        "triangles": {
            "indices": m["tri_indices"],
            "stiffness": 1e-4,
            "area_stiffness": 1e-4,
            "damping": 1e-4,
        },
        "tets": {
            "indices": m["tet_indices"],
            "k_mu": k_mu,
            "k_lambda": k_lambda,
        },
        "colliders": [
            {"type": "plane", "normal": [0, 1, 0], "offset": 0},
            {"type": "box", "position": [shortest_f32(v) for v in box_pos],
             "half_extents": [shortest_f32(v) for v in box_half]},
        ],
        "contact": {
            "stiffness": sc["ke"],
            "damping": sc["kd"],
            "friction": 0,
            "damping_mode": "approach",
            "smoothing": 0,
        },
        "parameters": {
            "tet_mu": {"optimize": True, "lower": lower, "upper": upper},
            "tet_lambda": {"optimize": True, "lower": lower, "upper": upper},
        },
        "objectives": [
            {"type": "target", "particles": list(range(n)), "target": m["target"], "step": -1, "weight": 1},
        ],
        "optimizer": {
            "method": "gd",
            "iterations": 300,
            "learning_rate": lr,
            "momentum": 0,
        },
        "camera": {
            "eye": [0.25, 1.4, 4.8],
            "target": [0.25, 0.8, 0],
            "fov_degrees": 45,
        },
    }
    out = os.path.join(ROOT, "scenes", "softbody_bounce.json")
    with open(out, "w") as f:
        f.write(dumps(scene) + "\n")
    print("wrote", out)


def dumps(value, indent=0):
    """JSON with short numeric rows on one line each."""
    pad = "  " * indent
    if isinstance(value, dict):
        items = [pad + "  " + json.dumps(k) + ": " + dumps(v, indent + 1).lstrip() for k, v in value.items()]
        return pad + "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list) and value and all(isinstance(v, list) for v in value):
        rows = [pad + "  " + json.dumps(v) for v in value]
        return pad + "[\n" + ",\n".join(rows) + "\n" + pad + "]"
    return pad + json.dumps(value)


if __name__ == "__main__":
    main()
