#!/usr/bin/env python3
"""trackcosim run CONFIG [--terrain-ranks N] [--out DIR] [--launcher mpirun|srun|hetjob|tcp] [--grow-with-ranks] [--resume DIR] [--fresh-bed] [--dry-run] [--no-plot]
trackcosim plot RUN_DIR [--out DIR] [--track left|right] [--dpi N]
trackcosim render RUN_DIR [--out DIR] [--view chase|side|both] [--color speed|height] [--every N] ... (docs/render.md)
trackcosim mobility dbp|resistance|grade|obstacle RUN_CONFIG --slips L|--speeds L|--slopes L|--speed V [options]

Runs a co-simulation described by a small JSON file: which vehicle config, which terrain config,
how many terrain ranks, how long. It builds the MPMD mpirun line (one vehicle_node rank, N
terrain_node ranks; --launcher tcp: two processes, below), runs it with the progress of both
programs on the terminal, writes the run folder, and prints a summary ending with one parseable
line:

  cosim steps=<n> terrain_ranks=<r> particles=<p> distance_m=<d> sinkage_m=<s> step_ms=<t> exchange_share=<x>
        slip=<i> sprocket_power_kw=<p> ground_pressure_kpa=<q>   (one line; n/a where undefined)

The summary also gives the track slip, the sprocket power and the ground pressure over the
steady window, which it prints: the rows with the sprockets turning, less the start-up transient
that MSER-5 finds in the forward speed (tools/mobility/mobility_metrics.py, docs/mobility-metrics.md);
run.json's summary records it as driving_window_s.

Run config (paths relative to the current folder):
  {"vehicle": {"config": "configs/vehicles/ndia_light_robot.json", "end_time": 1.0},
   "terrain": {"config": "configs/cosim_robot_terrain.json", "ranks": 2},
   "output": "output/cosim_robot"}
  vehicle may also give "coupling_step" (s), "coupling_scheme" ("sequential" or "concurrent") and
  "shoe_loads" ("explicit" or "implicit": the vehicle integrates the terrain's contact stiffness);
  terrain may give "checkpoint": a settled bed (checkpoint.bin of a terrain_node --config run with
  a settle section) the terrain starts from instead of settling (terrain_node --from-checkpoint).
  Settle once: without terrain.checkpoint, the first run of a terrain config saves the bed it
  settled (cosim.settle_time) in the bed store, and every later run of the same terrain starts
  from it at once, on any rank count (tools/launcher/bed_store.py: keyed by the config's content and the
  files it names; TRACKCOSIM_BED_STORE, default output/beds, "off": no store). The launcher says which it did;
  --fresh-bed settles again and replaces the stored bed.
  Every key is checked before anything starts (tools/common/run_file.py, docs/protocol.md "The run
  file"): an unknown or misspelt key, a wrong type or a missing config is refused, naming the key.

Plots: at the end of a run, after the summary, the launcher writes its figures to RUN_DIR/plots
(one line per PNG; --no-plot: none). A plotting failure, or no matplotlib, is one warning line and
leaves the run's exit status alone. `trackcosim plot RUN_DIR` makes them for any run folder: a
co-simulation, a vehicle_node run or a terrain_node run (stats.csv), to --out DIR (default
RUN_DIR/plots), with the shoe heights of --track (default left) and --dpi (default 100).
docs/plots.md lists the figures and their data.

tools/trackcosim --help (or -h, help) prints this text; an error prints one `trackcosim: error:`
line. Exit status (docs/exit-status.md): 0 done (or stopped by a signal with its checkpoints),
1 the run failed, 2 bad input (command line, run file, config, run folder), 3 a program lost its
peer, 130 interrupted. --debug anywhere adds the traceback of an error.

After a line saying that a rank gave up on a lost peer (a node lost mid-run), mpirun or srun has
15 s to return before the launcher ends it (tools/launcher/launch_guard.py: either may wait for the lost
node for many minutes).

On one host (outside Slurm, a Slurm job of one node, --launcher tcp) Open MPI is kept on the loopback:
OMPI_MCA_btl=self,vader and OMPI_MCA_oob_tcp_if_include=lo, each unless the environment sets it
or chooses that transport's interfaces (tools/launcher/mpi_loopback.py; jobs/README.md, "Open MPI's
network", also says how a site chooses its interfaces). The launcher prints what it added.
With mpirun outside a batch job the run also gets a network namespace of its own with only its
loopback (unshare --net, where root or user namespaces allow it; TRACKCOSIM_NETNS=off leaves it
out), so that mpirun's own listener, which Open MPI binds to every interface, is not reachable
from another host (tools/launcher/private_network.py).

--launcher srun starts the job step with `srun --mpi=pmix --multi-prog` (inside a Slurm
allocation; TRACKCOSIM_SRUN_ARGS adds options) instead of `mpirun A : B`; --launcher hetjob
with `srun --het-group=0 vehicle : --het-group=1 terrain` inside a heterogeneous job
(tools/launcher/slurm_hetjob.py; against a Slurm 22.05 srun hang after such a step, the vehicle's task
lingers TRACKCOSIM_HETJOB_LINGER_S seconds, default 3, and srun is ended if it has not returned
120 s after both programs' last lines: jobs/README.md).

--launcher tcp runs the co-simulation without mpirun, as two plain processes: how a machine
without an MPI launcher runs it (a GPU machine without MPI, a laptop, a build without MPI:
docs/gpu.md). terrain_node --cosim runs one terrain rank (terrain.ranks or --terrain-ranks above
1, and --grow-with-ranks, are refused: exit status 2) on the config written to
RUN_DIR/terrain_config.json with cosim transport "tcp", host 127.0.0.1 and port 0, which the
system picks (the config's other keys kept, the files it names made absolute). Once it prints
`cosim      listening on 127.0.0.1:<port>` (within cosim.timeout, else an error naming run.log),
vehicle_node starts with --terrain tcp --terrain-host 127.0.0.1 --terrain-port <port>. The rest
is as with mpirun: run folder, summary, stored bed, signals (passed to both programs), --resume,
exit statuses (the first program to fail gives it; its peer is ended 5 s later if still running:
tools/launcher/tcp_launch.py). The programs, Open MPI singletons, start no Open MPI daemon
(OMPI_MCA_ess_singleton_isolated=1): only terrain_node listens, on 127.0.0.1.

--grow-with-ranks keeps the particles per rank of the config: the terrain patch is stretched
along x by N / terrain.ranks (tools/launcher/terrain_grow.py) and written to the run folder as
terrain_config.json, the files it names made absolute. Under Slurm, run.json records the job
id, node list and task layout (in a heterogeneous job, per component).

Run folder: vehicle/ (vehicle.csv, shoes.csv, run.json, timing.csv), terrain/ (run.json,
timing.csv), timing.csv (per coupling step and node, seconds: vehicle compute and wait; terrain
wait, compute and, within it, the terrain leader's time in each stage of its step (docs/architecture.md)
and waiting for its slowest rank (imbalance): together the terrain's compute time; its halo
messages, inside those stages; terrain exchange with the vehicle), run.json (the run config, the command line, the
summary).

Mobility tests (a soil bin's drawbar-pull rig, cosim/drawbar_rig.h; tools/mobility/mobility_tests.py):
  trackcosim mobility dbp RUN_CONFIG --slips 0,0.05,0.1,0.2,0.4 [--track-speed 0.5] [--phases 0.2,0.5,0.5]
  trackcosim mobility resistance RUN_CONFIG --speeds 0.2,0.4      (towed, sprockets free)
  trackcosim mobility grade RUN_CONFIG --slopes 0,5,10,15,20 [--track-speed V]
  trackcosim mobility obstacle RUN_CONFIG --speed V
  options: [--end-time T] [--rigid] [--jobs N] [--terrain-ranks N] [--launcher mpirun|srun|tcp]
           [--out DIR] [--point K] [--collect] [--dry-run]
Each point is a run of its own, OUT/<test>_<value>/ (default OUT output/mobility_<test>): the run
file with vehicle.rig set to the point's rig.json (slip imposed; towed at a speed; free running,
pull 0, up a slope whose gravity tilts the vehicle's and, in the copied terrain config, the
terrain's; over the run's obstacle at a track speed), run as `trackcosim run` does, or with
--rigid as vehicle_node alone on its rigid ground. Each point rests 0.2 s, ramps 0.5 s, settles
0.5 s and measures 1.0 s unless --end-time. --jobs points at a time (default: the cores over
terrain ranks + 1). Per point, the steady window is cut by MSER-5 within the measure phase and
every mean has a batch-means standard error (tools/mobility/rig_analysis.py). OUT/<test>.csv gets a row
per finished point (dbp: DBP/W, slip, sprocket torque, tractive efficiency, sinkage; resistance:
motion resistance; grade: climbs or not, slip, speed; obstacle: peak road-wheel reactions,
pitch, vertical acceleration) and OUT/<test>.png the curve; one progress line per point, a
failed point reported and the others run on (exit status 1), and the last line
`mobility test=<test> points=<n> done=<d> failed=<f> out=<dir> ...` (grade: gradeability_deg).
--point K runs only point K (0-based; a Slurm array task, jobs/mobility_array.sbatch);
--collect runs nothing and builds the table from the point folders present; --dry-run writes
the points' files and prints their command lines.

Walltime safety (docs/protocol.md, "Checkpoints"; jobs/README.md): SIGUSR1 or SIGTERM to the
launcher is passed on as SIGUSR1 to the programs (mpirun and srun forward it to every rank). Both
programs then stop at the same coupling step k with vehicle/checkpoint.bin and
terrain/checkpoint.bin; the launcher prints "stopped by SIGUSR1 at coupling step k; resume with
..." and exits 0, leaving RUN_DIR/stopped.txt with that command. `--resume RUN_DIR` continues the
run from both checkpoints (on any terrain rank count), appending to RUN_DIR's outputs, once it has
checked that the vehicle config is the one of the run that wrote them (tools/launcher/run_record.py: the
first key that differs is named, exit status 2). Ctrl-C stops both programs the same way; the
launcher then says it was interrupted, prints the exact command line that resumes, and exits 130.
RUN_DIR/launches.json, and run.json's "launches", list the configs of every run of the folder."""
import difflib
import json
import os
import shutil
import signal
import subprocess
import sys

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tools/, the import root
ROOT = os.path.dirname(TOOLS)
sys.path.insert(0, TOOLS)
from common.command_line import UsageError, check_tcp_layout, parse_command_line, parse_plot_command_line  # noqa: E402
from common.help_option import HELP_OPTIONS  # noqa: E402
from common.input_checks import (EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_PEER_LOST, EXIT_RUN_FAILED, InputError,  # noqa: E402
                                 run_guarded)
