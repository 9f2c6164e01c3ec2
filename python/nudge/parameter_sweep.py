"""Parameter sweeps from Python, on local threads or across a Ray cluster.

    import nudge
    table = nudge.sweep("scenes/pendulum_length.json", ["rest_length=0.5:1.2:50"], "pendulum.sweep.csv")
    table["loss"]                      # one value per point, by point
    nudge.sweep(scene, {"rest_length": (0.5, 1.2, 50), "damping": (10, 30, 4)}, "grid.csv",
                mode="gradient", ray="auto")   # on the Ray cluster this machine belongs to

The table is the one `nudge sweep` writes (nudge/sweep.h): one CSV row per point, written
and flushed as each point finishes, so that a sweep that is stopped, on threads or on Ray,
resumes where it stopped when called again with the same arguments; a Ray worker that dies
mid-sweep loses no point, as Ray runs its task again (`retries`).

Also a command: python -m nudge sweep SCENE --param k=a:b:n ... [--ray ADDRESS], which
`nudge sweep --ray` runs.
"""
import argparse
import concurrent.futures
import contextlib
import hashlib
import math
import os
import sys
import threading
import time

from . import _nudge

__all__ = ["sweep", "read_sweep", "gradients", "write_parquet"]


def _specs(params):
    """--param texts from a list of them or a {name: (from, to, count) or value} dict."""
    if isinstance(params, str):
        return [params]
    if isinstance(params, dict):
        specs = []
        for name, value in params.items():
            if isinstance(value, (tuple, list)):
                if len(value) != 3:
                    raise _nudge.Error(f"sweep parameter {name}: expected (from, to, count), got {value!r}")
                specs.append(f"{name}={value[0]!r}:{value[1]!r}:{int(value[2])}")
            else:
                specs.append(f"{name}={float(value)!r}")
        return specs
    return list(params)


def read_sweep(path):
    """A sweep's table, complete or not: {column name: array by point} ("status": a list of
    str, "error: ..." where a point has no result)."""
    return _nudge.read_sweep_table(os.fspath(path))["columns"]


def write_parquet(table, path):
    """A sweep's table (CSV, complete or not) as a Parquet file at `path`: a column per
    table column, by point ("index" as integers, "status" as strings), and the sweep's
    first line (mode, fingerprint, scene) as the file's metadata. Written to a temporary
    file beside `path` and renamed over it, so that no reader sees half of one."""
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError as e:
        raise _nudge.Error("a Parquet table needs pyarrow (pip install pyarrow)") from e
    read = _nudge.read_sweep_table(os.fspath(table))
    columns = dict(read["columns"])
    columns["index"] = columns["index"].astype("int64")
    metadata = {"nudge.sweep.mode": read["mode"], "nudge.sweep.fingerprint": read["fingerprint"],
                "nudge.sweep.scene": str(read["scene"])}
    data = pyarrow.table({name: pyarrow.array(values) for name, values in columns.items()}, metadata=metadata)
    temporary = f"{os.fspath(path)}.tmp-{os.getpid()}"
    try:
        pyarrow.parquet.write_table(data, temporary)
        os.replace(temporary, path)
    except OSError as e:
        if os.path.exists(temporary):
            os.remove(temporary)
        raise _nudge.Error(f"{os.fspath(path)}: cannot write: {e}") from e


