#!/usr/bin/env python3
"""export.blender_gltf: `nudge export --gltf` checked by a real consumer. Exports example
scenes' motion as glTF, reads what each file says (the camera's clip range and field of
view, every animated node's keyframes and first and last positions, decoded here from the
file's own buffers), then has Debian's Blender import the file headless
(blender_gltf_check.py) and find the same camera, clip range and animation.

Usage: blender_gltf_test.py --nudge PATH --source-dir DIR --out DIR [--blender PATH]"""
import argparse
import base64
import json
import os
import struct
import subprocess
import sys
from pathlib import Path

SCENES = ["footage_spring", "throw"]  # particles and the shot's camera; a rigid body, no camera


def accessor_values(gltf, buffers, index):
    acc = gltf["accessors"][index]
    view = gltf["bufferViews"][acc["bufferView"]]
    assert acc["componentType"] == 5126, "float32 expected"
    width = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}[acc["type"]]
    data = buffers[view["buffer"]]
    start = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
    stride = view.get("byteStride", 4 * width)
    return [struct.unpack_from(f"<{width}f", data, start + i * stride) for i in range(acc["count"])]


def expectations(path):
    gltf = json.loads(path.read_text())
    buffers = []
    for b in gltf["buffers"]:
        uri = b["uri"]
        buffers.append(base64.b64decode(uri.split(",", 1)[1]) if uri.startswith("data:")
                       else (path.parent / uri).read_bytes())
    camera = gltf["cameras"][0]["perspective"] if gltf.get("cameras") else None
    animated, keyframes = [], None
    for channel in gltf["animations"][0]["channels"]:
        if channel["target"]["path"] != "translation":
            continue
        sampler = gltf["animations"][0]["samplers"][channel["sampler"]]
        values = accessor_values(gltf, buffers, sampler["output"])
        keyframes = len(values)
        animated.append([gltf["nodes"][channel["target"]["node"]]["name"], list(values[0]), list(values[-1])])
    return {"camera": camera, "animated": animated, "keyframes": keyframes}


def blender_environment():
    """Debian's Blender finds its Python's standard library through the first python3 on
    PATH: a pyenv or virtualenv one there would hide Debian's numpy, which its glTF
    importer needs. So Blender runs with those taken off PATH."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYENV", "VIRTUAL_ENV", "PYTHONHOME"))}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if ".pyenv" not in p and "/venv" not in p and "virtualenv" not in p)
    return env


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--nudge", required=True)
    parser.add_argument("--source-dir", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--blender", default="blender")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    check_script = Path(__file__).with_name("blender_gltf_check.py")
    failed = []
    for name in SCENES:
        gltf = out / f"{name}.gltf"
        run = subprocess.run([args.nudge, "export", f"scenes/{name}.json", "--gltf", str(gltf), "--device", "cpu"],
                             cwd=args.source_dir, capture_output=True, text=True)
        print(run.stdout + run.stderr, end="")
        if run.returncode != 0:
            failed.append(f"{name}: nudge export exited {run.returncode}")
            continue
        expect = expectations(gltf)
        expect_path = out / f"{name}.expect.json"
        expect_path.write_text(json.dumps(expect))
        camera = expect["camera"]
        print(f"{name}: the file has " + (f"a camera (znear {camera['znear']}, zfar {camera['zfar']}) and " if camera
                                          else "no camera and ") +
              f"{len(expect['animated'])} animated nodes of {expect['keyframes']} keyframes")
        blender = subprocess.run([args.blender, "-b", "--factory-startup", "--python-exit-code", "1",
                                  "--python", str(check_script), "--", str(gltf), str(expect_path)],
                                 capture_output=True, text=True, timeout=300, env=blender_environment())
        lines = [l for l in blender.stdout.splitlines() if l.startswith(("ok:", "FAIL:", "Blender imported"))]
        print("\n".join(f"  {l}" for l in lines))
        if blender.returncode != 0:
            print(blender.stdout[-3000:] + blender.stderr[-3000:])
            failed.append(f"{name}: Blender's check exited {blender.returncode}")
    if failed:
        print("FAILED: " + "; ".join(failed))
        return 1
    print(f"Blender imported {len(SCENES)} exported scenes as written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
