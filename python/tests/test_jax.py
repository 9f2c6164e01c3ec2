"""nudge.jax: a rollout's loss and trajectory inside JAX (custom_vjp over pure_callback),
under jax.grad and jax.jit, against central differences in double."""
import os
import unittest

import numpy as np

import nudge

try:
    import jax
    import jax.numpy as jnp
    import nudge.jax
    jax.config.update("jax_enable_x64", True)
except ImportError:  # scripts/setup installs JAX in the venv the tests run with
    jax = None

SOURCE = os.environ.get("NUDGE_SOURCE", os.path.join(os.path.dirname(__file__), "..", ".."))


@unittest.skipIf(jax is None, "JAX is not installed")
class JaxTest(unittest.TestCase):
    def setUp(self):
        self.scene = nudge.load_scene(os.path.join(SOURCE, "scenes", "projectile.json"))
        self.sim = nudge.Simulator(self.scene, device="cpu", precision="float64", threads=1)
        self.v = jnp.asarray(self.scene.parameter("initial_velocity"))

    def central_difference(self, f, v, h=1e-6):
        out = np.zeros(v.shape)
        for k in range(v.size):
            e = np.zeros(v.size)
            e[k] = h
            e = e.reshape(v.shape)
            out.flat[k] = (float(f(v + e)) - float(f(v - e))) / (2 * h)
        return out

    def test_loss_under_grad_and_jit(self):
        loss = nudge.jax.loss_function(self.sim, ["initial_velocity"])
        self.assertAlmostEqual(float(jax.jit(loss)(self.v)), self.sim.loss(), places=12)
        g = jax.jit(jax.grad(loss))(self.v)
        self.assertEqual(g.dtype, jnp.float64)
        np.testing.assert_allclose(g, self.sim.gradient()[1]["initial_velocity"], rtol=1e-12)
        np.testing.assert_allclose(g, self.central_difference(loss, self.v), rtol=1e-5, atol=1e-7)

    def test_a_jax_loss_on_the_trajectory(self):
        positions = nudge.jax.trajectory_function(self.sim, ["initial_velocity"])

        def apex(v):
            return jax.nn.logsumexp(50 * positions(v)["x"][:, 0, 1]) / 50

        g = jax.jit(jax.grad(apex))(self.v)
        np.testing.assert_allclose(g, self.central_difference(apex, self.v), rtol=1e-5, atol=1e-7)


if __name__ == "__main__":
    unittest.main()
