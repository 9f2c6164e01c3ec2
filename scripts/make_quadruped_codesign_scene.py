#!/usr/bin/env python3
"""Write scenes/quadruped_codesign.json: a quadruped's leg lengths and its gait optimised together.

The robot is scenes/robots/quadruped.xml as `nudge import` makes it (a free torso on four
legs, each hip and knee a position servo whose control is its target angle in rad), so each
leg link carries the length_axis the import sets: the thigh's from its hip to its knee, the
shin's along its capsule. A network reads a clock (four phases of a 1.5 Hz sine) and the
joints (a closed loop) and sets the eight servos' targets. Its weights and the eight leg
links' `link_length` (each link stretched along its axis, within [0.6, 1.6]) are optimised
together to carry the torso as far forward as it can in 1 s, upright (a target 3 m ahead),
with Adam for 150 iterations.

    python3 scripts/make_quadruped_codesign_scene.py [path/to/nudge]

It runs `nudge import` (build/release/app/nudge unless given) and adds the task. Python 3
standard library only.
"""

import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STEPS = 500  # 1 s at the robot's dt of 2 ms
LEG_LINKS = ["fl_thigh", "fl_shin", "fr_thigh", "fr_shin", "hl_thigh", "hl_shin", "hr_thigh", "hr_shin"]


def imported_robot(nudge):
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "quadruped.json")
        subprocess.run([nudge, "import", os.path.join(ROOT, "scenes", "robots", "quadruped.xml"),
                        "--out", out, "--steps", str(STEPS)], check=True, stdout=subprocess.DEVNULL)
        with open(out) as f:
            return json.load(f)


def main():
    nudge = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "release", "app", "nudge")
    scene = imported_robot(nudge)
    links = scene["articulations"]["links"]
    names = [link["name"] for link in links]
    for name in LEG_LINKS:
        if not links[names.index(name)].get("length_axis"):
            sys.exit(f"{name} has no length_axis: the import should set it")
    scene["articulations"]["source"] = "robots/quadruped.xml"  # relative to the scene's folder
    scene["name"] = "quadruped_codesign"
    scene["description"] = (
        "Co-design: the MJCF quadruped's eight leg links are stretched along their length axes "
        "(link_length, within 0.6 to 1.6) while a network that reads a clock and the joints learns "
        "its gait. Optimise both together to carry the torso as far forward as it can in 1 s, upright.")
    scene["controls"] = {"channels": 8, "values": 0}  # the network sets them all
    scene["contact"] = {"stiffness": 20000.0, "damping": 300.0, "friction": 1.0, "damping_mode": "both",
                        "smoothing": 0.005, "friction_smoothing": 0.05}
    scene["controller"] = {
        "inputs": [{"type": "sine", "count": 4, "omega": 9.424778},
                   {"type": "joints", "position_scale": 1.0, "velocity_scale": 0.1}],
        "layers": [{"size": 16, "activation": "tanh"}, {"activation": "tanh"}],
        "channels": list(range(8)),
        "seed": 1,
    }
    scene["parameters"] = {
        "controller_weights": {"optimize": True},
        "link_length": {"optimize": True, "rows": [names.index(n) for n in LEG_LINKS], "lower": 0.6, "upper": 1.6},
    }
    scene["objectives"] = [
        {"type": "reach", "link": "torso", "point": [0, 0, 0], "target": [3.0, 0.34, 0], "step": -1, "weight": 1},
        {"type": "link_orientation", "link": "torso", "axis": [0, 0, 1], "direction": [0, 1, 0],
         "from_step": 1, "step": -1, "every": 20, "weight": 10},
    ]
    scene["optimizer"] = {"method": "adam", "iterations": 150, "learning_rate": 0.01}
    path = os.path.join(ROOT, "scenes", "quadruped_codesign.json")
    with open(path, "w") as f:
        json.dump(scene, f, indent=1)
        f.write("\n")
    print("wrote", path)


if __name__ == "__main__":
    main()
