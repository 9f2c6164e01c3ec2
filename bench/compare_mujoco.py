"""Articulations beside MuJoCo on the same robots (tests/data/articulations: a double
pendulum, a cartpole, a 7-joint arm), in one run on this machine's CPU, one thread each:
  forward    time per step of a 2 s rollout (Nudge: Simulator.loss of the imported scene;
             MuJoCo: mj_step)
  gradient   time per step of the rollout's gradient with respect to every parameter
             (Nudge: Simulator.gradient, the adjoint of the whole rollout) beside MuJoCo's
             mjd_transitionFD (the one-step transition Jacobians by finite differences,
             centred) at every step
and the largest difference of the joint trajectories. Usage (after scripts/build release):
  PYTHONPATH=build/release/python ~/.cache/nudge/python-venv/bin/python bench/compare_mujoco.py [--integrator RK4]
--integrator RK4 runs both on copies of the files that step with RK4 (Nudge's "rk4");
MuJoCo's mjd_transitionFD refuses RK4, so that column is nan.
"""
import argparse
import os
import sys
import tempfile
import time

import mujoco
import numpy as np

import nudge

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(SOURCE, "python", "tests"))
from test_mujoco_reference import CASES, DATA, SECONDS, controls, nudge_scene, with_integrator  # noqa: E402


def best_of(repeats, run):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--integrator", choices=["Euler", "RK4"], default="Euler")
    integrator = parser.parse_args().integrator
    folder = tempfile.TemporaryDirectory()
    print(f"{'robot':16s} {'joints':>6s} {'steps':>6s} | {'Nudge fwd':>10s} {'MuJoCo fwd':>10s} | "
          f"{'Nudge grad':>10s} {'MuJoCo FD':>10s} | {'max |dq|':>9s}   (us per step)")
    for name, (q0, qd0, amplitude) in CASES.items():
        path = os.path.join(DATA, name)
        if integrator != "Euler":
            path = with_integrator(path, folder.name, integrator)
        model = mujoco.MjModel.from_xml_path(path)
        data = mujoco.MjData(model)
        steps = round(SECONDS / model.opt.timestep)
        u = controls(model, steps, amplitude)

        def mujoco_forward():
            data.qpos[:], data.qvel[:] = q0, qd0
            for k in range(steps):
                data.ctrl[:] = u[k]
                mujoco.mj_step(model, data)

        nx = 2 * model.nv + model.na
        a = np.zeros((nx, nx))
        b = np.zeros((nx, model.nu))

        def mujoco_fd():
            data.qpos[:], data.qvel[:] = q0, qd0
            for k in range(steps):
                data.ctrl[:] = u[k]
                mujoco.mjd_transitionFD(model, data, 1e-6, 1, a, b, None, None)
                mujoco.mj_step(model, data)

        scene = nudge_scene(path, q0, qd0, amplitude)
        sim = nudge.Simulator(scene, device="cpu", precision="float64", threads=1)
        nudge_forward = best_of(5, lambda: sim.loss())
        nudge_gradient = best_of(5, lambda: sim.gradient())
        mj_forward = best_of(5, mujoco_forward)
        mj_fd = best_of(2, mujoco_fd) if integrator == "Euler" else float("nan")  # no RK4 in mjd_transitionFD
        traj = sim.simulate()
        data.qpos[:], data.qvel[:] = q0, qd0
        qs = [data.qpos.copy()]
        for k in range(steps):
            data.ctrl[:] = u[k]
            mujoco.mj_step(model, data)
            qs.append(data.qpos.copy())
        err = np.abs(traj["joint_q"][:, :, 0] - np.array(qs)).max()
        per = 1e6 / steps
        print(f"{name[:-4]:16s} {model.nv:6d} {steps:6d} | {nudge_forward * per:10.2f} {mj_forward * per:10.2f} | "
              f"{nudge_gradient * per:10.2f} {mj_fd * per:10.2f} | {err:9.1e}")
    print(f"mujoco {mujoco.__version__}, {integrator}; Nudge float64 on the CPU, 1 thread; best of 5 (MuJoCo FD: of 2)")


if __name__ == "__main__":
    main()
