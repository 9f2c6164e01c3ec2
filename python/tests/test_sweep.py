"""nudge.sweep: the table on local threads equals a serial run's; a stopped sweep resumes;
on a Ray cluster (a head on 127.0.0.1 with two workers, started here) a worker killed
mid-sweep loses no point and the table equals the serial one; `nudge sweep --ray` writes
the same table. Run by ctest (python_tests) with PYTHONPATH at the build's python/ folder,
NUDGE_SOURCE at the repository and NUDGE_BINARY at the nudge command."""
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

import numpy as np

import nudge

SOURCE = os.environ.get("NUDGE_SOURCE", os.path.join(os.path.dirname(__file__), "..", ".."))
PENDULUM = os.path.join(SOURCE, "scenes", "pendulum_length.json")
CLOTH = os.path.join(SOURCE, "scenes", "cloth.json")
PROJECTILE = os.path.join(SOURCE, "scenes", "projectile.json")


def launch_velocities(count):
    """Parameter sets for a batch of gradients: the projectile launched at `count` speeds."""
    return [{"initial_velocity": [[2.0 + 0.5 * k, 4.0, 0.0]]} for k in range(count)]


def assert_same_gradients(test, a, b):
    test.assertEqual(len(a), len(b))
    for (loss_a, grads_a), (loss_b, grads_b) in zip(a, b):
        test.assertEqual(loss_a, loss_b)
        test.assertEqual(sorted(grads_a), sorted(grads_b))
        for name in grads_a:
            np.testing.assert_array_equal(grads_a[name], grads_b[name], err_msg=name)


def assert_same_table(test, a, b):
    test.assertEqual(sorted(a), sorted(b))
    for name in a:
        if name == "status":
            test.assertEqual(a[name], b[name])
        else:
            np.testing.assert_array_equal(a[name], b[name], err_msg=name)  # the same bits


class LocalSweepTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def path(self, name):
        return os.path.join(self.dir.name, name)

    def test_threads_equal_serial_and_a_stopped_sweep_resumes(self):
        params = {"rest_length": (0.6, 1.0, 5), "damping": (10, 30, 3)}
        serial = nudge.sweep(PENDULUM, params, self.path("serial.csv"), mode="gradient", threads=1)
        self.assertEqual(len(serial["index"]), 15)
        np.testing.assert_array_equal(serial["index"], np.arange(15))
        self.assertEqual(serial["status"], ["ok"] * 15)
        sim = nudge.Simulator(nudge.load_scene(PENDULUM), device="cpu")
        self.assertEqual(serial["loss"][4], sim.loss({"rest_length": [serial["rest_length"][4]],
                                                      "damping": [serial["damping"][4]]}))

        threaded = nudge.sweep(PENDULUM, params, self.path("threads.csv"), mode="gradient", threads=2)
        assert_same_table(self, threaded, serial)

        seen = []
        partial = nudge.sweep(PENDULUM, params, self.path("stopped.csv"), mode="gradient", threads=1,
                              on_row=lambda row: seen.append(row[0]) or len(seen) < 4)
        self.assertEqual(len(partial["index"]), 4)
        resumed = nudge.sweep(PENDULUM, params, self.path("stopped.csv"), mode="gradient", threads=2,
                              on_row=lambda row: seen.append(row[0]))
        self.assertEqual(len(seen), 15)  # each point ran once
        assert_same_table(self, resumed, serial)

    def test_a_batch_of_gradients_on_threads_is_each_sets_gradient(self):
        sets = launch_velocities(8)
        serial = nudge.gradients(PROJECTILE, sets, threads=1)
        sim = nudge.Simulator(nudge.load_scene(PROJECTILE), device="cpu", threads=1)
        assert_same_gradients(self, serial, [sim.gradient(values) for values in sets])
        assert_same_gradients(self, nudge.gradients(PROJECTILE, sets, threads=2), serial)
        self.assertEqual(nudge.gradients(PROJECTILE, []), [])
        with self.assertRaisesRegex(nudge.Error, "no parameter named 'speed'"):
            nudge.gradients(PROJECTILE, [{"speed": [[1.0]]}], threads=2)

    def test_a_parquet_table_and_its_journal(self):
        import pyarrow.parquet  # scripts/setup installs it into the tests' venv
        params = {"rest_length": (0.6, 1.0, 5)}
        out = self.path("lengths.parquet")
        partial = nudge.sweep(PENDULUM, params, out, threads=1, on_row=lambda row: row[0] < 2)
        self.assertEqual(len(partial["index"]), 3)
        self.assertEqual(pyarrow.parquet.read_table(out).num_rows, 3)  # what was done when it stopped
        columns = nudge.sweep(PENDULUM, params, out, threads=2)  # resumes from lengths.parquet.csv
        read = pyarrow.parquet.read_table(out)
        self.assertEqual(read.column_names, ["index", "rest_length", "loss", "status"])
        self.assertEqual(read.schema.metadata[b"nudge.sweep.mode"], b"loss")
        np.testing.assert_array_equal(read.column("index").to_numpy(), np.arange(5))
        np.testing.assert_array_equal(read.column("loss").to_numpy(), columns["loss"])
        self.assertEqual(read.column("status").to_pylist(), ["ok"] * 5)
        assert_same_table(self, columns, nudge.sweep(PENDULUM, params, self.path("lengths.csv"), threads=1))

    def test_errors_are_nudge_errors(self):
        with self.assertRaisesRegex(nudge.Error, "no parameter named 'rest_lenght'"):
            nudge.sweep(PENDULUM, ["rest_lenght=1:2:3"], self.path("t.csv"))
        with self.assertRaisesRegex(nudge.Error, "expected \\(from, to, count\\)"):
            nudge.sweep(PENDULUM, {"rest_length": (1, 2)}, self.path("t.csv"))
        nudge.sweep(PENDULUM, ["rest_length=0.7:0.9:3"], self.path("t.csv"))
        with self.assertRaisesRegex(nudge.Error, "begun by another sweep"):
            nudge.sweep(PENDULUM, ["rest_length=0.7:0.9:4"], self.path("t.csv"))
        with self.assertRaisesRegex(ValueError, "boom"):
            nudge.sweep(PENDULUM, ["rest_length=0.5:0.9:4"], self.path("u.csv"), threads=1,
                        on_row=lambda row: (_ for _ in ()).throw(ValueError("boom")))
        self.assertEqual(len(nudge.read_sweep(self.path("u.csv"))["index"]), 1)  # the row before it stays


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def busy_workers():
    """The pids of Ray workers running a batch of sweep points (their process title)."""
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    if f.read().startswith(b"ray::evaluate_points"):
                        pids.append(int(entry))
            except OSError:
                pass
    return pids


def worker_killer(every_busy=True):
    """(the pids killed, an on_row callback that SIGKILLs the workers running a batch, once).
    Every busy one: one that is about to finish its batch as it is killed may have
    returned it already, but not both of the two workers. With every_busy False, one:
    Ray 2.40's driver can abort ("Tried to retry task that was not pending") when a
    worker it is told died had just returned a task that may not be retried, so a test
    with no retries kills as few as it can."""
    killed = []

    def kill_the_busy_workers(row):
        deadline = time.time() + 5
        while not killed and time.time() < deadline:
            for pid in busy_workers()[: None if every_busy else 1]:
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
            time.sleep(0.005)

    return killed, kill_the_busy_workers


