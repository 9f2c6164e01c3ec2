#!/usr/bin/env python3
"""A PyTorch policy trained through Nudge's walker, beside the engine's own optimiser.

scenes/walker.json is a 2D mass-spring robot whose four leg muscles read one control
channel each at every step; its objectives reward travel along +x (and charge a little
for effort). Here a small torch network maps a clock (sines and cosines of the time) to
the four muscle controls at every step; nudge.torch.loss makes the rollout's loss a
function of the network's output, so torch.optim.Adam trains the network through the
simulator. Beside it, the scene's own optimiser (Adam on the 1000 x 4 open-loop
controls, Simulator.optimize) runs as many gradients. --check exits non-zero unless
the policy walks forward, at least 5 cm.

    PYTHONPATH=build/release/python /usr/bin/python3 examples/python/torch_walker_policy.py --check
"""
import argparse
import math
import os
import sys
import time

import torch

import nudge
import nudge.torch

HERE = os.path.dirname(os.path.abspath(__file__))


class ClockPolicy(torch.nn.Module):
    """Controls in [-1, 1] for each channel from sin and cos of the time at a few rates."""

    def __init__(self, channels, rates=(1.0, 2.0, 4.0), hidden=32):
        super().__init__()
        self.rates = torch.tensor(rates, dtype=torch.float64)
        self.net = torch.nn.Sequential(torch.nn.Linear(2 * len(rates), hidden), torch.nn.Tanh(),
                                       torch.nn.Linear(hidden, channels), torch.nn.Tanh()).double()

    def forward(self, t):  # t: (steps,) seconds
        phase = 2 * math.pi * t[:, None] * self.rates[None, :]
        return self.net(torch.cat([torch.sin(phase), torch.cos(phase)], dim=1))


def travel(sim, controls):
    """How far the robot's centroid moves along +x (m) under these controls."""
    x = sim.simulate({"controls": controls})["x"]
    return float(x[-1, :, 0].mean() - x[0, :, 0].mean())


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scene", default=os.path.join(HERE, "..", "..", "scenes", "walker.json"))
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--check", action="store_true", help="fail unless the policy walks forward 5 cm")
    args = parser.parse_args()

    scene = nudge.load_scene(args.scene)
    sim = nudge.Simulator(scene, device="cpu")
    steps, channels = scene.parameter("controls").shape
    print(f"{scene.name}: {steps} steps x {channels} channels, {sim.device}")

    torch.manual_seed(0)
    policy = ClockPolicy(channels)
    optimiser = torch.optim.Adam(policy.parameters(), lr=0.02)
    t = torch.arange(steps, dtype=torch.float64) * scene.dt
    start = time.perf_counter()
    for k in range(args.iterations):
        optimiser.zero_grad()
        loss = nudge.torch.loss(sim, {"controls": policy(t)})
        loss.backward()
        optimiser.step()
        if k % 10 == 0:
            print(f"  policy iteration {k}: loss {loss.item():.5f}")
    with torch.no_grad():
        walked = travel(sim, policy(t).numpy())
    print(f"torch policy ({sum(p.numel() for p in policy.parameters())} weights), {args.iterations} gradients: "
          f"travels {walked * 100:.1f} cm, {time.perf_counter() - start:.1f} s")

    start = time.perf_counter()
    result = sim.optimize(iterations=args.iterations)
    open_loop = travel(sim, result["parameters"]["controls"])
    print(f"the scene's Adam on open-loop controls ({steps * channels} values), {result['iterations']} gradients: "
          f"travels {open_loop * 100:.1f} cm, {time.perf_counter() - start:.1f} s")

    if args.check and not walked > 0.05:
        sys.exit(f"the policy travelled {walked * 100:.1f} cm, not 5 cm or more")


if __name__ == "__main__":
    main()
