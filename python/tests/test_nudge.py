"""The nudge package against the engine: scenes load, save and change by parameter name;
rollouts come back as arrays of the right shapes; gradients agree with central
differences; errors are nudge.Error with the engine's message. Run by ctest
(python_tests) with PYTHONPATH at the build's python/ folder and NUDGE_SOURCE at the
repository."""
import os
import tempfile
import threading
import time
import unittest

import numpy as np

import nudge

SOURCE = os.environ.get("NUDGE_SOURCE", os.path.join(os.path.dirname(__file__), "..", ".."))


def example(name):
    return nudge.load_scene(os.path.join(SOURCE, "scenes", name + ".json"))


class SceneTest(unittest.TestCase):
    def test_parameters_by_name(self):
        scene = example("projectile")
        self.assertIn("initial_velocity", scene.parameter_names())
        v = scene.parameter("initial_velocity")
        self.assertEqual(v.shape, (scene.particle_count, 3))
        scene.set_parameter("initial_velocity", v * 2)
        np.testing.assert_array_equal(scene.parameter("initial_velocity"), v * 2)
        # A copy: changing the array does not change the scene.
        copy = scene.parameter("initial_velocity")
        copy[:] = 0
        np.testing.assert_array_equal(scene.parameter("initial_velocity"), v * 2)

    def test_bad_input_raises_and_changes_nothing(self):
        scene = example("projectile")
        before = scene.parameter("initial_velocity")
        with self.assertRaisesRegex(nudge.Error, r"initial_velocity: expected an array of shape \(1, 3\)"):
            scene.set_parameter("initial_velocity", np.zeros((2, 3)))
        with self.assertRaisesRegex(nudge.Error, "no parameter named 'speed'"):
            scene.parameter("speed")
        np.testing.assert_array_equal(scene.parameter("initial_velocity"), before)
        with self.assertRaisesRegex(nudge.Error, "nothing_here.json"):
            nudge.load_scene(os.path.join(SOURCE, "scenes", "nothing_here.json"))
        with self.assertRaisesRegex(nudge.Error, "device 'tpu'"):
            nudge.Simulator(scene, device="tpu")

    def test_save_and_load_round_trip(self):
        scene = example("projectile")
        scene.set_parameter("initial_velocity", np.array([[1.5, 2.5, 0.25]]))
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "changed.json")
            scene.save(path)
            again = nudge.load_scene(path)
        np.testing.assert_array_equal(again.parameter("initial_velocity"), [[1.5, 2.5, 0.25]])
        self.assertEqual(again.name, scene.name)

    def test_steps_resize_per_step_parameters(self):
        scene = example("walker")
        controls = scene.parameter("controls")
        self.assertEqual(controls.shape[0], scene.steps)
        scene.steps = 50
        self.assertEqual(scene.parameter("controls").shape[0], 50)


class SimulatorTest(unittest.TestCase):
    def test_trajectory_shapes(self):
        scene = example("float_block")  # a body and material points
        states = nudge.Simulator(scene, device="cpu").simulate()
        frames = scene.steps + 1
        self.assertEqual(states["steps"], scene.steps)
        self.assertEqual(states["body_x"].shape, (frames, 1, 3))
        self.assertEqual(states["body_q"].shape, (frames, 1, 4))
        self.assertEqual(states["point_x"].shape, (frames, scene.point_count, 3))
        self.assertEqual(states["x"].shape, (frames, 0, 3))
        self.assertLess(states["body_x"][-1, 0, 1], states["body_x"][0, 0, 1])  # the block falls

    def test_gradient_matches_central_differences(self):
        scene = example("projectile")
        sim = nudge.Simulator(scene, device="cpu", precision="float64", threads=1)
        loss, grads = sim.gradient()
        self.assertAlmostEqual(loss, sim.loss(), places=12)
        v = scene.parameter("initial_velocity")
        self.assertEqual(grads["initial_velocity"].shape, v.shape)
        h = 1e-6
        for k in range(3):
            up, down = v.copy(), v.copy()
            up[0, k] += h
            down[0, k] -= h
            fd = (sim.loss({"initial_velocity": up}) - sim.loss({"initial_velocity": down})) / (2 * h)
            self.assertAlmostEqual(grads["initial_velocity"][0, k], fd, delta=1e-6 * max(1.0, abs(fd)))

    def test_the_gil_is_released_during_rollouts(self):
        scene = example("float_block")  # 800 steps: about a second
        sim = nudge.Simulator(scene, device="cpu", threads=1)
        ticks = []
        done = threading.Event()

        def tick():
            while not done.is_set():
                ticks.append(time.perf_counter())
                time.sleep(0.001)

        ticker = threading.Thread(target=tick)
        ticker.start()
        start = time.perf_counter()
        sim.loss()
        end = time.perf_counter()
        done.set()
        ticker.join()
        # Python ran while the rollout did: ticks during it, not only before and after.
        self.assertGreater(sum(1 for t in ticks if start < t < end), 5)


