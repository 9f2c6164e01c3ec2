#!/usr/bin/env python3
"""Run DiffTaichi's own examples/mass_spring.py training, headless, and report it as JSON.

    python bench/difftaichi_mass_spring.py --examples DIR --robot ID --iters N [--toi] [--runs R]
                                           [--reset-biases] [--threads T]

DIR is a folder holding DiffTaichi's examples (mass_spring.py and mass_spring_robot_config.py,
github.com/taichi-dev/difftaichi); nothing of DiffTaichi is copied here, its module is imported
from DIR. Needs the pip package taichi (and numpy); bench/compare_mass_spring.sh makes a venv
with them. matplotlib, which mass_spring.py imports only for its 'plot' task, is stubbed when
it is not installed, and its module-level ti.GUI window is replaced by a no-op stand-in.

It imports mass_spring with sys.argv = [mass_spring.py, ID, train, --iters, N] (so its
np.random.seed(0) and ti.init(default_fp=f32) run as in DiffTaichi's own runs), sets up
robots[ID] as its main() does, and calls its optimize(toi=False, visualize=False) (with
--toi: toi=True) R times (--runs, default 1) in this one process, as its own 'plot' task
does (5 runs per ground): each call draws new weights from the continuing np.random stream
(run k starts from the seed-0 stream's k-th initialisation, the one
scripts/make_mass_spring_scene.py --init k writes) and runs N iterations of its update rule
(w -= 0.2 g / (|g| + 1e-6)). After each call it runs one more forward pass with that run's
final weights. optimize() sets weights1 and weights2 but never the biases, which start at 0
when the fields are made: run k > 0 starts from the biases run k - 1 left (as in its 'plot'
task) unless --reset-biases, which sets them to 0 before each run (then run k starts exactly
from the --init k scene's weights).

Output (stdout), one JSON object a line:
  {"what": "iteration", "run": k, "iteration": i, "loss": L, "grad_norm": |g|, "wall_s": .., "cpu_s": .., "tape_wall_s": ..}
    per iteration: DiffTaichi's loss -x[681, head][0] before that iteration's update (the
    loss at iterate i), the norm of the gradient it printed (sqrt of its total_norm_sqr),
    and the iteration's time (from its clear() to the next one's: forward + backward under
    ti.ad.Tape, the norm and the update; tape_wall_s is forward + backward only);
  {"what": "run", "run": k, ...} after each run: robot, toi, iters, bias_norm_initial (the
    norm of the biases the run started from), losses (per iteration), final_loss (the loss
    with the weights after the last update, from the extra forward pass), head_x_initial
    and head_x_final (x of particle head_id = 0 at state 0 and at the last state
    steps - 1 = 681 of that forward pass), distance (their difference: the distance after
    the last update), distances (-loss - head_x_initial per iterate 0..N, the last from the
    extra forward pass), best_distance (their maximum), grad_norms, and the run's mean wall
    and CPU seconds per iteration (seconds_per_iter, cpu_seconds_per_iter,
    tape_seconds_per_iter; run 0's without its iteration 0);
  {"what": "result", ...} at the end: robot, toi, iters, runs, reset_biases, distances_last
    and distances_best (per run), the mean wall and CPU (process: all threads) seconds per
    iteration over all the runs' iterations but run 0's iteration 0, which includes taichi's
    JIT compile of the kernels and their gradients (first_iter_s, first_iter_cpu_s), and
    jit_s = first_iter_s - seconds_per_iter. With --runs 1 it also holds run 0's keys
    (losses, final_loss, head_x_initial, head_x_final, distance, grad_norms).
Everything DiffTaichi itself prints goes to stderr.

--threads T sets taichi's CPU thread pool (TI_CPU_MAX_NUM_THREADS; default: taichi's, one per
core). taichi's offline kernel cache is on by default, so jit_s is smaller on a second run;
TI_OFFLINE_CACHE=0 in the environment turns it off.
"""

import argparse
import json
import math
import os
import sys
import time
import types