from common.launcher_common import fail, find_program, make_run_folder  # noqa: E402
from common.run_file import RunFileError, read_run_file  # noqa: E402
from common.run_log import LOG_FILE, start_run_log  # noqa: E402
from launcher import private_network  # noqa: E402
from launcher.launch_guard import LostPeerGuard, forward_stop_signals  # noqa: E402
from launcher.mpi_loopback import loopback_settings, on_one_host  # noqa: E402
from launcher.program_lines import key_values  # noqa: E402
from launcher.rank_balance import rank_balance, rank_balance_line  # noqa: E402
from launcher.run_record import check_resumed_vehicle, record_launch, resume_command  # noqa: E402
from launcher.run_terrain_config import write_run_terrain_config  # noqa: E402
from launcher.slurm_hetjob import HungStepGuard, het_groups, hetjob_command, in_hetjob  # noqa: E402
from launcher.tcp_launch import PORT_UNKNOWN, TcpJob, vehicle_over_tcp  # noqa: E402
from mobility.mobility_metrics import line_fields, report_lines, sinkage_mean  # noqa: E402
from mobility.mobility_metrics import text as figure_text  # noqa: E402
from mobility.run_outputs import merge_timing, mobility_of_run, sprocket_torques  # noqa: E402,F401


SUBCOMMANDS = ("run", "plot", "render", "mobility", "help")


