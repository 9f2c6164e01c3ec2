"""Nudge's articulations against MuJoCo (the mujoco package from PyPI) on the robots of
tests/data/articulations: each MJCF file imported by Nudge and loaded by MuJoCo, run 2 s
from the same state under the same controls with the same integrator (Euler, damping
implicit; or RK4, the files' integrator changed) and time step. The joint trajectories
agree to 1e-6; the energy drift of each is printed beside the other's; the gradients of a final state with respect to the initial
velocities, the links' masses and their scales agree with central differences of
MuJoCo's own rollout.
Skipped where mujoco is not installed (scripts/setup installs it in the tests' venv)."""
import os
import tempfile
import unittest

import numpy as np

import nudge

try:
    import mujoco
except ImportError:  # pragma: no cover - the setup script installs it
    mujoco = None

SOURCE = os.environ.get("NUDGE_SOURCE", os.path.join(os.path.dirname(__file__), "..", ".."))
DATA = os.path.join(SOURCE, "tests", "data", "articulations")

# Initial q and qd (per joint, in MuJoCo's order), and the controls' amplitude: each
# channel's control is amplitude * sin(2 pi t (1 + channel) / 2 s). The states stay inside
# every joint's range, where the two limits differ (MuJoCo's is a soft constraint, Nudge's
# a penalty); test_a_limit_stops_a_swing_near_where_mujocos_does compares them.
CASES = {
    "double_pendulum.xml": ([0.7, -0.4], [0.0, 0.0], 0.0),
    "cartpole.xml": ([0.1, 2.8], [0.2, -0.5], 0.3),
    "arm7.xml": ([0.3, 0.3, 0.4, 0.4, -0.3, 0.6, 0.2], [0.1, 0.0, -0.2, 0.1, 0.3, 0.0, -0.1], 0.05),
}
SECONDS = 2.0
# How far a swing with joint friction may go from MuJoCo's (rad): measured 9e-3 with
# 0.3 N m and 6.4e-2 with 1 N m, where the elbow sticks a little apart from MuJoCo's
# (test_joint_friction_slows_and_holds_a_swing_near_where_mujocos_does).
FRICTION_TOLERANCE = 0.1


def controls(model, steps, amplitude):
    t = np.arange(steps)[:, None] * model.opt.timestep
    return amplitude * np.sin(2 * np.pi * t * (1 + np.arange(model.nu))[None, :] / SECONDS)


def mujoco_rollout(path, q0, qd0, amplitude, mass=None, edit=None):
    """qpos and qvel at every step, and the energy at the start and the end; edit(model)
    changes the model first."""
    model = mujoco.MjModel.from_xml_path(path)
    if mass is not None:
        body, value = mass
        model.body_mass[body] = value
    if edit is not None:
        edit(model)
    data = mujoco.MjData(model)
    steps = round(SECONDS / model.opt.timestep)
    u = controls(model, steps, amplitude)
    data.qpos[:], data.qvel[:] = q0, qd0
    mujoco.mj_forward(model, data)
    qs, qds = [data.qpos.copy()], [data.qvel.copy()]
    energy = []

    def total():
        mujoco.mj_energyPos(model, data)
        mujoco.mj_energyVel(model, data)
        return data.energy[0] + data.energy[1]

    energy.append(total())
    for k in range(steps):
        data.ctrl[:] = u[k]
        mujoco.mj_step(model, data)
        qs.append(data.qpos.copy())
        qds.append(data.qvel.copy())
    energy.append(total())
    return np.array(qs), np.array(qds), energy, model


def with_integrator(path, folder, integrator):
    """A copy of the MJCF file at path, in folder, that steps with integrator."""
    with open(path) as f:
        text = f.read()
    assert 'integrator="Euler"' in text
    copy = os.path.join(folder, os.path.basename(path))
    with open(copy, "w") as f:
        f.write(text.replace('integrator="Euler"', f'integrator="{integrator}"'))
    return copy


