"""Reference forces for tests/engine/triangle_membrane_test.cpp from NVIDIA Warp's cloth model.

Builds a one-triangle model with warp.sim's ModelBuilder (add_triangle computes the rest
pose) and evaluates warp.sim.integrator_euler.eval_triangle_forces (the eval_triangles
kernel) on the CPU in float32, for a few fixed deformed states. Prints the rest pose, the
rest area and the three particle forces as C++ initialisers for the test.

warp.sim was removed from warp-lang in 1.10, so this needs warp-lang <= 1.9:
    python3 -m venv /tmp/warp-sim-venv
    /tmp/warp-sim-venv/bin/pip install "warp-lang==1.9.1" numpy
    /tmp/warp-sim-venv/bin/python tests/engine/warp_reference/triangle_forces.py

Every input is a dyadic rational, exact in float32, so the C++ test can feed the same
numbers to its double kernel.
"""

import numpy as np
import warp as wp
import warp.sim
from warp.sim.integrator_euler import eval_triangle_forces

wp.config.quiet = True
wp.init()

# The rest triangle, shared by every configuration.
REST = [(0.125, 0.25, 0.375), (1.125, 0.375, 0.25), (0.5, 1.0625, 0.5625)]

# name, deformed positions, velocities, (tri_ke, tri_ka, tri_kd, tri_drag, tri_lift), activation
CONFIGS = [
    (
        "stretched",
        [(0.0, 0.25, 0.375), (1.375, 0.5, 0.25), (0.5, 1.25, 0.625)],
        [(0.5, -0.25, 1.0), (0.75, 0.125, 1.25), (-0.25, 0.5, 1.5)],
        (120.0, 80.0, 2.5, 0.75, 1.5),
        0.0,
    ),
    (
        "compressed_sheared_rotated",
        [(1.0, -0.5, 0.25), (1.5, 0.25, 0.5), (0.375, 0.0625, 1.0)],
        [(-1.5, 0.25, 0.5), (-0.75, 1.0, -0.5), (0.25, -0.125, 2.0)],
        (64.0, 200.0, 4.0, 1.25, 0.5),
        0.0,
    ),
    (
        "activated",
        [(0.0, 0.25, 0.375), (1.375, 0.5, 0.25), (0.5, 1.25, 0.625)],
        [(0.5, -0.25, 1.0), (0.75, 0.125, 1.25), (-0.25, 0.5, 1.5)],
        (40.0, 160.0, 1.0, 0.5, 2.0),
        0.125,
    ),
    (
        "rest_moving",
        REST,
        [(2.0, -1.0, 0.5), (1.5, -0.5, 1.0), (2.5, -1.25, -0.25)],
        (120.0, 80.0, 2.5, 0.75, 1.5),
        0.0,
    ),
]


def c_list(values):
    return "{" + ", ".join("%.9g" % v for v in values) + "}"


print("// warp-lang %s, float32, CPU" % wp.config.version)
for name, x, v, material, activation in CONFIGS:
    builder = wp.sim.ModelBuilder()
    for p in REST:
        builder.add_particle(wp.vec3(*p), wp.vec3(0.0, 0.0, 0.0), 1.0)
    ke, ka, kd, drag, lift = material
    builder.add_triangle(0, 1, 2, tri_ke=ke, tri_ka=ka, tri_kd=kd, tri_drag=drag, tri_lift=lift)
    model = builder.finalize(device="cpu")
    state = model.state()
    control = model.control()
    state.particle_q.assign(np.array(x, dtype=np.float32))
    state.particle_qd.assign(np.array(v, dtype=np.float32))
    control.tri_activations.assign(np.array([activation], dtype=np.float32))
    f = wp.zeros(3, dtype=wp.vec3, device="cpu")
    eval_triangle_forces(model, state, control, f)
    pose = model.tri_poses.numpy()[0].reshape(4)
    area = model.tri_areas.numpy()[0]
    print("// %s" % name)
    print("pose %s" % c_list(pose))
    print("area %.9g" % area)
    print("forces %s" % c_list(f.numpy().reshape(9)))
