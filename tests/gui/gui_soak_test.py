#!/usr/bin/env python3
"""gui.soak: random input for a while (clicks, drags, keys, menus, file drops, resizes) on
the studio under Xvfb, restarted whenever the input closes it, then SIGTERM. Fails on a
crash (a signal, or an exit code other than 0 and 2), on any sanitizer report
("AddressSanitizer", "LeakSanitizer", "runtime error:" from UBSan) in its stderr, and on a
window that stops answering. Seeded, so a failure can be replayed: the seed and the last
events are printed.

Usage: gui_soak_test.py --nudge PATH --client PATH --source-dir DIR --out DIR
                        [--seconds N (default: $NUDGE_SOAK_SECONDS or 30)] [--seed S]"""
import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

W, H = 1280, 800
KEYS = ["space", "Right", "Left", "Home", "End", "f", "r", "l", "c", "w", "e", "s", "p", "Escape", "Delete", "Tab",
        "Return", "F1", "ctrl+z", "ctrl+y", "ctrl+shift+z", "ctrl+c", "ctrl+v", "ctrl+d", "ctrl+n", "ctrl+o", "ctrl+s",
        "0", "1", "period", "minus", "BackSpace"]
REPORTS = ("AddressSanitizer", "LeakSanitizer", "runtime error:", "ThreadSanitizer")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--nudge", required=True)
    parser.add_argument("--client", required=True)
    parser.add_argument("--source-dir", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--seconds", type=float, default=float(os.environ.get("NUDGE_SOAK_SECONDS", "30")))
    # A fixed seed by default, so that CI runs the same input each time; any other seed
    # (NUDGE_SOAK_SEED, --seed) explores further.
    parser.add_argument("--seed", type=int, default=int(os.environ.get("NUDGE_SOAK_SEED", "12345")))
    args = parser.parse_args()
    args.nudge, args.client = str(Path(args.nudge).resolve()), str(Path(args.client).resolve())  # run from elsewhere
    rng = random.Random(args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    print(f"soak: seed {args.seed}, {args.seconds:.0f} s", flush=True)

    state = Path(tempfile.mkdtemp(prefix="nudge-soak-state-"))
    runtime = Path(tempfile.mkdtemp(prefix="nudge-soak-run-"))
    # The studio works on copies of the examples and their assets in a folder of its own
    # (NUDGE_SCENES_DIR, and its working directory): whatever random clicks save, they
    # save there, never over the shipped scenes.
    work = Path(tempfile.mkdtemp(prefix="nudge-soak-work-"))
    shutil.copytree(Path(args.source_dir, "scenes"), work / "scenes")
    shutil.copytree(Path(args.source_dir, "assets"), work / "assets")
    drops = work / "drops"
    drops.mkdir()
    (drops / "broken.json").write_text('{"format": "nudge-scene", "version": 1, "particles": [')
    (drops / "not a scene.txt").write_text("hello")
    scenes = sorted(str(p) for p in (work / "scenes").glob("*.json"))
    drop_files = scenes + [str(drops / "broken.json"), str(drops / "not a scene.txt"), str(drops / "missing.json")]
    read_fd, write_fd = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write_fd), "-screen", "0", f"{W}x{H}x24", "-nolisten", "tcp"],
                            pass_fds=(write_fd,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_fd)
    display = os.read(read_fd, 64).decode().strip()
    env = dict(os.environ, DISPLAY=f":{display}", XDG_RUNTIME_DIR=str(runtime), XDG_STATE_HOME=str(state),
               XDG_CONFIG_HOME=str(state / "config"), NUDGE_SCENES_DIR=str(work / "scenes"))
    env.setdefault("ASAN_OPTIONS", "detect_leaks=0")  # Mesa's leftovers at unload, as for gui.xvfb
    failures, events, starts, app, err = [], [], 0, None, None
    log_path = out / "soak_stderr.txt"
    log = open(log_path, "w")

    def client(*a, timeout=10):
        try:
            return subprocess.run([args.client, *a], env=env, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def start():
        nonlocal app, starts
        starts += 1
        scene = rng.choice([[], [rng.choice(scenes)]])
        app = subprocess.Popen([args.nudge, *scene], cwd=str(work), env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=log)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            r = client("wait-window", "Nudge", "1")
            if r and r.returncode == 0:
                return True
            if app.poll() is not None:
                break
        failures.append(f"start {starts}: the window did not open")
        return False

    def ended(code):
        # 0: closed; 2: refused input at start. A signal (negative) or 1 is a failure.
        if code not in (0, 2):
            failures.append(f"nudge exited with {code} after: {events[-8:]}")

    try:
        end = time.monotonic() + args.seconds
        if not start():
            raise SystemExit
        while time.monotonic() < end and not failures:
            if app.poll() is not None:
                ended(app.returncode)
                if failures or not start():
                    break
                continue
            r = client("title", "Nudge")
            if not r or r.returncode != 0:
                time.sleep(0.5)
                continue
            title = r.stdout.strip()
            kind = rng.choices(["click", "drag", "key", "menu", "drop", "resize", "wait"], [30, 15, 30, 12, 4, 2, 7])[0]
            x, y = rng.randrange(W), rng.randrange(H)
            if kind == "click":
                ev = ["click", title, str(x), str(y)]
            elif kind == "drag":
                ev = ["drag", title, str(x), str(y), str(rng.randrange(W)), str(rng.randrange(H)),
                      rng.choice(["none", "ctrl", "shift", "ctrl+right"])]
            elif kind == "key":
                ev = ["key", title, rng.choice(KEYS)]
            elif kind == "menu":  # a menu of the bar, then somewhere in it
                ev = ["click", title, str(rng.choice([22, 64, 110, 160])), "12"]
                events.append(" ".join(ev[0:1] + ev[2:]))
                client(*ev)
                time.sleep(0.3)
                ev = ["click", title, str(rng.randrange(20, 500)), str(rng.randrange(25, 520))]
            elif kind == "drop":
                ev = ["drop", title, rng.choice(drop_files)]
            elif kind == "resize":
                ev = ["resize", title, str(rng.randrange(600, W)), str(rng.randrange(400, H))]
            else:
                time.sleep(rng.uniform(0.2, 1.5))
                continue
            events.append(" ".join(ev[0:1] + ev[2:]))
            r = client(*ev)
            if r is None:
                failures.append(f"x11_test_client {ev[0]} hung: the window stopped answering after {events[-8:]}")
            time.sleep(rng.uniform(0.05, 0.4))
        if app and app.poll() is None:
            app.send_signal(signal.SIGTERM)  # closes as the close button does, without asking
            try:
                ended(app.wait(60))
            except subprocess.TimeoutExpired:
                failures.append("nudge did not close within 60 s of SIGTERM")
    finally:
        if app and app.poll() is None:
            app.kill()
        xvfb.terminate()
        log.close()
        shutil.rmtree(state, ignore_errors=True)
        shutil.rmtree(runtime, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)
    stderr = log_path.read_text(errors="replace")
    for report in REPORTS:
        if report in stderr:
            at = stderr.index(report)
            failures.append(f"a sanitizer report in stderr: {stderr[max(0, at - 200):at + 1500]}")
            break
    print(f"soak: {len(events)} events over {starts} start(s) of the window")
    if failures:
        print(f"FAILED (seed {args.seed}):\n" + "\n".join(failures))
        print("last events:\n  " + "\n  ".join(events[-20:]))
        return 1
    print("soak: no crash, no sanitizer report")
    return 0


if __name__ == "__main__":
    sys.exit(main())
