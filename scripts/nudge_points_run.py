"""Run a scene with `nudge simulate` and read a trajectory back: the reference motions
that make_sand_collapse_scene.py, make_jelly_bounce_scene.py (material points) and
make_float_block_scene.py (a body) fit."""
import csv
import json
import os
import subprocess
import tempfile


def _simulate(nudge, scene, option):
    """Every row of the CSV that `nudge simulate <scene> <option> FILE` writes, in order."""
    with tempfile.TemporaryDirectory() as tmp:
        path, out = os.path.join(tmp, "reference.json"), os.path.join(tmp, "trajectory.csv")
        with open(path, "w") as f:
            json.dump(scene, f)
        subprocess.run([nudge, "simulate", path, option, out], check=True, stdout=subprocess.DEVNULL)
        with open(out) as f:
            return list(csv.DictReader(f))


def _by_step(rows):
    steps = {}
    for r in rows:
        steps.setdefault(int(r["step"]), []).append([float(r["x"]), float(r["y"]), float(r["z"])])
    return steps


def simulate_points(nudge, scene):
    """Every material point at every step of `scene` (a dict), as {step: [[x, y, z], ...]}
    in point order, simulated by the `nudge` binary."""
    return _by_step(_simulate(nudge, scene, "--points-out"))


def simulate_bodies(nudge, scene):
    """Every body's centre at every step of `scene` (a dict), as {step: [[x, y, z], ...]}
    in body order, simulated by the `nudge` binary."""
    return _by_step(_simulate(nudge, scene, "--bodies-out"))
