"""Run a scene with `nudge simulate` and read its material points' trajectory back: the
reference motions that make_sand_collapse_scene.py and make_jelly_bounce_scene.py fit."""
import csv
import json
import os
import subprocess
import tempfile


def simulate_points(nudge, scene):
    """Every material point at every step of `scene` (a dict), as {step: [[x, y, z], ...]}
    in point order, simulated by the `nudge` binary."""
    with tempfile.TemporaryDirectory() as tmp:
        path, points = os.path.join(tmp, "reference.json"), os.path.join(tmp, "points.csv")
        with open(path, "w") as f:
            json.dump(scene, f)
        subprocess.run([nudge, "simulate", path, "--points-out", points], check=True, stdout=subprocess.DEVNULL)
        steps = {}
        with open(points) as f:
            for r in csv.DictReader(f):
                steps.setdefault(int(r["step"]), []).append([float(r["x"]), float(r["y"]), float(r["z"])])
    return steps
