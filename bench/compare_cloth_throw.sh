#!/usr/bin/env bash
# B3 cloth_throw, Nudge beside NVIDIA Warp 1.9.1 (its example_cloth_throw model with its
# bending edges, bench/peers/warp_cloth_throw.py --bending), float32, in one run on this machine:
# Warp on its CPU, then Nudge on 1 thread and on 2 threads, then Warp CUDA and Nudge CUDA
# when a GPU is usable. Prints each JSON line, then a table of times, the loss and
# gradient norms' agreement with Warp CPU, and the speed-ups.
# Usage: bench/compare_cloth_throw.sh [runs]   (default 5)   Needs build/release.
# Installs Warp 1.9.1 (the last warp-lang with warp.sim) into $WARP_VENV
# (default /tmp/warp-sim-venv) when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
venv=${WARP_VENV:-/tmp/warp-sim-venv}
nudge=build/release/app/nudge
[ -x "$nudge" ] || { echo "build first: cmake --preset release && cmake --build build/release --target nudge" >&2; exit 1; }
if ! "$venv/bin/python" -c 'import warp, warp.sim; assert warp.config.version == "1.9.1"' >/dev/null 2>&1; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "warp-lang==1.9.1" numpy
fi
peer() { "$venv/bin/python" bench/peers/warp_cloth_throw.py --bending --runs "$runs" "$@" 2>/dev/null | tail -n 1; }
lines=()
lines+=("$(peer --device cpu)")
lines+=("$("$nudge" bench cloth_throw --dtype float32 --device cpu --threads 1 --runs "$runs" | tail -n 1)")
lines+=("$("$nudge" bench cloth_throw --dtype float32 --device cpu --threads 2 --runs "$runs" | tail -n 1)")
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  lines+=("$(peer --device cuda)")
  lines+=("$("$nudge" bench cloth_throw --dtype float32 --device cuda --runs "$runs" | tail -n 1)")
fi
printf '%s\n' "${lines[@]}"
printf '%s\n' "${lines[@]}" | /usr/bin/python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin if l.strip()]
warp = next(r for r in rows if r["impl"].startswith("warp-cpu"))
rel = lambda a, b: abs(a - b) / abs(b)
print()
print("| impl | threads | forward_s | gradient_s | loss | rel. to Warp CPU: loss, dL/dv0, dL/dke | gradient speed-up over Warp CPU |")
print("|---|---|---|---|---|---|---|")
for r in rows:
    print("| %s | %d | %.4f | %.4f | %.7g | %.1e, %.1e, %.1e | %.1fx |" % (r["impl"], r["threads"], r["forward_s"],
          r["gradient_s"], r["loss"], rel(r["loss"], warp["loss"]), rel(r["grad_v0_norm"], warp["grad_v0_norm"]),
          rel(r["grad_k_norm"], warp["grad_k_norm"]), warp["gradient_s"] / r["gradient_s"]))
'
