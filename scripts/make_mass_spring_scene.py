#!/usr/bin/env python3
"""Write a Nudge scene of one of DiffTaichi's mass_spring robots, with its neural controller.

DiffTaichi (Hu et al., ICLR 2020, github.com/taichi-dev/difftaichi) trains closed-loop
controllers for 2D mass-spring robots in examples/mass_spring.py; the robots are built by
examples/mass_spring_robot_config.py (robots = [robotA, robotB, robotC, robotD]). This script
imports that config file (pure Python) from a folder holding DiffTaichi's examples, builds
robots[ROBOT_ID](), and writes the robot as a Nudge scene: the same particles (mass 1),
springs (stiffness, rest length, actuation), time step, gravity, damping, ground (its
advance_toi by default, the one its own 'train' task uses, or advance_no_toi), the same
network (sine + state + goal inputs, 32 tanh hidden units, tanh outputs) starting from the
same weights a DiffTaichi run starts from, the same loss (up to a constant) and the same
update rule.

    python3 scripts/make_mass_spring_scene.py /tmp/difftaichi/examples 2 scenes/mass_spring_robot2.json
    python3 scripts/make_mass_spring_scene.py /tmp/difftaichi/examples 3 scenes/mass_spring_robot3.json
    python3 scripts/make_mass_spring_scene.py [--ground toi|no_toi] [--init K] DIR ROBOT_ID OUT.json

--ground toi (default): "ground": {"model": "time_of_impact"}, DiffTaichi's advance_toi
(optimize(toi=True)); --ground no_toi: "model": "projection", its advance_no_toi.
--init K (default 0): the K-th initialisation of DiffTaichi's random stream, the weights the
(K+1)-th call to optimize() in one process draws (its 'plot' task calls optimize() 5 times
per ground in one process, each drawing new weights from the continuing stream).

Get the examples folder with, e.g.,
    mkdir -p /tmp/difftaichi && git -C DIFFTAICHI_REPO archive HEAD examples | tar -x -C /tmp/difftaichi

The initial weights: mass_spring.py calls np.random.seed(0) at import and then, in each
optimize() call, draws weights1[i, j] = randn() * sqrt(2 / (n_hidden + n_input)) * 2 for
i < 32, j < n_input (row-major), then weights2[i, j] = randn() * sqrt(2 / (n_hidden +
n_springs)) * 3 for every spring i < n_springs, j < 32; nothing else in it draws from
np.random. Biases are 0: the fields start at 0 and optimize() never resets them, so its
call K + 1 in one process starts from the --init K weights but the biases call K left
(bench/difftaichi_mass_spring.py --reset-biases zeroes them before each call, to match the
scene). --init K skips K such draws (K * 32 * (n_input + n_springs) normals) after the seed. DiffTaichi stores them in float32
fields, so they are written here as those float32 values (exactly, as doubles). Nudge's
second layer has one output per actuated spring: the rows of weights2 of the passive
springs are dropped (they multiply actuation 0 and get zero gradients in DiffTaichi).

Needs numpy (the global random state's normal draws, legacy MT19937, are the same in every
numpy version); no taichi. If /usr/bin/python3 has no numpy, run it with a venv's python
that has (e.g. the one bench/compare_mass_spring.sh creates, /tmp/peers-venv/bin/python).
"""

import argparse
import importlib
import json
import math
import os
import sys

import numpy as np

# DiffTaichi's mass_spring.py constants.
DT = 0.004
STEPS = 2048 // 3 - 1   # its loss reads x[steps - 1] = state 681 of states 0..681
GRAVITY = -4.8
DAMPING = 15.0          # v *= exp(-dt * damping) each step
GROUND_HEIGHT = 0.1
N_SIN_WAVES = 10
SPRING_OMEGA = 10
N_HIDDEN = 32
GOAL = [0.9, 0.2]
HEAD_ID = 0
GRADIENT_CLIP = 0.2     # its update: w -= 0.2 * g / (|g| + 1e-6)


def load_robot(examples_dir, robot_id):
    sys.path.insert(0, os.path.abspath(examples_dir))
    config = importlib.import_module("mass_spring_robot_config")
    objects, springs = config.robots[robot_id]()
    return [list(o) for o in objects], [list(s) for s in springs]


