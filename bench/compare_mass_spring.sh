#!/usr/bin/env bash
# DiffTaichi's own mass_spring.py training beside Nudge's, on this machine's CPU, over several
# initialisations: for DiffTaichi's robots 2 and 3 (robotC, robotD in its
# mass_spring_robot_config.py) and both of its grounds (toi: advance_toi, its 'train' task's;
# no_toi: advance_no_toi), R runs each. Training is chaotic, so one initialisation cannot say
# which trains better; DiffTaichi's 'plot' task runs optimize() 5 times in one process, each
# call drawing new weights from the continuing np.random stream after np.random.seed(0).
# Here DiffTaichi makes its R runs in one process the same way
# (bench/difftaichi_mass_spring.py --runs R), and Nudge optimises, for each k < R, a scene
# written by scripts/make_mass_spring_scene.py --ground G --init k (the weights DiffTaichi's
# run k draws), with `nudge optimize SCENE --precision float32 --device cpu --threads 1`.
# DiffTaichi's optimize() never resets the biases, so its run k > 0 would start from the
# biases run k - 1 left; it is run with --reset-biases (biases 0 before each run, as in the
# --init k scene) unless DIFFTAICHI_KEEP_BIASES=1, which gives its 'plot' task's runs.
# Reported per robot and ground, per init k: the distance the head particle (0) travels along
# +x in the 2.724 s rollout (x at the last state minus x at state 0) with the starting
# weights, after the last update (DiffTaichi: an extra forward pass; Nudge: its loss CSV's
# last row, the loss at the last iterate; its travel loss is minus the distance) and the best
# over the run's iterates 0..iters; their means over the inits; the seconds per iteration,
# wall and CPU (DiffTaichi: without run 0's iteration 0, which includes taichi's JIT compile,
# shown apart; Nudge: its optimize JSON's timings.per_evaluation_s, and the process's CPU time
# over its evaluations); and init 0's first 5 iterates' distances.
# Usage: bench/compare_mass_spring.sh DIFFTAICHI_EXAMPLES_DIR [iters] [runs]   (defaults 100, 5)
#   DIFFTAICHI_EXAMPLES_DIR: a folder with DiffTaichi's examples/mass_spring.py and
#   mass_spring_robot_config.py, e.g. from a DiffTaichi checkout:
#     mkdir -p /tmp/difftaichi && git -C DIFFTAICHI_REPO archive HEAD examples | tar -x -C /tmp/difftaichi
#     bench/compare_mass_spring.sh /tmp/difftaichi/examples
# Needs build/release. Installs taichi 1.7.4 and numpy into $TAICHI_VENV (default
# /tmp/peers-venv) when they are missing (the scene script runs with that python too).
# DiffTaichi runs on $DIFFTAICHI_THREADS taichi CPU threads (default 1, like Nudge's
# --threads 1; 0 for taichi's default, one per core). $NUDGE picks another nudge binary
# (default build/release/app/nudge). Scenes, logs and JSON go to a new temporary folder
# (printed at the start). DiffTaichi takes about 0.4 s an iteration: 100 iterations x 5 runs
# x 4 configurations is about 15 minutes.
set -euo pipefail
[ $# -ge 1 ] || { sed -n '2,34p' "$0" >&2; exit 2; }
examples=$(cd "$1" && pwd)
cd "$(dirname "$0")/.."
iters=${2:-100}
runs=${3:-5}
venv=${TAICHI_VENV:-/tmp/peers-venv}
threads=${DIFFTAICHI_THREADS:-1}
nudge=${NUDGE:-build/release/app/nudge}
reset=--reset-biases
[ "${DIFFTAICHI_KEEP_BIASES:-0}" = 1 ] && reset=
[ -f "$examples/mass_spring.py" ] || { echo "$examples has no mass_spring.py" >&2; exit 1; }
[ -x "$nudge" ] || { echo "build first: cmake --preset release && cmake --build build/release --target nudge" >&2; exit 1; }
if ! "$venv/bin/python" -c 'import taichi, numpy' >/dev/null 2>&1; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "taichi==1.7.4" numpy
fi
out=$(mktemp -d "${TMPDIR:-/tmp}/nudge_compare_mass_spring.XXXXXX")
taichi_version=$("$venv/bin/python" -c 'import taichi; print(".".join(map(str, taichi.__version__)))' 2>/dev/null | tail -1)
echo "outputs in $out; DiffTaichi: taichi $taichi_version, CPU, float32, $threads thread(s), biases $([ -n "$reset" ] && echo 'reset to 0 before each run' || echo 'carried over between runs (its plot task)'); Nudge: $nudge, float32, CPU, 1 thread"
for robot in 2 3; do
  for ground in toi no_toi; do
    tag=robot${robot}_$ground
    toi=; [ "$ground" = toi ] && toi=--toi
    echo "== robot $robot, $ground: DiffTaichi, $runs runs of $iters iterations in one process"
    "$venv/bin/python" bench/difftaichi_mass_spring.py --examples "$examples" --robot "$robot" --iters "$iters" \
      --runs "$runs" $toi $reset --threads "$threads" 2>"$out/difftaichi_$tag.log" >"$out/difftaichi_$tag.jsonl"
    echo "== robot $robot, $ground: Nudge, $runs inits of $iters iterations"
    for ((k = 0; k < runs; k++)); do
      "$venv/bin/python" scripts/make_mass_spring_scene.py --ground "$ground" --init "$k" "$examples" "$robot" \
        "$out/scene_${tag}_init$k.json" >/dev/null
      /usr/bin/python3 - "$nudge" "$out/scene_${tag}_init$k.json" "$iters" "$out/nudge_${tag}_init$k" \
        "$robot" "$ground" "$k" >>"$out/nudge_$tag.jsonl" <<'EOF'
import csv, json, resource, subprocess, sys, time
nudge, scene, iters, stem, robot, ground, k = sys.argv[1:]
c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
t0 = time.perf_counter()
subprocess.run([nudge, "optimize", scene, "--iterations", iters, "--precision", "float32", "--device", "cpu",
                "--threads", "1", "--log", stem + ".csv", "--out", stem + ".json"],
               check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
wall = time.perf_counter() - t0
c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (c1.ru_utime - c0.ru_utime) + (c1.ru_stime - c0.ru_stime)
o = json.load(open(stem + ".json"))
rows = sorted(csv.DictReader(open(stem + ".csv")), key=lambda r: int(r["iteration"]))
assert [int(r["iteration"]) for r in rows] == list(range(len(rows))), "CSV rows are not 0..iters"
distances = [-float(r["loss"]) for r in rows]  # row i: the travel loss -(x_T - x_0) at iterate i
evaluations = max(o.get("evaluations") or 1, 1)
print(json.dumps({"impl": "nudge", "robot": int(robot), "ground": ground, "run": int(k), "iters": o["iterations"],
                  "stop_reason": o.get("stop_reason"), "distances": distances, "distance": distances[-1],
                  "best_distance": max(distances), "reported_best": -o["final_loss"],
                  "seconds_per_iter": o["timings"]["per_evaluation_s"], "cpu_seconds_per_iter": cpu / evaluations,
                  "process_wall_s": wall}))
EOF
    done
  done
done
/usr/bin/python3 - "$out" "$iters" "$runs" <<'EOF'
import json, sys
out, iters, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
f = lambda v: "%.5f" % v if v is not None else "-"
mean = lambda xs: sum(xs) / len(xs) if xs else None
print()
print("Distance (m) the head particle 0 travels along +x in the 2.724 s rollout: at the start (iterate 0), after")
print("the last update (iterate %d) and the best over iterates 0..%d, per init k (DiffTaichi: its run k in one process;" % (iters, iters))
print("Nudge: the --init k scene); the mean over the %d inits. Seconds per iteration, wall (CPU)." % runs)
for robot in (2, 3):
    for ground in ("toi", "no_toi"):
        tag = "robot%d_%s" % (robot, ground)
        lines = [json.loads(l) for l in open("%s/difftaichi_%s.jsonl" % (out, tag)) if l.startswith("{")]
        dt = {r["run"]: r for r in lines if r["what"] == "run"}
        summary = next((r for r in lines if r["what"] == "result"), None)
        nu = {r["run"]: r for r in (json.loads(l) for l in open("%s/nudge_%s.jsonl" % (out, tag)) if l.startswith("{"))}
        print()
        print("### robot %d, %s (%s)" % (robot, ground, "advance_toi / time_of_impact" if ground == "toi" else "advance_no_toi / projection"))
        print()
        print("| init | start DT / Nudge | last DiffTaichi | last Nudge | best DiffTaichi | best Nudge |")
        print("|---|---|---|---|---|---|")
        get = lambda d, k, key: d[k][key] if k in d else None
        for k in range(runs):
            start = "%s / %s" % (f(dt[k]["distances"][0] if k in dt else None), f(nu[k]["distances"][0] if k in nu else None))
            print("| %d | %s | %s | %s | %s | %s |" % (k, start, f(get(dt, k, "distance")), f(get(nu, k, "distance")),
                                                       f(get(dt, k, "best_distance")), f(get(nu, k, "best_distance"))))
        m = lambda d, key: mean([r[key] for r in d.values()])
        print("| mean | %s / %s | %s | %s | %s | %s |" % (
            f(mean([r["distances"][0] for r in dt.values()])), f(mean([r["distances"][0] for r in nu.values()])),
            f(m(dt, "distance")), f(m(nu, "distance")), f(m(dt, "best_distance")), f(m(nu, "best_distance"))))
        print()
        if summary:
            print("s/iter: DiffTaichi %.4g (%.4g), JIT %.3g s (its first iteration %.3g s); Nudge %.4g (%.4g)" % (
                summary["seconds_per_iter"], summary["cpu_seconds_per_iter"], summary["jit_s"], summary["first_iter_s"],
                m(nu, "seconds_per_iter"), m(nu, "cpu_seconds_per_iter")))
        bad = [k for k, r in nu.items() if abs(r["reported_best"] - r["best_distance"]) > 1e-6]
        if bad:
            print("note: Nudge's final_loss is not the CSV's best for inits %s" % bad)
        if 0 in dt and 0 in nu:
            print("init 0, iterates 0..4: DiffTaichi %s; Nudge %s" % (
                " ".join(f(v) for v in dt[0]["distances"][:5]), " ".join(f(v) for v in nu[0]["distances"][:5])))
EOF
