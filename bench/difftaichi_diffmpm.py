#!/usr/bin/env python3
"""DiffTaichi's diffmpm robot (examples/diffmpm.py), on today's taichi, reported as JSON.

    /tmp/peers-venv/bin/python bench/difftaichi_diffmpm.py [--iters N] [--seed S] [--threads T]
                                                            [--arch cpu|cuda] [--steps 1024]

DiffTaichi's examples/diffmpm.py (github.com/taichi-dev/difftaichi) is written for taichi
0.x (ti.var, @ti.layout, ti.Tape) and does not run on the taichi on PyPI today. This is
that file's simulation with the API renamed (ti.field, ti.ad.Tape, ti.ad.grad_replaced)
and one branch left out: the floor's Coulomb friction, which runs after the floor has
already set the velocity to zero and so never changes it. The same fields,
the same p2g, grid_op, g2p and compute_actuation kernels (MLS-MPM, fixed corotated,
mu = lambda = 10, muscles of strength 4 along y, sticky walls 3 nodes deep, gravity 3.8,
dt 1e-3, a 128-cell grid), the same robot (scene.robot), loss -x_avg at step steps - 1,
and the same update (w -= 0.1 g, b -= 0.1 g_b), in float32 as DiffTaichi runs it. The
weights start from np.random.seed(S) then randn() * 0.01 (DiffTaichi draws them unseeded),
as scripts/make_diffmpm_scene.py writes them for Nudge.

One JSON object a line: {"what": "iteration", "iteration": i, "loss": L, "grad_norm": |g|,
"wall_s": ...} per iteration (the loss and gradient at iterate i, before its update; the
iteration's forward + backward + update time), then {"what": "run", ...} with the losses,
x_avg at the start, the mean seconds per iteration (without the first, which compiles the
kernels), and the process's resident memory before ti.init and at its peak, MiB.
"""
import argparse
import json
import math
import resource
import sys
import time

import numpy as np
import taichi as ti


