"""NVIDIA Warp's own example_softbody_properties (warp/examples/optim/), run on the CPU in
float32, for scenes/softbody_bounce.json (tests/engine/example_scenes_test.cpp,
bench/compare_softbody.sh).

It imports the example's Example class (so the model is the one the example builds:
add_soft_grid of 2 x 2 x 2 cells, 27 particles, 40 tets, 24 surface triangles, a box
collider, the ground, soft contact ke 1e3, kd 1, kf 0, mu 0.2) and prints, as JSON lines:

  "start":  the centroid after the 960 steps, the loss |centroid - (-1, 1.5, 0)|^2, the
            norm of dL/d(k_mu, k_lambda) over the 40 tets and the entries of tets 0..2,
            and the time of that first (cold: it compiles the kernels) forward + backward;
  "warm":   the same, timed again warm;
  "step":   each SGD step's loss (before its update) and time, as it goes;
  "iters":  after N of the example's own SGD steps (Example.step(): lr 1e7, clamped to
            [500, 4e6]) for each N asked: the loss history, the loss after the N-th update,
            the parameters' range, and the seconds per iteration (median of the steps).

With --dump FILE it writes the model (particle positions, velocities and masses, tet
indices, materials, triangle indices and materials, gravity, ground plane, shapes, contact
settings) to FILE as JSON; scripts/make_softbody_bounce_scene.py turns it into
scenes/softbody_bounce.json.

warp.sim was removed from warp-lang after 1.9, so this needs warp-lang 1.9.x:
    python3 -m venv /tmp/warp-sim-venv && /tmp/warp-sim-venv/bin/pip install "warp-lang==1.9.1" numpy
    /tmp/warp-sim-venv/bin/python tests/engine/warp_reference/softbody_properties.py --iters 20,300 --dump /tmp/warp_softbody_model.json
"""

import argparse
import contextlib
import io
import json
import statistics
import sys
import time

import numpy as np
import warp as wp
import warp.sim
from warp.sim.model import PARTICLE_FLAG_ACTIVE

wp.config.quiet = True


def f32list(a):
    return np.asarray(a, dtype=np.float64).tolist()


