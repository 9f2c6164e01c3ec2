"""Writes a Nudge scene of Warp's example_drone (warp/examples/optim/example_drone.py):
its quadrotor, propellers, targets and time step, for `nudge mpc` to fly beside Warp's own
MPC (bench/warp_drone.py). What is the same and what is not:

- The body: Warp builds two crossed bars (half extents 0.2 x 0.01 x 0.01 m, 1750 kg/m^3),
  0.56 kg. Nudge's body has one shape: a flat box (half extents 0.14155 x 0.01 x 0.14155 m)
  of the same mass whose inertia matches the cross's to 0.1 %.
- Each propeller: thrust max_thrust * 0.8 * u along the body's +y at its arm's end, and a
  yaw torque max_torque * 0.8 * u * turning direction, with Warp's coefficients; Warp
  scales the whole torque (arm x force included) by 0.8, so here each propeller is a
  force through the centre of mass and a torque fixed in the body: 0.8 (arm x thrust +
  yaw), both on the propeller's channel. Controls in Warp's [0.1, 1].
- 60 steps per second (dt = 1/60), 360 steps, no ground, gravity -9.81 y; from the origin.
- Targets: (0, 0.5, 1) until step 180, then (1, 0.5, 0), as objectives at steps 180 and
  360 (with the velocity and uprightness at both). Warp's cost is a discounted running
  cost over each 30-step horizon, with an altitude band and an obstacle (a capsule at
  (0.5, 2, 0.5), on the straight path between the targets) that Nudge's objectives do
  not have (--obstacle adds the capsule as a collider the box's corners meet); its integrator also damps angular
  velocity by 5 % per second, which Nudge's body step does not.
- Warp plans 3 control points 10 steps apart (linear in between) by sampling 16 rollouts
  and 20 SGD steps each frame; Nudge plans every step's controls by gradient.

    python3 bench/warp_drone_scene.py OUT.json [--obstacle]
"""
import json
import math
import sys


def main():
    out = sys.argv[1]
    fps = 60.0
    rps = 6396.667 / fps
    air = 1.225
    diameter = 0.2286
    max_thrust = 0.109919 * air * rps ** 2 * diameter ** 4
    max_torque = 0.040164 * air * rps ** 2 * diameter ** 5 / (2 * math.pi)
    gain = 0.8  # Warp's control_gains
    damping = 0.8  # Warp scales each propeller's torque by this ("angular damping")
    arm = 0.2
    props = [((arm, 0, 0), -1.0), ((-arm, 0, 0), 1.0), ((0, 0, arm), 1.0), ((0, 0, -arm), -1.0)]
    actuators = []
    for channel, (p, turning) in enumerate(props):
        thrust = gain * max_thrust
        actuators.append({"body": 0, "channel": channel, "force": [0, thrust, 0], "frame": "body"})
        # 0.8 (p x (0, thrust, 0) + (0, yaw, 0)), p x y = (-p_z, 0, p_x) for p in the x-z plane
        torque = [damping * -p[2] * thrust, damping * gain * max_torque * turning, damping * p[0] * thrust]
        actuators.append({"body": 0, "channel": channel, "torque": torque, "frame": "body"})
    # The cross's mass and inertia in one box: mass 2 * 1750 * 0.4 * 0.02 * 0.02.
    mass = 2 * 1750 * 0.4 * 0.02 * 0.02
    a, b = 0.14155, 0.01
    density = mass / (8 * a * b * a)
    hover = 9.81 * mass / (4 * gain * max_thrust)
    scene = {
        "format": "nudge-scene", "version": 1, "name": "warp_drone",
        "description": "Warp's example_drone in Nudge (bench/warp_drone_scene.py says what differs).",
        "simulation": {"dt": 1.0 / fps, "steps": 360, "gravity": [0, -9.81, 0]},
        "bodies": [{"name": "drone", "shape": "box", "half_extents": [a, b, a], "density": density,
                    "position": [0, 0, 0]}],
        "controls": {"channels": 4, "values": hover},
        "actuators": actuators,
        "parameters": {"controls": {"optimize": True, "lower": 0.1, "upper": 1.0}},
        "objectives": [
            {"type": "target", "bodies": [0], "target": [0.0, 0.5, 1.0], "step": 180, "weight": 10},
            {"type": "velocity", "bodies": [0], "target": [0, 0, 0], "step": 180, "weight": 0.1},
            {"type": "target", "bodies": [0], "target": [1.0, 0.5, 0.0], "step": 360, "weight": 10},
            {"type": "velocity", "bodies": [0], "target": [0, 0, 0], "step": 360, "weight": 0.1},
            {"type": "orientation", "bodies": [0], "axis": [0, 1, 0], "direction": [0, 1, 0], "step": 360, "weight": 1},
            {"type": "smoothness", "weight": 0.01},
        ],
        "optimizer": {"method": "adam", "iterations": 20, "learning_rate": 0.02},
    }
    if "--obstacle" in sys.argv:
        # Warp's capsule between the two targets, as a collider the box's corners meet
        # (Warp keeps the drone's centre 0.2 m off it with a cost instead).
        scene["colliders"] = [{"type": "capsule", "position": [0.5, 2.0, 0.5], "radius": 0.15, "half_length": 2.0}]
    with open(out, "w") as f:
        json.dump(scene, f, indent=2)
        f.write("\n")
    print(f"wrote {out}: mass {mass:.3f} kg, max thrust {max_thrust:.4f} N per propeller, hover control {hover:.4f}")


if __name__ == "__main__":
    main()