def sweep(scene, params, out, mode="loss", threads=0, ray=None, precision="float64", on_row=None, batch=None,
          retries=3):
    """Evaluates every point of the grid `params` spans on `scene` (a nudge.Scene or a scene
    file) and writes the table `out`; returns it read back (read_sweep).

    mode: "loss", "gradient" (the loss and its derivative along each axis) or "optimize"
    (the scene's optimiser started at each point). threads: points at once on this machine
    (0: every core). ray: None runs here; an address ("auto", "host:port") runs on that Ray
    cluster, "local" on a Ray instance started here for the call. on_row((index, values,
    status)) is called in the calling thread as each row is written; returning False stops
    (the rows written stay, and a later call resumes). `out` ending in .parquet: the rows
    go to the CSV journal OUT.csv beside it (what a resume reads), and the Parquet file is
    written from it when the call ends. batch: points per Ray task; retries:
    how often Ray runs a task again whose worker died (a batch that still fails raises
    nudge.Error, and the rows written stay)."""
    if isinstance(scene, (str, os.PathLike)):
        scene = _nudge.load_scene(os.fspath(scene))
    specs = _specs(params)
    plan = _nudge.SweepPlan(scene, specs, mode)
    parquet = os.fspath(out).endswith(".parquet")
    journal = os.fspath(out) + ".csv" if parquet else os.fspath(out)
    table = _nudge.SweepTable(journal, scene, plan)
    try:
        if ray is None:
            _nudge.run_sweep(scene, plan, table, threads, precision, on_row)
        else:
            _run_on_ray(scene, specs, plan, table, ray, precision, on_row, batch, retries)
    finally:
        del table  # closes the file
        if parquet:
            write_parquet(journal, out)  # what is done so far, also when the sweep stopped
    return read_sweep(journal)


def _package_parent():
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@contextlib.contextmanager
def _ray_session(address):
    """The ray module, connected to `address` ("local": a Ray instance started for the
    call) unless a connection is open already; one this made is closed at the end."""
    try:
        import ray
    except ImportError as e:
        raise _nudge.Error("nudge on Ray needs the ray package (pip install ray)") from e
    started_here = False
    if not ray.is_initialized():
        # Workers on this machine import the same nudge package as the driver; on other
        # machines nudge must be installed (pip install) where the workers run.
        path = os.pathsep.join(p for p in (_package_parent(), os.environ.get("PYTHONPATH", "")) if p)
        # "local" starts a Ray instance of this machine's cores even where a cluster runs.
        ray.init(address=address, runtime_env={"env_vars": {"PYTHONPATH": path}}, log_to_driver=False,
                 include_dashboard=False, configure_logging=False)
        started_here = True
    try:
        yield ray
    finally:
        if started_here:
            ray.shutdown()


def _batches(items, batch, workers):
    """Consecutive slices of items: `batch` long, or about four per worker."""
    if batch is None:
        batch = max(1, min(32, math.ceil(len(items) / (4 * workers))))
    return [items[k:k + batch] for k in range(0, len(items), batch)]


def _results_as_they_come(ray, refs, retries, aftermath):
    """(task, its result, the tasks still running) as each finishes. A task that fails after
    its retries cancels the rest and raises nudge.Error, which ends with aftermath()."""
    waiting = list(refs)
    while waiting:
        done, waiting = ray.wait(waiting, num_returns=1)
        try:
            result = ray.get(done[0])
        except ray.exceptions.RayError as e:
            for ref in waiting:
                ray.cancel(ref)
            cause = getattr(e, "cause", None)
            if isinstance(cause, _nudge.Error):  # the engine's error in the task: not retried, said as it is
                raise _nudge.Error(f"{cause}; {aftermath()}") from e
            reason = (str(e).strip().splitlines() or [type(e).__name__])[0]
            raise _nudge.Error(f"a batch failed on Ray after {retries} retries ({reason}); {aftermath()}") from e
        yield done[0], result, waiting


def _run_on_ray(scene, specs, plan, table, address, precision, on_row, batch, retries):
    from . import _sweep_worker

    pending = table.pending()
    if not pending:
        return
    with _ray_session(address) as ray:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        remote = ray.remote(_sweep_worker.evaluate_points).options(max_retries=retries, num_cpus=1)
        scene_json = ray.put(scene.to_json())
        fingerprint = plan.fingerprint(scene)
        source = os.fspath(scene.source)
        refs = [remote.remote(scene_json, source, specs, plan.mode, precision, fingerprint, points)
                for points in _batches(pending, batch, cpus)]
        written = lambda: (f"the table keeps the {table.done_count} points written, and running the sweep again "
                           "resumes")
        for _, rows, waiting in _results_as_they_come(ray, refs, retries, written):
            for index, values, status in rows:
                table.append(index, values, status)
                if on_row is not None and on_row((index, values, status)) is False:
                    for ref in waiting:
                        ray.cancel(ref)
                    return


