"""Reference forces for tests/engine/dihedral_bending_test.cpp from NVIDIA Warp's cloth model.

Builds a four-particle model with warp.sim's ModelBuilder: two triangles (0, 2, 3) and
(1, 3, 2) sharing the edge 2-3, and one bending edge add_edge(0, 1, 2, 3), whose rest
angle the builder computes from the rest positions. Then evaluates
warp.sim.integrator_euler.eval_bending_forces (the eval_bending kernel) on the CPU in
float32 for a deformed state. Prints the rest angle and the four particle forces as C++
initialisers for the test, then the bending elements that add_cloth_mesh's adjacency
(warp.utils.MeshAdjacency) finds on a 3 x 3 grid of quads, as (o0, o1, v0, v1).

warp.sim was removed from warp-lang in 1.10, so this needs warp-lang <= 1.9:
    python3 -m venv /tmp/warp-sim-venv
    /tmp/warp-sim-venv/bin/pip install "warp-lang==1.9.1" numpy
    /tmp/warp-sim-venv/bin/python tests/engine/warp_reference/bending_forces.py

Every input is a dyadic rational, exact in float32, so the C++ test can feed the same
numbers to its double kernel.
"""

import math

import numpy as np
import warp as wp
import warp.sim
from warp.sim.integrator_euler import eval_bending_forces

wp.config.quiet = True
wp.init()

# name, rest positions, deformed positions, velocities, (edge_ke, edge_kd)
CONFIGS = [
    (
        "folded_negative_from_flat",
        [(0.75, 0.375, 0.0), (-0.875, 0.5, 0.0), (0.0625, -0.125, 0.0), (0.125, 1.0, 0.0)],
        [(0.625, 0.375, 0.5), (-0.875, 0.5, 0.25), (0.0625, -0.125, 0.0), (0.125, 1.0, 0.0)],
        [(0.5, -0.25, 1.0), (0.75, 0.125, -1.25), (-0.25, 0.5, 0.5), (0.125, 0.25, -0.75)],
        (3.0, 0.25),
    ),
    (
        "folded_positive_from_bent",
        [(0.75, 0.375, 0.25), (-0.875, 0.5, 0.125), (0.0625, -0.125, 0.0), (0.125, 1.0, 0.0)],
        [(0.5, 0.25, -0.625), (-0.75, 0.625, -0.375), (0.0, -0.125, 0.125), (0.25, 1.125, 0.0)],
        [(-0.5, 0.25, 0.75), (0.25, -0.625, 1.5), (0.375, 0.125, -0.25), (-0.5, 0.75, 0.25)],
        (5.0, 0.5),
    ),
    (
        "nearly_folded",
        [(0.75, 0.375, 0.0), (-0.875, 0.5, 0.0), (0.0625, -0.125, 0.0), (0.125, 1.0, 0.0)],
        [(-0.6875, 0.375, 0.125), (-0.875, 0.5, -0.0625), (0.0625, -0.125, 0.0), (0.125, 1.0, 0.0)],
        [(0.25, 0.5, -0.25), (-0.125, 0.375, 0.625), (0.75, -0.5, 0.125), (0.0, 0.25, 1.0)],
        (2.0, 0.125),
    ),
    (
        "flat_moving_bent_rest",
        [(0.625, 0.375, -0.375), (-0.875, 0.5, 0.25), (0.0625, -0.125, 0.0), (0.125, 1.0, 0.0)],
        [(1.75, 0.375, 0.125), (0.125, 0.5, 0.125), (1.0625, -0.125, 0.125), (1.125, 1.0, 0.125)],
        [(0.25, -0.5, 1.25), (1.0, 0.25, -0.5), (-0.75, 0.125, 0.375), (0.5, -1.0, 0.25)],
        (4.0, 0.375),
    ),
]


def c_list(values):
    return "{" + ", ".join("%.9g" % v for v in values) + "}"


def angle(x):
    """The signed dihedral angle in double, as eval_bending defines it (for the comments)."""
    x = [np.array(p, dtype=np.float64) for p in x]
    n1 = np.cross(x[2] - x[0], x[3] - x[0])
    n2 = np.cross(x[3] - x[1], x[2] - x[1])
    e = x[3] - x[2]
    c = np.dot(n1, n2) / np.linalg.norm(n1) / np.linalg.norm(n2)
    s = 1.0 if np.dot(np.cross(n2, n1), e) >= 0 else -1.0
    return s * math.acos(max(-1.0, min(1.0, c)))


print("// warp-lang %s, float32, CPU" % wp.config.version)
for name, rest, x, v, (ke, kd) in CONFIGS:
    builder = wp.sim.ModelBuilder()
    for p in rest:
        builder.add_particle(wp.vec3(*p), wp.vec3(0.0, 0.0, 0.0), 1.0)
    builder.add_triangle(0, 2, 3)
    builder.add_triangle(1, 3, 2)
    builder.add_edge(0, 1, 2, 3, edge_ke=ke, edge_kd=kd)
    model = builder.finalize(device="cpu")
    state = model.state()
    state.particle_q.assign(np.array(x, dtype=np.float32))
    state.particle_qd.assign(np.array(v, dtype=np.float32))
    f = wp.zeros(4, dtype=wp.vec3, device="cpu")
    eval_bending_forces(model, state, f)
    print("// %s: rest angle %.4f, deformed angle %.4f" % (name, angle(rest), angle(x)))
    print("rest %.9g" % model.edge_rest_angle.numpy()[0])
    print("forces %s" % c_list(f.numpy().reshape(12)))

# The grid of the edge finder's test: vertex (i, j) is 4 j + i, each quad (a, b, c, d)
# counter-clockwise split into (a, b, c) and (a, c, d).
tris = []
for j in range(3):
    for i in range(3):
        a, b, c, d = 4 * j + i, 4 * j + i + 1, 4 * (j + 1) + i + 1, 4 * (j + 1) + i
        tris += [(a, b, c), (a, c, d)]
adj = wp.utils.MeshAdjacency(tris, len(tris))
edges = [(e.o0, e.o1, e.v0, e.v1) for e in adj.edges.values() if e.o1 != -1]
print("// %d interior edges of %d" % (len(edges), len(adj.edges)))
print("edges {" + ", ".join("{%d, %d, %d, %d}" % e for e in edges) + "}")