def resident_mib():
    """The process's resident memory now (VmRSS), MiB."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iters", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=0, help="CPU threads (0: taichi's default)")
    parser.add_argument("--arch", default="cpu", choices=["cpu", "cuda"])
    parser.add_argument("--steps", type=int, default=1024, help="diffmpm.py's steps (it advances steps - 1)")
    args = parser.parse_args()

    base_rss_mib = resident_mib()
    init = dict(default_fp=ti.f32, arch=ti.cpu if args.arch == "cpu" else ti.cuda, random_seed=0)
    if args.threads > 0 and args.arch == "cpu":
        init["cpu_max_num_threads"] = args.threads
    ti.init(**init)

    real = ti.f32
    dim = 2
    n_grid = 128
    dx = 1 / n_grid
    inv_dx = 1 / dx
    dt = 1e-3
    p_vol = 1
    E = 10
    mu = E
    la = E
    steps = args.steps
    max_steps = steps
    gravity = 3.8
    bound = 3
    n_sin_waves = 4
    actuation_omega = 20
    act_strength = 4

    # scene.robot(): the same add_rect calls, offset (0.1, 0.03)
    xs, actuator_ids = [], []

    def add_rect(x, y, w, h, actuation):
        w_count = int(w / dx) * 2
        h_count = int(h / dx) * 2
        real_dx, real_dy = w / w_count, h / h_count
        for i in range(w_count):
            for j in range(h_count):
                xs.append([x + (i + 0.5) * real_dx + 0.1, y + (j + 0.5) * real_dy + 0.03])
                actuator_ids.append(actuation)

    add_rect(0.0, 0.1, 0.3, 0.1, -1)
    add_rect(0.0, 0.0, 0.05, 0.1, 0)
    add_rect(0.05, 0.0, 0.05, 0.1, 1)
    add_rect(0.2, 0.0, 0.05, 0.1, 2)
    add_rect(0.25, 0.0, 0.05, 0.1, 3)
    n_particles = len(xs)
    n_solid_particles = n_particles
    n_actuators = 4

    scalar = lambda: ti.field(dtype=real)
    vec = lambda: ti.Vector.field(dim, dtype=real)
    mat = lambda: ti.Matrix.field(dim, dim, dtype=real)
    actuator_id = ti.field(ti.i32)
    particle_type = ti.field(ti.i32)
    x, v = vec(), vec()
    grid_v_in, grid_m_in = vec(), scalar()
    grid_v_out = vec()
    C, F = mat(), mat()
    loss = scalar()
    weights = scalar()
    bias = scalar()
    x_avg = vec()
    actuation = scalar()

    ti.root.dense(ti.ij, (n_actuators, n_sin_waves)).place(weights)
    ti.root.dense(ti.i, n_actuators).place(bias)
    ti.root.dense(ti.ij, (max_steps, n_actuators)).place(actuation)
    ti.root.dense(ti.i, n_particles).place(actuator_id, particle_type)
    ti.root.dense(ti.ij, (max_steps, n_particles)).place(x, v, C, F)
    ti.root.dense(ti.ij, n_grid).place(grid_v_in, grid_m_in, grid_v_out)
    ti.root.place(loss, x_avg)
    ti.root.lazy_grad()

    @ti.kernel
    def clear_grid():
        for i, j in grid_m_in:
            grid_v_in[i, j] = [0, 0]
            grid_m_in[i, j] = 0
            grid_v_in.grad[i, j] = [0, 0]
            grid_m_in.grad[i, j] = 0
            grid_v_out.grad[i, j] = [0, 0]

    @ti.kernel
    def p2g(f: ti.i32):
        for p in range(n_particles):
            base = ti.cast(x[f, p] * inv_dx - 0.5, ti.i32)
            fx = x[f, p] * inv_dx - ti.cast(base, ti.i32)
            w = [0.5 * (1.5 - fx) ** 2, 0.75 - (fx - 1) ** 2, 0.5 * (fx - 0.5) ** 2]
            new_F = (ti.Matrix.diag(dim=2, val=1) + dt * C[f, p]) @ F[f, p]
            J = new_F.determinant()
            if particle_type[p] == 0:  # fluid
                sqrtJ = ti.sqrt(J)
                new_F = ti.Matrix([[sqrtJ, 0], [0, sqrtJ]])
            F[f + 1, p] = new_F
            r, s = ti.polar_decompose(new_F)
            act_id = actuator_id[p]
            act = actuation[f, ti.max(0, act_id)] * act_strength
            if act_id == -1:
                act = 0.0
            A = ti.Matrix([[0.0, 0.0], [0.0, 1.0]]) * act
            cauchy = ti.Matrix([[0.0, 0.0], [0.0, 0.0]])
            mass = 0.0
            if particle_type[p] == 0:
                mass = 4
                cauchy = ti.Matrix([[1.0, 0.0], [0.0, 0.1]]) * (J - 1) * E
            else:
                mass = 1
                cauchy = 2 * mu * (new_F - r) @ new_F.transpose() + ti.Matrix.diag(2, la * (J - 1) * J)
            cauchy += new_F @ A @ new_F.transpose()
            stress = -(dt * p_vol * 4 * inv_dx * inv_dx) * cauchy
            affine = stress + mass * C[f, p]
            for i in ti.static(range(3)):
                for j in ti.static(range(3)):
                    offset = ti.Vector([i, j])
                    dpos = (ti.cast(ti.Vector([i, j]), real) - fx) * dx
                    weight = w[i][0] * w[j][1]
                    grid_v_in[base + offset] += weight * (mass * v[f, p] + affine @ dpos)
                    grid_m_in[base + offset] += weight * mass

    @ti.kernel
    def grid_op():
        for i, j in grid_m_in:
            inv_m = 1 / (grid_m_in[i, j] + 1e-10)
            v_out = inv_m * grid_v_in[i, j]
            v_out[1] -= dt * gravity
            if i < bound and v_out[0] < 0:
                v_out[0] = 0
                v_out[1] = 0
            if i > n_grid - bound and v_out[0] > 0:
                v_out[0] = 0
                v_out[1] = 0
            if j < bound and v_out[1] < 0:
                v_out[0] = 0
                v_out[1] = 0
            if j > n_grid - bound and v_out[1] > 0:
                v_out[0] = 0
                v_out[1] = 0
            grid_v_out[i, j] = v_out

    @ti.kernel
    def g2p(f: ti.i32):
        for p in range(n_particles):
            base = ti.cast(x[f, p] * inv_dx - 0.5, ti.i32)
            fx = x[f, p] * inv_dx - ti.cast(base, real)
            w = [0.5 * (1.5 - fx) ** 2, 0.75 - (fx - 1.0) ** 2, 0.5 * (fx - 0.5) ** 2]
            new_v = ti.Vector([0.0, 0.0])
            new_C = ti.Matrix([[0.0, 0.0], [0.0, 0.0]])
            for i in ti.static(range(3)):
                for j in ti.static(range(3)):
                    dpos = ti.cast(ti.Vector([i, j]), real) - fx
                    g_v = grid_v_out[base[0] + i, base[1] + j]
                    weight = w[i][0] * w[j][1]
                    new_v += weight * g_v
                    new_C += 4 * weight * g_v.outer_product(dpos) * inv_dx
            v[f + 1, p] = new_v
            x[f + 1, p] = x[f, p] + dt * v[f + 1, p]
            C[f + 1, p] = new_C

    @ti.kernel
    def compute_actuation(t: ti.i32):
        for i in range(n_actuators):
            act = 0.0
            for j in ti.static(range(n_sin_waves)):
                act += weights[i, j] * ti.sin(actuation_omega * t * dt + 2 * math.pi / n_sin_waves * j)
            act += bias[i]
            actuation[t, i] = ti.tanh(act)

    @ti.kernel
    def compute_x_avg():
        for i in range(n_particles):
            contrib = 0.0
            if particle_type[i] == 1:
                contrib = 1.0 / n_solid_particles
            ti.atomic_add(x_avg[None], contrib * x[steps - 1, i])

    @ti.kernel
    def compute_loss():
        loss[None] = -x_avg[None][0]

    @ti.ad.grad_replaced
    def advance(s):
        clear_grid()
        compute_actuation(s)
        p2g(s)
        grid_op()
        g2p(s)

    @ti.ad.grad_for(advance)
    def advance_grad(s):
        clear_grid()
        p2g(s)
        grid_op()
        g2p.grad(s)
        grid_op.grad()
        p2g.grad(s)
        compute_actuation.grad(s)

    def forward():
        for s in range(steps - 1):
            advance(s)
        x_avg[None] = [0, 0]
        compute_x_avg()
        compute_loss()

    np.random.seed(args.seed)
    for i in range(n_actuators):
        for j in range(n_sin_waves):
            weights[i, j] = np.random.randn() * 0.01
    for i in range(n_particles):
        x[0, i] = xs[i]
        F[0, i] = [[1, 0], [0, 1]]
        actuator_id[i] = actuator_ids[i]
        particle_type[i] = 1
    x_avg_initial = float(np.mean(np.array(xs)[:, 0]))

    losses, norms, walls = [], [], []
    for it in range(args.iters):
        start = time.perf_counter()
        with ti.ad.Tape(loss):
            forward()
        l = float(loss[None])
        g = np.concatenate([weights.grad.to_numpy().ravel(), bias.grad.to_numpy().ravel()])
        learning_rate = 0.1
        for i in range(n_actuators):
            for j in range(n_sin_waves):
                weights[i, j] -= learning_rate * weights.grad[i, j]
            bias[i] -= learning_rate * bias.grad[i]
        ti.sync()
        wall = time.perf_counter() - start
        losses.append(l)
        norms.append(float(np.linalg.norm(g)))
        walls.append(wall)
        print(json.dumps({"what": "iteration", "iteration": it, "loss": l, "grad_norm": norms[-1], "wall_s": wall}),
              flush=True)
    timed = walls[1:] if len(walls) > 1 else walls
    print(json.dumps({"what": "run", "impl": f"difftaichi-{args.arch} (taichi {ti.__version__}, float32)",
                      "particles": n_particles, "steps": steps, "losses": losses, "grad_norms": norms,
                      "x_avg_initial": x_avg_initial, "seconds_per_iter": sum(timed) / len(timed),
                      "threads": args.threads, "base_rss_mib": base_rss_mib,
                      "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
