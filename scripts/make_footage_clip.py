#!/usr/bin/env python3
"""Make the footage example: a shot of a weight swinging on a damped spring, and the scene
that matches it, built with Nudge's own commands.

1. A "truth" scene (stiffness 60 N/m, damping 0.25 N s/m) is drawn by `nudge render
   --frames` through a camera at (0.4, 0.9, 2.6) m looking at (0, 0.55, 0) with a 28.8
   degree vertical field of view (a focal length of 700 px at 640 x 360), 50 frames a
   second for 2 s.
2. FFmpeg adds film grain and a slight blur and encodes H.264:
   assets/footage/spring_shot.mp4.
3. The example scene scenes/footage_spring.json starts from a wrong guess (stiffness 90,
   damping 0.6) and names the clip, with six points of known place clicked in its first
   frame (to half a pixel: the truth camera's projection, rounded).
4. `nudge fit-camera` fits the camera to them, `nudge track --add` follows the weight
   from one click on frame 0, and the tracks objective and the optimiser settings are
   added: the scene a user would save before pressing Optimise.

Usage: python3 scripts/make_footage_clip.py [--nudge build/release/app/nudge]
Python 3 standard library only; needs the `ffmpeg` command.
"""

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WIDTH, HEIGHT, FOCAL = 640, 360, 700.0
EYE, TARGET = (0.4, 0.9, 2.6), (0.0, 0.55, 0.0)
FPS, SECONDS = 50, 2.0
POINTS = [(-0.5, 0, -0.5), (0.5, 0, -0.5), (0.5, 0, 0.5), (-0.5, 0, 0.5), (0, 1, 0), (0.5, 0.5, -0.5)]


def scene(stiffness, damping):
    return {
        "format": "nudge-scene", "version": 1, "name": "footage_spring",
        "description": "A weight on a damped spring, matched to a filmed shot: fit the camera, track the "
                       "weight, then fit the spring's stiffness and damping to the track through the camera.",
        "simulation": {"dt": 0.001, "steps": int(FPS * SECONDS) * 20, "gravity": [0, -9.81, 0]},
        "particles": {"position": [[0, 1, 0], [0.25, 0.45, 0.12]], "velocity": [[0, 0, 0], [0, 0.3, -0.2]],
                      "mass": [1.0, 0.5], "pinned": [0]},
        "springs": {"pairs": [[0, 1]], "stiffness": stiffness, "damping": damping, "rest_length": [0.4]},
    }


def project(p):
    """The truth camera's pinhole projection (pixel centres at integers)."""
    f = [TARGET[i] - EYE[i] for i in range(3)]
    n = math.sqrt(sum(x * x for x in f))
    f = [x / n for x in f]
    r = [f[1] * 0 - f[2] * 1, f[2] * 0 - f[0] * 0, f[0] * 1 - f[1] * 0]  # forward x up
    n = math.sqrt(sum(x * x for x in r))
    r = [x / n for x in r]
    u = [r[1] * f[2] - r[2] * f[1], r[2] * f[0] - r[0] * f[2], r[0] * f[1] - r[1] * f[0]]
    d = [p[i] - EYE[i] for i in range(3)]
    x, y, z = sum(d[i] * r[i] for i in range(3)), sum(d[i] * u[i] for i in range(3)), sum(d[i] * f[i] for i in range(3))
    return ((WIDTH - 1) / 2 + FOCAL * x / z, (HEIGHT - 1) / 2 - FOCAL * y / z)


def run(*args):
    print("+", " ".join(args))
    subprocess.run(args, check=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nudge", default=os.path.join(ROOT, "build", "release", "app", "nudge"))
    args = parser.parse_args()
    clip = os.path.join(ROOT, "assets", "footage", "spring_shot.mp4")
    example = os.path.join(ROOT, "scenes", "footage_spring.json")
    os.makedirs(os.path.dirname(clip), exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        truth = os.path.join(tmp, "truth.json")
        with open(truth, "w") as out:
            json.dump(scene(60.0, 0.25), out)
        fov = 2 * math.degrees(math.atan(HEIGHT / 2 / FOCAL))
        frames = os.path.join(tmp, "frames")
        run(args.nudge, "render", truth, "--frames", frames, "--fps", str(FPS), "--width", str(WIDTH), "--height",
            str(HEIGHT), "--eye", *map(str, EYE), "--target", *map(str, TARGET), "--fov", repr(fov))
        run("ffmpeg", "-y", "-loglevel", "error", "-framerate", str(FPS), "-i", os.path.join(frames, "frame_%05d.png"),
            "-vf", "noise=alls=6:allf=t,gblur=sigma=0.5", "-c:v", "libx264", "-crf", "20", "-g", "25",
            "-pix_fmt", "yuv420p", "-movflags", "+faststart", clip)

    s = scene(90.0, 0.6)
    s["footage"] = {
        "video": "../assets/footage/spring_shot.mp4", "fps": FPS, "first_frame": 0,
        "correspondences": [{"world": list(p), "image": [round(c * 2) / 2 for c in project(p)], "frame": 0}
                            for p in POINTS],
    }
    with open(example, "w") as out:
        json.dump(s, out, indent=2)
    run(args.nudge, "fit-camera", example)
    click = [round(c * 2) / 2 for c in project((0.25, 0.45, 0.12))]
    run(args.nudge, "track", example, "--add", "weight", "0", str(click[0]), str(click[1]))
    with open(example) as f:
        s = json.load(f)
    s["objectives"] = [{"type": "tracks", "bind": [[0, 1]], "weight": 1}]
    s["parameters"] = {"stiffness": {"optimize": True, "lower": 0}, "damping": {"optimize": True, "lower": 0}}
    s["optimizer"] = {"method": "lbfgs", "iterations": 60}
    with open(example, "w") as out:
        json.dump(s, out, indent=2)
        out.write("\n")
    run(args.nudge, "validate", example)


if __name__ == "__main__":
    sys.exit(main())
