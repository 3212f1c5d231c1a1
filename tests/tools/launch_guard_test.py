"""tools/launcher/launch_guard.py without MPI or Slurm: a launcher that hangs after a line saying a rank gave
up on a lost peer is ended after the grace time, with its helper processes and one line saying so;
a launcher that returns, or that printed no such line, is left alone; SIGUSR1 to the guard reaches
the launcher."""
import os
import signal
import subprocess
import sys
import time
import unittest

TOOLS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools")
sys.path.insert(0, TOOLS)
from launcher.launch_guard import LOST_PEER_LINES, LostPeerGuard  # noqa: E402

WATCHDOG = ("terrain_node rank 1: error: no progress for 20 s since terrain step 10: a peer (another rank of this "
            "program, or the other program) stopped answering; ending the job (exit status 3)")


def run_guarded(script, grace):
    """Runs `sh -c script` as a launcher; returns (status, guard fired, seconds)."""
    process = subprocess.Popen(["sh", "-c", script], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    guard = LostPeerGuard(process, grace=grace, name="srun")
    start = time.monotonic()
    with process.stdout:
        for line in process.stdout:
            guard.saw(line)
    guard.cancel()
    return process.wait(), guard.ended_hung_launcher, time.monotonic() - start


class LostPeerLinesTest(unittest.TestCase):
    def test_lines_that_start_the_grace_time(self):
        for line in (WATCHDOG,
                     "vehicle_node: error: the terrain (mpi world rank 1) stopped answering while the vehicle waited",
                     "ORTE has lost communication with a remote daemon.",
                     "a non-zero exit code. Per user-direction, the job has been aborted.",
                     "srun: error: h1: tasks 0-1: Exited with exit code 3",
                     "srun: error: h1: task 1: Killed",
                     "srun: Job step aborted: Waiting up to 32 seconds for job step to finish."):
            self.assertTrue(LOST_PEER_LINES.search(line), line)

    def test_lines_of_a_run_that_goes_well(self):
        for line in ("t 0.04 / 0.2 s (20.0%)  elapsed 1 min 03 s  0.6828 steps/s  ETA 3 min 56 s  3799 contacts",
                     "settle bodies=3245 steps=30 contacts=2407 seconds=1.17 ranks=2 stop=end_time",
                     "srun: error: h1: task 0: Exited with exit code 0"):
            self.assertFalse(LOST_PEER_LINES.search(line), line)


class LostPeerGuardTest(unittest.TestCase):
    def test_ends_a_launcher_that_hangs_after_a_rank_gave_up(self):
        # Like srun waiting for a lost node's tasks, with a helper process holding the pipe. The
        # helper starts before the line and the launcher becomes the hung `sleep` by exec: on a
        # busy machine the guard may fire before a shell gets to fork, and a helper forked after
        # the guard listed the tree would hold the pipe for its 60 s. The bound only tells the
        # guard's ending (1 s grace) from the 60 s hang.
        status, fired, seconds = run_guarded("sleep 60 & echo '%s'; exec sleep 60" % WATCHDOG, grace=1)
        self.assertTrue(fired)
        self.assertEqual(status, -signal.SIGKILL)
        self.assertLess(seconds, 30)

    def test_leaves_a_launcher_that_returns_within_the_grace_time(self):
        # The grace is far beyond the launcher's exit (was 0.5 s of sleep against 2 s of grace,
        # which a busy machine can break).
        status, fired, _ = run_guarded("echo '%s'; exit 3" % WATCHDOG, grace=60)
        self.assertEqual((status, fired), (3, False))

    def test_leaves_a_launcher_without_a_lost_peer(self):
        status, fired, _ = run_guarded("echo 'settle bodies=3245 steps=30'; sleep 2.5; exit 0", grace=1)
        self.assertEqual((status, fired), (0, False))

    def test_command_line_passes_output_usr1_and_status(self):
        # The launcher (here sh) exits 5 on SIGUSR1; the guard forwards SIGUSR1 and TERM to it.
        script = "trap 'exit 5' USR1; echo ready; while :; do sleep 0.1; done"
        guard = subprocess.Popen([sys.executable, os.path.join(TOOLS, "launcher", "launch_guard.py"), "--grace", "5",
                                  "--", "sh", "-c", script], stdout=subprocess.PIPE, text=True)
        self.assertEqual(guard.stdout.readline().strip(), "ready")
        guard.send_signal(signal.SIGUSR1)
        self.assertEqual(guard.wait(timeout=10), 5)
        guard.stdout.close()


if __name__ == "__main__":
    unittest.main()
