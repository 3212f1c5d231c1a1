"""`trackcosim mobility TEST RUN_CONFIG`: a soil-bin test series, one run per point, and its table.

Each point is a co-simulation of its own (`trackcosim run` on OUT/<test>_<value>/run_file.json,
its output in that folder and in its log.txt) or, with --rigid, vehicle_node alone on its rigid
ground; both with the drawbar-pull rig of the point's rig.json (tools/mobility/mobility_plan.py). The
points are independent, so they run side by side, --jobs at a time, and a failed point is
reported and leaves the others running: a series of hours should not be lost to one point.
As each point finishes, its figures (tools/mobility/mobility_results.py) are appended to OUT/<test>.csv
and one progress line is printed; at the end the table is sorted by value, drawn in
OUT/<test>.png, and the last line says `mobility test=<test> points=<n> ...`.
--point K runs point K alone (a Slurm array task: jobs/mobility_array.sbatch) and writes no
table; --collect runs nothing and makes the table from the point folders present.

A series of hours is continued, not restarted: run the same command again and the points that
finished are read from their folders, those that a signal or a crash ended after a checkpoint
resume from it (`trackcosim run ... --resume POINT`), and the others run. A point interrupted
(Ctrl-C: exit status 130, or stopped by SIGUSR1/SIGTERM with its checkpoints) stops the series:
no further point starts, and the last lines say how to continue. SIGUSR1 or SIGTERM sent to this
process (a batch system's walltime warning) is passed to the running points, which checkpoint.
OUT/run.log holds what the series printed, each run of the command appended.
"""
import concurrent.futures
import json
import math
import os
import signal
import subprocess
import sys
import threading
import time

from common.command_line import UsageError, check_tcp_layout, parse_mobility_command_line
from common.launcher_common import make_run_folder
from common.run_file import RunFileError, read_run_file
from common.run_log import LOG_FILE, start_run_log
from mobility.mobility_plan import default_jobs, plan_points, prepare_point, terrain_ranks
from mobility.mobility_results import PointError, Table, analyse_point, point_record, rig_path
from mobility.rig_analysis import gradeability

USAGE = ("trackcosim mobility dbp|resistance|grade|obstacle RUN_CONFIG --slips L|--speeds L|--slopes L|--speed V "
         "[--track-speed V] [--end-time T] [--rigid] [--jobs N] [--terrain-ranks N] [--launcher mpirun|srun|tcp] "
         "[--out DIR] [--point K] [--collect] [--dry-run]")


def cores():
    """The cores this process may use (a Slurm job's share, not the node's)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def text(value, form):
    return "n/a" if value is None or (isinstance(value, float) and math.isnan(value)) else form % value


def pm(row, key, se, form):
    return "%s +- %s" % (text(row[key], form), text(row[se], form))


def progress_text(test, row):
    """What one finished point measured, for its progress line."""
    if test == "obstacle":
        wheels = [v for k, v in row.items() if k.startswith("road_wheel_fz_")]
        return "pitch %s..%s deg, largest |a_z| %s m/s^2, largest road-wheel reaction %s N" % (
            text(row["pitch_min_deg"], "%.2f"), text(row["pitch_max_deg"], "%.2f"),
            text(row["accel_max_mps2"], "%.2f"), text(max(wheels, default=None), "%.0f"))
    if test == "dbp":
        figures = "slip %s, DBP %s N, DBP/W %s, efficiency %s, sinkage %s m" % (
            text(row["measured_slip"], "%.3f"), pm(row, "drawbar_pull_n", "drawbar_pull_se_n", "%.1f"),
            pm(row, "dbp_over_weight", "dbp_over_weight_se", "%.3f"),
            pm(row, "tractive_efficiency", "tractive_efficiency_se", "%.3f"), text(row["sinkage_m"], "%.4f"))
    elif test == "resistance":
        figures = "speed %s m/s, resistance %s N, R/W %s" % (
            pm(row, "measured_speed_mps", "measured_speed_se_mps", "%.3f"),
            pm(row, "motion_resistance_n", "motion_resistance_se_n", "%.1f"),
            pm(row, "resistance_over_weight", "resistance_over_weight_se", "%.3f"))
    else:
        figures = "%s: speed %s m/s, slip %s" % (
            "climbs" if row["climbs"] else "does NOT climb",
            pm(row, "chassis_speed_mps", "chassis_speed_se_mps", "%.3f"),
            pm(row, "measured_slip", "measured_slip_se", "%.3f"))
    return figures + " (window %s..%s s, %d samples)" % (
        text(row["window_start_s"], "%.2f"), text(row["window_end_s"], "%.2f"), row["samples"])


def last_line_fields(test, rows):
    """The test's own fields of the parseable last line."""
    def top(key, pick=max):
        values = [r[key] for r in rows if not math.isnan(r[key])]
        return pick(values) if values else None
    if test == "dbp":
        return " dbp_over_weight_max=%s" % text(top("dbp_over_weight"), "%.4f")
    if test == "resistance":
        values = [r["resistance_over_weight"] for r in rows if not math.isnan(r["resistance_over_weight"])]
        return " resistance_over_weight_mean=%s" % text(sum(values) / len(values) if values else None, "%.4f")
    if test == "grade":
        points = [(r["slope_deg"], {"chassis_vx": r["chassis_speed_mps"], "slip": r["measured_slip"]}) for r in rows]
        return " gradeability_deg=%s" % text(gradeability(points), "%g")
    wheels = [v for r in rows for k, v in r.items() if k.startswith("road_wheel_fz_")]
    return " pitch_max_deg=%s pitch_min_deg=%s accel_max_mps2=%s wheel_fz_max_n=%s" % (
        text(top("pitch_max_deg"), "%.3f"), text(top("pitch_min_deg", min), "%.3f"),
        text(top("accel_max_mps2"), "%.3f"), text(max(wheels, default=None), "%.1f"))


