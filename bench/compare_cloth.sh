#!/usr/bin/env bash
# B1 cloth, Nudge beside the PyTorch peer, in one run on this machine: prints each
# implementation's JSON line, then a table of gradient times and the speed-up.
# Usage: bench/compare_cloth.sh [n ...]   (default: 32 64)   Needs build/release.
set -euo pipefail
cd "$(dirname "$0")/.."
peer=../shared/bench/peers/torch_cloth.py
sizes=("${@:-32 64}")
lines=()
for n in ${sizes[@]}; do
  for dtype in float32 float64; do
    lines+=("$(build/release/app/nudge bench cloth --n "$n" --dtype "$dtype" --device cpu --threads 1 | tail -n 1)")
    lines+=("$(build/release/app/nudge bench cloth --n "$n" --dtype "$dtype" --device cpu | tail -n 1)")  # all cores
    lines+=("$(/usr/bin/python3 "$peer" --n "$n" --dtype "$dtype" | tail -n 1)")
  done
done
printf '%s\n' "${lines[@]}"
printf '%s\n' "${lines[@]}" | /usr/bin/python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin if l.strip()]
print()
print("| n | dtype | impl | forward_s | gradient_s | loss | speed-up (gradient) |")
print("|---|---|---|---|---|---|---|")
for r in rows:
    peer = next(p for p in rows if p["impl"].startswith("torch") and p["n"] == r["n"] and p["dtype"] == r["dtype"])
    print("| %d | %s | %s | %.4f | %.4f | %.10g | %.1fx |" % (r["n"], r["dtype"], r["impl"], r["forward_s"],
          r["gradient_s"], r["loss"], peer["gradient_s"] / r["gradient_s"]))
'
