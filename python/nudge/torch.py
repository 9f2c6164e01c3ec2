"""A Nudge rollout's loss as a PyTorch function of its parameters.

    import torch, nudge, nudge.torch
    sim = nudge.Simulator(nudge.load_scene("scenes/projectile.json"), device="cpu")
    v = torch.tensor([[3.0, 4.0, 0.0]], dtype=torch.float64, requires_grad=True)
    loss = nudge.torch.loss(sim, {"initial_velocity": v})
    loss.backward()            # v.grad: dL/dv, from the engine's adjoint

Each tensor replaces the scene's values of the parameter it is keyed by (its shape, or
as many values); the others keep the scene's. The forward runs the rollout and, when a
tensor needs a gradient, its adjoint too; the backward scales that gradient by the
incoming one. Values go to the engine in double and the gradients come back in each
tensor's dtype and device, so a torch network can produce parameters or controls.
"""
import torch as _torch


class _RolloutLoss(_torch.autograd.Function):
    @staticmethod
    def forward(ctx, sim, names, *tensors):
        ctx.count = len(tensors)
        values = {name: t.detach().to("cpu", _torch.float64).numpy() for name, t in zip(names, tensors)}
        if any(ctx.needs_input_grad[2:]):
            loss, grads = sim.gradient(values)
            ctx.grads = [_torch.from_numpy(grads[name]).reshape(t.shape).to(t.device, t.dtype)
                         for name, t in zip(names, tensors)]
        else:
            loss = sim.loss(values)
            ctx.grads = None
        return _torch.tensor(loss, dtype=_torch.float64, device=tensors[0].device if tensors else "cpu")

    @staticmethod
    def backward(ctx, grad_loss):
        if ctx.grads is None:
            return (None, None) + (None,) * ctx.count
        return (None, None) + tuple(grad_loss.to(g.dtype) * g for g in ctx.grads)


def loss(sim, parameters):
    """The loss of one rollout of `sim` with `parameters` ({name: tensor}) in place of the
    scene's values, differentiable with respect to each tensor."""
    names = list(parameters)
    return _RolloutLoss.apply(sim, names, *[parameters[name] for name in names])


class _Trajectory(_torch.autograd.Function):
    @staticmethod
    def forward(ctx, sim, names, *tensors):
        values = {name: t.detach().to("cpu", _torch.float64).numpy() for name, t in zip(names, tensors)}
        states = sim.simulate(values)
        ctx.sim, ctx.names, ctx.values = sim, names, values
        ctx.inputs = [(t.shape, t.dtype, t.device) for t in tensors]
        ctx.arrays = list(sim.trajectory_shapes())  # the engine's table of them
        return tuple(_torch.from_numpy(states[key]) for key in ctx.arrays)

    @staticmethod
    def backward(ctx, *grad_arrays):
        # An array the loss did not read has no cotangent (None, or zeros from autograd's
        # materialisation); a zero one is left out, so that the engine weighs the motion's
        # arrays only when the loss reads them.
        cotangents = {key: g.detach().to("cpu", _torch.float64).numpy()
                      for key, g in zip(ctx.arrays, grad_arrays) if g is not None and bool(g.any())}
        grads = ctx.sim.vjp(cotangents, ctx.values)
        return (None, None) + tuple(_torch.from_numpy(grads[name]).reshape(shape).to(device, dtype)
                                    for name, (shape, dtype, device) in zip(ctx.names, ctx.inputs))


def trajectory(sim, parameters):
    """Every state of one rollout of `sim` with `parameters` ({name: tensor}) in place of the
    scene's values: {"x", "v": particles' positions and velocities; "body_x", "body_q",
    "body_v", "body_w": bodies' centres, orientations (x, y, z, w), linear and angular
    velocities; "point_x": material points' positions}, (steps + 1) x count x width float64
    tensors, differentiable with respect to each tensor of `parameters` (the backward is
    the engine's adjoint of the trajectory, Simulator.vjp)."""
    names = list(parameters)
    return dict(zip(sim.trajectory_shapes(), _Trajectory.apply(sim, names, *[parameters[name] for name in names])))
