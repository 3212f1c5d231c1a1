"""The heterogeneous-job defences of tools/launcher/slurm_hetjob.py, without Slurm: the linger wrapper
keeps the program's exit status, waits after it and lets SIGUSR1 (sent to the whole task, as
slurmstepd does) reach the program only; HungStepGuard ends a step whose launcher hangs after
both programs printed their last lines, and only then."""
import os
import signal
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from launcher.slurm_hetjob import HungStepGuard, _linger, linger_seconds  # noqa: E402

# A program that says it is ready, then exits 5 on SIGUSR1 (or 7 after 20 s without one).
PROGRAM = [sys.executable, "-c", "import signal, sys, time\n"
           "signal.signal(signal.SIGUSR1, lambda *a: sys.exit(5))\n"
           "print('ready', flush=True)\ntime.sleep(20)\nsys.exit(7)"]


def run_guarded(script, grace):
    """Runs `sh -c script` as the launcher would srun; returns (status, guard fired, seconds)."""
    process = subprocess.Popen(["sh", "-c", script], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    guard = HungStepGuard(process, grace=grace)
    start = time.monotonic()
    for line in process.stdout:
        guard.saw(line)
    guard.cancel()
    return process.wait(), guard.ended_hung_step, time.monotonic() - start


class LingerTest(unittest.TestCase):
    def test_keeps_the_status_and_waits_after_the_program(self):
        start = time.monotonic()  # a lower bound: load only lengthens it; wall-clock steps cannot
        status = subprocess.call(_linger(1.5) + ["sh", "-c", "exit 3"])
        self.assertEqual(status, 3)
        self.assertGreaterEqual(time.monotonic() - start, 1.5)

    def test_usr1_to_the_whole_task_reaches_the_program_not_the_shell(self):
        task = subprocess.Popen(_linger(0.5) + PROGRAM, stdout=subprocess.PIPE, text=True, start_new_session=True)
        self.assertEqual(task.stdout.readline().strip(), "ready")
        os.killpg(task.pid, signal.SIGUSR1)  # the shell and the program, as srun's signal forwarding
        self.assertEqual(task.wait(timeout=10), 5)
        task.stdout.close()

    def test_zero_turns_it_off_and_nonsense_is_refused(self):
        self.assertEqual(_linger(0), [])
        os.environ["TRACKCOSIM_HETJOB_LINGER_S"] = "two"
        try:
            with self.assertRaises(SystemExit):
                linger_seconds()
        finally:
            del os.environ["TRACKCOSIM_HETJOB_LINGER_S"]
        self.assertEqual(linger_seconds(), 3)


class HungStepGuardTest(unittest.TestCase):
    def test_ends_a_launcher_that_hangs_after_both_last_lines(self):
        # Like srun stuck in pmixp_abort_agent_stop, with a helper process holding the pipe. The
        # helper starts before the last lines and the launcher becomes the hung `sleep` by exec:
        # on a busy machine the guard may fire before a shell gets to fork, and a helper forked
        # after the guard listed the tree would hold the pipe for its 60 s. The bound only tells
        # the guard's ending (1 s grace) from the 60 s hang.
        status, fired, seconds = run_guarded(
            "sleep 60 & echo 'vehicle cosim steps=5'; echo 'terrain stopped step=5'; exec sleep 60", grace=1)
        self.assertTrue(fired)
        self.assertEqual(status, -signal.SIGKILL)
        self.assertLess(seconds, 30)

    def test_leaves_a_launcher_that_returns(self):
        # srun returning after the programs' lines: nothing to end. The grace is far beyond the
        # launcher's exit (was 0.5 s of sleep against 2 s of grace, which a busy machine can break).
        status, fired, _ = run_guarded("echo 'vehicle cosim steps=5'; echo 'terrain cosim steps=5'", grace=60)
        self.assertEqual((status, fired), (0, False))

    def test_waits_while_a_program_has_not_ended(self):
        # Only the vehicle's line: the terrain may still be running, the guard must not fire.
        status, fired, _ = run_guarded("echo 'vehicle cosim steps=5'; sleep 2.5; exit 4", grace=1)
        self.assertEqual((status, fired), (4, False))


if __name__ == "__main__":
    unittest.main()
