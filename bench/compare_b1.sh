#!/usr/bin/env bash
# B1 (cloth, n = 64, float32, one thread) for this build beside the PyTorch and JAX peers,
# in one run on this machine; optionally beside other builds of Nudge (earlier commits,
# to see what a change cost), each given as LABEL=PATH_TO_NUDGE in NUDGE_OTHERS.
# Prints each implementation's JSON line, then a table of gradient times and the speed-up
# over each peer.
#   bash bench/compare_b1.sh
#   NUDGE_OTHERS="55b97f1=/tmp/old/build/app/nudge" bash bench/compare_b1.sh
# Needs build/release; JAX from /tmp/peers-venv (python3 -m venv /tmp/peers-venv &&
# /tmp/peers-venv/bin/pip install "jax[cpu]" numpy), skipped with a note when absent.
set -euo pipefail
cd "$(dirname "$0")/.."
peers=../shared/bench/peers
args=(--n 64 --steps 500 --dtype float32)
lines=()
for other in ${NUDGE_OTHERS:-}; do
  label="${other%%=*}" binary="${other#*=}"
  line="$("$binary" bench cloth "${args[@]}" --device cpu --threads 1 2>/dev/null | tail -n 1)"
  lines+=("${line/\"impl\":\"/\"impl\":\"$label: }")
done
lines+=("$(build/release/app/nudge bench cloth "${args[@]}" --device cpu --threads 1 2>/dev/null | tail -n 1)")
lines+=("$(/usr/bin/python3 "$peers/torch_cloth.py" "${args[@]}" | tail -n 1)")
if [ -x /tmp/peers-venv/bin/python ]; then
  lines+=("$(/tmp/peers-venv/bin/python "$peers/jax_cloth.py" "${args[@]}" --threads 1 2>/dev/null | tail -n 1)")
else
  echo "(no /tmp/peers-venv: the JAX peer is left out)" >&2
fi
printf '%s\n' "${lines[@]}"
printf '%s\n' "${lines[@]}" | /usr/bin/python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin if l.strip()]
peers = [r for r in rows if r["impl"].startswith(("torch", "jax"))]
print()
print("| impl | forward_s | gradient_s | loss | " + " | ".join("vs " + p["impl"].split("-")[0] for p in peers) + " |")
print("|---|---|---|---|" + "---|" * len(peers))
for r in rows:
    ratios = " | ".join("%.1fx" % (p["gradient_s"] / r["gradient_s"]) for p in peers)
    print("| %s | %.4f | %.4f | %.10g | %s |" % (r["impl"], r["forward_s"], r["gradient_s"], r["loss"], ratios))
'
