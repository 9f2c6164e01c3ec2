#!/usr/bin/env bash
# DiffTaichi's own mass_spring.py training beside Nudge's scenes/mass_spring_robot{2,3}.json,
# in one run on this machine's CPU: for DiffTaichi's robots 2 and 3 (robotC, robotD in its
# mass_spring_robot_config.py), how far the head particle (0) travels along +x in the
# 2.724 s rollout (x at the last state minus x at state 0) with the controller's starting
# weights (DiffTaichi's seed-0 weights, which the scenes hold), after N iterations of
# DiffTaichi's update rule (the last iterate) and at the best iterate; DiffTaichi with its
# no-TOI ground (toi=False), Nudge in float32 on one CPU thread; and the seconds per
# iteration, wall and CPU (the CPU time is the one to compare on a loaded machine).
# DiffTaichi's first iteration, which includes taichi's JIT compile, is left out of its mean
# and shown apart. Nudge's optimize keeps its best iterate (final_loss, --write-scene), while
# DiffTaichi keeps its last: both are shown, from the loss histories (Nudge's travel loss is
# minus the distance; DiffTaichi's loss is -x, so the distance is -loss - x at state 0), and
# Nudge's written scene is simulated to check the best one.
# Usage: bench/compare_mass_spring.sh DIFFTAICHI_EXAMPLES_DIR [iters]   (default 100)
#   DIFFTAICHI_EXAMPLES_DIR: a folder with DiffTaichi's examples/mass_spring.py and
#   mass_spring_robot_config.py, e.g. from a DiffTaichi checkout:
#     mkdir -p /tmp/difftaichi && git -C DIFFTAICHI_REPO archive HEAD examples | tar -x -C /tmp/difftaichi
#     bench/compare_mass_spring.sh /tmp/difftaichi/examples
# Needs build/release. Installs taichi 1.7.4 and numpy into $TAICHI_VENV (default
# /tmp/peers-venv) when they are missing. DiffTaichi runs on $DIFFTAICHI_THREADS taichi CPU
# threads (default 1, like Nudge's --threads 1; 0 for taichi's default, one per core).
# $NUDGE picks another nudge binary (default build/release/app/nudge). The scenes are made
# by scripts/make_mass_spring_scene.py from the same examples folder.
set -euo pipefail
[ $# -ge 1 ] || { sed -n '2,24p' "$0" >&2; exit 2; }
examples=$(cd "$1" && pwd)
cd "$(dirname "$0")/.."
iters=${2:-100}
venv=${TAICHI_VENV:-/tmp/peers-venv}
threads=${DIFFTAICHI_THREADS:-1}
nudge=${NUDGE:-build/release/app/nudge}
out=${TMPDIR:-/tmp}/nudge_compare_mass_spring
mkdir -p "$out"
[ -f "$examples/mass_spring.py" ] || { echo "$examples has no mass_spring.py" >&2; exit 1; }
[ -x "$nudge" ] || { echo "build first: cmake --preset release && cmake --build build/release --target nudge" >&2; exit 1; }
if ! "$venv/bin/python" -c 'import taichi, numpy' >/dev/null 2>&1; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "taichi==1.7.4" numpy
fi
taichi_version=$("$venv/bin/python" -c 'import taichi; print(".".join(map(str, taichi.__version__)))' 2>/dev/null | tail -1)
for robot in 2 3; do
  echo "== DiffTaichi $taichi_version (its mass_spring.py, robot $robot, no TOI, CPU, float32, $threads thread(s)), $iters iterations"
  "$venv/bin/python" bench/difftaichi_mass_spring.py --examples "$examples" --robot "$robot" --iters "$iters" \
    --threads "$threads" 2>"$out/difftaichi_robot$robot.log" >"$out/difftaichi_robot$robot.jsonl"
  grep '"what": "result"' "$out/difftaichi_robot$robot.jsonl"
done | tee "$out/difftaichi.jsonl"
for robot in 2 3; do
  echo "== Nudge (float32, CPU, 1 thread), scenes/mass_spring_robot$robot.json, $iters iterations"
  /usr/bin/python3 - "$nudge" "scenes/mass_spring_robot$robot.json" "$robot" "$iters" "$out" <<'EOF'
import csv, json, resource, subprocess, sys, time
nudge, scene, robot, iters, out = sys.argv[1:]
common = ["--precision", "float32", "--device", "cpu", "--threads", "1"]
def run(args):
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([nudge] + args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.perf_counter() - t0, (c1.ru_utime - c0.ru_utime) + (c1.ru_stime - c0.ru_stime)
def head_x(scene_file, name):
    """x of particle 0 at step 0 and at the last step of the scene's rollout."""
    run(["simulate", scene_file, "--out", f"{out}/{name}.csv"] + common)
    rows = [r for r in csv.DictReader(open(f"{out}/{name}.csv")) if int(r["particle"]) == 0]
    rows.sort(key=lambda r: int(r["step"]))
    return float(rows[0]["x"]), float(rows[-1]["x"])
optimised = f"{out}/nudge_robot{robot}_optimised.json"
wall, cpu = run(["optimize", scene, "--iterations", iters, "--out", f"{out}/nudge_robot{robot}_optimize.json",
                 "--write-scene", optimised] + common)
o = json.load(open(f"{out}/nudge_robot{robot}_optimize.json"))
n = max(o["iterations"], 1)
x0, x_start = head_x(scene, f"nudge_robot{robot}_initial")
_, x_written = head_x(optimised, f"nudge_robot{robot}_optimised")
history = o["loss_history"]  # the travel loss -(x_T - x_0) of particle 0, at the start and after each iteration
print(json.dumps({"impl": "nudge-cpu-float32", "robot": int(robot), "iters": o["iterations"],
                  "stop_reason": o.get("stop_reason"), "distances": [-l for l in history],
                  "distance_start": -history[0], "distance_last": -history[-1], "distance_best": -o["final_loss"],
                  "head_x_initial": x0, "simulated_distance_start": x_start - x0,
                  "simulated_distance_written": x_written - x0,
                  "seconds_per_iter": wall / n, "cpu_seconds_per_iter": cpu / n}))
EOF
done | tee "$out/nudge.jsonl"
cat "$out/difftaichi.jsonl" "$out/nudge.jsonl" | /usr/bin/python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin if l.strip().startswith("{")]
dt = {r["robot"]: r for r in rows if r.get("impl") == "difftaichi"}
nu = {r["robot"]: r for r in rows if r.get("impl", "").startswith("nudge")}
for r in dt.values():  # distance at the start and after each update, the last from the extra forward pass
    r["distances"] = [-l - r["head_x_initial"] for l in r["losses"] + [r["final_loss"]]]
f = lambda v: "%.5f" % v if v is not None else "-"
pair = lambda d, n, key: "%s / %s" % tuple(f(r["distances"][key] if r and r["distances"] else None) for r in (d, n))
print()
print("Distance (m) the head particle 0 travels along +x in the rollout, DiffTaichi / Nudge: with the starting")
print("weights, after the last iteration, and the best over the iterations (Nudge: its final_loss; in brackets,")
print("its written scene simulated). Seconds per iteration, wall (CPU). DiffTaichi: its code, no TOI, float32,")
print("taichi on the CPU; Nudge: float32, CPU, 1 thread.")
print()
print("| robot | iterations | start | last | best | DiffTaichi s/iter; its JIT (1st iteration) | Nudge s/iter |")
print("|---|---|---|---|---|---|---|")
for robot in sorted(set(dt) | set(nu)):
    d, n = dt.get(robot), nu.get(robot)
    best = "%s / %s (%s)" % (f(max(d["distances"]) if d else None), f(n["distance_best"] if n else None),
                             f(n["simulated_distance_written"] if n else None))
    time_d = "%.4g (%.4g); JIT %.3g s" % (d["seconds_per_iter"], d["cpu_seconds_per_iter"], d["jit_s"]) if d and d["seconds_per_iter"] else "-"
    time_n = "%.4g (%.4g)" % (n["seconds_per_iter"], n["cpu_seconds_per_iter"]) if n else "-"
    iters = "%s / %s" % (d["iters"] if d else "-", n["iters"] if n else "-")
    print("| %d | %s | %s | %s | %s | %s | %s |" % (robot, iters, pair(d, n, 0), pair(d, n, -1), best, time_d, time_n))
print()
print("Distance after k iterations, DiffTaichi / Nudge:")
print()
for robot in sorted(set(dt) | set(nu)):
    d, n = dt.get(robot), nu.get(robot)
    count = max(len(d["distances"]) if d else 0, len(n["distances"]) if n else 0)
    ks = [k for k in (0, 1, 2, 3, 4, 5, 10, 20, 50, count - 1) if k < count]
    cell = lambda r, k: f(r["distances"][k]) if r and k < len(r["distances"]) else "-"
    print("robot %d: " % robot + ", ".join("k=%d %s / %s" % (k, cell(d, k), cell(n, k)) for k in sorted(set(ks))))
'
