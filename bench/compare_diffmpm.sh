#!/usr/bin/env bash
# B4 (DiffTaichi's diffmpm robot, float32): the gradient of the whole rollout for this
# build beside DiffTaichi's own kernels on taichi's CPU backend, in one run on this
# machine, on one thread and on THREADS threads (default: every core). Prints each
# JSON line, then a table: seconds per gradient, the speed-up, and resident memory.
#   bash bench/compare_diffmpm.sh            # ITERS=4 THREADS=2 by default
# Needs build/release and taichi in /tmp/peers-venv (python3 -m venv /tmp/peers-venv &&
# /tmp/peers-venv/bin/pip install taichi numpy).
set -euo pipefail
cd "$(dirname "$0")/.."
iters="${ITERS:-4}" all="${THREADS:-$(nproc)}"
lines=()
for threads in 1 "$all"; do
  lines+=("$(build/release/app/nudge bench diffmpm --scene scenes/diffmpm.json --dtype float32 --device cpu \
    --threads "$threads" --runs "$((iters - 1))" 2>/dev/null | tail -n 1)")
  lines+=("$(/tmp/peers-venv/bin/python bench/difftaichi_diffmpm.py --iters "$iters" --threads "$threads" \
    2>/dev/null | tail -n 1)")
done
printf '%s\n' "${lines[@]}"
printf '%s\n' "${lines[@]}" | /usr/bin/python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin if l.strip()]
print()
print("| threads | implementation | loss (first) | s per gradient | Nudge faster by | peak RSS MiB (before) |")
print("|---|---|---|---|---|---|")
for nudge, taichi in zip(rows[0::2], rows[1::2]):
    for r, s, loss in ((nudge, nudge["gradient_s"], nudge["loss"]), (taichi, taichi["seconds_per_iter"], taichi["losses"][0])):
        speed = "%.2fx" % (taichi["seconds_per_iter"] / nudge["gradient_s"]) if r is nudge else ""
        print("| %d | %s | %.8g | %.3f | %s | %.0f (%.0f) |" % (
            nudge["threads"], r["impl"], loss, s, speed, r["peak_rss_mib"], r["base_rss_mib"]))
'
