"""python -m nudge sweep ...: the package's commands (what `nudge sweep --ray` runs)."""
import sys

from . import parameter_sweep

COMMANDS = {"sweep": parameter_sweep.main}

if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
    print("usage: python -m nudge sweep SCENE --param name=from:to:count ... [--ray ADDRESS]", file=sys.stderr)
    sys.exit(2)
sys.exit(COMMANDS[sys.argv[1]](sys.argv[2:]))