def initial_weights(n_objects, n_springs, init=0):
    """weights1 (n_hidden x n_input) and weights2 (n_springs x n_hidden) as the (init+1)-th call
    of DiffTaichi's optimize() after np.random.seed(0) draws them, rounded to float32 as its
    fields hold them."""
    n_input = N_SIN_WAVES + 4 * n_objects + 2
    np.random.seed(0)
    for _ in range(init):  # the draws of the earlier optimize() calls, one randn() each
        for _ in range(N_HIDDEN * n_input + n_springs * N_HIDDEN):
            np.random.randn()
    w1 = np.zeros((N_HIDDEN, n_input), dtype=np.float32)
    for i in range(N_HIDDEN):
        for j in range(n_input):
            w1[i, j] = np.random.randn() * math.sqrt(2 / (N_HIDDEN + n_input)) * 2
    w2 = np.zeros((n_springs, N_HIDDEN), dtype=np.float32)
    for i in range(n_springs):
        for j in range(N_HIDDEN):
            w2[i, j] = np.random.randn() * math.sqrt(2 / (N_HIDDEN + n_springs)) * 3
    return w1, w2


SPRING_LENGTH_OFFSET = 1e-4  # m: DiffTaichi's length = dist.norm() + 1e-4


def uniform(values):
    """One number if every value is the same, else the list."""
    return values[0] if values and all(v == values[0] for v in values) else values


def build_scene(robot_id, objects, springs, ground="toi", init=0):
    n = len(objects)
    actuated = [k for k, s in enumerate(springs) if s[4] != 0]
    channel = [-1] * len(springs)
    for c, k in enumerate(actuated):
        channel[k] = c
    w1, w2 = initial_weights(n, len(springs), init)
    w2_act = w2[actuated, :]
    f32 = lambda a: [float(v) for v in a.reshape(-1)]  # float32 values, exact as doubles
    # Per layer: W (out x in, row-major) then b (out).
    weights = f32(w1) + [0.0] * N_HIDDEN + f32(w2_act) + [0.0] * len(actuated)
    n_input = N_SIN_WAVES + 4 * n + 2
    head = objects[HEAD_ID]
    xs = [o[0] for o in objects]
    ys = [o[1] for o in objects]
    letter = "ABCD"[robot_id] if robot_id < 4 else str(robot_id)
    if ground == "toi":
        ground_text = (f"its time-of-impact ground at y = {GROUND_HEIGHT:g} (advance_toi, the one its own train task "
                       f"uses: a particle whose step would end below the plane while moving down faster than 1e-4 m/s "
                       f"stops where its path meets it)")
    else:
        ground_text = (f"its no-TOI ground at y = {GROUND_HEIGHT:g} (advance_no_toi: a particle below it moving down "
                       f"stops)")
    nth = {1: "2nd", 2: "3rd"}.get(init, f"{init + 1}th")
    init_text = ("DiffTaichi's seed-0 initial weights (np.random.seed(0), its first optimize() call's draws"
                 if init == 0 else
                 f"DiffTaichi's seed-0 initialisation {init} (np.random.seed(0), the draws of its {nth} optimize() "
                 f"call in one process")
    description = (
        f"DiffTaichi's mass_spring robot {robot_id} (robot{letter} in its examples/mass_spring_robot_config.py; "
        f"github.com/taichi-dev/difftaichi), reproduced for a side-by-side run with its own code "
        f"(bench/compare_mass_spring.sh). A 2D robot in the plane z = 0: {n} particles of unit mass on a 0.05 m grid "
        f"({min(xs):g} <= x <= {max(xs):g}, {min(ys):g} <= y <= {max(ys):g}), {len(springs)} springs of stiffness "
        f"{springs[0][3]:g} with DiffTaichi's rest lengths and its length |d| + 1e-4 m, {len(actuated)} of them muscles (actuation "
        f"{springs[actuated[0]][4]:g}: rest length times 1 + 0.15 u) on a channel each. dt {DT:g} s, {STEPS} steps "
        f"(states 0..{STEPS}, DiffTaichi's steps = 2048 // 3 = 682 states), gravity {GRAVITY:g}, its velocity "
        f"damping exp(-{DAMPING:g} dt) per step as a drag force on unit masses, and {ground_text}. The controls come from "
        f"DiffTaichi's closed-loop network: inputs {N_SIN_WAVES} sine waves sin({SPRING_OMEGA} t + 2 pi j / "
        f"{N_SIN_WAVES}), each particle's offset from the centroid and velocity (times 0.05), and the goal "
        f"{GOAL} minus the centroid ({n_input} inputs), {N_HIDDEN} tanh hidden units, one tanh output per muscle. "
        f"The weights start as {init_text}, "
        f"float32; biases 0) and are optimised by its update rule, normalised gradient descent with step "
        f"{GRADIENT_CLIP:g}, to carry the head particle {HEAD_ID} as far as it can along +x in "
        f"{STEPS * DT:g} s (the loss is DiffTaichi's, -x of the head at the last state, plus its start x "
        f"{head[0]:g}). Written by scripts/make_mass_spring_scene.py.")
    scene = {
        "format": "nudge-scene",
        "version": 1,
        "name": f"mass_spring_robot{robot_id}" + ("" if ground == "toi" else "_no_toi") + (f"_init{init}" if init else ""),
        "description": description,
        "simulation": {
            "dt": DT,
            "steps": STEPS,
            "gravity": [0, GRAVITY, 0],
            "drag": (1 - math.exp(-DT * DAMPING)) / DT,
            "ground": {"model": "time_of_impact" if ground == "toi" else "projection", "height": GROUND_HEIGHT},
        },
        "particles": {"position": [[o[0], o[1], 0] for o in objects], "mass": 1},
        "springs": {
            "pairs": [[s[0], s[1]] for s in springs],
            "stiffness": uniform([s[3] for s in springs]),
            "damping": 0,
            "rest_length": [s[2] for s in springs],
            "channel": channel,
            "actuation": [s[4] for s in springs],
            # DiffTaichi's springs take their length as |d| + 1e-4 (apply_spring_force).
            "length_offset": SPRING_LENGTH_OFFSET,
        },
        "controls": {"channels": len(actuated), "values": 0},
        "controller": {
            "axes": "xy",
            "inputs": [
                {"type": "sine", "count": N_SIN_WAVES, "omega": SPRING_OMEGA},
                {"type": "state", "position_scale": 0.05, "velocity_scale": 0.05},
                {"type": "target", "point": [GOAL[0], GOAL[1], 0]},
            ],
            "layers": [{"size": N_HIDDEN, "activation": "tanh"}, {"activation": "tanh"}],
            "channels": list(range(len(actuated))),
            "weights": weights,
        },
        "parameters": {"controller_weights": {"optimize": True}},
        "objectives": [{"type": "travel", "particles": [HEAD_ID], "direction": [1, 0, 0], "step": -1, "weight": 1}],
        "optimizer": {"method": "gd", "iterations": 100, "learning_rate": GRADIENT_CLIP, "momentum": 0,
                      "normalize": True, "epsilon": 1e-6},
        "camera": {"eye": [0.6, 0.3, 1.6], "target": [0.6, 0.3, 0], "fov_degrees": 45},
    }
    return scene, (n_input, len(actuated))