def parse_line(prefix, text):
    """The key=value pairs of the first `prefix key=...` line in the programs' output."""
    for line in text.splitlines():
        pairs = key_values(prefix, line)
        if pairs is not None:
            return pairs
    return None


def program_commands(vehicle, terrain_config, folder, resume=False):
    """The vehicle_node and terrain_node command lines of a run (resume: from both checkpoints)."""
    vehicle_cmd = [find_program("vehicle_node"), "--config", vehicle["config"], "--terrain", "mpi",
                   "--out", os.path.join(folder, "vehicle")]
    for key, flag in (("end_time", "--end-time"), ("coupling_step", "--coupling-step"),
                      ("coupling_scheme", "--coupling-scheme"), ("shoe_loads", "--shoe-loads"), ("rig", "--rig"),
                      ("checkpoint_interval", "--checkpoint-interval")):
        if key in vehicle:
            vehicle_cmd += [flag, str(vehicle[key])]
    # Both sides give up on a silent peer after the same time: the terrain's cosim.timeout, raised
    # in the configs of large beds (docs/protocol.md, "Timeouts").
    timeout = terrain_timeout(terrain_config)
    if timeout is not None:
        vehicle_cmd += ["--timeout", str(timeout)]
    terrain_cmd = [find_program("terrain_node"), "--config", terrain_config, "--cosim",
                   "--out", os.path.join(folder, "terrain")]
    if resume:
        vehicle_cmd += ["--restart", checkpoint_of(folder, "vehicle")]
        terrain_cmd += ["--restart", checkpoint_of(folder, "terrain")]
    return vehicle_cmd, terrain_cmd