def write_record(point, record):
    with open(os.path.join(point.folder, "point.json"), "w") as f:
        json.dump(record, f, indent=2)
        f.write("\n")


EXIT_INTERRUPTED = 130  # the launcher's status after Ctrl-C, with both checkpoints written


class SeriesStop:
    """Whether the series must start no further point (a point was interrupted, or this process
    got a stop signal), and the points' processes running now, to pass a stop signal on to."""

    def __init__(self):
        self.event = threading.Event()
        self.running = set()
        self.lock = threading.Lock()

    def forward(self, signum, _frame):
        self.event.set()
        with self.lock:
            for process in self.running:
                process.send_signal(signum)


def stopped_by_signal(point):
    """The launcher left stopped.txt: SIGUSR1 or SIGTERM ended the point with its checkpoints."""
    return os.path.exists(os.path.join(point.folder, "stopped.txt"))


def interrupted(point, status):
    """A point that a signal ended with its checkpoints: Ctrl-C (130), or SIGUSR1/SIGTERM (0 and
    stopped.txt)."""
    return status == EXIT_INTERRUPTED or (status == 0 and stopped_by_signal(point))


def resumable(point, previous):
    """A coupled point that ended before its end after writing both checkpoints. Its record may
    have no status: a series killed outright (a node lost, a session ended) never wrote it."""
    return (not previous.get("rigid", False) and
            all(os.path.isfile(os.path.join(point.folder, side, "checkpoint.bin")) for side in ("vehicle", "terrain")))


def point_plan(point, previous, record):
    """'done' (it finished: read its folder), 'resume' (continue from its checkpoints) or 'run',
    from the point.json an earlier run of the series left (`previous`, {} when none). A point
    planned otherwise than before (another rig, end time, ground or command) runs afresh: its
    folder holds the answer to another question."""
    same = all(previous.get(key) == record.get(key) for key in ("rig", "end_time", "rigid"))
    # A record may hold the command that resumed it (as this series' first version wrote them);
    # the Python that runs the launcher (the command's first word) may differ and does not matter.
    commands = [record["command"]] if record.get("rigid") else [record["command"],
                                                                resume_command(record["command"], point.folder)]
    if not same or (previous.get("command") or [None])[1:] not in [c[1:] for c in commands]:
        return "run"
    if previous.get("status") == 0 and os.path.isfile(rig_path(point.folder)) and not stopped_by_signal(point):
        return "done"
    if not record.get("rigid") and resumable(point, previous):
        return "resume"
    return "run"


def command_of(record):
    """What runs the point: its command, or the one that resumes it (point.json keeps both)."""
    return record.get("resumed_command", record["command"])


def resume_command(command, folder):
    """The point's `trackcosim run ... --out FOLDER` as `... --resume FOLDER`."""
    at = command.index("--out")
    return command[:at] + ["--resume", folder] + command[at + 2:]


