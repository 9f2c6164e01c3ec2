#!/usr/bin/env bash
# The pendulum's system identification (scenes/pendulum_length.json: its rod's length from a
# marker track, 0.65 m guessed, 0.8 m true) written against three Python APIs, run one
# after the other on this machine's CPU: Nudge's examples/python/pendulum_sysid.py, and the
# same model, loss and Adam loop (200 gradients) in Warp (wp.Tape) and Taichi (ti.ad.Tape),
# bench/peers/{warp,taichi}_pendulum_sysid.py. Each prints its answer and its time to it;
# then the lines of user code of each (non-blank, not comments, not docstrings).
# Usage: bench/compare_pendulum_sysid.sh   Needs build/release; installs warp-lang 1.9.1
# and taichi into /tmp/peers-venv if they are not there.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=/tmp/peers-venv
if ! "$venv/bin/python" -c "import warp, taichi" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "warp-lang==1.9.1" taichi numpy
fi
echo "== Nudge (examples/python/pendulum_sysid.py, float64, CPU)"
PYTHONPATH=build/release/python /usr/bin/python3 examples/python/pendulum_sysid.py --check
echo "== Warp $("$venv/bin/python" -c 'import warp; print(warp.__version__)' 2>/dev/null) (float64, CPU)"
"$venv/bin/python" bench/peers/warp_pendulum_sysid.py --check 2>&1 | grep -v "CUDA\|^Warp"
echo "== Taichi (float64, CPU, 1 thread)"
"$venv/bin/python" bench/peers/taichi_pendulum_sysid.py --check 2>&1 | grep -v "^\[Taichi\]"
echo "== lines of user code (non-blank, not comments, not docstrings)"
/usr/bin/python3 - examples/python/pendulum_sysid.py bench/peers/warp_pendulum_sysid.py \
  bench/peers/taichi_pendulum_sysid.py <<'PY'
import ast, sys
for path in sys.argv[1:]:
    text = open(path).read()
    docstrings = set()
    for node in ast.walk(ast.parse(text)):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            docstrings.update(range(body[0].lineno, body[0].end_lineno + 1))
    lines = [k for k, line in enumerate(text.splitlines(), 1)
             if line.strip() and not line.strip().startswith("#") and k not in docstrings]
    print(f"{len(lines):4d}  {path}")
PY