class VjpTest(unittest.TestCase):
    def test_a_missing_cotangent_is_zero(self):
        scene = example("tether")  # particles and a body
        scene.steps = 50
        sim = nudge.Simulator(scene, device="cpu", threads=1)
        x = np.ones((51, scene.particle_count, 3))
        alone = sim.vjp({"x": x})
        with_zeros = sim.vjp({"x": x, "body_x": np.zeros((51, scene.body_count, 3))})
        self.assertTrue(np.any(alone["body_velocity"] != 0))
        for name, grad in alone.items():
            np.testing.assert_array_equal(grad, with_zeros[name], err_msg=name)
        with self.assertRaisesRegex(nudge.Error, "cotangent 'body_a': expected x, body_x, point_x, joint_q, v, body_q, body_v, body_w or joint_qd"):
            sim.vjp({"body_a": x})
        with self.assertRaisesRegex(nudge.Error, r"cotangent body_q: expected shape \(51, 1, 4\)"):
            sim.vjp({"body_q": x})

    def test_velocities_and_orientations_against_central_differences(self):
        scene = example("tether")
        scene.steps = 50
        sim = nudge.Simulator(scene, device="cpu", threads=1)
        rng = np.random.default_rng(27)
        states = sim.simulate()
        names = ("x", "v", "body_x", "body_q", "body_v", "body_w")
        cotangents = {name: rng.uniform(-1, 1, states[name].shape) for name in names}
        grads = sim.vjp(cotangents)

        def linear(parameters):  # sum over every array of cotangent . state
            s = sim.simulate(parameters)
            return sum(float(np.sum(cotangents[name] * s[name])) for name in names)

        for name in ("initial_velocity", "body_angular_velocity"):
            base = scene.parameter(name)
            for index in ((0, 0), (0, 2)):
                h = 1e-6
                up, down = base.copy(), base.copy()
                up[index] += h
                down[index] -= h
                difference = (linear({name: up}) - linear({name: down})) / (2 * h)
                self.assertAlmostEqual(grads[name][index], difference, delta=1e-6 * max(1, abs(difference)),
                                       msg=f"{name}{index}")


class OptimizeTest(unittest.TestCase):
    def test_the_scenes_optimiser_with_a_callback(self):
        scene = example("projectile")
        self.assertEqual(scene.optimized(), ["initial_velocity"])
        sim = nudge.Simulator(scene, device="cpu", threads=1)
        seen = []
        result = sim.optimize(callback=lambda info: seen.append(info["loss"]), iterations=40, method="adam",
                              learning_rate=0.2)
        self.assertGreater(result["iterations"], 5)
        self.assertEqual(len(seen), result["iterations"])
        self.assertEqual(result["loss_history"][1:], seen)
        self.assertLess(result["loss"], 0.01 * result["loss_history"][0])
        self.assertEqual(result["parameters"]["initial_velocity"].shape, (1, 3))
        self.assertAlmostEqual(sim.loss({"initial_velocity": result["parameters"]["initial_velocity"]}), result["loss"],
                               places=12)

    def test_a_callback_stops_or_raises(self):
        sim = nudge.Simulator(example("projectile"), device="cpu", threads=1)
        stopped = sim.optimize(callback=lambda info: info["iteration"] < 3, iterations=50, method="adam",
                               learning_rate=0.01)
        self.assertEqual((stopped["iterations"], stopped["reason"]), (3, "cancelled"))

        def fail(info):
            raise ValueError("from the callback")
        with self.assertRaisesRegex(ValueError, "from the callback"):
            sim.optimize(callback=fail, iterations=5)
        with self.assertRaisesRegex(nudge.Error, "method 'newton'"):
            sim.optimize(method="newton")

    def test_nothing_marked_is_an_error(self):
        scene = example("projectile")
        scene.set_optimized("initial_velocity", False)
        with self.assertRaisesRegex(nudge.Error, "nothing to optimise"):
            nudge.Simulator(scene, device="cpu").optimize()

    def test_gradcheck(self):
        entries = nudge.gradcheck(example("projectile"), ["initial_velocity"])
        self.assertEqual(len(entries), 3)
        for e in entries:
            self.assertTrue(e["passed"], e)
            self.assertEqual(e["parameter"], "initial_velocity")


if __name__ == "__main__":
    unittest.main()
