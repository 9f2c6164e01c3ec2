#!/usr/bin/env bash
# Warp's example_drone beside `nudge mpc` on the same quadrotor (bench/warp_drone_scene.py
# says what is the same and what is not): each one's distance to the first target at
# frame 180 and to the second at frame 360, and its wall time.
#
#   bash bench/compare_drone.sh [PYTHON_WITH_WARP]   (default /tmp/peers-venv/bin/python)
set -euo pipefail
cd "$(dirname "$0")/.."
python=${1:-/tmp/peers-venv/bin/python}
nudge=${NUDGE:-build/release/app/nudge}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== Warp's example_drone (its own code, CPU)"
"$python" bench/warp_drone.py --frames 360 --device cpu 2>/dev/null | grep "^warp \|^distance"

for obstacle in "" --obstacle; do
  label="nudge mpc --horizon 30 --every 1 --iterations 20"
  [ -n "$obstacle" ] && label="$label, with the obstacle as a collider"
  echo "== $label"
  python3 bench/warp_drone_scene.py "$work/drone.json" $obstacle > /dev/null
  start=$(date +%s.%N)
  "$nudge" mpc "$work/drone.json" --horizon 30 --every 1 --iterations 20 --threads 1 \
    --write-scene "$work/flown.json" 2>/dev/null | tail -2 | head -1
  end=$(date +%s.%N)
  "$nudge" simulate "$work/flown.json" --bodies-out "$work/flown.csv" > /dev/null 2>&1
  python3 - "$work/flown.csv" "$start" "$end" <<'PY'
import csv, math, sys
rows = {int(r["step"]): r for r in csv.DictReader(open(sys.argv[1]))}
at = lambda s: (float(rows[s]["x"]), float(rows[s]["y"]), float(rows[s]["z"]))
seconds = float(sys.argv[3]) - float(sys.argv[2])
print(f"360 frames in {seconds:.2f} s ({seconds / 360 * 1000:.1f} ms per frame)")
print(f"distance to target 0 at frame 180: {math.dist(at(180), (0, 0.5, 1)):.4f} m; "
      f"to target 1 at frame 360: {math.dist(at(360), (1, 0.5, 0)):.4f} m")
PY
done
