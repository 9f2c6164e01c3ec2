"""nudge.torch: a rollout's loss inside PyTorch's autograd, checked by
torch.autograd.gradcheck in double and by a torch parameter optimised through it."""
import os
import unittest

import nudge

try:
    import torch
    import nudge.torch
except ImportError:  # PyTorch is optional for the package; scripts/setup installs python3-torch
    torch = None

SOURCE = os.environ.get("NUDGE_SOURCE", os.path.join(os.path.dirname(__file__), "..", ".."))


@unittest.skipIf(torch is None, "PyTorch is not installed")
class TorchTest(unittest.TestCase):
    def setUp(self):
        self.scene = nudge.load_scene(os.path.join(SOURCE, "scenes", "projectile.json"))
        self.sim = nudge.Simulator(self.scene, device="cpu", precision="float64", threads=1)

    def test_gradcheck_in_double(self):
        v = torch.tensor(self.scene.parameter("initial_velocity"), dtype=torch.float64, requires_grad=True)
        drag = torch.tensor(self.scene.parameter("drag"), dtype=torch.float64, requires_grad=True)
        self.assertTrue(torch.autograd.gradcheck(
            lambda v, d: nudge.torch.loss(self.sim, {"initial_velocity": v, "drag": d}), (v, drag),
            eps=1e-6, atol=1e-6, rtol=1e-5))

    def test_the_loss_is_the_engines_and_a_network_can_feed_it(self):
        v0 = self.scene.parameter("initial_velocity")
        with torch.no_grad():
            loss = nudge.torch.loss(self.sim, {"initial_velocity": torch.tensor(v0)})
        self.assertAlmostEqual(loss.item(), self.sim.loss(), places=12)
        # A tiny torch model produces the launch velocity; Adam through the rollout lands it.
        torch.manual_seed(0)
        net = torch.nn.Linear(1, 3).double()
        with torch.no_grad():
            net.bias.copy_(torch.tensor(v0[0]))
            net.weight.zero_()
        opt = torch.optim.Adam(net.parameters(), lr=0.2)
        one = torch.ones(1, 1, dtype=torch.float64)
        first = None
        for _ in range(40):
            opt.zero_grad()
            loss = nudge.torch.loss(self.sim, {"initial_velocity": net(one)})
            loss.backward()
            opt.step()
            first = first if first is not None else loss.item()
        self.assertLess(loss.item(), 0.01 * first)

    def test_a_torch_loss_on_the_trajectory(self):
        v = torch.tensor(self.scene.parameter("initial_velocity"), dtype=torch.float64, requires_grad=True)

        def apex(v):  # the highest point of the flight, smoothly: a loss no objective of the scene has
            y = nudge.torch.trajectory(self.sim, {"initial_velocity": v})["x"][:, 0, 1]
            return torch.logsumexp(50 * y, 0) / 50

        self.assertTrue(torch.autograd.gradcheck(apex, (v,), eps=1e-6, atol=1e-6, rtol=1e-5))

    def test_body_positions_on_the_trajectory(self):
        scene = nudge.load_scene(os.path.join(SOURCE, "scenes", "billiards.json"))
        sim = nudge.Simulator(scene, device="cpu", precision="float64", threads=1)
        v = torch.tensor(scene.parameter("body_velocity"), dtype=torch.float64, requires_grad=True)

        def spread(v):  # how far apart the balls end, and the cue ball's path length
            x = nudge.torch.trajectory(sim, {"body_velocity": v})["body_x"]
            return (x[-1, 0] - x[-1, 1]).norm() + (x[1:, 0] - x[:-1, 0]).norm(dim=1).sum()

        self.assertTrue(torch.autograd.gradcheck(spread, (v,), eps=1e-6, atol=1e-5, rtol=1e-4))

    def test_velocities_and_orientations_on_the_trajectory(self):
        scene = nudge.load_scene(os.path.join(SOURCE, "scenes", "tether.json"))
        scene.steps = 60
        sim = nudge.Simulator(scene, device="cpu", precision="float64", threads=1)
        w = torch.tensor(scene.parameter("body_angular_velocity") + 0.5, dtype=torch.float64, requires_grad=True)

        def motion(w):  # a loss on the ball's turn and spin and on the rope's speed
            states = nudge.torch.trajectory(sim, {"body_angular_velocity": w})
            return (states["body_q"][-1, 0, :3].sum() + 0.1 * states["body_w"][-1, 0].square().sum()
                    + 0.01 * states["v"][-1].square().sum() + states["body_v"][:, 0, 1].mean())

        self.assertTrue(torch.autograd.gradcheck(motion, (w,), eps=1e-6, atol=1e-5, rtol=1e-4))


if __name__ == "__main__":
    unittest.main()
