#!/usr/bin/env bash
# Warp's own example_bounce beside Nudge's scenes/bounce.json, in one run on this
# machine's CPU: the loss and dL/dv0 at the start, and the launch velocity, loss and time
# per iteration after the example's 250 gradient steps of 0.02.
# Usage: bench/compare_bounce.sh   Needs build/release; installs warp-lang 1.7.2 (the last
# release whose warp.sim ships the example) into /tmp/warp17 if it is not there.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=/tmp/warp17
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import warp.sim" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "warp-lang==1.7.2" numpy
fi
echo "== Warp (its example, CPU, float32)"
"$venv/bin/python" bench/peers/warp_bounce.py --iters 250 2>/dev/null | tail -n 1
for precision in float32 float64; do
  echo "== Nudge ($precision, CPU, 1 thread)"
  build/release/app/nudge optimize scenes/bounce.json --precision "$precision" --device cpu --threads 1 \
    --out "/tmp/nudge_bounce_$precision.json" >/dev/null 2>&1
  /usr/bin/python3 -c "
import json, sys
r = json.load(open('/tmp/nudge_bounce_$precision.json'))
t = r['timings']
print(json.dumps({'impl': 'nudge-' + r['device'], 'loss0': r['loss_history'][0], 'grad_norm0': r['grad_norm_history'][0],
                  'iters': r['iterations'], 'final_loss': r['final_loss'],
                  'final_v0': r['parameters']['initial_velocity']['value'],
                  'seconds_per_iter': t['total_s'] / max(r['iterations'], 1)}))"
done