def terrain_timeout(terrain_config):
    """cosim.timeout of a terrain config, or None when it keeps the default (or cannot be read:
    terrain_node then says why)."""
    from common.input_checks import strip_comments
    try:
        with open(terrain_config) as f:
            cosim = json.loads(strip_comments(f.read())).get("cosim", {})
        timeout = cosim.get("timeout") if isinstance(cosim, dict) else None
    except (OSError, ValueError, AttributeError):
        return None
    return timeout if isinstance(timeout, (int, float)) and not isinstance(timeout, bool) else None


def stored_bed(terrain_config):
    """The bed store's place for this terrain (tools/launcher/bed_store.py), or None when the terrain does
    not settle or its config cannot be read (terrain_node then says why)."""
    from launcher.bed_store import StoredBed, settles, store_folder
    if store_folder() is None:
        return None
    try:
        return StoredBed(terrain_config) if settles(terrain_config) else None
    except (OSError, ValueError):
        return None


def bed_options(bed, fresh):
    """terrain_node's options for the stored bed, saying which it does: start from it, or settle
    and save it."""
    if bed.exists() and not fresh:
        made = bed.made_when()
        print("trackcosim: bed: starting from the settled bed %s (key %s, made %s from %s); "
              "--fresh-bed settles again" % (bed.checkpoint, bed.key[:16], made.get("made", "at an unknown time"),
                                             made.get("terrain_config", "an unrecorded config")), flush=True)
        return ["--from-checkpoint", bed.checkpoint]
    print("trackcosim: bed: %s; settling cosim.settle_time and saving the bed to %s (key %s)" % (
        "settling again (--fresh-bed)" if bed.exists() else "no settled bed stored for this terrain",
        bed.checkpoint, bed.key[:16]), flush=True)
    return ["--save-bed", bed.checkpoint]


def checkpoint_of(folder, side):
    path = os.path.join(folder, side, "checkpoint.bin")
    if not os.path.isfile(path):
        fail("--resume %s: no %s checkpoint %s (a run stopped by a signal writes one for each program)" % (
            folder, side, path))
    return path


def report_stop(folder, run, command, vehicle_line, terrain_line, options, resume, launches, interrupted=False):
    """A run stopped by a signal: say where and how to resume (the exact command line `resume`);
    exit status 0 (a clean stop), or 130 when the user interrupted it (Ctrl-C)."""
    step = int(vehicle_line["step"])
    by = vehicle_line["by"]
    if by == "terrain" and terrain_line and terrain_line.get("signal", "none") != "none":
        by = terrain_line["signal"]
    by = "INT" if interrupted else by  # the programs saw what mpirun and the launcher passed on
    with open(os.path.join(folder, "stopped.txt"), "w") as f:
        f.write(resume + "\n")
    with open(os.path.join(folder, "run.json"), "w") as f:
        json.dump({"program": "trackcosim run", "config": run, "command": command, "launcher": options["--launcher"],
                   "launches": launches, "slurm": slurm_facts(),
                   "stopped": {"signal": "SIG" + by, "coupling_step": step, "resume": resume}}, f, indent=2)
    if interrupted:
        print("trackcosim: interrupted (SIGINT): both programs stopped at coupling step %d with their checkpoints; "
              "resume with %s" % (step, resume), flush=True)
        return EXIT_INTERRUPTED
    print("trackcosim: stopped by SIG%s at coupling step %d; resume with %s" % (by, step, resume), flush=True)
    return 0


def report_interrupt(folder, run, command, text, returncode, options, resume, launches):
    """Ctrl-C (SIGINT) reached the launcher, which passed it on as a stop (forward_stop_signals):
    where both programs checkpointed, say how to resume; else that there is nothing to resume
    from this run. Exit status 130 either way."""
    vehicle_line, terrain_line = parse_line("vehicle stopped", text), parse_line("terrain stopped", text)
    if vehicle_line and terrain_line:
        merge_timing(folder)
        return report_stop(folder, run, command, vehicle_line, terrain_line, options, resume, launches, interrupted=True)
    print("trackcosim: interrupted (SIGINT) before both programs had written their checkpoints (%s exited with "
          "status %d): this run left nothing to resume; checkpoints of earlier runs of %s, if any, are unchanged" % (
              launched(command), returncode, folder), file=sys.stderr, flush=True)
    return EXIT_INTERRUPTED