class RaySweepTest(unittest.TestCase):
    """A Ray head on 127.0.0.1 with two worker slots, started for these tests and stopped
    with them (ray start --block ends its cluster when it is stopped)."""

    @classmethod
    def setUpClass(cls):
        import ray  # scripts/setup installs it into the tests' venv
        cls.dir = tempfile.TemporaryDirectory()
        port = free_port()
        cls.address = f"127.0.0.1:{port}"
        ray_command = os.path.join(os.path.dirname(sys.executable), "ray")
        env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")
        cls.head = subprocess.Popen(
            [ray_command, "start", "--head", "--block", "--node-ip-address=127.0.0.1", f"--port={port}",
             "--num-cpus=2", "--include-dashboard=false", "--disable-usage-stats"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                time.sleep(0.5)
        else:
            cls.tearDownClass()
            raise RuntimeError("the Ray head did not start within 60 s")
        cls.ray = ray

    @classmethod
    def tearDownClass(cls):
        os.killpg(cls.head.pid, signal.SIGTERM)  # its session: the head and its workers
        try:
            cls.head.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(cls.head.pid, signal.SIGKILL)
        cls.dir.cleanup()

    def path(self, name):
        return os.path.join(self.dir.name, name)

    def test_a_killed_worker_loses_no_point(self):
        params = {"initial_velocity[0,0]": (-1, 1, 12), "initial_velocity[0,1]": (0, 2, 2)}
        killed, kill_the_busy_workers = worker_killer()

        on_ray = nudge.sweep(CLOTH, params, self.path("ray.csv"), mode="gradient", ray=self.address, batch=1,
                             on_row=kill_the_busy_workers)
        self.assertGreaterEqual(len(killed), 1, "no worker was running a batch when the first row came back")
        serial = nudge.sweep(CLOTH, params, self.path("serial.csv"), mode="gradient", threads=1)
        self.assertEqual(len(on_ray["index"]), 24)
        assert_same_table(self, on_ray, serial)

    def test_a_batch_out_of_retries_is_an_error_and_the_sweep_resumes(self):
        params = {"initial_velocity[0,0]": (-1, 1, 12)}
        killed, kill_the_busy_workers = worker_killer(every_busy=False)

        table = self.path("no_retries.csv")
        with self.assertRaisesRegex(nudge.Error, "failed on Ray after 0 retries.*running the sweep again resumes"):
            nudge.sweep(CLOTH, params, table, mode="gradient", ray=self.address, batch=1, retries=0,
                        on_row=kill_the_busy_workers)
        self.assertGreaterEqual(len(killed), 1)
        written = len(nudge.read_sweep(table)["index"])
        self.assertLess(written, 12)
        resumed = nudge.sweep(CLOTH, params, table, mode="gradient", ray=self.address, batch=1)
        serial = nudge.sweep(CLOTH, params, self.path("serial12.csv"), mode="gradient", threads=1)
        assert_same_table(self, resumed, serial)

    def test_a_batch_of_gradients_on_ray_equals_the_local_one(self):
        sets = launch_velocities(10)
        on_ray = nudge.gradients(PROJECTILE, sets, ray=self.address, batch=3)
        assert_same_gradients(self, on_ray, nudge.gradients(PROJECTILE, sets, threads=1))
        with self.assertRaisesRegex(nudge.Error, "^no parameter named 'speed'.*; no gradient is returned"):
            nudge.gradients(PROJECTILE, [{"speed": [[1.0]]}], ray=self.address)

    def test_the_command_line_on_ray_writes_the_same_table(self):
        binary = os.environ.get("NUDGE_BINARY")
        if not binary:
            self.skipTest("NUDGE_BINARY is not set (ctest sets it when the build has the command line)")
        env = dict(os.environ, NUDGE_PYTHON=sys.executable)
        args = [PENDULUM, "--param", "rest_length=0.5:1.2:8", "--mode", "optimize"]
        subprocess.run([binary, "sweep", *args, "--ray", self.address, "--out", self.path("cli_ray.csv")],
                       env=env, check=True, capture_output=True)
        subprocess.run([binary, "sweep", *args, "--out", self.path("cli.csv")], check=True, capture_output=True)
        assert_same_table(self, nudge.read_sweep(self.path("cli_ray.csv")), nudge.read_sweep(self.path("cli.csv")))


if __name__ == "__main__":
    unittest.main()
