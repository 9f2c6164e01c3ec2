#!/usr/bin/env python3
"""End-to-end test of the Nudge GUI under Xvfb, driven as a user would drive it.

Starts its own Xvfb, runs `nudge scenes/walker.json --play`, checks screenshots against the
app's colour contract, drops a malformed scene file on the window, closes it like a window
manager, and checks that with no display the app exits 2 naming the headless commands.

    gui_xvfb_test.py --nudge BUILD/app/nudge --client BUILD/tests/gui/x11_test_client \
                     --source-dir REPO_ROOT --out DIR

Needs Xvfb and ImageMagick (`import`, `convert`); standard library only. Screenshots and the
app's stdout/stderr are left in --out. Exit 0 when every step passed, 1 on the first failure.
"""

import argparse
import json
import re
import collections
import ctypes
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The contract with the app (see the GUI's documentation).
SCREEN_W, SCREEN_H = 1280, 800
WINDOW_TITLE = "Nudge - a copy of walker.json"  # a shipped example opens as a copy
BACKGROUND = (20, 22, 27)  # viewport clear colour, sRGB bytes, exact
PLOT_LINE = (240, 170, 60)  # ImGuiCol_PlotLines of the app's theme (app/gui/theme.cpp)
ACTUATOR_FORCE = (250, 140, 51)  # view::colors::kActuatorForce (app/view/actuator_arrows.h)
MIN_ARROW_PIXELS = 20
TRACK = (90, 220, 255)  # a track over the footage (app/gui/footage_viewport.cpp kTrackColor)
RESIDUAL = (255, 90, 70)  # from a track to its particle (kResidualColor)
MIN_TRACK_PIXELS = 20
MIN_CURVE_PIXELS = 100
ERROR_BANNER = (170, 45, 45)  # fill of the error banner, exact
ERROR_PREFIX = "nudge: error:"

# Places in the 1280 x 800 window (ImGui's default font and the app's layout) that the
# editor steps click: menu items, dialog buttons, inspector fields.
EDIT_MENU = (60, 12)
EDIT_ADD = (75, 175)
ADD_CLOTH = (EDIT_MENU, EDIT_ADD, (420, 244), (455, 557))  # Edit, Add, Cloth..., the dialog's Add
ADD_CHAIN = (EDIT_MENU, EDIT_ADD, (420, 223), (455, 528))  # Edit, Add, Chain..., the dialog's Add
ADD_TARGET = (EDIT_MENU, EDIT_ADD, (420, 565))  # Edit, Add, Target for the Selection
ADD_SOFT_BOX = (EDIT_MENU, EDIT_ADD, (420, 307), (455, 514))  # Edit, Add, Soft Box..., the dialog's Add
TARGET_X_FIELD = (1110, 246)  # the inspector's target x of a selected target objective
INSPECTOR_TAB = (1010, 36)    # the right dock node's tabs in the default layout
OPTIMISE_TAB = (1109, 36)
MULTI_MASS_FIELD = (1165, 270)  # the inspector's mass with several particles selected (Transform folded)
PARAMETERS_HEADING = (75, 196)  # the outliner's Parameters in a new scene with a chain and a target
INITIAL_VELOCITY_ROW = (90, 238)
OPTIMISED_BOX = (1097, 107)     # the inspector's "optimised" tick of the parameter shown
OPTIMISE_START = (985, 68)
UNSAVED_SAVE_AS = (522, 436)  # the Unsaved Changes prompt's Save As... for a scene with no file
UNSAVED_DISCARD = (640, 436)  # its Discard: the middle of its row of buttons, under the window's middle
SAVE_AS_NAME_FIELD = (640, 556)
SAVE_AS_SAVE = (427, 585)
HELP_MENU = (145, 12)
HELP_WELCOME = (210, 40)
WELCOME_PROJECTILE_CARD = (970, 265)  # the welcome panel's fourth card in "Learn what a gradient does"
VIEW_MENU = (111, 12)
VIEW_CONTACTS = (124, 214)          # View > Contacts for a scene without joints, attachments or cloth
BILLIARDS_CUE_BALL = (447, 488)     # scenes/billiards.json's cue ball at frame 0
CONTACT_COLOUR = (242, 115, 230)    # view/contact_draw.h's force arrows (unlit: the exact colour)
JOINT_COLOUR = (209, 102, 242)      # view/scene_draw.h's colors::kJoint: an articulation's joint axes and bones
PROJECTILE_BALL = (475, 221)        # scenes/projectile.json's ball at frame 0, framed with its target
PROJECTILE_GIZMO_Y = (470, 167)     # the gizmo's y arrow on the selected ball
SWEEP_PICK_LOWEST = (1069, 139)     # the Sweep tab's Pick the Lowest
SWEEP_OPEN_POINT = (1010, 526)      # its Open as Scene under a one-parameter loss sweep's point
SIDE_DOCK_LEFT = 946                # the right dock node's left edge in the default layout

# Thresholds of the checks (pixels).
MIN_BACKGROUND_PIXELS = 5000
MIN_DISTINCT_COLOURS = 8  # anti-aliased UI text and the scene give many more
MIN_SCENE_PIXELS = 200  # non-background pixels inside the viewport's bounding box
MIN_CHANGED_PIXELS = 50  # between two screenshots 1 s apart while playing
MIN_BANNER_PIXELS = 500

WINDOW_TIMEOUT_S = 60  # software Vulkan (lavapipe) is slow to start
ERROR_LINE_TIMEOUT_S = 10
CLOSE_TIMEOUT_S = 20
NO_DISPLAY_TIMEOUT_S = 10
MALFORMED_SCENE = '{"format": "nudge-scene", "version": 1, "particles": ['
# A space and a non-ASCII letter: the drop must carry the path through URI encoding intact.
MALFORMED_NAME = "truncated scène.json"


class StepFailed(Exception):
    pass


def log(message):
    print(message, flush=True)


def check(condition, what):
    """Prints `what` as passed, or raises naming it."""
    if not condition:
        raise StepFailed(what)
    log(f"  ok: {what}")


def die_with_parent():
    """preexec_fn: the child gets SIGKILL when this test dies, even by SIGKILL (a ctest
    timeout), so no Xvfb or app is ever left behind."""
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def stop(proc, grace_s=5):
    if proc and proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(grace_s)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def tail(path, lines=30):
    try:
        text = Path(path).read_text(errors="replace")
    except OSError:
        return "(none)"
    return "\n".join(text.splitlines()[-lines:]) or "(empty)"


# ---- Screenshots --------------------------------------------------------------------------


class Screenshot:
    """The root window's pixels as raw 8-bit RGB, read through ImageMagick."""

    def __init__(self, path, env):
        subprocess.run(["import", "-window", "root", str(path)], env=env, check=True,
                       timeout=60, capture_output=True)
        self.path = path
        self.data = subprocess.run(["convert", str(path), "-depth", "8", "rgb:-"], check=True,
                                   timeout=60, capture_output=True).stdout
        self.width, self.height = SCREEN_W, SCREEN_H
        if len(self.data) != self.width * self.height * 3:
            raise StepFailed(f"{path} holds {len(self.data)} bytes of RGB, expected a "
                             f"{SCREEN_W}x{SCREEN_H} screen")

    def pixel(self, x, y):
        i = 3 * (y * self.width + x)
        return self.data[i:i + 3]

    def row(self, y, x0, w):
        """The bytes of w pixels of row y from x0."""
        start = 3 * (y * self.width + x0)
        return self.data[start:start + 3 * w]

    def colours(self, rect):
        """Counter of colours (3-byte values) inside rect = (x, y, w, h)."""
        x0, y0, w, h = rect
        counts = collections.Counter()
        for y in range(y0, y0 + h):
            row = self.row(y, x0, w)
            counts.update(row[i:i + 3] for i in range(0, len(row), 3))
        return counts

    def positions(self, rgb):
        """(x, y) of every pixel of exactly this colour."""
        pattern, i = bytes(rgb), self.data.find(bytes(rgb))
        while i != -1:
            if i % 3 == 0:  # a match across two pixels is no pixel
                yield (i // 3) % self.width, (i // 3) // self.width
            i = self.data.find(pattern, i + 1)


def bounding_box(points):
    """(x, y, w, h) of the points, or None."""
    xs, ys = zip(*points) if points else ((), ())
    if not xs:
        return None
    return min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


def inside(point, rect):
    x, y, w, h = rect
    return x <= point[0] < x + w and y <= point[1] < y + h


def clip_to_screen(rect):
    x, y, w, h = rect
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + w, SCREEN_W), min(y + h, SCREEN_H)
    return x0, y0, max(x1 - x0, 0), max(y1 - y0, 0)


def describe(rgb):
    return "RGB(%d, %d, %d)" % tuple(rgb)


def common_colours(counts, n=6):
    return ", ".join(f"{describe(c)} x{k}" for c, k in counts.most_common(n))


# ---- The test -----------------------------------------------------------------------------


class GuiTest:
    def __init__(self, args):
        self.nudge = str(Path(args.nudge).resolve())
        self.client = str(Path(args.client).resolve())
        self.source_dir = Path(args.source_dir).resolve()
        self.out = Path(args.out).resolve()
        self.out.mkdir(parents=True, exist_ok=True)
        self.stdout_path = self.out / "nudge_stdout.txt"
        self.stderr_path = self.out / "nudge_stderr.txt"
        self.xvfb = None
        self.app = None
        self.temp_dirs = []
        self.env = None
        self.only = set(args.only.split(",")) if args.only else None

    def temp_dir(self, prefix):
        path = Path(tempfile.mkdtemp(prefix=prefix))  # mode 700, as XDG_RUNTIME_DIR must be
        self.temp_dirs.append(path)
        return path

    def cleanup(self):
        stop(self.app)
        stop(self.xvfb)
        for path in self.temp_dirs:
            shutil.rmtree(path, ignore_errors=True)

    def client_run(self, *args, timeout=30):
        return subprocess.run([self.client, *args], env=self.env, capture_output=True, text=True,
                              errors="replace", timeout=timeout)

    def client_ok(self, *args, timeout=30):
        result = self.client_run(*args, timeout=timeout)
        if result.returncode != 0:
            raise StepFailed(f"x11_test_client {' '.join(args)} exited {result.returncode}: "
                             f"{result.stderr.strip()}")
        return result.stdout.strip()

    def require_app_running(self):
        code = self.app.poll()
        if code is not None:
            how = f"killed by {signal.Signals(-code).name}" if code < 0 else f"with code {code}"
            raise StepFailed(f"nudge exited early, {how}")

    def app_stderr(self):
        return self.stderr_path.read_text(errors="replace")

    def window_rect(self, title=WINDOW_TITLE):
        return tuple(int(v) for v in self.client_ok("geometry", title).split())

    # a. Xvfb
    def start_xvfb(self):
        log("step a: start Xvfb")
        runtime_dir = self.temp_dir("nudge-gui-xdg-")
        read_fd, write_fd = os.pipe()
        xvfb_log = open(self.out / "xvfb_log.txt", "wb")
        # -displayfd: Xvfb picks a free display and writes its number once it accepts clients.
        self.xvfb = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", f"{SCREEN_W}x{SCREEN_H}x24",
             "-nolisten", "tcp", "-noreset"],
            pass_fds=(write_fd,), stdin=subprocess.DEVNULL, stdout=xvfb_log, stderr=xvfb_log,
            preexec_fn=die_with_parent)
        os.close(write_fd)
        xvfb_log.close()
        number, deadline = b"", time.monotonic() + 30
        while not number.endswith(b"\n"):
            ready, _, _ = select.select([read_fd], [], [], max(deadline - time.monotonic(), 0))
            chunk = os.read(read_fd, 16) if ready else b""
            if not chunk:
                os.close(read_fd)
                raise StepFailed("Xvfb gave no display number (log: "
                                 f"{tail(self.out / 'xvfb_log.txt', 5)})")
            number += chunk
        os.close(read_fd)
        self.env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
        # Its own state folder: recovery files of this test are not the user's, nor theirs ours.
        self.state_dir = self.temp_dir("nudge-gui-state-")
        self.env.update(DISPLAY=f":{number.decode().strip()}", XDG_RUNTIME_DIR=str(runtime_dir),
                        XDG_STATE_HOME=str(self.state_dir))
        log(f"  ok: Xvfb runs on {self.env['DISPLAY']} ({SCREEN_W}x{SCREEN_H}x24)")

    # b. the app, playing the walker
    def start_app(self):
        log("step b: start nudge scenes/walker.json --play")
        with open(self.stdout_path, "wb") as out, open(self.stderr_path, "wb") as err:
            self.app = subprocess.Popen([self.nudge, "scenes/walker.json", "--play", "--validate"],
                                        cwd=self.source_dir, env=self.env,
                                        stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                        preexec_fn=die_with_parent)
        # Short waits in a loop so that an app that dies at start fails at once, not in 60 s.
        deadline = time.monotonic() + WINDOW_TIMEOUT_S
        while self.client_run("wait-window", "Nudge", "1").returncode != 0:
            self.require_app_running()
            if time.monotonic() > deadline:
                raise StepFailed(f"no window titled 'Nudge...' within {WINDOW_TIMEOUT_S} s")
        check(True, "a window whose title contains 'Nudge' is mapped")
        title = self.client_ok("title", "Nudge")
        check(title.startswith(WINDOW_TITLE), f"window title {title!r} starts with {WINDOW_TITLE!r}")
        time.sleep(3)  # let it play
        self.require_app_running()
        check(True, "nudge still runs after 3 s of playing")

    # c. the first screenshot shows the app
    def check_app_shown(self):
        log("step c: screenshot shows the app")
        rect = self.window_rect()
        log(f"  window at {rect[0]},{rect[1]} size {rect[2]}x{rect[3]}")
        visible = clip_to_screen(rect)
        check(visible[2] * visible[3] > 0, "the window is on screen")
        shot = Screenshot(self.out / "gui_walker.png", self.env)
        screen_colours = shot.colours((0, 0, SCREEN_W, SCREEN_H))
        top_colour, top_count = screen_colours.most_common(1)[0]
        check(top_count < 0.99 * SCREEN_W * SCREEN_H,
              f"the screen is not uniform (commonest colour {describe(top_colour)} covers "
              f"{100 * top_count / (SCREEN_W * SCREEN_H):.1f}%)")
        window_colours = shot.colours(visible)
        log(f"  commonest colours in the window: {common_colours(window_colours)}")
        check(len(window_colours) >= MIN_DISTINCT_COLOURS,
              f"the window shows {len(window_colours)} distinct colours "
              f">= {MIN_DISTINCT_COLOURS} (text and scene, not flat fills)")
        background = [p for p in shot.positions(BACKGROUND) if inside(p, visible)]
        check(len(background) >= MIN_BACKGROUND_PIXELS,
              f"{len(background)} pixels in the window have the viewport background "
              f"{describe(BACKGROUND)} (>= {MIN_BACKGROUND_PIXELS})")
        self.viewport = bounding_box(background)
        log("  viewport (bounding box of the background) at %d,%d size %dx%d" % self.viewport)
        viewport_colours = shot.colours(self.viewport)
        scene = sum(viewport_colours.values()) - viewport_colours[bytes(BACKGROUND)]
        check(scene >= MIN_SCENE_PIXELS,
              f"{scene} pixels inside the viewport are not background (>= {MIN_SCENE_PIXELS}: "
              f"something is drawn)")
        banner = window_colours[bytes(ERROR_BANNER)]
        check(banner < MIN_BANNER_PIXELS,
              f"no error banner yet ({banner} pixels of {describe(ERROR_BANNER)}, "
              f"< {MIN_BANNER_PIXELS})")
        check(ERROR_PREFIX not in self.app_stderr(), f"no '{ERROR_PREFIX}' line on stderr yet")
        self.first_shot = shot

    # d. it moves
    def check_playing(self):
        log("step d: a second screenshot 1 s later differs (the motion plays)")
        time.sleep(1)
        self.require_app_running()
        shot = Screenshot(self.out / "gui_walker_later.png", self.env)
        x0, y0, w, h = clip_to_screen(self.window_rect())
        changed = in_viewport = 0
        for y in range(y0, y0 + h):
            if shot.row(y, x0, w) == self.first_shot.row(y, x0, w):
                continue  # most rows are unchanged: skip them whole
            for x in range(x0, x0 + w):
                if shot.pixel(x, y) != self.first_shot.pixel(x, y):
                    changed += 1
                    in_viewport += inside((x, y), self.viewport)
        check(changed >= MIN_CHANGED_PIXELS,
              f"{changed} pixels of the window changed (>= {MIN_CHANGED_PIXELS}; "
              f"{in_viewport} of them in the viewport)")

    def viewport_changes(self, before, after):
        x0, y0, w, h = self.viewport
        return sum(1 for y in range(y0, y0 + h) if after.row(y, x0, w) != before.row(y, x0, w)
                   for x in range(x0, x0 + w) if after.pixel(x, y) != before.pixel(x, y))

    # d2. the keyboard reaches the app: Space pauses the motion and plays it again
    def check_space_pauses(self):
        log("step d2: Space pauses (the viewport stops changing) and resumes")
        self.client_ok("key", WINDOW_TITLE, "space")
        time.sleep(1)  # let a frame or two in flight land
        first = Screenshot(self.out / "gui_paused_1.png", self.env)
        time.sleep(1)
        second = Screenshot(self.out / "gui_paused_2.png", self.env)
        paused_changes = self.viewport_changes(first, second)
        check(paused_changes == 0, f"{paused_changes} viewport pixels changed in 1 s while paused (expected 0)")
        self.client_ok("key", WINDOW_TITLE, "space")
        time.sleep(1)
        third = Screenshot(self.out / "gui_resumed.png", self.env)
        resumed_changes = self.viewport_changes(second, third)
        check(resumed_changes >= MIN_CHANGED_PIXELS,
              f"{resumed_changes} viewport pixels changed in 1 s after Space again (>= {MIN_CHANGED_PIXELS})")

    # d3. the swapchain survives a resize (re-created at the new size) and being minimised
    def check_resize_and_minimise(self):
        log("step d3: resize the window to 720x480 and back, and minimise it for 1 s")
        x, y, w, h = self.window_rect()
        self.client_ok("resize", WINDOW_TITLE, "720", "480")
        time.sleep(1.5)
        self.require_app_running()
        small = self.window_rect()
        check((small[2], small[3]) == (720, 480), f"the window is now {small[2]}x{small[3]} (expected 720x480)")
        shot = Screenshot(self.out / "gui_resized.png", self.env)
        small_visible = clip_to_screen(small)
        background = [p for p in shot.positions(BACKGROUND) if inside(p, small_visible)]
        check(len(background) >= MIN_BACKGROUND_PIXELS,
              f"{len(background)} viewport background pixels in the small window (>= {MIN_BACKGROUND_PIXELS})")
        box = bounding_box(background)
        check(box[0] + box[2] <= small[0] + 720 and box[1] + box[3] <= small[1] + 480,
              "the viewport lies inside the resized window")
        self.client_ok("minimise", WINDOW_TITLE, "1")
        time.sleep(0.5)
        self.require_app_running()
        self.client_ok("resize", WINDOW_TITLE, str(w), str(h))
        time.sleep(1.5)
        self.require_app_running()
        check(self.window_rect()[2:] == (w, h), f"the window is back to {w}x{h}")
        shot = Screenshot(self.out / "gui_restored.png", self.env)
        restored = clip_to_screen(self.window_rect())
        background = [p for p in shot.positions(BACKGROUND) if inside(p, restored)]
        check(bounding_box(background) == self.viewport,
              "after minimising and resizing back, the viewport is where it was")

    # h. `nudge bench render` runs in a window and prints its JSON line
    def check_bench_render(self):
        log("step h: nudge bench render (a short run)")
        result = subprocess.run([self.nudge, "bench", "render", "--n", "16", "--frames", "20", "--warmup", "2"],
                                cwd=self.source_dir, env=self.env, stdin=subprocess.DEVNULL,
                                capture_output=True, text=True, errors="replace", timeout=120,
                                preexec_fn=die_with_parent)
        log(f"  stderr: {result.stderr.strip()!r}")
        check(result.returncode == 0, f"exit code {result.returncode} (expected 0)")
        lines = result.stdout.strip().splitlines()
        check(lines, "it printed a line on stdout")
        record = json.loads(lines[-1])
        check(record.get("benchmark") == "render" and record.get("frames") == 20 and record.get("n") == 16,
              f"the JSON line names the benchmark, 20 frames and n = 16: {lines[-1]}")
        check(record.get("fps", 0) > 0 and record.get("frame_ms_median", 0) > 0, "fps and frame time are positive")

    # e. a malformed scene dropped on the window is reported, and the scene stays
    def check_drop_error(self):
        log("step e: drop a malformed scene file")
        scene = self.temp_dir("nudge-gui-drop-") / MALFORMED_NAME
        scene.write_text(MALFORMED_SCENE, encoding="utf-8")
        try:
            dropped = self.client_ok("drop", WINDOW_TITLE, str(scene))
        except StepFailed:
            self.require_app_running()  # an app that died on the drop is the real news
            raise
        check(True, f"x11_test_client {dropped} (XDND finished)")
        time.sleep(2)
        deadline = time.monotonic() + ERROR_LINE_TIMEOUT_S
        while True:
            self.require_app_running()
            lines = [l for l in self.app_stderr().splitlines()
                     if ERROR_PREFIX in l and scene.name in l]
            if lines or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        check(True, "nudge still runs after the drop")
        check(lines, f"stderr has a line with '{ERROR_PREFIX}' and '{scene.name}'"
                     + (f": {lines[0]!r}" if lines else ""))
        title = self.client_ok("title", "Nudge")
        check("walker.json" in title, f"the title {title!r} still names walker.json")
        # The banner may need a frame or two (software rendering): a few tries.
        for attempt in range(3):
            shot = Screenshot(self.out / "gui_drop_error.png", self.env)
            rect = clip_to_screen(self.window_rect())
            banner = [p for p in shot.positions(ERROR_BANNER) if inside(p, rect)]
            if len(banner) >= MIN_BANNER_PIXELS:
                break
            time.sleep(1)
        box = bounding_box(banner)
        check(len(banner) >= MIN_BANNER_PIXELS,
              f"{len(banner)} pixels of the error banner colour {describe(ERROR_BANNER)} in "
              f"the window (>= {MIN_BANNER_PIXELS})"
              + (" at %d,%d size %dx%d" % box if box else ""))

    # f. closing the window like a window manager quits cleanly
    def check_close(self):
        log("step f: close the window (WM_DELETE_WINDOW)")
        self.client_ok("close", WINDOW_TITLE)
        try:
            code = self.app.wait(CLOSE_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            raise StepFailed(f"nudge still runs {CLOSE_TIMEOUT_S} s after WM_DELETE_WINDOW")
        check(code == 0, f"nudge exited with code {code} (expected 0)")
        validation = [l for l in self.app_stderr().splitlines() if "validation" in l.lower() and "layer" not in l.lower()]
        check(not validation, "no Vulkan validation message on stderr"
                              + (f" (first: {validation[0]!r})" if validation else ""))

    # g. with no display the app says so and points to the headless commands
    def check_no_display(self):
        log("step g: nudge with no display")
        env = {k: v for k, v in self.env.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
        try:
            result = subprocess.run([self.nudge], cwd=self.source_dir, env=env,
                                    stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                    errors="replace", timeout=NO_DISPLAY_TIMEOUT_S,
                                    preexec_fn=die_with_parent)
        except subprocess.TimeoutExpired:
            raise StepFailed(f"nudge with no display still runs after {NO_DISPLAY_TIMEOUT_S} s")
        log(f"  stderr: {result.stderr.strip()!r}")
        log(f"  stdout: {result.stdout.strip()!r}")
        check(result.returncode == 2, f"exit code {result.returncode} (expected 2)")
        message = result.stderr
        check("display" in message.lower(), "stderr mentions the display")
        for command in ("nudge render", "nudge simulate"):
            check(command in message, f"stderr names '{command}'")

    # i. `nudge SCENE --optimize`: the loss curve appears and the scene moves. The walker's
    # iterates change its motion; the projectile converges in a few iterations, so it plays
    # its result while the curves stay.
    def check_optimize(self):
        self.check_optimize_scene("walker", [])
        self.check_optimize_scene("projectile", ["--play"])

    def check_optimize_scene(self, name, extra):
        log(f"step i: nudge scenes/{name}.json --optimize {' '.join(extra)}")
        out_path, err_path = self.out / f"optimize_{name}_stdout.txt", self.out / f"optimize_{name}_stderr.txt"
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            app = subprocess.Popen([self.nudge, f"scenes/{name}.json", "--optimize", "--validate"] + extra,
                                   cwd=self.source_dir, env=self.env, stdin=subprocess.DEVNULL,
                                   stdout=out, stderr=err, preexec_fn=die_with_parent)
        try:
            deadline = time.monotonic() + WINDOW_TIMEOUT_S
            while self.client_run("wait-window", "Nudge", "1").returncode != 0:
                if app.poll() is not None or time.monotonic() > deadline:
                    raise StepFailed("the window did not open")
            time.sleep(4)
            check(app.poll() is None, "nudge still runs after 4 s of optimising")
            first = Screenshot(self.out / f"gui_optimize_{name}_1.png", self.env)
            time.sleep(1)
            second = Screenshot(self.out / f"gui_optimize_{name}_2.png", self.env)
            title = f"Nudge - a copy of {name}.json"
            x, y, w, h = clip_to_screen(self.window_rect(title))
            # The curves are drawn in ImGui's plot colour, in the right-hand column (above
            # the timeline, right of the viewport).
            curve = 0
            for yy in range(y, y + h * 3 // 4):
                row = second.row(yy, x + w * 3 // 4, w // 4)
                for i in range(0, len(row), 3):
                    r, g, b = row[i], row[i + 1], row[i + 2]
                    curve += abs(r - PLOT_LINE[0]) <= 24 and abs(g - PLOT_LINE[1]) <= 24 and abs(b - PLOT_LINE[2]) <= 24
            check(curve >= MIN_CURVE_PIXELS,
                  f"{curve} pixels of the curves' colour {describe(PLOT_LINE)} in the right column (>= {MIN_CURVE_PIXELS})")
            moved = self.viewport_changes(first, second)
            check(moved >= MIN_CHANGED_PIXELS, f"{moved} viewport pixels changed in 1 s (>= {MIN_CHANGED_PIXELS})")
            stderr = err_path.read_text(errors="replace")
            check("optimising with" in stderr, "the log says it is optimising")
            # The run is not saved: a finished one is a step of the scene's history, a running
            # one not yet in it. Closing asks either way; Discard closes.
            self.client_ok("close", title)
            time.sleep(2)
            stderr = err_path.read_text(errors="replace")
            check(app.poll() is None and ": Save, Discard or Cancel" in stderr,
                  "closing asks first (the run's result is not saved)")
            self.click_all(self.client_ok("title", "Nudge"), [UNSAVED_DISCARD])
            code = app.wait(CLOSE_TIMEOUT_S)
            check(code == 0, f"nudge exited with code {code} (expected 0; 1 means a validation message)")
        finally:
            stop(app)

    # i2. `nudge scenes/drone.json --mpc 100 20 10`: model predictive control runs from the
    # command line (the log says so), the rotors' thrust is drawn as orange arrows, and the
    # window closes cleanly with the validation layer on.
    def check_mpc(self):
        log("step i2: nudge scenes/drone.json --mpc 100 20 10 --play")
        out_path, err_path = self.out / "mpc_stdout.txt", self.out / "mpc_stderr.txt"
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            app = subprocess.Popen([self.nudge, "scenes/drone.json", "--mpc", "100", "20", "10", "--play", "--validate"],
                                   cwd=self.source_dir, env=self.env, stdin=subprocess.DEVNULL,
                                   stdout=out, stderr=err, preexec_fn=die_with_parent)
        try:
            deadline = time.monotonic() + WINDOW_TIMEOUT_S
            while self.client_run("wait-window", "Nudge", "1").returncode != 0:
                if app.poll() is not None or time.monotonic() > deadline:
                    raise StepFailed("the window did not open")
            time.sleep(4)
            check(app.poll() is None, "nudge still runs after 4 s")
            shot = Screenshot(self.out / "gui_mpc.png", self.env)
            title = "Nudge - a copy of drone.json"
            x, y, w, h = clip_to_screen(self.window_rect(title))
            arrows = 0
            for yy in range(y, y + h):
                row = shot.row(yy, x, w)
                for i in range(0, len(row), 3):
                    r, g, b = row[i], row[i + 1], row[i + 2]
                    arrows += (abs(r - ACTUATOR_FORCE[0]) <= 24 and abs(g - ACTUATOR_FORCE[1]) <= 24 and
                               abs(b - ACTUATOR_FORCE[2]) <= 24)
            check(arrows >= MIN_ARROW_PIXELS,
                  f"{arrows} pixels of the thrust arrows' colour {describe(ACTUATOR_FORCE)} (>= {MIN_ARROW_PIXELS})")
            stderr = err_path.read_text(errors="replace")
            check("model predictive control: planning 100 steps every 20" in stderr, "the log says MPC runs")
            self.client_ok("close", title)
            code = app.wait(CLOSE_TIMEOUT_S)
            check(code == 0, f"nudge exited with code {code} (expected 0; 1 means a validation message)")
        finally:
            stop(app)

    # i3. `nudge scenes/footage_spring.json --through-shot --play`: the view looks through the
    # shot's camera with the footage behind the scene; the weight's track is drawn over it
    # (its cyan point and path); the window closes cleanly with the validation layer on.
    def check_footage(self):
        log("step i3: nudge scenes/footage_spring.json --through-shot --play")
        out_path, err_path = self.out / "footage_stdout.txt", self.out / "footage_stderr.txt"
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            app = subprocess.Popen([self.nudge, "scenes/footage_spring.json", "--through-shot", "--play", "--validate"],
                                   cwd=self.source_dir, env=self.env, stdin=subprocess.DEVNULL,
                                   stdout=out, stderr=err, preexec_fn=die_with_parent)
        try:
            deadline = time.monotonic() + WINDOW_TIMEOUT_S
            while self.client_run("wait-window", "Nudge", "1").returncode != 0:
                if app.poll() is not None or time.monotonic() > deadline:
                    raise StepFailed("the window did not open")
            time.sleep(4)
            check(app.poll() is None, "nudge still runs after 4 s")
            shot = Screenshot(self.out / "gui_footage.png", self.env)
            title = "Nudge - a copy of footage_spring.json"
            x, y, w, h = clip_to_screen(self.window_rect(title))
            track = residual = 0
            for yy in range(y, y + h):
                row = shot.row(yy, x, w)
                for i in range(0, len(row), 3):
                    r, g, b = row[i], row[i + 1], row[i + 2]
                    track += abs(r - TRACK[0]) <= 30 and abs(g - TRACK[1]) <= 30 and abs(b - TRACK[2]) <= 30
                    residual += abs(r - RESIDUAL[0]) <= 30 and abs(g - RESIDUAL[1]) <= 30 and abs(b - RESIDUAL[2]) <= 30
            check(track >= MIN_TRACK_PIXELS, f"{track} pixels of the track's colour {describe(TRACK)} (>= {MIN_TRACK_PIXELS})")
            # The residual's length depends on the frame shown (none on frame 0): reported only.
            log(f"  {residual} pixels of the residual's colour {describe(RESIDUAL)}")
            self.client_ok("close", title)
            code = app.wait(CLOSE_TIMEOUT_S)
            check(code == 0, f"nudge exited with code {code} (expected 0; 1 means a validation message)")
        finally:
            stop(app)

    # j. the editor through real clicks: Edit > Add > Cloth, then Undo and Redo
    def check_edit_undo(self):
        log("step j: Edit > Add > Cloth..., Add, Edit > Undo, Edit > Redo, close and Discard on scenes/projectile.json")
        app, err_path = self.start_projectile("edit")
        try:
            title = "Nudge - a copy of projectile.json"
            check(self.client_ok("title", "Nudge") == title, f"the title is {title!r} before any edit")

            # Menu items at their places in the 1280 x 800 window (ImGui's default font).
            def menu(*points):
                for x, y in points:
                    self.client_ok("click", title, str(x), str(y))
                    time.sleep(1.0)
                time.sleep(2.0)  # the edit and the new motion

            menu(*ADD_CLOTH)
            stderr = err_path.read_text(errors="replace")
            check("add a 12 x 12 cloth sheet" in stderr, "the log says the cloth was added")
            check(self.client_ok("title", "Nudge") == title + "*", "the title marks the edit")
            menu((60, 12), (100, 40))  # Edit, Undo
            check("undid add a 12 x 12 cloth sheet" in err_path.read_text(errors="replace"), "the log says it was undone")
            check(self.client_ok("title", "Nudge") == title, "undone back to the file: no mark")
            menu((60, 12), (100, 61))  # Edit, Redo
            check("redid add a 12 x 12 cloth sheet" in err_path.read_text(errors="replace"), "the log says it was redone")
            check(self.client_ok("title", "Nudge") == title + "*", "redone: marked again")
            # Closing with unsaved changes asks first; Discard (centred in the window) closes.
            code = self.close_discarding(app, title + "*", err_path)
            check(code == 0, f"nudge exited with code {code} (expected 0; 1 means a validation message)")
        finally:
            stop(app)

    # j2. a soft body from its dialog: Edit > Add > Soft Box..., Add, and the scene has its tets
    def check_add_soft_box(self):
        log("step j2: Edit > Add > Soft Box..., Add on scenes/projectile.json; Save As holds its 135 tets")
        saved = self.temp_dir("nudge-gui-soft-") / "soft_box.json"
        app, err_path = self.start_projectile("soft")
        try:
            title = "Nudge - a copy of projectile.json"
            self.click_all(title, ADD_SOFT_BOX)
            time.sleep(3)  # the edit and the new motion
            stderr = err_path.read_text(errors="replace")
            check("add a 3 x 3 x 3 soft box" in stderr, "the log says the soft box was added")
            check(self.client_ok("title", "Nudge") == title + "*", "the title marks the edit")
            self.client_ok("key", title + "*", "ctrl+shift+s")
            time.sleep(1.5)
            self.click_all(title + "*", [SAVE_AS_NAME_FIELD], pause=0.7)
            self.client_ok("key", title + "*", "ctrl+a")
            self.type_text(title + "*", str(saved))
            self.click_all(title + "*", [SAVE_AS_SAVE])
            time.sleep(1)
            check(saved.is_file(), f"Save As wrote {saved}")
            scene = json.loads(saved.read_text())
            check(len(scene.get("tets", {}).get("indices", [])) == 5 * 27, "the saved scene has 5 x 27 tets")
            self.client_ok("close", "Nudge")
            time.sleep(2)
            if app.poll() is None:
                self.client_ok("click", "Nudge", "640", "435")  # Discard, if it still asks
            code = app.wait(CLOSE_TIMEOUT_S)
            check(code == 0, f"nudge exited with code {code}")
        finally:
            stop(app)

    def close_discarding(self, app, title, err_path):
        """Close the window of a scene with unsaved changes and press the prompt's Discard.
        Under load (CI runs suites beside this one) a frame can take seconds: wait for the
        prompt's line in the log before clicking, and click again while the process lives."""
        asks = "Save, Discard or Cancel"
        before = err_path.read_text(errors="replace").count(asks)
        self.client_ok("close", title)
        deadline = time.monotonic() + CLOSE_TIMEOUT_S
        while err_path.read_text(errors="replace").count(asks) == before:
            check(app.poll() is None, "closing with unsaved changes leaves the window open")
            check(time.monotonic() < deadline, "the log says it asks about the unsaved changes")
            time.sleep(0.5)
        time.sleep(1)  # the prompt's first frame
        for _ in range(4):
            if app.poll() is not None:
                break
            self.client_run("click", title, *map(str, UNSAVED_DISCARD))
            try:
                app.wait(5)
            except subprocess.TimeoutExpired:
                pass
        return app.wait(CLOSE_TIMEOUT_S)

    # k. crash recovery: an edit, the process killed (SIGKILL), and the next start offers it
    def start_nudge(self, tag, *args):
        """nudge ARGS --validate with its stdout and stderr in --out; returns once its window shows."""
        out_path, err_path = self.out / f"{tag}_stdout.txt", self.out / f"{tag}_stderr.txt"
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            app = subprocess.Popen([self.nudge, *args, "--validate"],
                                   cwd=self.source_dir, env=self.env, stdin=subprocess.DEVNULL,
                                   stdout=out, stderr=err, preexec_fn=die_with_parent)
        deadline = time.monotonic() + WINDOW_TIMEOUT_S
        while self.client_run("wait-window", "Nudge", "1").returncode != 0:
            if app.poll() is not None or time.monotonic() > deadline:
                stop(app)
                raise StepFailed("the window did not open")
        time.sleep(3)
        return app, err_path

    def fresh_layout(self):
        """Forget the panels' arrangement and selected tabs that earlier steps left (a panel
        brought forward scrolls its tab bar): the next start lays them out as a first start
        does, where this test's coordinates point."""
        (self.state_dir / "nudge" / "layout.ini").unlink(missing_ok=True)

    def start_projectile(self, tag):
        return self.start_nudge(tag, "scenes/projectile.json")

    def check_crash_recovery(self):
        log("step k: add a cloth, wait for the autosave, SIGKILL; the next start recovers the cloth")
        title = "Nudge - a copy of projectile.json"
        app, err_path = self.start_projectile("crash")
        try:
            for x, y in ADD_CLOTH:
                self.client_ok("click", title, str(x), str(y))
                time.sleep(1.0)
            time.sleep(4)  # past the autosave delay (2 s)
            check("add a 12 x 12 cloth sheet" in err_path.read_text(errors="replace"), "the cloth was added")
            recovery = self.state_dir / "nudge" / "recovery.json"
            check(recovery.is_file(), f"the autosave wrote {recovery}")
            app.kill()  # SIGKILL: no chance to clean up
            app.wait(CLOSE_TIMEOUT_S)
        finally:
            stop(app)
        check(recovery.is_file(), "the recovery file outlives the killed process")
        check('"position"' in recovery.read_text() and recovery.read_text().count("[") > 145,
              "it holds the cloth's particles")

        app, err_path = self.start_projectile("recover")
        try:
            stderr = err_path.read_text(errors="replace")
            check("found unsaved changes of scenes/projectile.json" in stderr, "the next start offers the changes")
            self.client_ok("click", title, "479", "446")  # Recover (the popup is centred)
            time.sleep(2)
            stderr = err_path.read_text(errors="replace")
            check("recovered the unsaved changes of projectile.json" in stderr, "the log says they are back")
            check(self.client_ok("title", "Nudge") == title + "*", "the recovered scene is unsaved (the title's mark)")
            code = self.close_discarding(app, title + "*", err_path)
            check(code == 0, f"nudge exited with code {code}")
            check(not recovery.exists(), "closing with Discard removed the recovery file")
        finally:
            stop(app)

    # l. build a scene with the mouse and keys, optimise it, save it, load it back
    def type_text(self, title, text):
        names = {".": "period", "/": "slash", "-": "minus", "_": "underscore", " ": "space"}
        for ch in text:
            self.client_ok("key", title, names.get(ch, ch))
            time.sleep(0.15)

    def click_all(self, title, points, pause=1.0):
        for x, y in points:
            self.client_ok("click", title, str(x), str(y))
            time.sleep(pause)

    def check_build_optimise_save_load(self):
        log("step l: New (empty) scene; add a hanging chain and a target with the mouse; optimise; save; load it back")
        saved = self.temp_dir("nudge-gui-build-") / "hanging_chain.json"
        self.fresh_layout()
        app, err_path = self.start_nudge("build")
        try:
            title = "Nudge - untitled"
            stderr = lambda: err_path.read_text(errors="replace")

            self.click_all(title, ADD_CHAIN)
            time.sleep(2)
            check("add a chain of 10 links" in stderr(), "Edit > Add > Chain..., Add: the log says the chain was added")
            # The chain's 11 particles are selected: a mass typed in the inspector is every one's
            # (the Inspector's tab first: the layout kept from the steps before may show another).
            self.click_all(title + "*", [INSPECTOR_TAB, MULTI_MASS_FIELD], pause=0.7)
            self.client_ok("key", title + "*", "ctrl+a")
            self.type_text(title + "*", "0.05")
            self.client_ok("key", title + "*", "Return")
            time.sleep(1.5)
            check("edited mass[0] and 10 more" in stderr(), "a mass typed with 11 particles selected edits all 11")
            self.click_all(title + "*", ADD_TARGET)  # the chain's particles are selected: a target for them
            time.sleep(2)
            check("add a target for 11 particles" in stderr(), "Edit > Add > Target for the Selection")
            # Type the target's x: 0.3 m (the chain hangs from x = 0; its centre swings to -0.4).
            # The Inspector's tab first: the layout kept from the steps before may show another.
            self.click_all(title, [INSPECTOR_TAB, TARGET_X_FIELD], pause=0.7)
            self.client_ok("key", title, "ctrl+a")
            self.type_text(title, "0.3")
            self.client_ok("key", title, "Return")
            time.sleep(2)
            check("move objective 0's target" in stderr(), "the target typed in the inspector")
            # Nothing in a new scene is optimised: tick the particles' initial velocity.
            self.click_all(title, [PARAMETERS_HEADING, INITIAL_VELOCITY_ROW, OPTIMISED_BOX])
            time.sleep(1)
            check("optimise initial_velocity" in stderr(), "Parameters > initial_velocity > optimised ticked")
            losses = re.findall(r"untitled: 1000 steps simulated in \d+ ms, loss ([0-9.e+-]+)", stderr())
            check(len(losses) >= 5, f"a rollout after each edit ({len(losses)} logged)")
            start_loss = float(losses[-1])

            self.click_all(title, [OPTIMISE_TAB, OPTIMISE_START])
            deadline = time.monotonic() + 60
            while "optimisation finished" not in stderr() and time.monotonic() < deadline:
                time.sleep(1)
            found = re.search(r"optimisation finished at iteration (\d+): loss ([0-9.e+-]+)", stderr())
            check(found is not None, "the optimiser ran to the end (the log says so)")
            final_loss = float(found.group(2))
            check(final_loss < 0.9 * start_loss, f"it lowered the loss: {start_loss} -> {final_loss}")

            time.sleep(1)
            check(f"iteration {found.group(1)}'s parameters are now the scene's: one step of history" in stderr(),
                  "the finished run's result is the scene's, as a step of history")
            check(self.client_ok("title", "Nudge") == title + "*", "and the scene is unsaved (the title's mark)")
            # File > New with the scene unsaved and untitled: the prompt's Save As... asks for a
            # name, saves, and the new scene follows.
            self.client_ok("key", title + "*", "ctrl+n")
            time.sleep(1.5)
            check("untitled has unsaved changes: Save, Discard or Cancel" in stderr(), "Ctrl+N asks first")
            self.click_all(title + "*", [UNSAVED_SAVE_AS, SAVE_AS_NAME_FIELD], pause=0.7)
            self.client_ok("key", title + "*", "ctrl+a")
            self.type_text(title + "*", str(saved))
            self.click_all(title + "*", [SAVE_AS_SAVE])
            time.sleep(1.5)
            check(saved.is_file(), f"the prompt's Save As... wrote {saved}")
            check(f"saved {saved}" in stderr() and stderr().rfind("new scene") > stderr().rfind(f"saved {saved}"),
                  "then File > New went on (the log says saved, then new scene)")
            check(self.client_ok("title", "Nudge") == "Nudge - untitled", "the title names the new scene")
            scene = json.loads(saved.read_text())
            check(len(scene["particles"]["position"]) == 11 and len(scene["springs"]["pairs"]) == 10,
                  "the file holds the chain only (11 particles, 10 springs): File > New added nothing")
            target = scene["objectives"][0]
            check(len(scene["objectives"]) == 1 and target["type"] == "target" and
                  target["particles"] == list(range(0, 11)) and target["target"][0] == 0.3,
                  "and the one target, for the chain's particles at x = 0.3")
            velocities = scene["particles"]["velocity"]
            check(any(abs(v) > 1e-6 for row in velocities for v in row), "and the optimised launch velocities")

            # Load it back (as a file manager's drop does) and compare: the same motion's loss.
            self.client_ok("drop", "Nudge", str(saved))
            time.sleep(3)
            check(f"opened {saved}" in stderr(), "the saved file opens again")
            reloaded = re.findall(r"hanging_chain.json: 1000 steps simulated in \d+ ms, loss ([0-9.e+-]+)", stderr())
            check(reloaded and abs(float(reloaded[-1]) - final_loss) <= 1e-5 * final_loss,
                  f"its loss is the optimised one: {reloaded[-1] if reloaded else None} vs {final_loss}")
            # Help > Welcome and Examples: a card opens its example, as a copy.
            self.click_all("Nudge - hanging_chain.json", [HELP_MENU, HELP_WELCOME], pause=1.0)
            time.sleep(3)  # the pictures are drawn in the background
            self.click_all("Nudge - hanging_chain.json", [WELCOME_PROJECTILE_CARD])
            time.sleep(2)
            check("opened a copy of the example" in stderr() and "projectile.json" in stderr().split("opened a copy")[-1],
                  "Help > Welcome and Examples: the projectile's card opens it as a copy")
            self.client_ok("close", "Nudge - a copy of projectile.json")
            code = app.wait(CLOSE_TIMEOUT_S)
            check(code == 0, f"nudge exited with code {code} (nothing unsaved: no prompt)")
            layout = self.state_dir / "nudge" / "layout.ini"
            check(layout.is_file() and "[Docking]" in layout.read_text(errors="replace"),
                  f"the panels' layout is kept for the next start ({layout})")
        finally:
            stop(app)

    # m. the viewport: pick, drag the gizmo, undo, box select, duplicate, Esc
    def check_viewport_editing(self):
        log("step m: click the ball, drag the gizmo's y arrow, Ctrl+Z, Ctrl+drag a box, Ctrl+D on scenes/projectile.json")
        self.fresh_layout()
        app, err_path = self.start_projectile("viewport")
        title = "Nudge - a copy of projectile.json"
        stderr = lambda: err_path.read_text(errors="replace")
        try:
            self.click_all(title, [PROJECTILE_BALL])
            self.client_ok("drag", title, *map(str, PROJECTILE_GIZMO_Y), str(PROJECTILE_GIZMO_Y[0] + 50),
                           str(PROJECTILE_GIZMO_Y[1] - 60), "none")
            time.sleep(2)
            # Along y only (the cursor also went right), snapped to the 0.1 m grid.
            moved = re.search(r"move a particle by \(0, ([0-9.]+), 0\) m", stderr())
            check(moved is not None, "clicking the ball selected it and dragging the y arrow moved it along y only")
            check(abs(float(moved.group(1)) * 10 - round(float(moved.group(1)) * 10)) < 1e-9 and float(moved.group(1)) > 0,
                  f"up, by a multiple of the 0.1 m grid ({moved.group(1)} m)")
            check(self.client_ok("title", "Nudge") == title + "*", "the move is an unsaved change")
            self.client_ok("key", title + "*", "ctrl+z")
            time.sleep(1.5)
            check("undid move a particle" in stderr(), "Ctrl+Z undid the move")
            check(self.client_ok("title", "Nudge") == title, "back to the file")
            # From below the gizmo's tool buttons (top left of the view, while the ball is selected).
            self.client_ok("drag", title, "300", "75", "930", "590", "ctrl")
            time.sleep(1.5)
            check("selected 1 particle(s)" in stderr(), "Ctrl+drag over the view box-selected the ball")
            self.client_ok("key", title, "ctrl+d")
            time.sleep(2)
            check("duplicate particle 0" in stderr(), "Ctrl+D duplicated it")
            self.client_ok("key", title + "*", "Escape")
            time.sleep(1)
            code = self.close_discarding(app, title + "*", err_path)
            check(code == 0, f"nudge exited with code {code}")
        finally:
            stop(app)

    # n. live play: contacts drawn, a Ctrl+right drag pulls the cue ball, nothing is edited
    def check_sweep_table(self):
        log("step o: nudge sweep writes a table; nudge TABLE plots it; its lowest point opens as the scene")
        table = self.temp_dir("nudge-gui-sweep-") / "pendulum.sweep.csv"
        subprocess.run([self.nudge, "sweep", "scenes/pendulum_length.json", "--param", "rest_length=0.6:1.0:9",
                        "--out", str(table)], cwd=self.source_dir, check=True, capture_output=True, timeout=60)
        self.fresh_layout()
        app, err_path = self.start_nudge("sweep", str(table))
        title = "Nudge - a copy of pendulum_length.json"
        stderr = lambda: err_path.read_text(errors="replace")
        try:
            check("opened the sweep table" in stderr() and "9 points, loss mode" in stderr(),
                  "the table opened in the Sweep tab with its 9 points")
            shot = Screenshot(self.out / "gui_sweep.png", self.env)
            curve = sum(1 for x, _ in shot.positions(PLOT_LINE) if x >= SIDE_DOCK_LEFT)
            check(curve >= MIN_CURVE_PIXELS, f"the loss curve is drawn in the Sweep tab ({curve} pixels)")
            self.click_all(title, [SWEEP_PICK_LOWEST, SWEEP_OPEN_POINT], pause=1.5)
            time.sleep(1)
            check("opened point 4 of" in stderr(), "Pick the Lowest, then Open as Scene, opened point 4 (0.8 m)")
            opened = stderr().split("opened point 4 of", 1)[-1]
            check("steps simulated" in opened and ", loss 0\n" in opened,
                  "its rollout has the table's loss at 0.8 m, 0 (the track was made with it)")
            self.client_ok("close", self.client_ok("title", "Nudge"))
            code = app.wait(CLOSE_TIMEOUT_S)
            check(code == 0, f"nudge exited with code {code}")
        finally:
            stop(app)

    # p. a robot's MJCF file on the command line: imported as a new scene, its links drawn
    def check_robot_import(self):
        log("step p: nudge tests/data/articulations/arm7.xml imports the arm; its links and joint axes are drawn")
        self.fresh_layout()
        app, err_path = self.start_nudge("robot", "tests/data/articulations/arm7.xml")
        stderr = lambda: err_path.read_text(errors="replace")
        try:
            check("arm7.xml: 8 links, 7 joint coordinates, 7 actuators" in stderr(), "the arm was imported (8 links, 7 joint coordinates)")
            check("steps simulated" in stderr(), "its motion was simulated")
            shot = Screenshot(self.out / "gui_robot.png", self.env)
            axes = sum(1 for x, _ in shot.positions(JOINT_COLOUR) if x < SIDE_DOCK_LEFT)
            check(axes >= 30, f"the joint axes and the lines between links are drawn ({axes} pixels)")
            self.client_ok("close", self.client_ok("title", "Nudge"))
            code = app.wait(CLOSE_TIMEOUT_S)
            check(code == 0, f"nudge exited with code {code}")
        finally:
            stop(app)

    def check_live_play(self):
        log("step n: View > Contacts, Ctrl+right drag the cue ball of scenes/billiards.json, close")
        self.fresh_layout()
        app, err_path = self.start_nudge("live", "scenes/billiards.json")
        title = "Nudge - a copy of billiards.json"
        stderr = lambda: err_path.read_text(errors="replace")
        try:
            self.click_all(title, [VIEW_MENU, VIEW_CONTACTS], pause=1.0)
            time.sleep(1.5)
            shot = Screenshot(self.out / "gui_contacts.png", self.env)
            touching = sum(1 for _ in shot.positions(CONTACT_COLOUR))
            check(touching > 0, f"View > Contacts draws where the balls touch the cloth ({touching} pixels)")
            self.client_ok("drag", title, *map(str, BILLIARDS_CUE_BALL), "560", "300", "ctrl+right")
            time.sleep(1)
            check("live play from frame 0" in stderr(), "Ctrl+right drag on the cue ball started live play")
            first = Screenshot(self.out / "gui_live_1.png", self.env)
            time.sleep(1.5)
            second = Screenshot(self.out / "gui_live_2.png", self.env)
            differing = sum(first.pixel(x, y) != second.pixel(x, y)
                            for x in range(300, 930, 3) for y in range(40, 590, 3))
            check(differing > 0, f"live play goes on after the drag ({differing} sampled pixels changed in 1.5 s)")
            check(app.poll() is None, "nudge still runs")
            check(self.client_ok("title", "Nudge") == title, "live play changed nothing in the scene (no '*')")
            self.client_ok("close", title)
            code = app.wait(CLOSE_TIMEOUT_S)
            check(code == 0, f"nudge exited with code {code} (nothing unsaved: no prompt)")
        finally:
            stop(app)

    def run(self):
        steps = [("a: start Xvfb", self.start_xvfb),
                 ("b: start the app", self.start_app),
                 ("c: screenshot shows the app", self.check_app_shown),
                 ("d: the motion plays", self.check_playing),
                 ("d2: Space pauses and resumes", self.check_space_pauses),
                 ("d3: resize and minimise", self.check_resize_and_minimise),
                 ("e: malformed scene dropped", self.check_drop_error),
                 ("f: close the window", self.check_close),
                 ("g: no display", self.check_no_display),
                 ("h: bench render", self.check_bench_render),
                 ("i: optimise from the command line", self.check_optimize),
                 ("i2: model predictive control from the command line", self.check_mpc),
                 ("i3: the footage behind the scene, through its camera", self.check_footage),
                 ("j: edit, undo and redo with the mouse", self.check_edit_undo),
                 ("j2: a soft box from its dialog", self.check_add_soft_box),
                 ("k: crash recovery", self.check_crash_recovery),
                 ("l: build, optimise, save and load a scene", self.check_build_optimise_save_load),
                 ("m: pick, move, box select and duplicate in the viewport", self.check_viewport_editing),
                 ("n: live play: contacts, a pull with the mouse", self.check_live_play),
                 ("o: a sweep's table plotted, its best point opened", self.check_sweep_table),
                 ("p: a robot's MJCF imported and drawn", self.check_robot_import)]
        if self.only:
            steps = [step for step in steps if step[0].split(":")[0] in self.only]
        for name, step in steps:
            try:
                step()
            except (StepFailed, subprocess.SubprocessError, OSError) as error:
                log(f"FAIL [step {name}]: {error}")
                if self.app:
                    log(f"--- nudge stderr (tail) ---\n{tail(self.stderr_path)}")
                    log(f"--- nudge stdout (tail) ---\n{tail(self.stdout_path, 10)}")
                log(f"(screenshots and logs in {self.out})")
                return 1
        log("PASS: the GUI under Xvfb")
        return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nudge", required=True, help="the nudge binary")
    parser.add_argument("--client", required=True, help="the x11_test_client binary")
    parser.add_argument("--source-dir", required=True, help="the repository root (has scenes/)")
    parser.add_argument("--out", required=True, help="folder for screenshots and logs")
    parser.add_argument("--only", help="run only these steps, e.g. a,l (a starts Xvfb)")
    args = parser.parse_args()
    for name, path in (("--nudge", args.nudge), ("--client", args.client)):
        if not os.access(path, os.X_OK):
            log(f"FAIL [setup]: {name} {path} is not an executable file")
            return 1
    for tool in ("Xvfb", "import", "convert"):
        if not shutil.which(tool):
            log(f"FAIL [setup]: '{tool}' is not installed (needs Xvfb and ImageMagick)")
            return 1
    # SIGTERM (a ctest timeout, Ctrl-C from a wrapper) still runs the cleanup below.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    test = GuiTest(args)
    try:
        return test.run()
    finally:
        test.cleanup()


if __name__ == "__main__":
    sys.exit(main())