def launch_command(launcher, vehicle_cmd, terrain_cmd, ranks, folder):
    """mpirun MPMD, or srun with a multi-prog file written into the run folder (task 0: the
    vehicle; tasks 1..N: the terrain). Both programs find each other by their role alone."""
    if launcher == "mpirun":
        return [shutil.which("mpirun") or "mpirun", "--oversubscribe", "-np", "1"] + vehicle_cmd + \
               [":", "-np", str(ranks)] + terrain_cmd
    if launcher == "hetjob":
        return hetjob_command(vehicle_cmd, terrain_cmd, ranks)
    for word in vehicle_cmd + terrain_cmd:
        if any(c.isspace() for c in word):
            fail("srun --multi-prog cannot pass an argument with spaces: %r" % word)
    multi = os.path.join(folder, "multi-prog.conf")
    with open(multi, "w") as f:
        f.write("0 %s\n" % " ".join(vehicle_cmd))
        f.write("1-%d %s\n" % (ranks, " ".join(terrain_cmd)) if ranks > 1 else "1 %s\n" % " ".join(terrain_cmd))
    extra = os.environ.get("TRACKCOSIM_SRUN_ARGS", "").split()
    # A rank that gives up on a stopped peer exits with status 3 (its watchdog); srun ends the
    # step's other tasks only when told to (mpirun does by default).
    return [shutil.which("srun") or "srun", "--mpi=pmix", "--kill-on-bad-exit=1", "-n", str(ranks + 1)] + extra + \
        ["--multi-prog", multi]


def prepare_launch(launcher, vehicle_cmd, terrain_cmd, ranks, folder, dry):
    """(the command run.json records, the command line to start (None with --launcher tcp: its
    programs start one by one, tcp_launch.py), the environment it adds), having said what the
    run will start and what it adds to Open MPI's environment."""
    tcp = launcher == "tcp"
    command = {"terrain": terrain_cmd, "vehicle": vehicle_over_tcp(vehicle_cmd, PORT_UNKNOWN)} if tcp else \
        launch_command(launcher, vehicle_cmd, terrain_cmd, ranks, folder)
    mpi_settings = loopback_settings(os.environ, launcher, None if tcp else command[0])
    if mpi_settings:
        print("trackcosim: one host: Open MPI kept on the loopback (%s; jobs/README.md, \"Open MPI's network\")" % " ".join(
            "%s=%s" % setting for setting in sorted(mpi_settings.items())), flush=True)
    if tcp:  # vehicle_node's line, with the port, comes when it starts
        print("trackcosim: " + " ".join(terrain_cmd), flush=True)
        if dry:
            print("trackcosim: " + " ".join(command["vehicle"]), flush=True)
        return command, None, mpi_settings
    # mpirun's own listener off the host's network (a tcp run has no mpirun, and its programs'
    # Open MPI listens on nothing: mpi_loopback.py).
    spawned, namespace_env, namespace_line = private_network.isolate(
        command, os.environ, launcher, on_one_host(os.environ, launcher, command[0]))
    if namespace_line:
        print(namespace_line, flush=True)
    print("trackcosim: " + " ".join(spawned), flush=True)
    return command, spawned, dict(mpi_settings, **namespace_env)


def launched(command):
    """What the launcher started, for a message: mpirun or srun, or both programs (--launcher tcp)."""
    if isinstance(command, dict):
        return " and ".join(os.path.basename(words[0]) for words in command.values())
    return os.path.basename(command[0])


def terrain_partition_text(ms):
    """The terrain's computing time per coupling step as the sum of its parts (ms): the stages of
    its step, the wait for the slowest rank (imbalance) and the rest (loop, timers); the halo
    messages are inside the stages (ghosts, solve), so they are said apart, not added."""
    stages = [(s, ms["terrain_" + s]) for s in ms["terrain_stages"]]
    other = ms["terrain_compute"] - sum(value for _, value in stages)
    parts = " + ".join("%s %.2f" % (name, value) for name, value in stages + [("other", other)])
    return "%.2f ms = %s; of which halo messages %.2f (inside the stages)" % (
        ms["terrain_compute"], parts, ms["terrain_halo"])