@wp.kernel
def eval_particle_ground_contacts_atomic(
    particle_x: wp.array(dtype=wp.vec3),
    particle_v: wp.array(dtype=wp.vec3),
    particle_radius: wp.array(dtype=float),
    particle_flags: wp.array(dtype=wp.uint32),
    ke: float,
    kd: float,
    kf: float,
    mu: float,
    ground: wp.array(dtype=float),
    f: wp.array(dtype=wp.vec3),
):
    # warp.sim.integrator_euler.eval_particle_ground_contacts, line for line, except that the
    # force is added with wp.atomic_add instead of f[tid] = f[tid] - ...
    tid = wp.tid()
    if (particle_flags[tid] & PARTICLE_FLAG_ACTIVE) == 0:
        return
    x = particle_x[tid]
    v = particle_v[tid]
    radius = particle_radius[tid]
    n = wp.vec3(ground[0], ground[1], ground[2])
    c = wp.min(wp.dot(n, x) + ground[3] - radius, 0.0)
    vn = wp.dot(n, v)
    jn = c * ke
    if c >= 0.0:
        return
    jd = wp.min(vn, 0.0) * kd
    fn = jn + jd
    vt = v - n * vn
    vs = wp.length(vt)
    if vs > 0.0:
        vt = vt / vs
    ft = wp.min(vs * kf, mu * wp.abs(fn))
    wp.atomic_add(f, tid, -n * fn - vt * ft)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--iters", default="20,300", help="comma-separated iteration counts (runs up to the largest)")
    ap.add_argument("--dump", default=None, help="write the model to this JSON file")
    ap.add_argument("--fd", action="store_true",
                    help="also central differences of Warp's own float32 forward (h = 1 %% of the value) along four "
                         "directions: tet 0's k_mu, tet 0's k_lambda, every k_mu, every k_lambda; then stop")
    ap.add_argument("--atomic-ground", action="store_true",
                    help="replace eval_particle_ground_contacts by the same force added with wp.atomic_add "
                         "(see the module's docstring)")
    ap.add_argument("--no-triangles", action="store_true", help="zero the surface triangles' materials (ke, ka, kd)")
    args = ap.parse_args()
    counts = sorted({int(s) for s in args.iters.split(",") if s.strip()})

    wp.init()
    wp.set_device("cpu")
    from warp.examples.optim.example_softbody_properties import Example

    if args.atomic_ground:
        import warp.sim.integrator_euler as ie

        ie.eval_particle_ground_contacts = eval_particle_ground_contacts_atomic
    ex = Example(stage_path=None, material_behavior="anisotropic")
    m = ex.model
    if args.no_triangles:
        m.tri_materials.zero_()

    if args.dump:
        dump = {
            "warp_version": wp.config.version,
            "sim_steps": ex.sim_steps,
            "sim_dt": ex.sim_dt,
            "target": list(ex.target),
            "train_rate": ex.train_rate,
            "bounds": [float(ex.hard_lower_bound), float(ex.hard_upper_bound)],
            "gravity": list(m.gravity),
            "ground": bool(m.ground),
            "ground_plane": f32list(m.ground_plane.numpy()),
            "particle_q": f32list(m.particle_q.numpy()),
            "particle_qd": f32list(m.particle_qd.numpy()),
            "particle_mass": f32list(m.particle_mass.numpy()),
            "particle_radius": f32list(m.particle_radius.numpy()),
            "particle_max_radius": float(m.particle_max_radius),
            "tet_indices": m.tet_indices.numpy().tolist(),
            "tet_materials": f32list(m.tet_materials.numpy()),
            "tri_indices": m.tri_indices.numpy().tolist(),
            "tri_materials": f32list(m.tri_materials.numpy()),
            "edge_count": int(m.edge_count),
            "spring_count": int(m.spring_count),
            "shape_count": int(m.shape_count),
            "shape_transform": f32list(m.shape_transform.numpy()),
            "shape_scale": f32list(m.shape_geo.scale.numpy()),
            "shape_type": m.shape_geo.type.numpy().tolist(),
            "shape_ke": f32list(m.shape_materials.ke.numpy()),
            "shape_kd": f32list(m.shape_materials.kd.numpy()),
            "shape_kf": f32list(m.shape_materials.kf.numpy()),
            "shape_mu": f32list(m.shape_materials.mu.numpy()),
            "soft_contact": {"ke": m.soft_contact_ke, "kd": m.soft_contact_kd, "kf": m.soft_contact_kf,
                             "mu": m.soft_contact_mu, "margin": m.soft_contact_margin},
            "particle_adhesion": float(m.particle_adhesion),
            "enable_tri_collisions": bool(m.enable_tri_collisions),
        }
        with open(args.dump, "w") as f:
            json.dump(dump, f, separators=(",", ":"))

    def one_gradient():
        ex.com.zero_()
        ex.loss.zero_()
        ex.pos_error.zero_()
        tape = wp.Tape()
        t0, c0 = time.perf_counter(), time.process_time()
        with tape:
            ex.forward()
        tape.backward(loss=ex.loss)
        seconds, cpu_seconds = time.perf_counter() - t0, time.process_time() - c0
        g = ex.material_params.grad.numpy().astype(np.float64)
        out = {"centroid": f32list(ex.com.numpy()[0]), "loss": float(ex.loss.numpy()[0]),
               "grad_norm": float(np.linalg.norm(g)),
               "grad_mu_norm": float(np.linalg.norm(g[0::2])), "grad_lambda_norm": float(np.linalg.norm(g[1::2])),
               "grad_tets_0_2": g[:6].reshape(3, 2).tolist(),
               "grad_max_abs": float(np.max(np.abs(g))), "grad_full": g, "seconds": seconds, "cpu_seconds": cpu_seconds}
        tape.zero()
        return out

    start = one_gradient()
    g = start.pop("grad_full")
    print(json.dumps(dict(what="start", **start)), flush=True)
    if args.fd:
        p0 = ex.material_params.numpy().copy()

        def loss_at(p):
            ex.material_params.assign(p)
            ex.com.zero_()
            ex.loss.zero_()
            ex.pos_error.zero_()
            ex.forward()
            return float(ex.loss.numpy()[0])

        for name, mask in (("tet0 k_mu", [0]), ("tet0 k_lambda", [1]), ("every k_mu", list(range(0, p0.size, 2))),
                           ("every k_lambda", list(range(1, p0.size, 2)))):
            d = np.zeros_like(p0)
            d[mask] = 0.01 * p0[mask]
            fd = (loss_at(p0 + d) - loss_at(p0 - d)) / 2.0
            print(json.dumps({"what": "fd", "direction": name, "central_difference": fd,
                              "adjoint": float(np.dot(g, d.astype(np.float64)))}), flush=True)
        ex.material_params.assign(p0)
        return
    warm = one_gradient()
    warm.pop("grad_full")
    print(json.dumps(dict(what="warm", **warm)), flush=True)
    ex.com.zero_()
    ex.loss.zero_()
    ex.pos_error.zero_()

    times = []
    cpu_times = []
    done = 0
    for n in counts:
        while done < n:
            t0, c0 = time.perf_counter(), time.process_time()
            with contextlib.redirect_stdout(io.StringIO()):  # Example.step()'s ScopedTimer prints
                ex.step()
            times.append(time.perf_counter() - t0)
            cpu_times.append(time.process_time() - c0)
            done += 1
            print(json.dumps({"what": "step", "iter": done - 1, "loss": float(ex.losses[-1]),
                              "seconds": times[-1], "cpu_seconds": cpu_times[-1]}), flush=True)
        # the loss after the n-th update: one more forward (no update)
        ex.com.zero_()
        ex.loss.zero_()
        ex.pos_error.zero_()
        with wp.Tape():
            ex.forward()
        final = float(ex.loss.numpy()[0])
        final_centroid = f32list(ex.com.numpy()[0])
        x = ex.material_params.numpy().reshape(-1, 2).astype(np.float64)
        ex.com.zero_()
        ex.loss.zero_()
        ex.pos_error.zero_()
        print(json.dumps({"what": "iters", "iters": n, "loss_history": [float(v) for v in ex.losses],
                          "final_loss": final, "final_centroid": final_centroid,
                          "mu_range": [float(x[:, 0].min()), float(x[:, 0].max())],
                          "lambda_range": [float(x[:, 1].min()), float(x[:, 1].max())],
                          "params_tets_0_2": x[:3].tolist(),
                          "seconds_per_iter": statistics.median(times),
                          "cpu_seconds_per_iter": statistics.median(cpu_times)}), flush=True)


if __name__ == "__main__":
    main()
