"""Runs inside Blender (blender -b --factory-startup --python this -- FILE.gltf EXPECT.json):
imports a glTF that `nudge export --gltf` wrote, as an artist would, and checks what Blender
made of it against what the file says: the camera and its clip range, a node per animated
element, and each one's animation (its keyframes and first and last positions). Exits 1
with the reasons on a mismatch; Blender's own import errors fail it too."""
import json
import math
import sys

import bpy

args = sys.argv[sys.argv.index("--") + 1:]
path, expect_path = args[0], args[1]
expect = json.load(open(expect_path))
problems = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        problems.append(what)


# An empty scene first: the factory startup's cube, light and camera go.
for obj in list(bpy.data.objects):
    bpy.data.objects.remove(obj, do_unlink=True)
result = bpy.ops.import_scene.gltf(filepath=path)
check(result == {"FINISHED"}, f"Blender's glTF importer read {path}")

cameras = [o for o in bpy.data.objects if o.type == "CAMERA"]
want = expect["camera"]
check(len(cameras) == (1 if want else 0), f"{'one camera' if want else 'no camera'} ({len(cameras)} found)")
if want and cameras:
    cam = cameras[0].data
    check(math.isclose(cam.clip_start, want["znear"], rel_tol=1e-4),
          f"its near clip {cam.clip_start} is the file's {want['znear']}")
    check(math.isclose(cam.clip_end, want["zfar"], rel_tol=1e-4), f"its far clip {cam.clip_end} is the file's {want['zfar']}")
    check(math.isclose(cam.angle_y, want["yfov"], rel_tol=1e-3),
          f"its vertical field of view {cam.angle_y:.4f} rad is the file's {want['yfov']:.4f}")

for name, first, last in expect["animated"]:
    obj = bpy.data.objects.get(name)
    check(obj is not None, f"an object '{name}'")
    if obj is None:
        continue
    action = obj.animation_data.action if obj.animation_data else None
    check(action is not None, f"'{name}' is animated")
    if action is None:
        continue
    curves = [c for c in action.fcurves if c.data_path == "location"]
    check(len(curves) == 3, f"'{name}' has x, y and z location curves")
    if len(curves) != 3:
        continue
    keys = len(curves[0].keyframe_points)
    check(keys == expect["keyframes"], f"'{name}' has {keys} keyframes (the file's {expect['keyframes']})")
    start, end = curves[0].keyframe_points[0].co[0], curves[0].keyframe_points[-1].co[0]
    scene = bpy.context.scene
    for frame, want in ((start, first), (end, last)):
        scene.frame_set(int(round(frame)))
        # glTF is y-up; Blender z-up: (x, y, z) in the file is (x, -z, y) in Blender.
        got = obj.matrix_world.translation
        blender_want = (want[0], -want[2], want[1])
        check(all(math.isclose(g, w, abs_tol=2e-3) for g, w in zip(got, blender_want)),
              f"'{name}' at frame {frame:.0f} is at {tuple(round(v, 4) for v in got)} "
              f"(the file's {tuple(round(v, 4) for v in blender_want)})")

if problems:
    print(f"{len(problems)} problem(s)")
    sys.exit(1)
print("Blender imported the glTF as written")