def slurm_facts():
    """Where the run ran, when inside a Slurm job: job id, node list, tasks and CPUs per task."""
    keys = {"job_id": "SLURM_JOB_ID", "nodelist": "SLURM_JOB_NODELIST", "nodes": "SLURM_JOB_NUM_NODES",
            "ntasks": "SLURM_NTASKS", "cpus_per_task": "SLURM_CPUS_PER_TASK", "partition": "SLURM_JOB_PARTITION",
            "submit_dir": "SLURM_SUBMIT_DIR"}
    facts = {k: os.environ[v] for k, v in keys.items() if v in os.environ}
    if in_hetjob():
        facts["het_groups"] = het_groups(keys)
    return facts or None


def usage_error(error, line):
    fail("%s\nusage: %s\n(tools/trackcosim --help tells more)" % (error, __doc__.splitlines()[line]))


def plot_command(args):
    """`trackcosim plot RUN_DIR [--out DIR] [--track left|right] [--dpi N]`."""
    try:
        folder, options = parse_plot_command_line(args)
    except UsageError as e:
        usage_error(e, 1)
    try:
        from plots.plot_data import RunFolderError
        from plots.plot_run import write_plots
    except ImportError as e:
        fail("plot needs matplotlib and numpy (%s): install python3-matplotlib python3-numpy "
             "(tools/install_deps.sh) and run tools/trackcosim, which prefers /usr/bin/python3" % e)
    try:
        write_plots(folder, options["--out"], options["--track"], options["--dpi"])
    except RunFolderError as e:
        fail(str(e))
    return 0


