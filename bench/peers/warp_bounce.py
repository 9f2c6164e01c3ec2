"""Warp's own example_bounce (warp-lang 1.7, whose warp.sim still ships it), run beside
Nudge's scenes/bounce.json: prints one JSON line with the loss and the gradient of the
initial velocity at the start, then the loss and velocity after each of --iters plain
gradient-descent steps of the example's own rate (0.02), on the CPU in float32.

Usage: python warp_bounce.py [--iters 250]   (needs: pip install "warp-lang==1.7.2" numpy)
"""
import argparse
import json
import time

import numpy as np
import warp as wp
from warp.examples.optim.example_bounce import Example

parser = argparse.ArgumentParser()
parser.add_argument("--iters", type=int, default=250)
args = parser.parse_args()

wp.config.quiet = True
with wp.ScopedDevice("cpu"):
    example = Example(stage_path=None)
    v0 = example.states[0].particle_qd

    def loss_and_grad():
        tape = wp.Tape()
        with tape:
            loss = example.forward()
        tape.backward(loss)
        g = tape.gradients[v0].numpy()[0].tolist()
        value = float(loss.numpy()[0])
        tape.zero()
        return value, g

    loss0, grad0 = loss_and_grad()
    start = time.perf_counter()
    for _ in range(args.iters):
        example.step()
    elapsed = time.perf_counter() - start
    final_loss, _ = loss_and_grad()
    print(json.dumps({"impl": "warp-" + wp.config.version, "example": "bounce", "loss0": loss0,
                      "grad_v0": grad0, "iters": args.iters, "final_loss": final_loss,
                      "final_v0": v0.numpy()[0].tolist(), "seconds_per_iter": elapsed / max(args.iters, 1)}))
