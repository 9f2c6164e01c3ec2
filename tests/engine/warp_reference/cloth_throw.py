"""Reference values for scenes/cloth_throw.json (tests/engine/example_scenes_test.cpp) from
NVIDIA Warp's example_cloth_throw (warp/examples/optim/example_cloth_throw.py), run on the
CPU in float32: the centroid after the throw, the loss |centroid - (8, 0, 0)|^2, and the
gradient of the loss with respect to the initial velocities, with the same model the
example builds (ModelBuilder.add_cloth_grid, SemiImplicitIntegrator, no ground).

Usage: warp_throw.py nobending|bending STEPS. With "nobending" the cloth grid's bending
edges (which Nudge's scene does not have yet) are switched off (edge_ke = 0), which is
the scene Nudge simulates; "bending" is Warp's example as it is. Prints each gradient's
timing (the second run is warm).

warp.sim was removed from warp-lang in 1.10, so this needs warp-lang <= 1.9:
    python3 -m venv /tmp/warp-sim-venv
    /tmp/warp-sim-venv/bin/pip install "warp-lang==1.9.1" numpy
    /tmp/warp-sim-venv/bin/python tests/engine/warp_reference/cloth_throw.py nobending 1920

warp-lang 1.9.1 on this machine's CPU printed, without bending:
    com [0.6751680374145508, -14.574898719787598, 2.307825803756714] loss 271.4068908691406
    |dL/dv0| 9.36445426940918 g0 [-0.0901474729180336, -1.5828652381896973, -1.3660153150558472]
    (warm gradient 0.85 s)
and with bending (Warp's example as it is):
    com [0.6599854230880737, -14.50687026977539, 2.3777124881744385] loss 269.9786071777344
    |dL/dv0| 11.201340675354004
"""

import math, sys, time
import numpy as np
import warp as wp
import warp.sim
wp.config.quiet = True
wp.init()
bending = sys.argv[1] == "bending"
steps = int(sys.argv[2])
builder = wp.sim.ModelBuilder()
builder.default_particle_radius = 0.01
dim = 16
builder.add_cloth_grid(pos=wp.vec3(0.0, 0.0, 0.0), vel=wp.vec3(0.1, 0.1, 0.0),
    rot=wp.quat_from_axis_angle(wp.vec3(1.0, 0.0, 0.0), -math.pi * 0.25), dim_x=dim, dim_y=dim,
    cell_x=1.0 / dim, cell_y=1.0 / dim, mass=1.0, tri_ke=10000.0, tri_ka=10000.0, tri_kd=100.0,
    tri_lift=10.0, tri_drag=5.0)
model = builder.finalize(device="cpu")
model.ground = False
print("gravity", model.gravity, "edges", model.edge_count, "edge props", model.edge_bending_properties.numpy()[:1] if model.edge_count else None)
print("tri_collisions", getattr(model, "enable_tri_collisions", None), "particle_max_radius", model.particle_max_radius)
print("tri0", model.tri_indices.numpy()[:2].tolist(), "x5", model.particle_q.numpy()[5].tolist())
if not bending and model.edge_count:
    model.edge_bending_properties.zero_()
integrator = wp.sim.SemiImplicitIntegrator()
dt = 1.0 / 60 / 16
states = [model.state(requires_grad=True) for _ in range(steps + 1)]
com = wp.zeros(1, dtype=wp.vec3, requires_grad=True)
loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
@wp.kernel
def com_kernel(positions: wp.array(dtype=wp.vec3), n: int, com: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    wp.atomic_add(com, 0, positions[tid] / float(n))
@wp.kernel
def loss_kernel(com: wp.array(dtype=wp.vec3), target: wp.vec3, loss: wp.array(dtype=float)):
    d = com[0] - target
    loss[0] = wp.dot(d, d)
def forward():
    for i in range(steps):
        states[i].clear_forces()
        integrator.simulate(model, states[i], states[i + 1], dt)
    wp.launch(com_kernel, dim=model.particle_count, inputs=[states[-1].particle_q, model.particle_count, com], device="cpu")
    wp.launch(loss_kernel, dim=1, inputs=[com, wp.vec3(8.0, 0.0, 0.0), loss], device="cpu")
for run in range(2):
    com.zero_()
    tape = wp.Tape()
    t0 = time.perf_counter()
    with tape:
        forward()
    t1 = time.perf_counter()
    tape.backward(loss)
    t2 = time.perf_counter()
    print(f"run {run}: forward {t1-t0:.3f} s, gradient {t2-t0:.3f} s")
    g = states[0].particle_qd.grad.numpy()
    print("com", com.numpy()[0].tolist(), "loss", float(loss.numpy()[0]), "|dL/dv0|", float(np.linalg.norm(g)), "g0", g[0].tolist())
    tape.zero()
