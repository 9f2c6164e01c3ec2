"""Reference forces for tests/engine/tet_neohookean_test.cpp from NVIDIA Warp itself.

Builds each configuration with warp.sim.ModelBuilder (add_particle, add_tetrahedron, which
computes the rest inverse from the particles' positions when the tet is added), then moves
the particles, gives them velocities and an activation, and runs Warp's own
eval_tetrahedra kernel (warp/sim/integrator_euler.py) on the CPU in float32.

warp.sim was removed from warp-lang after 1.9, so this needs warp-lang 1.9.x:
    python3 -m venv /tmp/tet-venv && /tmp/tet-venv/bin/pip install "warp-lang==1.9.1" numpy
    /tmp/tet-venv/bin/python tests/engine/warp_reference/tet_forces.py
Every input is a multiple of 1/16, exact in float32, so only Warp's float32 arithmetic
(and its float32 copy of the rest inverse) separates its numbers from the test's doubles.
The printed lines are pasted into the test's kWarpCases.
"""

import numpy as np
import warp as wp
import warp.sim
from warp.sim.integrator_euler import eval_tetrahedra

wp.config.quiet = True
wp.init()

REST = [(0.0, 0.0, 0.0), (1.0, 0.125, 0.0), (0.25, 0.75, 0.0625), (0.1875, 0.3125, 0.875)]

# name, current positions, velocities, (k_mu, k_lambda, k_damp), activation
CASES = [
    ("stretched_sheared", [(0.0, 0.0, 0.0), (1.25, 0.25, -0.0625), (0.5, 0.875, 0.125), (0.3125, 0.25, 1.0625)],
     [(0.25, -0.5, 0.125), (-0.375, 0.0625, 0.5), (0.1875, 0.25, -0.25), (0.0, -0.125, 0.375)],
     (1000.0, 5000.0, 2.0), 0.0),
    ("compressed_active", [(0.0625, 0.0, 0.0), (0.8125, 0.125, 0.0625), (0.25, 0.5625, 0.0), (0.125, 0.25, 0.625)],
     [(0.0, 0.25, 0.0), (0.125, 0.0, -0.25), (-0.25, 0.125, 0.0625), (0.5, -0.375, 0.0)],
     (800.0, 2000.0, 5.0), 0.25),
    ("inverted", [(0.0, 0.0, 0.0), (1.0, 0.125, 0.0), (0.25, 0.75, 0.0625), (0.25, 0.375, -0.5)],
     [(0.125, 0.125, 0.125), (0.0, 0.0, 0.0), (-0.125, 0.0, 0.25), (0.0625, -0.0625, 0.0)],
     (1500.0, 3000.0, 1.0), -0.125),
    ("translated_sheared", [(1.0, 2.0, 3.0), (1.0, 3.0, 3.125), (0.25, 2.25, 3.0625), (1.1875, 2.3125, 3.875)],
     [(0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)],
     (1000.0, 4000.0, 0.0), 0.0),
    # The rest pose turned 90 degrees about z and moved: Warp's forces are float32 round-off.
    ("rigid_rotation", [(1.0, 2.0, 3.0), (0.875, 3.0, 3.0), (0.25, 2.25, 3.0625), (0.6875, 2.1875, 3.875)],
     [(0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)],
     (1000.0, 4000.0, 3.0), 0.0),
]


def run(x, v, material, act):
    builder = wp.sim.ModelBuilder()
    for p in REST:
        builder.add_particle(p, (0.0, 0.0, 0.0), 1.0)
    builder.add_tetrahedron(0, 1, 2, 3, k_mu=material[0], k_lambda=material[1], k_damp=material[2])
    model = builder.finalize(device="cpu")
    xs = wp.array(np.array(x, dtype=np.float32), dtype=wp.vec3, device="cpu")
    vs = wp.array(np.array(v, dtype=np.float32), dtype=wp.vec3, device="cpu")
    activation = wp.array(np.array([act], dtype=np.float32), dtype=float, device="cpu")
    f = wp.zeros(4, dtype=wp.vec3, device="cpu")
    wp.launch(eval_tetrahedra, dim=1, inputs=[xs, vs, model.tet_indices, model.tet_poses, activation,
                                              model.tet_materials], outputs=[f], device="cpu")
    return f.numpy(), model.tet_poses.numpy()[0]


print(f"// warp-lang {wp.config.version}")
print(f"// rest inverse (float32): {run(*CASES[0][1:])[1].flatten().tolist()}")
for name, x, v, material, act in CASES:
    f, pose = run(x, v, material, act)
    print("{" + ", ".join(f"{c:.9g}" for c in f.flatten()) + "},")