def run_point(point, record, env, echo, stop=None):
    """Runs one point with its output in FOLDER/log.txt (echo: also on this terminal; appended to
    when the point resumes); returns (exit status, seconds). point.json records both. A point
    whose turn comes after the series was told to stop does not start: (None, None)."""
    if stop is not None and stop.event.is_set():
        return None, None
    start = time.monotonic()
    with open(os.path.join(point.folder, "log.txt"), "a" if "resumed_command" in record else "w") as log:
        process = subprocess.Popen(command_of(record), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                   env=env)
        if stop is not None:
            with stop.lock:
                stop.running.add(process)
        for line in process.stdout:
            log.write(line)
            if echo:
                sys.stdout.write(line)
                sys.stdout.flush()
        status = process.wait()
        if stop is not None:
            with stop.lock:
                stop.running.discard(process)
            if interrupted(point, status):
                stop.event.set()
    record.update({"status": status, "seconds": time.monotonic() - start})
    write_record(point, record)
    return status, record["seconds"]


def dry_run(points, records):
    """Prints each point's command line as it would start (the launcher's own --dry-run for a
    co-simulation: the mpirun or srun line with vehicle_node --rig), the tilted gravity of a slope."""
    failed = 0
    for point, record in zip(points, records):
        if "terrain_gravity" in record:
            print("mobility: %s: terrain gravity [%s] in %s" % (point.name, ", ".join(
                "%.6g" % g for g in record["terrain_gravity"]), os.path.join(point.folder, "terrain_config.json")))
        if record["rigid"]:
            print("mobility: %s: %s" % (point.name, " ".join(command_of(record))), flush=True)
            continue
        result = subprocess.run(command_of(record) + ["--dry-run"], capture_output=True, text=True)
        for line in (result.stdout + result.stderr).splitlines():
            shown = line if line.startswith("trackcosim: error") or not line.startswith("trackcosim: ") else \
                line[len("trackcosim: "):]
            print("mobility: %s: %s" % (point.name, shown))
            if "--multi-prog" in line.split():  # srun: the programs' command lines are in the file
                with open(line.split()[-1]) as f:
                    print("".join("mobility: %s:   %s" % (point.name, task) for task in f), end="")
        failed += result.returncode != 0
    return 1 if failed else 0


def run_points(points, records, jobs, env, on_done, stop):
    """Runs the points jobs at a time; on_done(point, status, seconds) as each one ends (status
    None: not started, the series was stopped)."""
    echo = len(points) == 1
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        futures = {pool.submit(run_point, p, r, env, echo, stop): p for p, r in zip(points, records)}
        for future in concurrent.futures.as_completed(futures):
            on_done(futures[future], *future.result())