def plot_after_run(folder):
    """The run's figures in RUN_DIR/plots. The run has succeeded whatever happens here, so any
    failure, a missing matplotlib included, is one warning line and not the run's exit status.
    A python3 without matplotlib or numpy (one found before the Debian python3 on PATH, as by
    `python3 tools/launcher/trackcosim.py`) hands the plots to tools/trackcosim plot, whose wrapper picks
    the python3 that has them."""
    try:
        from plots.plot_run import write_plots
    except ImportError as e:
        sys.stdout.flush()
        result = subprocess.run([os.path.join(TOOLS, "trackcosim"), "plot", folder], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        sys.stdout.write(result.stdout)  # through run.log (run_log.py)
        if result.returncode == 0:
            sys.stderr.write(result.stderr)  # the figures it skipped, and why
        else:
            reason = (result.stderr.strip().splitlines() or ["exit status %d" % result.returncode])[-1]
            warn_no_plots(folder, "%s: %s; then %s" % (type(e).__name__, e, reason))
        return
    try:
        write_plots(folder)
    except Exception as e:  # noqa: BLE001 - said as a warning, the run's outputs are complete
        warn_no_plots(folder, "%s: %s" % (type(e).__name__, e))


def warn_no_plots(folder, reason):
    print("trackcosim: warning: no plots (%s); the run's outputs are complete; "
          "tools/trackcosim plot %s tries again" % (reason, folder), file=sys.stderr)


def subcommand_help(subcommand):
    """The text `trackcosim SUBCOMMAND --help` prints: the subcommand's own module's, else this one's."""
    if subcommand == "mobility":
        from mobility import mobility_tests
        return mobility_tests.__doc__
    if subcommand == "render":
        from plots import render_run
        return render_run.__doc__
    return __doc__


def main(argv):
    args = argv[1:]
    if args and args[0] in HELP_OPTIONS + ("help",):
        print(__doc__)
        return 0
    # Before anything is read or started: `trackcosim run CONFIG --help` must not run CONFIG.
    if args and args[0] in SUBCOMMANDS and any(a in HELP_OPTIONS for a in args[1:]):
        print(subcommand_help(args[0]))
        return 0
    if args and args[0] == "plot":
        return plot_command(args[1:])
    if args and args[0] == "render":
        from plots.render_run import render_command
        return render_command(args[1:], fail)
    if args and args[0] == "mobility":
        from mobility.mobility_tests import mobility_command
        return mobility_command(args[1:], fail)
    if not args:
        print(__doc__, file=sys.stderr)
        return EXIT_BAD_INPUT
    if args[0] != "run":
        close = difflib.get_close_matches(args[0], SUBCOMMANDS, n=1)
        fail("unknown subcommand %r (%sexpected one of: %s; tools/trackcosim --help tells more)" % (
            args[0], "did you mean %s? " % close[0] if close else "", ", ".join(SUBCOMMANDS)))
    try:
        config_file, options = parse_command_line(args[1:])
    except UsageError as e:
        usage_error(e, 0)
    dry, grow, launcher = options["--dry-run"], options["--grow-with-ranks"], options["--launcher"]
    tcp = launcher == "tcp"
    if launcher == "hetjob" and not in_hetjob():
        fail("--launcher hetjob runs inside a heterogeneous Slurm job (sbatch -n 1 : -n N script); "
             "SLURM_HET_SIZE is %s" % os.environ.get("SLURM_HET_SIZE", "unset"))
    try:
        run = read_run_file(config_file, over_mpi=not tcp)
    except RunFileError as e:
        fail(str(e))
    vehicle, terrain = run["vehicle"], run["terrain"]
    base_ranks = terrain.get("ranks", 1)
    ranks = options["--terrain-ranks"] or base_ranks
    try:
        check_tcp_layout(options, ranks, "--terrain-ranks" if options["--terrain-ranks"] else
                         "terrain.ranks of %s" % config_file)
    except UsageError as e:
        fail(str(e))
    if options["--resume"] is not None and not os.path.isdir(options["--resume"]):
        fail("--resume %s: no such run folder" % options["--resume"])
    given_by = "--resume" if options["--resume"] else "--out" if options["--out"] else \
        "%s: output" % config_file if "output" in run else "the default run folder"
    folder = options["--resume"] or options["--out"] or run.get(
        "output", os.path.join("output", os.path.splitext(os.path.basename(config_file))[0]))
    make_run_folder(folder, given_by)
    if not dry:
        start_run_log(folder, argv, options["--resume"] is not None)
    terrain_config = terrain["config"]
    if grow:
        terrain_config = write_run_terrain_config(terrain_config, folder, grow_factor=ranks / base_ranks)
    # The stored bed is looked up by the config the run starts from, not by its TCP copy: the bed
    # does not depend on the transport (bed_store.py leaves it out), but the copy names its files
    # absolutely, which would make another key.
    bed_config = terrain_config
    if tcp:
        terrain_config = write_run_terrain_config(terrain_config, folder, over_tcp=True)

    resume = options["--resume"] is not None
    vehicle_cmd, terrain_cmd = program_commands(vehicle, terrain_config, folder, resume)
    if resume:
        try:
            check_resumed_vehicle(folder, vehicle["config"])
        except InputError as e:
            fail(str(e))
    # A resumed run continues from its own checkpoints (--restart): the saved bed was its start.
    if "checkpoint" in terrain and not resume:
        if grow:
            fail("%s: terrain.checkpoint holds a bed of its own size: it cannot be grown (--grow-with-ranks)" % config_file)
        if not os.path.isfile(terrain["checkpoint"]):
            fail("%s: terrain.checkpoint: no such file: %s" % (config_file, terrain["checkpoint"]))
        terrain_cmd += ["--from-checkpoint", terrain["checkpoint"]]
    bed = None if resume or "checkpoint" in terrain else stored_bed(bed_config)
    if bed is not None:
        terrain_cmd += bed_options(bed, options["--fresh-bed"])
    command, spawned, launch_env = prepare_launch(launcher, vehicle_cmd, terrain_cmd, ranks, folder, dry)
    if dry:
        return 0
    launches = record_launch(folder, config_file, run, vehicle["config"], terrain_config, resume)
    # The command names the wrapper tools/trackcosim, a folder above this file, by the path this file was run by.
    wrapper = os.path.normpath(os.path.join(os.path.dirname(argv[0]), "..", "trackcosim"))
    resume_line = resume_command(wrapper if os.sep in wrapper else "./" + wrapper, config_file, folder, options)
    env = dict(os.environ)
    env.setdefault("OMP_WAIT_POLICY", "passive")
    env.update(launch_env)
    if os.geteuid() == 0:
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    if tcp:  # no mpirun to hang on a lost node: TcpJob itself ends a failed program's peer
        process = TcpJob(terrain_cmd, vehicle_cmd, env, terrain_timeout(terrain_config), os.path.join(folder, LOG_FILE))
        lost_peer = None
    else:
        process = subprocess.Popen(spawned, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        # A node lost mid-run can leave mpirun or srun waiting for it after the ranks gave up.
        lost_peer = LostPeerGuard(process, name=launched(command), who="trackcosim")
    signals = forward_stop_signals(process, interrupt=True)
    guard = HungStepGuard(process) if launcher == "hetjob" else None
    guards = [g for g in (lost_peer, guard) if g]
    output = []
    for line in process.stdout:
        output.append(line)
        sys.stdout.write(line)
        sys.stdout.flush()
        for g in guards:
            g.saw(line)
    for g in guards:
        g.cancel()
    returncode = process.wait()
    if tcp:
        command["vehicle"] = process.vehicle_cmd  # with the port the terrain listened on
    if bed is not None and bed.exists() and "--save-bed" in terrain_cmd:
        bed.write_record(folder, ranks)  # the bed is good even when the coupling later failed
    text = "".join(output)
    # Ctrl-C that came after the run had completed leaves it complete.
    if signal.SIGINT in signals and (returncode != 0 or parse_line("vehicle stopped", text)):
        return report_interrupt(folder, run, command, text, returncode, options, resume_line, launches)
    if tcp and process.failure:
        fail(process.failure, EXIT_BAD_INPUT if returncode == EXIT_BAD_INPUT else EXIT_RUN_FAILED)
    if returncode != 0 and not (guard and guard.ended_hung_step):
        lost = returncode == EXIT_PEER_LOST or (lost_peer is not None and lost_peer.ended_hung_launcher)
        if returncode == EXIT_BAD_INPUT and not lost:  # a program refused what --dry-run cannot check
            fail("a program refused its input (exit status %d); see the messages above" % returncode)
        fail("the co-simulation failed (exit status %d); see the messages above" % returncode,
             EXIT_PEER_LOST if lost else EXIT_RUN_FAILED)
    v, t = parse_line("vehicle cosim", text), parse_line("terrain cosim", text)
    if not v or not t:
        fail("the programs ended without their summary lines", EXIT_RUN_FAILED)
    stopped = parse_line("vehicle stopped", text)
    if stopped:
        merge_timing(folder)
        return report_stop(folder, run, command, stopped, parse_line("terrain stopped", text), options, resume_line,
                           launches)
    if os.path.exists(os.path.join(folder, "stopped.txt")):
        os.remove(os.path.join(folder, "stopped.txt"))
    ms = merge_timing(folder)
    left, right = sprocket_torques(folder)
    metrics = mobility_of_run(folder, vehicle["config"])
    steps = int(v["steps"])
    summary = {"steps": steps, "terrain_ranks": ranks, "particles": int(v["particles"]),
               "distance_m": float(v["distance_m"]), "sinkage_m": sinkage_mean(metrics),
               "step_ms": float(v["step_ms"]), "exchange_share": float(t["exchange_share"]),
               "vehicle_wait_share": float(v["wait_share"]), "terrain_wait_share": float(t["wait_share"]),
               "sprocket_torque_nm": {"left": left, "right": right, "mean": (left + right) / 2},
               "ms_per_coupling_step": ms, "rank_balance": rank_balance(folder), **metrics}
    with open(os.path.join(folder, "run.json"), "w") as f:
        json.dump({"program": "trackcosim run", "config": run, "command": command, "launcher": options["--launcher"],
                   "resumed": options["--resume"] is not None, "launches": launches, "terrain_config": terrain_config, "ranks": {"vehicle": [0], "terrain": list(range(1, ranks + 1))},
                   "slurm": slurm_facts(), "summary": summary}, f, indent=2)
    print("summary of %d coupling steps on %d terrain ranks, %d particles (outputs in %s):" % (
        steps, ranks, summary["particles"], folder))
    print("  distance travelled    %.3f m" % summary["distance_m"])
    print("  mean sprocket torque  %.0f N m (left %.0f, right %.0f)" % ((left + right) / 2, left, right))
    print("\n".join(report_lines(metrics)))
    print("  per coupling step     %.2f ms; vehicle %.2f ms computing; %.2f ms exchanging" % (
        summary["step_ms"], ms["vehicle_compute"], ms["terrain_exchange"]))
    print("  terrain computing     " + terrain_partition_text(ms))
    if summary["rank_balance"] is not None:
        print(rank_balance_line(summary["rank_balance"]))
    print("  waiting               the vehicle %.1f%% of its time, the terrain %.1f%%; exchange %.1f%% of the step" % (
        100 * summary["vehicle_wait_share"], 100 * summary["terrain_wait_share"], 100 * summary["exchange_share"]))
    print("cosim steps=%d terrain_ranks=%d particles=%d distance_m=%.4f sinkage_m=%s step_ms=%.3f exchange_share=%.4f"
          % (steps, ranks, summary["particles"], summary["distance_m"], figure_text(summary["sinkage_m"], "%.4f"), summary["step_ms"],
             summary["exchange_share"]) + line_fields(metrics))
    if not options["--no-plot"]:
        plot_after_run(folder)
    return 0


def run_main(argv):
    """main, with no Python traceback for a user (tools/common/input_checks.py run_guarded)."""
    return run_guarded("trackcosim", main, argv)


if __name__ == "__main__":
    sys.exit(run_main(sys.argv))