def nudge_against(scene, qs, qds):
    """Nudge's simulator of the scene (float64 on the CPU), and the largest differences of
    its q and qd from MuJoCo's qs and qds."""
    sim = nudge.Simulator(scene, device="cpu", precision="float64")
    traj = sim.simulate()
    q, qd = traj["joint_q"][:, :, 0], traj["joint_qd"][:, :, 0]
    return sim, np.abs(q - qs).max(), np.abs(qd - qds).max()


def final_angle_grads(sim, w):
    """Every parameter's gradient of L = w . q_T, the final joint angles weighed."""
    cotangent = np.zeros(sim.trajectory_shapes()["joint_q"])
    cotangent[-1, :, 0] = w
    return sim.vjp({"joint_q": cotangent})


def nudge_scene(path, q0, qd0, amplitude):
    model = mujoco.MjModel.from_xml_path(path)
    steps = round(SECONDS / model.opt.timestep)
    scene = nudge.import_robot(path, steps=steps)
    rows = scene.parameter("link_q")
    q, qd = np.zeros_like(rows), np.zeros_like(rows)
    for coordinate, link in enumerate(scene.joint_links):
        q[link, 0], qd[link, 0] = q0[coordinate], qd0[coordinate]
    scene.set_parameter("link_q", q)
    scene.set_parameter("link_qd", qd)
    if model.nu:
        scene.set_parameter("controls", controls(model, steps, amplitude))
    return scene


