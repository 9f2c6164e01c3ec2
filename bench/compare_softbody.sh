#!/usr/bin/env bash
# Warp's own example_softbody_properties beside Nudge's scenes/softbody_bounce.json, in one
# run on this machine's CPU: the centroid, loss and dL/d(k_mu, k_lambda) at the start (Warp
# float32; Nudge float32 and float64, one thread), the loss after the example's SGD steps
# (lr 1e7, clamped to [500, 4e6]), and the time per iteration, wall and CPU (the CPU time
# is the one to compare on a loaded machine).
# Usage: bench/compare_softbody.sh [iters]   (default 300, the example's --train_iters;
# Warp's CPU iteration takes seconds, so 300 take a while: 20 is a quick look)
# Needs build/release. Installs Warp 1.9.1 (the last warp-lang with warp.sim) into
# $WARP_VENV (default /tmp/warp-sim-venv) when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
iters=${1:-300}
venv=${WARP_VENV:-/tmp/warp-sim-venv}
nudge=build/release/app/nudge
scene=scenes/softbody_bounce.json
out=${TMPDIR:-/tmp}/nudge_compare_softbody
mkdir -p "$out"
[ -x "$nudge" ] || { echo "build first: cmake --preset release && cmake --build build/release --target nudge" >&2; exit 1; }
if ! "$venv/bin/python" -c 'import warp, warp.sim; assert warp.config.version == "1.9.1"' >/dev/null 2>&1; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "warp-lang==1.9.1" numpy
fi
echo "== Warp $("$venv/bin/python" -c 'import warp; print(warp.config.version)' 2>/dev/null) (its example, CPU, float32), $iters iterations"
"$venv/bin/python" tests/engine/warp_reference/softbody_properties.py --iters "$iters" 2>/dev/null \
  | grep -v '"what": "step"' | tee "$out/warp.jsonl"
for precision in float32 float64; do
  echo "== Nudge ($precision, CPU, 1 thread)"
  /usr/bin/python3 - "$nudge" "$scene" "$precision" "$iters" "$out" <<'EOF'
import csv, json, math, resource, subprocess, sys, time
nudge, scene, precision, iters, out = sys.argv[1:]
common = ["--precision", precision, "--device", "cpu", "--threads", "1"]
def run(args):
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([nudge] + args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.perf_counter() - t0, (c1.ru_utime - c0.ru_utime) + (c1.ru_stime - c0.ru_stime)
run(["gradient", scene, "--out", f"{out}/gradient_{precision}.json"] + common)
g = json.load(open(f"{out}/gradient_{precision}.json"))
col = lambda name: [r[0] if isinstance(r, list) else r for r in g["parameters"][name]["gradient"]]
gm, gl = col("tet_mu"), col("tet_lambda")
norm = lambda v: math.sqrt(sum(x * x for x in v))
run(["simulate", scene, "--out", f"{out}/traj_{precision}.csv"] + common)
rows = list(csv.DictReader(open(f"{out}/traj_{precision}.csv")))
last = max(int(r["step"]) for r in rows)
end = [r for r in rows if int(r["step"]) == last]
centroid = [sum(float(r[k]) for r in end) / len(end) for k in ("x", "y", "z")]
wall, cpu = run(["optimize", scene, "--iterations", iters, "--out", f"{out}/optimize_{precision}.json"] + common)
o = json.load(open(f"{out}/optimize_{precision}.json"))
n = max(o["iterations"], 1)
print(json.dumps({"impl": "nudge-cpu-" + precision, "centroid": centroid, "loss": g["loss"],
                  "grad_norm": norm(gm + gl), "grad_mu_norm": norm(gm), "grad_lambda_norm": norm(gl),
                  "grad_tets_0_2": [[gm[i], gl[i]] for i in range(3)], "iters": o["iterations"],
                  "final_loss": o["final_loss"], "seconds_per_iter": wall / n, "cpu_seconds_per_iter": cpu / n}))
EOF
done | tee "$out/nudge.jsonl"
cat "$out/warp.jsonl" "$out/nudge.jsonl" | /usr/bin/python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin if l.strip().startswith("{")]
warp = next(r for r in rows if r.get("what") == "start")
warm = next(r for r in rows if r.get("what") == "warm")
it = [r for r in rows if r.get("what") == "iters"][-1]
warp_row = dict(impl="Warp 1.9.1, CPU, float32", centroid=warp["centroid"], loss=warp["loss"], grad_mu_norm=warp["grad_mu_norm"],
                grad_lambda_norm=warp["grad_lambda_norm"], grad_tets_0_2=warp["grad_tets_0_2"], iters=it["iters"],
                final_loss=it["final_loss"], seconds_per_iter=it["seconds_per_iter"], cpu_seconds_per_iter=it["cpu_seconds_per_iter"])
print()
print("| | centroid at the end | loss at start | norms of dL/dk_mu, dL/dk_lambda | tet 0: dL/dk_mu, dL/dk_lambda | loss after %d iterations | s per iteration, wall (CPU) |" % it["iters"])
print("|---|---|---|---|---|---|---|")
for r in [warp_row] + [r for r in rows if r.get("impl", "").startswith("nudge")]:
    name = r["impl"] if r is warp_row else "Nudge, CPU, 1 thread, " + r["impl"].split("-")[-1]
    c = r["centroid"]
    print("| %s | (%.6f, %.6f, %.1e) | %.8g | %.4e, %.4e | %.4e, %.4e | %.6g | %.4g (%.4g) |" % (name, c[0], c[1], c[2], r["loss"],
          r["grad_mu_norm"], r["grad_lambda_norm"], r["grad_tets_0_2"][0][0], r["grad_tets_0_2"][0][1], r["final_loss"],
          r["seconds_per_iter"], r["cpu_seconds_per_iter"]))
'
