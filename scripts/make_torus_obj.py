#!/usr/bin/env python3
"""Write assets/meshes/torus.obj: a closed torus (a ring doughnut), the example of a
non-convex mesh that Edit > Add > Liquid, Sand or Soft Solid can fill (its hole stays
empty). Radii in metres; the ring lies in the x-z plane, y up.

    python3 scripts/make_torus_obj.py assets/meshes/torus.obj
"""
import argparse
import math


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--ring", type=float, default=0.06, help="the ring's radius, centre to tube centre (m)")
    parser.add_argument("--tube", type=float, default=0.025, help="the tube's radius (m)")
    parser.add_argument("--around", type=int, default=32, help="segments around the ring")
    parser.add_argument("--across", type=int, default=16, help="segments around the tube")
    args = parser.parse_args()
    lines = [f"# A torus: ring radius {args.ring:g} m, tube radius {args.tube:g} m, in the x-z plane (y up),",
             f"# {args.around} x {args.across} quads. Made by scripts/make_torus_obj.py."]
    for i in range(args.around):
        u = 2 * math.pi * i / args.around
        for j in range(args.across):
            v = 2 * math.pi * j / args.across
            r = args.ring + args.tube * math.cos(v)
            lines.append(f"v {r * math.cos(u):.6f} {args.tube * math.sin(v):.6f} {r * math.sin(u):.6f}")
    index = lambda i, j: 1 + (i % args.around) * args.across + (j % args.across)
    for i in range(args.around):
        for j in range(args.across):
            lines.append(f"f {index(i, j)} {index(i, j + 1)} {index(i + 1, j + 1)} {index(i + 1, j)}")
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
