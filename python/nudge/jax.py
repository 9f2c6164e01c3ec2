"""A Nudge rollout inside JAX: functions with a jax.custom_vjp whose forward and backward
run the engine through jax.pure_callback, so they compose with jax.grad and jax.jit.

    import jax
    jax.config.update("jax_enable_x64", True)   # the engine's double precision end to end
    import nudge, nudge.jax
    sim = nudge.Simulator(nudge.load_scene("scenes/projectile.json"), device="cpu")
    loss = nudge.jax.loss_function(sim, ["initial_velocity"])
    jax.jit(jax.grad(loss))(jnp.array([[3.0, 4.0, 0.0]]))     # dL/dv, from the engine's adjoint

loss_function(sim, names) is the rollout's loss as a function of those parameters'
values (each in its parameter's shape); trajectory_function(sim, names) returns the
states {"x", "v", "body_x", "body_q", "body_v", "body_w", "point_x"}, (steps + 1) x count
x width each, whose backward is the engine's vector-Jacobian product (Simulator.vjp). Without jax_enable_x64, values and
results are float32 on JAX's side (the engine still runs as the simulator was made).
"""
import jax
import jax.numpy as jnp
import numpy as np

def _float():
    return jnp.zeros(()).dtype  # float64 under jax_enable_x64, else float32


def _host(names, values):
    return {name: np.asarray(v, dtype=np.float64) for name, v in zip(names, values)}


def loss_function(sim, names):
    """f(*values) -> the loss of one rollout with `names`' values replaced, differentiable."""
    names = tuple(names)

    def host_loss(*values):
        return np.asarray(sim.loss(_host(names, values)), dtype=_float())

    def host_gradient(*values):
        loss, grads = sim.gradient(_host(names, values))
        return (np.asarray(loss, dtype=_float()),) + tuple(
            np.asarray(grads[name], dtype=_float()).reshape(np.shape(v)) for name, v in zip(names, values))

    @jax.custom_vjp
    def f(*values):
        return jax.pure_callback(host_loss, jax.ShapeDtypeStruct((), _float()), *values)

    def forward(*values):
        shapes = (jax.ShapeDtypeStruct((), _float()),) + tuple(jax.ShapeDtypeStruct(jnp.shape(v), _float())
                                                               for v in values)
        out = jax.pure_callback(host_gradient, shapes, *values)
        return out[0], out[1:]

    def backward(grads, g):
        return tuple(g * grad for grad in grads)

    f.defvjp(forward, backward)
    return f


def trajectory_function(sim, names):
    """f(*values) -> {"x", "v", "body_x", "body_q", "body_v", "body_w", "point_x"}: every
    state of one rollout with `names`' values replaced, differentiable (its backward is
    Simulator.vjp)."""
    names = tuple(names)
    arrays = sim.trajectory_shapes()  # {name: shape}, the engine's table of them
    shapes = tuple(jax.ShapeDtypeStruct(shape, _float()) for shape in arrays.values())

    def host_states(*values):
        states = sim.simulate(_host(names, values))
        return tuple(np.asarray(states[key], dtype=_float()) for key in arrays)

    def host_vjp(values, cotangents):
        # A zero cotangent (an array the loss did not read) is left out, so that the engine
        # weighs the motion's arrays only when the loss reads them.
        given = {key: np.asarray(c, dtype=np.float64) for key, c in zip(arrays, cotangents) if np.any(c)}
        grads = sim.vjp(given, _host(names, values))
        return tuple(np.asarray(grads[name], dtype=_float()).reshape(np.shape(v)) for name, v in zip(names, values))

    @jax.custom_vjp
    def f(*values):
        return jax.pure_callback(host_states, shapes, *values)

    def forward(*values):
        return f(*values), values

    def backward(values, cotangents):
        out = tuple(jax.ShapeDtypeStruct(jnp.shape(v), _float()) for v in values)
        return jax.pure_callback(host_vjp, out, values, cotangents)

    f.defvjp(forward, backward)
    return lambda *values: dict(zip(arrays, f(*values)))