def dumps(value, indent="", key=None, rows=None, width=110):
    """JSON with objects spread over lines, whatever fits in `width` characters on one line,
    arrays of rows packed several to a line, and the flat "weights" list broken into lines of
    one matrix row (or bias vector) each."""
    inner = indent + "  "
    flat = json.dumps(value)
    if key == "weights" and rows:
        lines, at = [], 0
        for length in rows:
            lines.append(inner + ", ".join(json.dumps(v) for v in value[at:at + length]))
            at += length
        assert at == len(value)
        return "[\n" + ",\n".join(lines) + "\n" + indent + "]"
    if len(indent) + len(flat) <= width:
        return flat
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k)}: {dumps(v, inner, k, rows)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list):
        lines, line = [], ""
        for item in (dumps(v, inner, None, rows) for v in value):
            if line and len(inner) + len(line) + len(item) + 2 > width:
                lines.append(inner + line)
                line = ""
            line = f"{line}, {item}" if line else item
        lines.append(inner + line)
        return "[\n" + ",\n".join(lines) + "\n" + indent + "]"
    return flat


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("examples_dir", metavar="DIFFTAICHI_EXAMPLES_DIR")
    parser.add_argument("robot_id", metavar="ROBOT_ID", type=int)
    parser.add_argument("out_path", metavar="OUT.json")
    parser.add_argument("--ground", choices=["toi", "no_toi"], default="toi",
                        help="toi (default): advance_toi, \"time_of_impact\"; no_toi: advance_no_toi, \"projection\"")
    parser.add_argument("--init", type=int, default=0, metavar="K",
                        help="the K-th initialisation: the weights the (K+1)-th optimize() call draws (default 0)")
    args = parser.parse_args()
    if args.init < 0:
        parser.error("--init must be >= 0")
    examples_dir, robot_id, out_path = args.examples_dir, args.robot_id, args.out_path
    objects, springs = load_robot(examples_dir, robot_id)
    scene, (n_input, n_act) = build_scene(robot_id, objects, springs, args.ground, args.init)
    rows = [n_input] * N_HIDDEN + [N_HIDDEN] + [N_HIDDEN] * n_act + [n_act]
    with open(out_path, "w") as out:
        out.write(dumps(scene, rows=rows) + "\n")
    print(f"wrote {out_path}: {len(objects)} particles, {len(springs)} springs ({n_act} actuated), "
          f"{n_input} inputs, {len(scene['controller']['weights'])} weights, ground {args.ground}, init {args.init}")


if __name__ == "__main__":
    main()
