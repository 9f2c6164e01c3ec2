#!/usr/bin/env python3
"""B3 `cloth_throw` with NVIDIA Warp's own example_cloth_throw model, the peer of
`nudge bench cloth_throw`: prints the spec's JSON fields (../shared/bench/SPEC.md) on
its last line.

The model is built as warp/examples/optim/example_cloth_throw.py builds it (warp.sim's
ModelBuilder.add_cloth_grid, 16 x 16 cells of 1/16 m, mass 1, tri_ke = tri_ka = 1e4,
tri_kd = 100, lift 10, drag 5, tilted -45 degrees about x, thrown at (0.1, 0.1, 0),
no ground, SemiImplicitIntegrator, 1920 steps of 1/960 s, loss |centroid - (8,0,0)|^2).
The grid's dihedral bending edges are dropped (model.edge_count = 0, so their kernel is
not launched) unless --bending: Nudge's scene has no bending yet, so the comparison is
the no-bending variant.

forward_s: one recorded forward (under wp.Tape, what the backward pass needs).
gradient_s: one gradient as the example's step() takes it: the tape's forward, its
backward to dL/dv0, and tape.zero() so that the next run starts from zero gradients.
On a CUDA device both are captured once as CUDA graphs (as the example does) and each
timed run is one graph launch and a synchronize. Medians of --runs timed runs after one
untimed warm-up (which also compiles the kernels).

grad_k_norm is |dL/d tri_ke| (tri_materials[:, 0]). The example's model is finalized
without requires_grad, so its timed runs do not compute model gradients; grad_k_norm
comes from one extra, untimed gradient on the same model finalized with requires_grad.

warp.sim is float32 only, and was removed from warp-lang in 1.10:
    python3 -m venv /tmp/warp-sim-venv
    /tmp/warp-sim-venv/bin/pip install "warp-lang==1.9.1" numpy
    /tmp/warp-sim-venv/bin/python bench/peers/warp_cloth_throw.py [--device cpu|cuda] [--runs 5]
Warp runs CPU kernels on one thread, so "threads" is 1 on the CPU.
"""
import argparse
import json
import math
import os
import statistics
import time

os.environ.setdefault("WARP_CACHE_PATH", "/tmp/warp-cloth-throw-cache")

import numpy as np  # noqa: E402
import warp as wp  # noqa: E402
import warp.sim  # noqa: E402


@wp.kernel
def com_kernel(positions: wp.array(dtype=wp.vec3), n: int, com: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    wp.atomic_add(com, 0, positions[tid] / float(n))


@wp.kernel
def loss_kernel(com: wp.array(dtype=wp.vec3), target: wp.vec3, loss: wp.array(dtype=float)):
    delta = com[0] - target
    loss[0] = wp.dot(delta, delta)


class Throw:
    """The example's model, states, loss and tape (its Example class without the renderer)."""

    def __init__(self, steps, bending, requires_grad):
        builder = wp.sim.ModelBuilder()
        builder.default_particle_radius = 0.01
        dim = 16
        builder.add_cloth_grid(
            pos=wp.vec3(0.0, 0.0, 0.0),
            vel=wp.vec3(0.1, 0.1, 0.0),
            rot=wp.quat_from_axis_angle(wp.vec3(1.0, 0.0, 0.0), -math.pi * 0.25),
            dim_x=dim,
            dim_y=dim,
            cell_x=1.0 / dim,
            cell_y=1.0 / dim,
            mass=1.0,
            tri_ke=10000.0,
            tri_ka=10000.0,
            tri_kd=100.0,
            tri_lift=10.0,
            tri_drag=5.0,
        )
        self.model = builder.finalize(requires_grad=requires_grad)
        self.model.ground = False
        if not bending:
            self.model.edge_count = 0  # eval_bending_forces launches nothing
        self.integrator = wp.sim.SemiImplicitIntegrator()
        self.steps = steps
        self.dt = 1.0 / 60.0 / 16.0
        self.target = (8.0, 0.0, 0.0)
        self.com = wp.zeros(1, dtype=wp.vec3, requires_grad=True)
        self.loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
        self.states = [self.model.state(requires_grad=True) for _ in range(steps + 1)]
        self.tape = wp.Tape()

    def forward(self):
        for i in range(self.steps):
            self.states[i].clear_forces()
            self.integrator.simulate(self.model, self.states[i], self.states[i + 1], self.dt)
        self.com.zero_()
        wp.launch(com_kernel, dim=self.model.particle_count,
                  inputs=[self.states[-1].particle_q, self.model.particle_count, self.com])
        wp.launch(loss_kernel, dim=1, inputs=[self.com, self.target, self.loss])

    def recorded_forward(self):
        self.tape = wp.Tape()
        with self.tape:
            self.forward()

    def gradient(self):
        self.recorded_forward()
        self.tape.backward(self.loss)

    def values(self):
        g = self.states[0].particle_qd.grad.numpy()
        return float(self.loss.numpy()[0]), float(np.linalg.norm(g))


def median_seconds(runs, f):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=1920)
    ap.add_argument("--dtype", choices=["float32"], default="float32")  # warp.sim is float32 only
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    ap.add_argument("--bending", action="store_true", help="keep the grid's bending edges (Warp's example as it is)")
    args = ap.parse_args()

    wp.config.quiet = True
    wp.init()
    with wp.ScopedDevice(args.device):
        device = wp.get_device()
        t = Throw(args.steps, args.bending, requires_grad=False)
        sync = wp.synchronize_device

        if device.is_cuda:
            with wp.ScopedCapture() as capture:
                t.recorded_forward()
            forward_graph = capture.graph
            with wp.ScopedCapture() as capture:
                t.gradient()
            gradient_graph = capture.graph

            def forward():
                wp.capture_launch(forward_graph)
                sync()

            def gradient():
                wp.capture_launch(gradient_graph)
                t.tape.zero()
                sync()
        else:
            def forward():
                t.recorded_forward()

            def gradient():
                t.gradient()
                t.tape.zero()

        # warm-up (compiles the kernels) and the reported loss and dL/dv0
        forward()
        if device.is_cuda:
            wp.capture_launch(gradient_graph)
        else:
            t.gradient()
        sync()
        loss, grad_v0_norm = t.values()
        t.tape.zero()
        forward_s = median_seconds(args.runs, forward)
        gradient_s = median_seconds(args.runs, gradient)

        # |dL/d tri_ke|, untimed, on the model finalized with requires_grad
        k = Throw(args.steps, args.bending, requires_grad=True)
        k.gradient()
        sync()
        grad_k_norm = float(np.linalg.norm(k.model.tri_materials.grad.numpy()[:, 0]))
        k_loss, k_grad_v0_norm = k.values()
        assert abs(k_loss - loss) <= 1e-6 * abs(loss) and abs(k_grad_v0_norm - grad_v0_norm) <= 1e-5 * grad_v0_norm, \
            (k_loss, loss, k_grad_v0_norm, grad_v0_norm)

    print(json.dumps({
        "impl": "warp-" + ("cuda" if device.is_cuda else "cpu") + "-" + wp.config.version,
        "bench": "cloth_throw", "n": 17, "steps": args.steps, "dtype": "float32",
        "loss": loss, "grad_v0_norm": grad_v0_norm, "grad_k_norm": grad_k_norm,
        "forward_s": forward_s, "gradient_s": gradient_s, "runs": args.runs,
        "threads": 1 if not device.is_cuda else 0, "bending": args.bending,
    }))


if __name__ == "__main__":
    main()