def mobility_command(args, fail):
    """The `mobility` subcommand of tools/launcher/trackcosim.py; fail(message) prints its error line."""
    try:
        test, config, options = parse_mobility_command_line(args)
    except UsageError as e:
        fail("%s\nusage: %s" % (e, USAGE))
    try:
        run = read_run_file(config, over_mpi=options["--launcher"] != "tcp")
        check_tcp_layout(options, terrain_ranks(run, options), "--terrain-ranks" if options["--terrain-ranks"] else
                         "terrain.ranks of %s" % config)
    except (RunFileError, UsageError) as e:
        fail(str(e))
    out = options["--out"] or os.path.join("output", "mobility_" + test)
    make_run_folder(out, "--out" if options["--out"] else "the default output folder")
    if options["--point"] is None:  # an array task's point has its own log.txt; tasks would interleave here
        # OUT/run.log: what the series printed, each run of it appended (the same command continues it).
        start_run_log(out, ["trackcosim", "mobility"] + list(args), os.path.exists(os.path.join(out, LOG_FILE)))
    points = plan_points(test, options["values"], out)
    if options["--point"] is not None:
        points = [points[options["--point"]]]
    table = Table(os.path.join(out, test + ".csv"), test) if options["--point"] is None else None
    rows, figures, failures, count = [], [], [], len(points)

    left = []  # points not finished because the series stopped

    def finished(point, status, seconds):
        """One point ended (or, with --collect, was found): its row, or why it has none."""
        where = "%s (%d/%d)" % (point.name, point.index + 1, len(options["values"]))
        if status is None or (seconds is not None and interrupted(point, status)):
            left.append(point.name)
            print("mobility: %s %s" % (where, "not started: the series was stopped" if status is None else
                                       "interrupted with its checkpoints: it resumes when the series is run again"),
                  flush=True)
            return
        if status != 0:
            failures.append("%s (exit status %s)" % (point.folder, status))
            print("mobility: %s FAILED with exit status %s; see %s" % (
                where, status, os.path.join(point.folder, "log.txt")), flush=True)
            return
        try:
            row, point_figures = analyse_point(point, point_record(point.folder).get("rigid", options["--rigid"]))
        except PointError as e:
            failures.append("%s (%s)" % (point.folder, e))
            print("mobility: %s has no figures: %s" % (where, e), flush=True)
            return
        rows.append(row)
        figures.append(point_figures)
        if table:
            table.add(row)
        print("mobility: %s %s: %s" % (where, "read" if seconds is None else "done in %.0f s" % seconds,
                                        progress_text(test, row)), flush=True)

    if options["--collect"]:
        for point in points:
            status = point_record(point.folder).get("status", 0) if os.path.isfile(rig_path(point.folder)) else \
                "none: no %s" % rig_path(point.folder)
            finished(point, status, None)
    else:
        previous = [point_record(p.folder) for p in points]
        records = [prepare_point(p, run, options) for p in points]
        plans = [point_plan(p, old, r) for p, old, r in zip(points, previous, records)]
        for record, plan, p in zip(records, plans, points):
            if plan == "resume":
                record["resumed_command"] = resume_command(record["command"], p.folder)
        if options["--dry-run"]:
            return dry_run(points, records)
        ranks = terrain_ranks(run, options)
        jobs = min(len(points), options["--jobs"] or default_jobs(run, options, cores()))
        env = dict(os.environ)
        # Points side by side share the cores: each rank gets its share of threads (unless set).
        env.setdefault("OMP_NUM_THREADS", str(max(1, cores() // (jobs * (ranks + 1)))))
        print("mobility: %s, %d point%s, %d at a time, %s, in %s" % (
            test, count, "s" if count > 1 else "", jobs,
            "rigid ground" if options["--rigid"] else "%d terrain rank%s each" % (ranks, "s" if ranks > 1 else ""),
            out), flush=True)
        todo = []
        for point, record, plan, old in zip(points, records, plans, previous):
            if plan == "done":  # keep its record: its status and time
                finished(point, 0, None)
                continue
            write_record(point, record)
            if plan == "resume":
                print("mobility: %s resumes from its checkpoints (%s)" % (point.name, point.folder), flush=True)
            todo.append((point, record))
        stop = SeriesStop()
        previous_handlers = {s: signal.signal(s, stop.forward) for s in (signal.SIGUSR1, signal.SIGTERM)}
        try:
            run_points([p for p, _ in todo], [r for _, r in todo], jobs, env, finished, stop)
        finally:
            for s, handler in previous_handlers.items():
                signal.signal(s, handler)
    if table:
        table.finish()
        rows = table.rows
        write_plot(out, test, rows, figures)
    if failures:
        print("trackcosim: error: %d of %d points failed: %s" % (len(failures), count, "; ".join(failures)),
              file=sys.stderr, flush=True)
    if left:
        print("mobility: stopped with %d point%s left (%s): run the same command again to continue; finished "
              "points are read, interrupted ones resume from their checkpoints" % (
                  len(left), "s" if len(left) > 1 else "", ", ".join(left)), flush=True)
    print("mobility test=%s points=%d done=%d failed=%d out=%s" % (test, count, len(rows), len(failures), out) +
          ("" if options["--point"] is None else " point=%d" % options["--point"]) + last_line_fields(test, rows))
    return 1 if failures else EXIT_INTERRUPTED if left else 0


def write_plot(out, test, rows, figures):
    """OUT/<test>.png; as after a run, a plotting failure (no matplotlib) is a warning only."""
    try:
        from mobility.mobility_plots import write_figure
        path = write_figure(out, test, rows, figures)
        if path:
            print(path, flush=True)
    except Exception as e:  # noqa: BLE001 - said as a warning, the table is complete
        print("trackcosim: warning: no %s.png (%s: %s); %s.csv is complete" % (test, type(e).__name__, e, test),
              file=sys.stderr)
