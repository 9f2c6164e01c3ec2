"""Runs Warp's own example_drone (warp/examples/optim/example_drone.py, from the pip
package warp-lang) headless for a number of frames and reports, per frame, the drone's
position and its distance to the current target, and the wall time per frame: the
figures to set beside `nudge mpc` on a drone.

    python3 bench/warp_drone.py [--frames 360] [--device cpu] [--out warp_drone.csv]
"""
import argparse
import time

import numpy as np
import warp as wp
from warp.examples.optim import example_drone


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", type=int, default=360)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--rollouts", type=int, default=16)
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    wp.init()
    rows = []
    with wp.ScopedDevice(args.device):
        example = example_drone.Example(stage_path=None, num_frames=args.frames, num_rollouts=args.rollouts)
        start = time.perf_counter()
        for _ in range(args.frames):
            example.step()
            example.frame += 1
            pos = example.drone.state.body_q.numpy()[0, :3]
            target = np.array(example.targets[example.target_idx])
            rows.append((example.frame, *pos, float(np.linalg.norm(pos - target))))
        seconds = time.perf_counter() - start
    half = args.frames // 2
    print(f"warp {wp.__version__} example_drone on {args.device}: {args.frames} frames in {seconds:.2f} s "
          f"({seconds / args.frames * 1000:.1f} ms per frame: {example.optim_step_count} gradient steps of "
          f"{args.rollouts} rollouts x {example.rollout_step_count} steps)")
    print(f"distance to target 0 at frame {half}: {rows[half - 1][4]:.4f} m; to target 1 at frame {args.frames}: "
          f"{rows[-1][4]:.4f} m")
    if args.out:
        with open(args.out, "w") as f:
            f.write("frame,x,y,z,distance\n")
            for r in rows:
                f.write(",".join(f"{v:.6g}" for v in r) + "\n")


if __name__ == "__main__":
    main()
