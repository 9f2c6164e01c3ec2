#!/usr/bin/env python3
"""Turn a trajectory written by `nudge simulate SCENE --out traj.csv` into a marker track.

The trajectory CSV has the header `step,time,particle,x,y,z,vx,vy,vz` (or, from
`nudge simulate SCENE --bodies-out bodies.csv`, `step,time,body,x,y,z,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz`:
then give --bodies instead of --particles, and the markers follow the bodies' centres
of mass, for a markers objective's "bind_bodies"). The marker track
that scenes read through a "markers" objective has the header `frame,marker,x,y,z`;
a scene compares frame f with step f * steps_per_frame.

Chosen particles become markers (by default marker k is the k-th chosen particle; give
--markers to name them), and every K-th step becomes a frame (frame = step / K, so use
the same K as the scene's "steps_per_frame"). Positions are written with 17 significant
digits, so a scene built from the same values reproduces the track exactly. Optional
Gaussian noise (--noise, metres, with --seed) imitates a real tracker.

Example:
    nudge simulate assets/tracks/spring_sysid_truth.json --out /tmp/traj.csv
    python3 scripts/make_marker_track.py /tmp/traj.csv --particles 1 --every 5 \
        --out assets/tracks/spring_sysid_track.csv

Python 3 standard library only.
"""

import argparse
import csv
import os
import random
import sys
import tempfile


def parse_int_list(text):
    try:
        return [int(item) for item in text.split(",") if item.strip() != ""]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, found {text!r}")


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Turn `nudge simulate --out` trajectory CSV into a marker track CSV (frame,marker,x,y,z).")
    parser.add_argument("trajectory", help="trajectory CSV from `nudge simulate SCENE --out FILE`")
    chosen = parser.add_mutually_exclusive_group(required=True)
    chosen.add_argument("--particles", type=parse_int_list,
                        help="comma-separated particle indices that become markers, e.g. 1 or 4,7")
    chosen.add_argument("--bodies", type=parse_int_list,
                        help="comma-separated body indices that become markers (a --bodies-out trajectory)")
    parser.add_argument("--markers", type=parse_int_list,
                        help="comma-separated marker ids, one per particle (default: 0, 1, 2, ...)")
    parser.add_argument("--every", type=int, default=1, metavar="K",
                        help="every K-th step becomes a frame, frame = step / K (default 1)")
    parser.add_argument("--first-step", type=int, default=0, help="first step to keep (a multiple of K; default 0)")
    parser.add_argument("--last-step", type=int, help="last step to keep (default: the last in the file)")
    parser.add_argument("--noise", type=float, default=0.0, metavar="SIGMA",
                        help="add Gaussian noise of this standard deviation (m) to each coordinate (default 0)")
    parser.add_argument("--seed", type=int, default=1, help="random seed for --noise (default 1)")
    parser.add_argument("--out", required=True, help="marker CSV to write ('-' for standard output)")
    args = parser.parse_args(argv)
    element = "body" if args.bodies is not None else "particle"
    if args.bodies is not None:
        args.particles = args.bodies  # the indices of the chosen elements, whichever kind

    if args.every < 1:
        parser.error("--every must be at least 1")
    if args.first_step < 0 or args.first_step % args.every != 0:
        parser.error("--first-step must be a non-negative multiple of --every")
    if args.noise < 0:
        parser.error("--noise must be >= 0")
    markers = args.markers if args.markers is not None else list(range(len(args.particles)))
    if len(markers) != len(args.particles):
        parser.error(f"--markers names {len(markers)} markers for {len(args.particles)} particles")
    if len(set(markers)) != len(markers):
        parser.error("--markers has repeated ids")
    marker_of = dict(zip(args.particles, markers))
    if len(marker_of) != len(args.particles):
        parser.error("--particles has repeated indices")

    rows = {}  # (step, particle) -> (x, y, z) as text
    with open(args.trajectory, newline="") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if header is None or [h.strip() for h in header[:6]] != ["step", "time", element, "x", "y", "z"]:
            source = "--bodies-out" if element == "body" else "--out"
            sys.exit(f"{args.trajectory}: expected the header step,time,{element},x,y,z,... "
                     f"(from `nudge simulate {source}`), found {header}")
        for line, row in enumerate(reader, start=2):
            if not row:
                continue
            try:
                step, particle = int(row[0]), int(row[2])
                position = [float(v) for v in row[3:6]]
            except (ValueError, IndexError):
                sys.exit(f"{args.trajectory}:{line}: malformed row {row}")
            if particle in marker_of:
                rows[(step, particle)] = position

    if not rows:
        sys.exit(f"{args.trajectory}: none of the {element} indices {args.particles} occurs in the trajectory")
    present = {particle for (_, particle) in rows}
    missing = [p for p in args.particles if p not in present]
    if missing:
        sys.exit(f"{args.trajectory}: {element} indices {missing} do not occur in the trajectory")
    last = max(step for (step, _) in rows)
    if args.last_step is not None:
        last = min(last, args.last_step)

    rng = random.Random(args.seed)
    out_lines = ["frame,marker,x,y,z"]
    frames = 0
    for step in range(args.first_step, last + 1, args.every):
        frames += 1
        for particle in args.particles:
            position = rows.get((step, particle))
            if position is None:
                sys.exit(f"{args.trajectory}: no row for step {step}, {element} {particle}")
            if args.noise > 0:
                position = [v + rng.gauss(0.0, args.noise) for v in position]
            out_lines.append(f"{step // args.every},{marker_of[particle]}," + ",".join(repr(v) for v in position))
    text = "\n".join(out_lines) + "\n"

    if args.out == "-":
        sys.stdout.write(text)
    else:
        folder = os.path.dirname(os.path.abspath(args.out))
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".marker-", suffix=".csv.tmp")
        try:
            with os.fdopen(fd, "w", newline="") as f:
                f.write(text)
            os.replace(tmp, args.out)
        except BaseException:
            os.unlink(tmp)
            raise
        print(f"wrote {args.out}: {frames} frames x {len(args.particles)} markers "
              f"(steps {args.first_step}..{last} every {args.every})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