def gradients(scene, parameter_sets, threads=0, ray=None, precision="float64", batch=None, retries=3):
    """A batch of gradients: [(loss, {name: dL/dvalue})], one per dict of parameter values
    in `parameter_sets` (each replaces some of the scene's values by name, as
    Simulator.gradient takes them), in their order. threads: gradients at once on this
    machine, each on its own simulator with one thread (0: every core). ray: as
    nudge.sweep's, the sets going out as tasks in batches; a task whose worker dies runs
    again, and one that still fails raises nudge.Error. The results do not depend on
    where they ran, to the bit."""
    if isinstance(scene, (str, os.PathLike)):
        scene = _nudge.load_scene(os.fspath(scene))
    sets = [dict(values) for values in parameter_sets]
    if not sets:
        return []
    if ray is None:
        workers = threads if threads > 0 else (os.cpu_count() or 1)
        local = threading.local()

        def one(values):  # each thread its own simulator; the gradient releases the GIL
            if not hasattr(local, "sim"):
                local.sim = _nudge.Simulator(scene, device="cpu", precision=precision, threads=1)
            return local.sim.gradient(values)

        with concurrent.futures.ThreadPoolExecutor(max_workers=min(workers, len(sets))) as pool:
            return list(pool.map(one, sets))
    from . import _sweep_worker

    scene_json = scene.to_json()
    scene_hash = hashlib.sha256(scene_json.encode()).hexdigest()
    with _ray_session(ray) as ray_module:
        cpus = max(1, int(ray_module.cluster_resources().get("CPU", 1)))
        remote = ray_module.remote(_sweep_worker.gradients_of).options(max_retries=retries, num_cpus=1)
        shared = ray_module.put(scene_json)
        source = os.fspath(scene.source)
        indices = list(range(len(sets)))
        batches = _batches(indices, batch, cpus)
        refs = [remote.remote(shared, source, precision, scene_hash, [sets[k] for k in chunk]) for chunk in batches]
        where = {ref: chunk for ref, chunk in zip(refs, batches)}
        results = [None] * len(sets)
        for ref, batch_results, _ in _results_as_they_come(ray_module, refs, retries, lambda: "no gradient is returned"):
            for k, result in zip(where[ref], batch_results):
                results[k] = result
        return results


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m nudge sweep",
                                     description="A grid of parameter values, one CSV row per point (nudge sweep)")
    parser.add_argument("scene")
    parser.add_argument("--param", action="append", required=True, help="name=from:to:count, name[row]=..., name=value")
    parser.add_argument("--mode", default="loss", choices=["loss", "gradient", "optimize"])
    parser.add_argument("--out", help="the table (CSV, or .parquet with its CSV journal beside it); default: "
                                      "SCENE's name with .sweep.csv, here")
    parser.add_argument("--threads", type=int, default=0, help="points at once on this machine (without --ray)")
    parser.add_argument("--ray", help="a Ray cluster's address, auto, or local")
    parser.add_argument("--precision", default="float64", choices=["float64", "float32"])
    parser.add_argument("--batch", type=int, help="points per Ray task")
    args = parser.parse_args(argv)
    out = args.out or os.path.splitext(os.path.basename(args.scene))[0] + ".sweep.csv"
    try:
        scene = _nudge.load_scene(args.scene)
        plan = _nudge.SweepPlan(scene, args.param, args.mode)
        journal = out + ".csv" if out.endswith(".parquet") else out
        before = _nudge.SweepTable(journal, scene, plan).done_count
        where = f"Ray at {args.ray}" if args.ray else "local threads"
        print(f"sweep of {args.scene}: {plan.point_count} points, {args.mode} mode, into {out} on {where}"
              + (f"; resuming: {before} already there" if before else ""), flush=True)
        start = time.perf_counter()
        columns = sweep(scene, args.param, out, args.mode, args.threads, args.ray, args.precision, batch=args.batch)
    except _nudge.Error as e:
        print(f"nudge: error: {e}", file=sys.stderr)
        return 2
    seconds = time.perf_counter() - start
    added = len(columns["index"]) - before
    print(f"{added} points in {seconds:.1f} s ({added / seconds if seconds > 0 else 0:.1f} points/s)")
    print(f"table: {out} ({len(columns['index'])} of {plan.point_count} points)")
    return 0