@unittest.skipIf(mujoco is None, "mujoco is not installed")
class MujocoReferenceTest(unittest.TestCase):
    def test_trajectories_agree_over_two_seconds(self):
        for name, (q0, qd0, amplitude) in CASES.items():
            with self.subTest(robot=name):
                path = os.path.join(DATA, name)
                qs, qds, energy, model = mujoco_rollout(path, q0, qd0, amplitude)
                for j in range(model.njnt):
                    if model.jnt_limited[j]:
                        low, high = model.jnt_range[j]
                        inside = (qs[:, model.jnt_qposadr[j]] > low) & (qs[:, model.jnt_qposadr[j]] < high)
                        self.assertTrue(inside.all(), f"{name}: joint {j} reaches its limit")
                scene = nudge_scene(path, q0, qd0, amplitude)
                traj = nudge.Simulator(scene, device="cpu", precision="float64").simulate()
                q, qd = traj["joint_q"][:, :, 0], traj["joint_qd"][:, :, 0]
                self.assertEqual(q.shape, qs.shape)
                err_q, err_qd = np.abs(q - qs).max(), np.abs(qd - qds).max()
                print(f"\n{name}: {len(qs) - 1} steps, max |q - q_mujoco| {err_q:.2e} rad, "
                      f"|qd - qd_mujoco| {err_qd:.2e} rad/s; MuJoCo's energy drift {energy[1] - energy[0]:+.3e} J")
                self.assertLess(err_q, 1e-6)
                self.assertLess(err_qd, 1e-6)

    def test_a_limit_stops_a_swing_near_where_mujocos_does(self):
        # The double pendulum with its shoulder limited to [-0.3, 1] rad: from 0.7 it swings
        # into the lower bound and back. Both rest on MuJoCo's default time constant (20 ms),
        # MuJoCo's as a soft constraint and Nudge's as a spring and damper on the joint's
        # inertia at the start, so the swings agree closely, not exactly.
        with open(os.path.join(DATA, "double_pendulum.xml")) as f:
            text = f.read()
        text = text.replace('name="shoulder" type="hinge" axis="0 1 0"',
                            'name="shoulder" type="hinge" axis="0 1 0" range="-0.3 1" limited="true"')
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "limited_pendulum.xml")
            with open(path, "w") as f:
                f.write(text.replace("<option", '<compiler angle="radian"/>\n  <option'))
            qs, _, _, _ = mujoco_rollout(path, [0.7, -0.4], [0.0, 0.0], 0.0)
            scene = nudge_scene(path, [0.7, -0.4], [0.0, 0.0], 0.0)
        traj = nudge.Simulator(scene, device="cpu", precision="float64").simulate()
        q = traj["joint_q"][:, :, 0]
        lowest_mujoco, lowest_nudge = qs[:, 0].min(), q[:, 0].min()
        err = np.abs(q[:, 0] - qs[:, 0]).max()
        print(f"\nlimited shoulder: lowest angle {lowest_nudge:.4f} rad (MuJoCo {lowest_mujoco:.4f}); "
              f"max |q - q_mujoco| over 2 s {err:.3e} rad")
        self.assertLess(lowest_mujoco, -0.28)  # both reach the bound
        self.assertLess(lowest_nudge, -0.28)
        self.assertGreater(lowest_nudge, -0.35)  # and stop near it
        self.assertLess(abs(lowest_nudge - lowest_mujoco), 0.02)

    def test_a_ball_cone_limit_stops_a_swing_near_where_mujocos_does(self):
        # ball_cone.xml: a pendulum on a ball with a 30-degree cone, started 20 degrees out
        # about x and swung outwards at 3 rad/s. As for a hinge's limit, MuJoCo's cone is a
        # soft constraint and Nudge's a spring and damper on the ball's mean inertia, both on
        # MuJoCo's default time constant: the largest angles agree closely, not exactly.
        path = os.path.join(DATA, "ball_cone.xml")
        half = np.radians(20) / 2
        wxyz = np.array([np.cos(half), np.sin(half), 0.0, 0.0])
        qd0 = np.array([3.0, 0.0, 0.0])
        qs, _, _, _ = mujoco_rollout(path, wxyz, qd0, 0.0)
        scene = nudge.import_robot(path, steps=len(qs) - 1)
        rotation = scene.parameter("link_rotation")
        rotation[0] = np.concatenate([wxyz[1:], wxyz[:1]])
        scene.set_parameter("link_rotation", rotation)
        angular = scene.parameter("link_angular_velocity")
        angular[0] = qd0
        scene.set_parameter("link_angular_velocity", angular)
        q = nudge.Simulator(scene, device="cpu", precision="float64").simulate()["joint_q"][:, :, 0]

        def angles(vector, w):
            return 2 * np.arctan2(np.linalg.norm(vector, axis=1), np.abs(w))

        nudge_angle, mujoco_angle = angles(q[:, :3], q[:, 3]), angles(qs[:, 1:], qs[:, 0])
        cone = np.radians(30)
        print(f"\nball cone of {cone:.4f} rad: largest angle {nudge_angle.max():.4f} rad (MuJoCo "
              f"{mujoco_angle.max():.4f}); max |angle - MuJoCo's| over 2 s {np.abs(nudge_angle - mujoco_angle).max():.3e}")
        self.assertGreater(mujoco_angle.max(), cone - 0.01)  # both reach the cone
        self.assertGreater(nudge_angle.max(), cone - 0.01)
        self.assertLess(nudge_angle.max(), cone + 0.08)  # and stop near it
        self.assertLess(abs(nudge_angle.max() - mujoco_angle.max()), 0.02)

    def test_joint_friction_slows_and_holds_a_swing_near_where_mujocos_does(self):
        # The double pendulum with frictionloss on both hinges: MuJoCo's friction is a soft
        # constraint (its default solref, 20 ms), Nudge's a smooth -F tanh(qd / v) with v
        # 0.01 rad/s, so the swings agree closely, not exactly. With 0.3 and 1 N m the
        # pendulum swings and settles; with 5 N m (above gravity's 3.4 N m on the shoulder at
        # the start) both hold it, each creeping a little (MuJoCo's constraint is soft).
        with open(os.path.join(DATA, "double_pendulum.xml")) as f:
            text = f.read()
        for friction, still in ((0.3, False), (1.0, False), (5.0, True)):
            rubbed = text.replace('type="hinge" axis="0 1 0"', f'type="hinge" axis="0 1 0" frictionloss="{friction}"')
            self.assertEqual(rubbed.count("frictionloss"), 2)
            with tempfile.TemporaryDirectory() as folder:
                path = os.path.join(folder, "rubbed_pendulum.xml")
                with open(path, "w") as f:
                    f.write(rubbed)
                qs, _, _, _ = mujoco_rollout(path, [0.7, -0.4], [0.0, 0.0], 0.0)
                scene = nudge_scene(path, [0.7, -0.4], [0.0, 0.0], 0.0)
            self.assertTrue(np.all(scene.parameter("link_frictionloss")[:, 0] == friction))
            q = nudge.Simulator(scene, device="cpu", precision="float64").simulate()["joint_q"][:, :, 0]
            err = np.abs(q - qs).max(axis=0)
            moved_mujoco, moved_nudge = np.abs(qs - qs[0]).max(axis=0), np.abs(q - q[0]).max(axis=0)
            print(f"\nfrictionloss {friction} N m: max |q - q_mujoco| over 2 s {err[0]:.3e}, {err[1]:.3e} rad; "
                  f"final q {q[-1, 0]:.4f}, {q[-1, 1]:.4f} (MuJoCo {qs[-1, 0]:.4f}, {qs[-1, 1]:.4f}); "
                  f"largest move {moved_nudge.max():.4f} rad (MuJoCo {moved_mujoco.max():.4f})")
            if still:
                self.assertLess(moved_mujoco.max(), 0.1)
                self.assertLess(moved_nudge.max(), 0.1)
            else:
                self.assertGreater(moved_nudge.max(), 0.3)
                self.assertLess(err.max(), FRICTION_TOLERANCE)

    def test_a_mesh_links_mass_and_inertia_swing_it_as_mujocos(self):
        # A two-link pendulum whose links are only mesh geoms (an irregular tetrahedron in
        # an OBJ file, scaled, placed and turned): its mass, centre and inertia are the
        # hull's, as MuJoCo's inertia="convex", so the swings agree as the robots' do.
        obj = ("v 0 0 0\nv 0.3 0 0.05\nv 0.05 0.2 0\nv 0.1 0.05 0.25\n"
               "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n")
        xml = """<mujoco model="mesh_pendulum">
  <option timestep="0.001" integrator="Euler"/>
  <asset><mesh name="rock" file="rock.obj" scale="1.2 0.8 1.5"/></asset>
  <worldbody>
    <body name="upper" pos="0 0 2">
      <joint name="shoulder" type="hinge" axis="0 1 0"/>
      <geom type="mesh" mesh="rock" pos="0.05 0 -0.3" quat="0.9 0.1 0.3 0.2"/>
      <body name="lower" pos="0 0 -0.5">
        <joint name="elbow" type="hinge" axis="1 0.2 0"/>
        <geom type="mesh" mesh="rock" pos="0 0.02 -0.2" density="500"/>
      </body>
    </body>
  </worldbody>
</mujoco>"""
        with tempfile.TemporaryDirectory() as folder:
            with open(os.path.join(folder, "rock.obj"), "w") as f:
                f.write(obj)
            path = os.path.join(folder, "mesh_pendulum.xml")
            with open(path, "w") as f:
                f.write(xml)
            qs, qds, _, model = mujoco_rollout(path, [0.7, -0.4], [0.0, 1.0], 0.0)
            scene = nudge_scene(path, [0.7, -0.4], [0.0, 1.0], 0.0)
        names = scene.link_names
        for body in (1, 2):
            link = names.index(model.body(body).name)
            # MuJoCo keeps a mesh's vertices in float32: masses agree to its rounding.
            self.assertAlmostEqual(scene.parameter("link_mass")[link, 0], model.body_mass[body],
                                   delta=1e-6 * model.body_mass[body])
        _, err_q, err_qd = nudge_against(scene, qs, qds)
        print(f"\nmesh pendulum: masses {model.body_mass[1]:.6f}, {model.body_mass[2]:.6f} kg; "
              f"max |q - q_mujoco| {err_q:.2e} rad, |qd - qd_mujoco| {err_qd:.2e} rad/s")
        self.assertLess(err_q, 1e-6)
        self.assertLess(err_qd, 1e-6)

    def test_final_state_gradients_against_mujoco_central_differences(self):
        for name, (q0, qd0, amplitude) in CASES.items():
            with self.subTest(robot=name):
                path = os.path.join(DATA, name)
                _, _, _, model = mujoco_rollout(path, q0, qd0, amplitude)
                scene = nudge_scene(path, q0, qd0, amplitude)
                sim = nudge.Simulator(scene, device="cpu", precision="float64")
                w = np.linspace(1.0, -0.5, model.nq)
                grads = final_angle_grads(sim, w)

                def loss(qd_start=qd0, mass=None):
                    qs, _, _, _ = mujoco_rollout(path, q0, qd_start, amplitude, mass)
                    return float(w @ qs[-1])

                h = 1e-6
                for coordinate, link in enumerate(scene.joint_links):
                    up, down = list(qd0), list(qd0)
                    up[coordinate] += h
                    down[coordinate] -= h
                    fd = (loss(up) - loss(down)) / (2 * h)
                    self.assertAlmostEqual(grads["link_qd"][link, 0], fd, delta=1e-5 * max(1.0, abs(fd)))
                # Masses: MuJoCo's body b is Nudge's link named as it.
                names = scene.link_names
                for body in range(1, model.nbody):
                    mass = model.body_mass[body]
                    if mass == 0:
                        continue
                    link = names.index(model.body(body).name)
                    fd = (loss(mass=(body, mass + h)) - loss(mass=(body, mass - h))) / (2 * h)
                    self.assertAlmostEqual(grads["link_mass"][link, 0], fd, delta=1e-5 * max(1.0, abs(fd)))

    def test_a_free_body_with_a_ball_joint_tumbles_as_mujocos_does(self):
        self.check_floating(os.path.join(DATA, "floating.xml"))

    def test_a_ball_joints_spring_as_mujocos(self):
        # floating.xml with stiffness 2 on the ball: MuJoCo's spring toward qpos_spring (no
        # turn), -k times the rotation vector, explicit in both.
        with open(os.path.join(DATA, "floating.xml")) as f:
            text = f.read()
        sprung = text.replace('type="ball" pos="0 0 0.02" damping="0.01"',
                              'type="ball" pos="0 0 0.02" damping="0.01" stiffness="2"')
        self.assertNotEqual(sprung, text)
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "floating.xml")
            with open(path, "w") as f:
                f.write(sprung)
            self.check_floating(path)

    def test_rk4_tumbles_a_free_body_with_a_ball_joint_as_mujocos_rk4_does(self):
        with tempfile.TemporaryDirectory() as folder:
            self.check_floating(with_integrator(os.path.join(DATA, "floating.xml"), folder, "RK4"))

    def test_rk4_trajectories_energy_and_gradients_as_mujocos_rk4(self):
        # The same robots with integrator="RK4" in the file: Nudge imports it as "rk4". The
        # trajectories agree as Euler's do; RK4's energy drift is printed beside Euler's; the
        # gradient of the final angles with respect to the initial velocities agrees with
        # central differences of MuJoCo's RK4 rollout.
        with tempfile.TemporaryDirectory() as folder:
            for name, (q0, qd0, amplitude) in CASES.items():
                with self.subTest(robot=name):
                    path = with_integrator(os.path.join(DATA, name), folder, "RK4")
                    qs, qds, energy, model = mujoco_rollout(path, q0, qd0, amplitude)
                    self.assertEqual(model.opt.integrator, mujoco.mjtIntegrator.mjINT_RK4)
                    _, _, euler_energy, _ = mujoco_rollout(os.path.join(DATA, name), q0, qd0, amplitude)
                    scene = nudge_scene(path, q0, qd0, amplitude)
                    sim, err_q, err_qd = nudge_against(scene, qs, qds)
                    print(f"\n{name} (RK4): max |q - q_mujoco| {err_q:.2e} rad, |qd - qd_mujoco| {err_qd:.2e} "
                          f"rad/s; MuJoCo's energy drift {energy[1] - energy[0]:+.3e} J with RK4, "
                          f"{euler_energy[1] - euler_energy[0]:+.3e} J with Euler")
                    self.assertLess(err_q, 1e-6)
                    self.assertLess(err_qd, 1e-6)
                    w = np.linspace(1.0, -0.5, model.nq)
                    grads = final_angle_grads(sim, w)
                    h = 1e-6
                    for coordinate, link in enumerate(scene.joint_links):
                        up, down = list(qd0), list(qd0)
                        up[coordinate] += h
                        down[coordinate] -= h
                        fd = (w @ mujoco_rollout(path, q0, up, amplitude)[0][-1] -
                              w @ mujoco_rollout(path, q0, down, amplitude)[0][-1]) / (2 * h)
                        self.assertAlmostEqual(grads["link_qd"][link, 0], fd, delta=1e-5 * max(1.0, abs(fd)))

    def check_floating(self, path):
        # floating.xml: a free body (its inertia off its axes) carrying a ball-jointed limb
        # with a hinge, tumbling in gravity for 2 s. MuJoCo's free joint keeps the body's
        # world position and orientation (w, x, y, z) in qpos; Nudge's keeps its translation
        # from where the file puts it, in the scene's y-up axes (x, y, z) -> (x, z, -y), and
        # its rotation (x, y, z, w). Angular velocities are in the body's frame in both.
        start = np.array([0.0, 0.0, 1.0])
        free_quat = np.array([0.95, 0.1, 0.2, -0.1]) / np.linalg.norm([0.95, 0.1, 0.2, -0.1])
        ball_quat = np.array([0.9, 0.2, -0.1, 0.3]) / np.linalg.norm([0.9, 0.2, -0.1, 0.3])
        q0 = np.concatenate([start, free_quat, ball_quat, [0.3]])
        qd0 = np.array([0.3, -0.2, 1.0, 1.0, 2.0, -1.5, 0.5, -0.8, 0.3, 0.4])
        qs, qds, energy, model = mujoco_rollout(path, q0, qd0, 0.0)

        def y_up(v):
            return np.stack([v[..., 0], v[..., 2], -v[..., 1]], axis=-1)

        def xyzw(wxyz):
            return np.concatenate([wxyz[..., 1:], wxyz[..., :1]], axis=-1)

        scene = nudge.import_robot(path, steps=len(qs) - 1)
        self.assertEqual(scene.link_names, ["body", "limb", "hand"])
        rotation = scene.parameter("link_rotation")
        rotation[0], rotation[1] = xyzw(free_quat), xyzw(ball_quat)
        scene.set_parameter("link_rotation", rotation)
        translation = scene.parameter("link_translation")
        translation[0] = y_up(q0[:3] - start)
        scene.set_parameter("link_translation", translation)
        linear = scene.parameter("link_linear_velocity")
        linear[0] = y_up(qd0[:3])
        scene.set_parameter("link_linear_velocity", linear)
        angular = scene.parameter("link_angular_velocity")
        angular[0], angular[1] = qd0[3:6], qd0[6:9]
        scene.set_parameter("link_angular_velocity", angular)
        q_rows, qd_rows = scene.parameter("link_q"), scene.parameter("link_qd")
        q_rows[2, 0], qd_rows[2, 0] = q0[11], qd0[9]
        scene.set_parameter("link_q", q_rows)
        scene.set_parameter("link_qd", qd_rows)
        self.assertEqual(scene.joint_position_links, [0] * 7 + [1] * 4 + [2])
        traj = nudge.Simulator(scene, device="cpu", precision="float64").simulate()
        q, qd = traj["joint_q"][:, :, 0], traj["joint_qd"][:, :, 0]
        expected_q = np.concatenate([y_up(qs[:, :3] - start), xyzw(qs[:, 3:7]), xyzw(qs[:, 7:11]), qs[:, 11:]], axis=1)
        expected_qd = np.concatenate([y_up(qds[:, :3]), qds[:, 3:]], axis=1)
        err_q, err_qd = np.abs(q - expected_q).max(), np.abs(qd - expected_qd).max()
        turned = np.abs(qs[:, 3:7] - qs[0, 3:7]).max()
        print(f"\n{os.path.basename(path)} ({mujoco.mjtIntegrator(model.opt.integrator).name}): {len(qs) - 1} steps "
              f"(the body's quaternion moves by up to {turned:.2f}), "
              f"max |q - q_mujoco| {err_q:.2e}, |qd - qd_mujoco| {err_qd:.2e}; "
              f"MuJoCo's energy drift {energy[1] - energy[0]:+.3e} J")
        self.assertGreater(turned, 0.5)  # it tumbles
        self.assertLess(err_q, 1e-6)
        self.assertLess(err_qd, 1e-6)

    def check_resized_links(self, parameter, values, resized):
        # The double pendulum with `parameter` set to `values` on its two links, against
        # MuJoCo's model edited by resized(values): the trajectories over 2 s, and the
        # gradient of a final state with respect to the parameter against central
        # differences of MuJoCo's edited rollouts.
        name = "double_pendulum.xml"
        path = os.path.join(DATA, name)
        q0, qd0, amplitude = CASES[name]
        qs, _, _, model = mujoco_rollout(path, q0, qd0, amplitude, edit=resized(values))
        scene = nudge_scene(path, q0, qd0, amplitude)
        self.assertEqual(scene.link_names, ["link1", "link2"])
        scene.set_parameter(parameter, values[:, None])
        sim = nudge.Simulator(scene, device="cpu", precision="float64")
        q = sim.simulate()["joint_q"][:, :, 0]
        err = np.abs(q - qs).max()
        moved = np.abs(q - nudge.Simulator(nudge_scene(path, q0, qd0, amplitude), device="cpu",
                                           precision="float64").simulate()["joint_q"][:, :, 0]).max()
        print(f"\n{name} with {parameter} {values.tolist()}: max |q - q_mujoco| {err:.2e} "
              f"(the change moves q by up to {moved:.2f})")
        self.assertGreater(moved, 0.1)
        self.assertLess(err, 1e-6)
        w = np.array([1.0, -0.5])
        grads = final_angle_grads(sim, w)
        h = 1e-6
        for link in range(2):
            up, down = values.copy(), values.copy()
            up[link] += h
            down[link] -= h
            fd = (w @ mujoco_rollout(path, q0, qd0, amplitude, edit=resized(up))[0][-1] -
                  w @ mujoco_rollout(path, q0, qd0, amplitude, edit=resized(down))[0][-1]) / (2 * h)
            self.assertAlmostEqual(grads[parameter][link, 0], fd, delta=1e-5 * max(1.0, abs(fd)))

    def test_a_scaled_link_moves_as_mujocos_resized_body_does(self):
        # link_scale s on the double pendulum's links (their joints at their frames'
        # origins) is MuJoCo's body resized by hand: its mass times s^3, its inertia times
        # s^5, its centre of mass and its child's position times s.
        def resized(s):
            def edit(model):
                for body, scale in ((1, s[0]), (2, s[1])):
                    model.body_mass[body] *= scale**3
                    model.body_inertia[body] *= scale**5
                    model.body_ipos[body] *= scale
                model.body_pos[2] *= s[0]  # link2 hangs from link1

            return edit

        self.check_resized_links("link_scale", np.array([1.2, 0.9]), resized)

    def test_a_stretched_link_moves_as_mujocos_lengthened_body_does(self):
        # link_length l on the double pendulum's links, which import gives a length_axis
        # along z (link1: to its child; link2: along its capsule), is MuJoCo's body
        # lengthened by hand: its mass times l, its centre of mass and its child's position
        # times l along z, and its principal inertia as the stretched body's (the second
        # moment about z times l^3, about x and y times l).
        def lengthened(lengths):
            def edit(model):
                for body, l in ((1, lengths[0]), (2, lengths[1])):
                    ixx, iyy, izz = model.body_inertia[body]
                    half = (ixx + iyy + izz) / 2
                    sx, sy, sz = l * (half - ixx), l * (half - iyy), l**3 * (half - izz)
                    model.body_inertia[body] = [sy + sz, sx + sz, sx + sy]
                    model.body_mass[body] *= l
                    model.body_ipos[body][2] *= l
                model.body_pos[2][2] *= lengths[0]

            return edit

        self.check_resized_links("link_length", np.array([1.3, 0.85]), lengthened)

    def test_servo_gains_a_force_range_and_a_joint_spring_as_mujocos(self):
        # Two position servos, the elbow's force clamped to [-0.4, 0.4] for part of the
        # swing, a spring on the shoulder: the motion, and the gradients of the final
        # angles with respect to each actuator's gain and biases (MuJoCo's gainprm[0],
        # biasprm[1] and biasprm[2]) and the spring's stiffness and rest angle
        # (jnt_stiffness, qpos_spring) against central differences of MuJoCo's own rollout.
        path = os.path.join(DATA, "servo_pendulum.xml")
        q0, qd0, amplitude = [0.4, -0.3], [0.0, 0.5], 0.6
        qs, qds, _, model = mujoco_rollout(path, q0, qd0, amplitude)
        clamped = np.abs(self.elbow_forces(path, q0, qd0, amplitude)) >= 0.4 - 1e-12
        self.assertTrue(0.05 < clamped.mean() < 0.95, f"the elbow's force is clamped at {clamped.mean():.0%} of the steps")
        scene = nudge_scene(path, q0, qd0, amplitude)
        sim, err_q, err_qd = nudge_against(scene, qs, qds)
        print(f"\nservo_pendulum.xml: force clamped at {clamped.mean():.0%} of the steps; max |q - q_mujoco| "
              f"{err_q:.2e} rad, |qd - qd_mujoco| {err_qd:.2e} rad/s")
        self.assertLess(err_q, 1e-6)
        self.assertLess(err_qd, 1e-6)
        w = np.array([1.0, -0.5])
        grads = final_angle_grads(sim, w)
        h = 1e-6
        # Each actuator's gain and biases, and the shoulder's spring (its link is row 0).
        cases = [(parameter, a, field, (a, column)) for parameter, field, column in
                 (("actuator_gain", "actuator_gainprm", 0), ("actuator_bias_q", "actuator_biasprm", 1),
                  ("actuator_bias_qd", "actuator_biasprm", 2)) for a in range(model.nu)]
        cases += [("link_stiffness", 0, "jnt_stiffness", 0), ("link_spring_ref", 0, "qpos_spring", 0)]
        for parameter, row, field, index in cases:
            def moved(step):
                def edit(m):
                    getattr(m, field)[index] += step
                return float(w @ mujoco_rollout(path, q0, qd0, amplitude, edit=edit)[0][-1])

            fd = (moved(h) - moved(-h)) / (2 * h)
            self.assertAlmostEqual(grads[parameter][row, 0], fd, delta=1e-5 * max(1.0, abs(fd)),
                                   msg=f"{parameter}[{row}]")

    @staticmethod
    def elbow_forces(path, q0, qd0, amplitude):
        model = mujoco.MjModel.from_xml_path(path)
        data = mujoco.MjData(model)
        steps = round(SECONDS / model.opt.timestep)
        u = controls(model, steps, amplitude)
        data.qpos[:], data.qvel[:] = q0, qd0
        forces = []
        for k in range(steps):
            data.ctrl[:] = u[k]
            mujoco.mj_step(model, data)
            forces.append(data.actuator_force[1])
        return np.array(forces)


if __name__ == "__main__":
    unittest.main()
