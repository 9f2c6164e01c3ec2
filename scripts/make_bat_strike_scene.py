#!/usr/bin/env python3
"""Write scenes/bat_strike.json: a motor swings a bat that strikes a block to a target.

The robot is scenes/robots/bat.xml as `nudge import` makes it: a bat (a 60 cm box of
0.5 kg) hinged about the vertical at the origin with a motor of 3 N m per unit of control,
and a free 8 cm block of 0.2 kg on the floor 12 cm beside it. The links meet each other
(articulations.self_contact): the bat's solid and the block's corners, and the block's
solid and the bat's corners. The motor's 1000 controls (1 s) are optimised so that the
block comes to rest at (0.15, 0.041, -0.65) (0.65 m across the floor) with L-BFGS.

They start at 0.4 for the first 0.2 s and 0 after: from zero controls the bat never
touches the block, and the gradient of where the block ends vanishes.

    python3 scripts/make_bat_strike_scene.py [path/to/nudge]

It runs `nudge import` (build/release/app/nudge unless given) and adds the task. Python 3
standard library only.
"""

import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STEPS = 1000  # 1 s at the robot's dt of 1 ms


def imported_robot(nudge):
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "bat.json")
        subprocess.run([nudge, "import", os.path.join(ROOT, "scenes", "robots", "bat.xml"),
                        "--out", out, "--steps", str(STEPS)], check=True, stdout=subprocess.DEVNULL)
        with open(out) as f:
            return json.load(f)


def main():
    nudge = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "release", "app", "nudge")
    scene = imported_robot(nudge)
    scene["articulations"]["source"] = "robots/bat.xml"  # relative to the scene's folder
    scene["articulations"]["self_contact"] = True
    scene["name"] = "bat_strike"
    scene["description"] = (
        "A bat hinged about the vertical (0.5 kg, a motor of 3 N m per unit of control) strikes a free "
        "0.2 kg block on the floor beside it; the two links meet each other (articulations.self_contact). "
        "Optimise the motor's 1000 controls so that the block slides to rest 0.65 m away at the target. "
        "From zero controls the bat never reaches the block and the gradient vanishes, so they start at "
        "0.4 for 0.2 s: `nudge optimize` takes the loss from 0.091 to about 1e-6 in 100 L-BFGS iterations.")
    scene["controls"] = {"channels": 1, "values": [[0.4 if t < 200 else 0.0] for t in range(STEPS)]}
    scene["contact"] = {"stiffness": 10000.0, "damping": 2.0, "friction": 0.3, "damping_mode": "both",
                        "smoothing": 0.001, "friction_smoothing": 0.05}
    scene["parameters"] = {"controls": {"optimize": True, "lower": -1, "upper": 1}}
    scene["objectives"] = [
        {"type": "reach", "link": "block", "point": [0, 0, 0], "target": [0.15, 0.041, -0.65], "step": STEPS}]
    scene["optimizer"] = {"method": "lbfgs", "iterations": 100}
    # looking down on the bat's sweep and the block's path (the floor patch is 4 m wide)
    scene["camera"] = {"eye": [0.9, 1.0, 0.7], "target": [0.2, 0.0, -0.35], "fov_degrees": 45}
    path = os.path.join(ROOT, "scenes", "bat_strike.json")
    with open(path, "w") as f:
        json.dump(scene, f, indent=1)
        f.write("\n")
    print("wrote", path)


if __name__ == "__main__":
    main()