class NoGui:
    """Stands in for ti.GUI: every method does nothing."""

    def __init__(self, *args, **kwargs):
        pass

    def __getattr__(self, name):
        return lambda *args, **kwargs: None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", required=True, help="folder with DiffTaichi's mass_spring.py")
    parser.add_argument("--robot", type=int, required=True, help="robot id: 0..3 = robotA..robotD")
    parser.add_argument("--iters", type=int, required=True)
    parser.add_argument("--toi", action="store_true", help="optimize(toi=True): advance_toi's ground")
    parser.add_argument("--runs", type=int, default=1, help="optimize() calls in this process (default 1)")
    parser.add_argument("--reset-biases", action="store_true",
                        help="set the biases to 0 before each run (DiffTaichi carries them over)")
    parser.add_argument("--threads", type=int, default=0, help="taichi CPU threads (0: taichi's default)")
    args = parser.parse_args()
    if args.runs < 1 or args.iters < 1:
        parser.error("--runs and --iters must be >= 1")
    if args.threads > 0:
        os.environ["TI_CPU_MAX_NUM_THREADS"] = str(args.threads)

    # Our JSON lines go to the real stdout; everything else written to file descriptor 1
    # (taichi's banner, from Python or C++, DiffTaichi's prints) goes to stderr.
    sys.stdout.flush()
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)

    examples = os.path.abspath(args.examples)
    sys.path.insert(0, examples)
    try:
        import matplotlib.pyplot  # noqa: F401  (only its 'plot' task uses it)
    except ImportError:
        sys.modules["matplotlib"] = types.ModuleType("matplotlib")
        sys.modules["matplotlib.pyplot"] = types.ModuleType("matplotlib.pyplot")
        sys.modules["matplotlib"].pyplot = sys.modules["matplotlib.pyplot"]
    import numpy as np
    import taichi as ti

    real_gui = ti.GUI
    ti.GUI = NoGui  # its module-level gui = ti.GUI(...) must not open a window
    sys.argv = [os.path.join(examples, "mass_spring.py"), str(args.robot), "train", "--iters", str(args.iters)]
    try:
        import mass_spring as ms
    finally:
        ti.GUI = real_gui
    ms.gui = NoGui()

    # Follow its iterations: optimize() calls clear() first in each, then prints
    # 'Iter=', i, 'Loss=', loss after the taped forward and backward, then total_norm_sqr.
    marks = []     # this run, per iteration: [wall at clear, cpu at clear, wall after the tape]
    printed = []   # this run, per iteration: [loss, norm]
    rows = []      # this run's iteration rows
    run = [0]

    def emit_finished(wall, cpu):
        i = len(rows)
        w0, c0, tape_end = marks[i]
        loss, norm = (printed[i] + [None, None])[:2] if i < len(printed) else (None, None)
        row = {"what": "iteration", "run": run[0], "iteration": i, "loss": loss, "grad_norm": norm,
               "wall_s": wall - w0, "cpu_s": cpu - c0, "tape_wall_s": (tape_end or wall) - w0}
        rows.append(row)
        print(json.dumps(row), file=out, flush=True)

    original_clear = ms.clear

    def clear():
        wall, cpu = time.perf_counter(), time.process_time()
        if marks:
            emit_finished(wall, cpu)
        marks.append([wall, cpu, None])
        original_clear()

    def hooked_print(*values, **kwargs):
        if values and values[0] == "Iter=" and len(values) >= 4:
            marks[-1][2] = time.perf_counter()
            printed.append([float(values[3])])
        elif len(values) == 1 and isinstance(values[0], (int, float)) and printed and len(printed[-1]) == 1:
            printed[-1].append(math.sqrt(values[0]))
        print(*values, file=sys.stderr, **{k: v for k, v in kwargs.items() if k != "file"})

    ms.clear = clear
    ms.print = hooked_print  # module globals shadow the builtin

    ms.setup_robot(*ms.robots[args.robot]())
    last, head = ms.steps - 1, ms.head_id
    mean = lambda rs, key: sum(r[key] for r in rs) / len(rs) if rs else None
    results, timed = [], []  # timed: every iteration row but run 0's first (taichi's JIT)
    first = None
    for k in range(args.runs):
        run[0] = k
        marks.clear(), printed.clear(), rows.clear()
        if args.reset_biases:
            ms.bias1.fill(0)
            ms.bias2.fill(0)
        bias_norm = math.sqrt(float((ms.bias1.to_numpy().astype(np.float64) ** 2).sum())
                              + float((ms.bias2.to_numpy().astype(np.float64) ** 2).sum()))
        losses = ms.optimize(toi=args.toi, visualize=False)
        wall, cpu = time.perf_counter(), time.process_time()
        if marks:
            emit_finished(wall, cpu)

        # One more forward pass with the weights after the last update.
        original_clear()
        ms.forward(visualize=False)
        x_initial = float(ms.x[0, head][0])
        x_final = float(ms.x[last, head][0])
        final_loss = float(ms.loss[None])
        losses = [float(l) for l in losses]
        distances = [-l - x_initial for l in losses + [final_loss]]
        if k == 0:
            first = rows[0]
        counted = rows[1:] if k == 0 else list(rows)
        timed += counted
        result = {
            "what": "run", "impl": "difftaichi", "run": k, "robot": args.robot, "toi": args.toi,
            "iters": len(losses), "bias_norm_initial": bias_norm,
            "losses": losses, "grad_norms": [r["grad_norm"] for r in rows],
            "final_loss": final_loss, "head_x_initial": x_initial, "head_x_final": x_final,
            "distance": x_final - x_initial, "distances": distances, "best_distance": max(distances),
            "seconds_per_iter": mean(counted, "wall_s"), "cpu_seconds_per_iter": mean(counted, "cpu_s"),
            "tape_seconds_per_iter": mean(counted, "tape_wall_s"),
        }
        results.append(result)
        print(json.dumps(result), file=out, flush=True)

    per_iter, per_iter_cpu = mean(timed, "wall_s"), mean(timed, "cpu_s")
    summary = {
        "what": "result", "impl": "difftaichi", "robot": args.robot, "toi": args.toi, "iters": args.iters,
        "runs": args.runs, "reset_biases": args.reset_biases,
        "n_objects": ms.n_objects, "n_springs": ms.n_springs, "steps": ms.steps, "head_id": head,
        "distances_last": [r["distance"] for r in results], "distances_best": [r["best_distance"] for r in results],
        "seconds_per_iter": per_iter, "cpu_seconds_per_iter": per_iter_cpu,
        "tape_seconds_per_iter": mean(timed, "tape_wall_s"),
        "first_iter_s": first["wall_s"], "first_iter_cpu_s": first["cpu_s"],
        "jit_s": (first["wall_s"] - per_iter) if per_iter is not None else None,
        "threads": args.threads or os.cpu_count(), "taichi": ".".join(map(str, ti.__version__)),
    }
    if args.runs == 1:
        for key in ("losses", "grad_norms", "final_loss", "head_x_initial", "head_x_final", "distance"):
            summary[key] = results[0][key]
    print(json.dumps(summary), file=out, flush=True)


if __name__ == "__main__":
    main()
