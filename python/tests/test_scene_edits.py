"""Scenes built in code with the studio's edits (Scene.add_*): the walker robot made by
add_walker is scenes/walker.json's; a pendulum built from nothing simulates, optimises and
saves; bodies, joints, colliders and objectives are added; a refused edit raises
nudge.Error with the edit's message and changes nothing."""
import os
import tempfile
import unittest

import numpy as np

import nudge

SOURCE = os.environ.get("NUDGE_SOURCE", os.path.join(os.path.dirname(__file__), "..", ".."))


class BuildInCodeTest(unittest.TestCase):
    def test_the_walker_made_by_add_walker_is_walker_json(self):
        shipped = nudge.load_scene(os.path.join(SOURCE, "scenes", "walker.json"))
        built = nudge.Scene()
        particles = built.add_walker()
        self.assertEqual(particles, list(range(16)))
        self.assertEqual((built.particle_count, built.spring_count, built.channels), (16, 36, 4))
        for name in ("initial_position", "mass", "stiffness", "damping", "rest_length"):
            np.testing.assert_allclose(built.parameter(name), shipped.parameter(name), rtol=0, atol=1e-12,
                                       err_msg=name)
        # The same topology: springs, muscles on their channels, nothing pinned.
        for name, array in shipped.topology.items():
            np.testing.assert_array_equal(built.topology[name], array, err_msg=name)
        self.assertEqual(built.topology["springs"].shape, (36, 2))
        self.assertEqual(int(np.sum(built.topology["spring_channel"] >= 0)), 8)

    def test_a_pendulum_from_nothing(self):
        scene = nudge.Scene()
        pivot = scene.add_particle([0, 1.5, 0])
        bob = scene.add_particle([0.4, 0.807179676972449, 0], mass=1.0)
        scene.set_pinned([pivot])
        rod = scene.add_spring(pivot, bob, stiffness=4000, damping=20)
        self.assertEqual((pivot, bob, rod), (0, 1, 0))
        scene.set_time(0.001, 500)
        scene.set_gravity([0, -9.81, 0])
        # Where the bob is at the end with a rod of 0.7 m: the target the fit must find 0.7 from.
        swing = nudge.Simulator(scene, device="cpu", threads=1).simulate({"rest_length": [[0.7]]})
        term = scene.add_objective({"type": "target", "particles": [bob], "target": list(swing["x"][-1, bob]),
                                    "step": -1})
        self.assertEqual((term, scene.objective_count), (0, 1))
        scene.set_optimized("rest_length", lower=0.2, upper=2.0)

        sim = nudge.Simulator(scene, device="cpu", threads=1)
        loss, grads = sim.gradient()
        self.assertGreater(loss, 0)
        self.assertNotEqual(grads["rest_length"][0, 0], 0)
        result = sim.optimize(iterations=50, method="lbfgs")
        self.assertAlmostEqual(result["parameters"]["rest_length"][0, 0], 0.7, places=6)

        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "pendulum.json")
            scene.save(path)
            again = nudge.load_scene(path)
            self.assertEqual(again.to_json(), nudge.load_scene(path).to_json())
            np.testing.assert_array_equal(again.parameter("rest_length"), scene.parameter("rest_length"))
            self.assertEqual(nudge.Simulator(again, device="cpu", threads=1).loss(), sim.loss())

    def test_bodies_joints_colliders_and_generators(self):
        scene = nudge.Scene()
        ball = scene.add_body("sphere", [0.1], [0, 1, 0], density=500, name="ball")
        box = scene.add_body("box", [0.1, 0.05, 0.1], [0.5, 1, 0])
        hinge = scene.add_joint("hinge", -1, ball, anchor=[0, 1.5, 0], axis=[0, 0, 1])
        scene.add_joint("ball", ball, box, anchor=[0.25, 1, 0])
        self.assertEqual((ball, box, hinge, scene.body_count, scene.joint_count), (0, 1, 0, 2, 2))
        floor = scene.add_collider({"type": "plane", "normal": [0, 1, 0], "offset": 0})
        self.assertEqual(floor, 0)
        rope = scene.add_chain([0, 1, 0.2], [0, 0.5, 0.2], links=5)
        self.assertEqual(len(rope), 6)
        scene.add_attachment(rope[-1], ball)
        cloth = scene.add_cloth([1, 0, 0], 0.5, 0.5, 4, 4)
        self.assertEqual(len(cloth), 16)
        topology = scene.topology
        np.testing.assert_array_equal(topology["attachments"], [[rope[-1], ball]])
        self.assertTrue(topology["pinned"][rope[0], 0] and topology["pinned"][cloth[-1], 0])
        self.assertEqual(topology["springs"].shape, (scene.spring_count, 2))
        scene.set_time(0.001, 100)
        states = nudge.Simulator(scene, device="cpu", threads=1).simulate()
        self.assertEqual(states["body_x"].shape, (101, 2, 3))
        self.assertTrue(np.all(np.isfinite(states["x"])))

    def test_a_refused_edit_raises_and_changes_nothing(self):
        scene = nudge.Scene()
        scene.add_particle([0, 0, 0])
        before = scene.to_json()
        with self.assertRaisesRegex(nudge.Error, "add spring: .*same particle"):
            scene.add_spring(0, 0)
        with self.assertRaisesRegex(nudge.Error, "add particle"):
            scene.add_particle([0, 1, 0], mass=-1)
        with self.assertRaisesRegex(nudge.Error, r"objectives\[0\]"):
            scene.add_objective({"type": "target", "particles": [7], "target": [0, 0, 0]})
        with self.assertRaisesRegex(nudge.Error, "expected a dict"):
            scene.add_objective([1, 2])
        with self.assertRaisesRegex(nudge.Error, "shape 'cone': expected sphere, box or capsule"):
            scene.add_body("cone", [1], [0, 0, 0])
        with self.assertRaisesRegex(nudge.Error, "a box's size is 3 numbers"):
            scene.add_body("box", [1], [0, 0, 0])
        with self.assertRaisesRegex(nudge.Error, "add joint: type 'weld'"):
            scene.add_joint("weld", -1, 0, [0, 0, 0])
        with self.assertRaisesRegex(nudge.Error, "add joint"):
            scene.add_joint("hinge", -1, 3, [0, 0, 0])
        self.assertEqual(scene.to_json(), before)


if __name__ == "__main__":
    unittest.main()
