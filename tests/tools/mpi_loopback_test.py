"""tools/launcher/mpi_loopback.py: which runs the launcher keeps on the loopback, and that a user's or a
site's own Open MPI settings win; tools/launcher/private_network.py: which runs get a network namespace of
their own, and how. Pure functions of an environment, plus the launcher's
--dry-run (stand-in programs, nothing runs). The running co-simulation's sockets are checked by
tests/mpi/cosim_loopback_run.sh."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TRACKCOSIM = os.path.join(ROOT, "tools", "launcher", "trackcosim.py")
sys.path.insert(0, os.path.join(ROOT, "tools"))
from launcher import private_network  # noqa: E402
from launcher.mpi_loopback import loopback_settings, on_one_host  # noqa: E402

LOOPBACK = {"OMPI_MCA_btl": "self,vader", "OMPI_MCA_oob_tcp_if_include": "lo"}


class WhichRunsTest(unittest.TestCase):
    def test_mpirun_outside_a_batch_job_is_one_host(self):
        self.assertEqual(loopback_settings({}, "mpirun"), LOOPBACK)

    def test_a_slurm_job_of_one_node_is_one_host_under_either_launcher(self):
        for launcher in ("mpirun", "srun"):
            self.assertEqual(loopback_settings({"SLURM_JOB_ID": "7", "SLURM_JOB_NUM_NODES": "1"}, launcher), LOOPBACK)

    def test_a_slurm_job_of_several_nodes_is_left_alone(self):
        for launcher in ("mpirun", "srun"):
            self.assertEqual(loopback_settings({"SLURM_JOB_ID": "7", "SLURM_JOB_NUM_NODES": "2"}, launcher), {})

    def test_two_processes_of_the_launcher_are_one_host_even_in_a_job_of_several_nodes(self):
        """--launcher tcp: Open MPI singletons, kept from forking their daemon (which would listen
        on every interface), unless the user chose."""
        singleton = dict(LOOPBACK, OMPI_MCA_ess_singleton_isolated="1")
        self.assertEqual(loopback_settings({}, "tcp"), singleton)
        self.assertEqual(loopback_settings({"SLURM_JOB_ID": "7", "SLURM_JOB_NUM_NODES": "2"}, "tcp"), singleton)
        self.assertEqual(loopback_settings({"OMPI_MCA_ess_singleton_isolated": "0"}, "tcp"), LOOPBACK)
        self.assertNotIn("OMPI_MCA_ess_singleton_isolated", loopback_settings({}, "mpirun"))

    def test_srun_outside_a_job_may_allocate_several_nodes(self):
        self.assertEqual(loopback_settings({}, "srun"), {})

    def test_a_heterogeneous_job_is_one_host_only_with_both_components_on_one_node(self):
        job = {"SLURM_JOB_ID": "9", "SLURM_HET_SIZE": "2", "SLURM_JOB_NUM_NODES": "1",
               "SLURM_JOB_NUM_NODES_HET_GROUP_0": "1", "SLURM_JOB_NUM_NODES_HET_GROUP_1": "1",
               "SLURM_JOB_NODELIST_HET_GROUP_0": "n1", "SLURM_JOB_NODELIST_HET_GROUP_1": "n2"}
        self.assertFalse(on_one_host(job, "hetjob"))  # the test cluster's two slurmd: two hosts to Open MPI
        self.assertTrue(on_one_host(dict(job, SLURM_JOB_NODELIST_HET_GROUP_1="n1"), "hetjob"))
        self.assertFalse(on_one_host(dict(job, SLURM_JOB_NODELIST_HET_GROUP_1="n1",
                                          SLURM_JOB_NUM_NODES_HET_GROUP_1="2"), "hetjob"))

    def test_a_host_list_for_mpirun_is_left_alone(self):
        for name in ("OMPI_MCA_orte_default_hostfile", "OMPI_MCA_orte_default_dash_host", "PE_HOSTFILE"):
            self.assertEqual(loopback_settings({name: "hosts"}, "mpirun"), {}, name)

    def test_an_installed_default_hostfile_with_hosts_is_left_alone(self):
        with tempfile.TemporaryDirectory() as prefix:
            os.makedirs(os.path.join(prefix, "etc"))
            mpirun = os.path.join(prefix, "bin", "mpirun")
            hostfile = os.path.join(prefix, "etc", "openmpi-default-hostfile")
            with open(hostfile, "w") as f:
                f.write("# comments only\n\n")
            self.assertEqual(loopback_settings({}, "mpirun", mpirun), LOOPBACK)
            with open(hostfile, "a") as f:
                f.write("node7 slots=4  # a host\n")
            self.assertEqual(loopback_settings({}, "mpirun", mpirun), {})


class UsersChoiceTest(unittest.TestCase):
    def test_a_chosen_btl_is_kept(self):
        self.assertEqual(loopback_settings({"OMPI_MCA_btl": "tcp,self"}, "mpirun"),
                         {"OMPI_MCA_oob_tcp_if_include": "lo"})

    def test_chosen_tcp_interfaces_keep_the_tcp_btl(self):
        for name in ("OMPI_MCA_btl_tcp_if_include", "OMPI_MCA_btl_tcp_if_exclude"):
            self.assertNotIn("OMPI_MCA_btl", loopback_settings({name: "eth0"}, "mpirun"), name)

    def test_chosen_out_of_band_interfaces_are_kept(self):
        # Open MPI refuses if_include and if_exclude together: an exclude means no include.
        for name in ("OMPI_MCA_oob_tcp_if_include", "OMPI_MCA_oob_tcp_if_exclude"):
            self.assertEqual(loopback_settings({name: "eth1"}, "mpirun"), {"OMPI_MCA_btl": "self,vader"}, name)


class LauncherTest(unittest.TestCase):
    """The launcher says what it adds (its --dry-run, stand-in programs: nothing runs)."""

    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)
        for program in ("vehicle_node", "terrain_node"):
            os.makedirs(os.path.join(self.folder.name, program))
            path = os.path.join(self.folder.name, program, program)
            with open(path, "w") as f:
                f.write("#!/bin/sh\nexit 1\n")
            os.chmod(path, 0o755)
        self.run_file = os.path.join(self.folder.name, "run.json")
        with open(self.run_file, "w") as f:
            json.dump({"vehicle": {"config": os.path.join(ROOT, "configs", "vehicles", "ndia_light_robot.json")},
                       "terrain": {"config": os.path.join(ROOT, "configs", "cosim_plane_terrain.json")}}, f)

    def dry_run(self, **environment):
        env = {k: v for k, v in os.environ.items() if not k.startswith(("OMPI_MCA_", "SLURM_"))}
        env.update(environment, TRACKCOSIM_BUILD=self.folder.name, TRACKCOSIM_BED_STORE="off")
        result = subprocess.run([sys.executable, TRACKCOSIM, "run", self.run_file,
                                 "--dry-run", "--out", os.path.join(self.folder.name, "out")],
                                capture_output=True, text=True, timeout=60, env=env)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        return [line for line in result.stdout.splitlines() if line.startswith("trackcosim: one host:")]

    def test_the_launcher_names_the_settings_it_adds(self):
        said = [line for line in self.dry_run() if "kept on the loopback" in line]
        self.assertEqual(len(said), 1, said)
        self.assertIn("OMPI_MCA_btl=self,vader OMPI_MCA_oob_tcp_if_include=lo", said[0])
        kept = [line for line in self.dry_run(OMPI_MCA_btl="tcp,self") if "kept on the loopback" in line]
        self.assertEqual(len(kept), 1, kept)
        self.assertNotIn("OMPI_MCA_btl=", kept[0])
        self.assertEqual(self.dry_run(SLURM_JOB_ID="5", SLURM_JOB_NUM_NODES="2"), [])

    def test_the_launcher_says_whether_the_run_has_its_own_network(self):
        said = [line for line in self.dry_run() if "network namespace" in line or "every interface" in line]
        self.assertEqual(len(said), 1, said)
        self.assertEqual([line for line in self.dry_run(TRACKCOSIM_NETNS="off") if "namespace" in line], [])


def fake_unshare(works):
    """A stand-in for trying unshare: `works(options)` says whether those options succeed."""
    def run(argv):
        return works(argv[1:argv.index("--")])
    return run


class PrivateNetworkTest(unittest.TestCase):
    COMMAND = ["mpirun", "-np", "1", "vehicle_node", ":", "-np", "2", "terrain_node"]

    def test_only_mpirun_on_one_host_outside_a_batch_job(self):
        self.assertTrue(private_network.wanted({}, "mpirun", True))
        self.assertFalse(private_network.wanted({}, "mpirun", False))  # ranks on other hosts
        self.assertFalse(private_network.wanted({}, "srun", True))
        self.assertFalse(private_network.wanted({"SLURM_JOB_ID": "4"}, "mpirun", True))  # Slurm's daemons outside
        self.assertFalse(private_network.wanted({"TRACKCOSIM_NETNS": "off"}, "mpirun", True))

    def test_the_command_runs_inside_with_the_loopback_up_and_the_same_process(self):
        spawned, env, line = private_network.isolate(self.COMMAND, {}, "mpirun", True, fake_unshare(lambda o: True))
        self.assertEqual(os.path.basename(spawned[0]), "unshare")
        self.assertEqual(spawned[1:], ["--net", "--", "sh", "-c", 'ip link set lo up && exec "$@"', "sh"] + self.COMMAND)
        self.assertEqual(env, {})
        self.assertIn("a network namespace of its own, with only its loopback", line)

    def test_a_user_namespace_when_root_is_not_there_and_open_mpi_told_it_is_root_inside(self):
        spawned, env, _ = private_network.isolate(self.COMMAND, {}, "mpirun", True,
                                                  fake_unshare(lambda options: "--user" in options))
        self.assertEqual(spawned[1:5], ["--user", "--map-root-user", "--net", "--"])
        self.assertEqual(env["OMPI_ALLOW_RUN_AS_ROOT"], "1")
        self.assertEqual(env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"], "1")
        # Open MPI's session folder would be named after uid 0 (the real root's): the user's own.
        self.assertEqual(os.stat(env["TMPDIR"]).st_uid, os.getuid())
        self.assertEqual(os.stat(env["TMPDIR"]).st_mode & 0o777, 0o700)

    def test_without_a_namespace_the_run_goes_as_before_and_says_mpirun_listens_everywhere(self):
        spawned, env, line = private_network.isolate(self.COMMAND, {}, "mpirun", True, fake_unshare(lambda o: False))
        self.assertEqual((spawned, env), (self.COMMAND, {}))
        self.assertIn("mpirun's own listener is open on every interface", line)
        self.assertEqual(private_network.isolate(self.COMMAND, {}, "srun", True), (self.COMMAND, {}, None))


if __name__ == "__main__":
    unittest.main()
