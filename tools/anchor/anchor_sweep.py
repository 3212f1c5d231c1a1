#!/usr/bin/env python3
"""The helical anchor's two parameter sweeps (Negrut et al., NDIA 2012, figs 18 and 19), one command.

  tools/anchor/anchor_sweep.py [run] --scenario small --jobs 2        # settle the bed, run every case, plot
  tools/anchor/anchor_sweep.py slurm --scenario full                  # the same as Slurm jobs
  tools/anchor/anchor_sweep.py plot --out DIR                         # the figures from finished runs

A scenario (configs/anchor/sweeps.json) names a bed config, a run config and the sweeps: the
torques at a fixed pull-out force (fig. 18) and the pull-out forces at a fixed torque (fig. 19).
Every case is the run config with its loads set (the press, from the second load on the torque
T as -T about z, from the third the pull F along +z), the anchor placed with its tip `--clearance`
above the settled bed's highest grain, and the anchor's gid as the probe. It runs
`terrain_node --config DIR/<case>/config.json --from-checkpoint DIR/bed/checkpoint.bin`.

Depth (the figures' y axis) is how far the anchor's tip is below the bed's initial surface, the
settled bed's mean top (settle.json: floor_z + depth_mean); the tip is the lowest point of the
anchor's spheres, which the axial motion keeps at a fixed offset below the centre of mass.

Folder DIR (--out, default output/anchor_<scenario>): sweep.json (the plan), bed/ (the settled
bed), <case>/ (config.json and the run's outputs), depth_torques.png and depth_pulls.png,
depths.csv (per case: depth when the pull starts, at the end, the deepest, and the rise under
the pull). `slurm` submits the bed as jobs/terrain_run.sbatch, the cases as one array job of
jobs/anchor_sweep.sbatch after it, and the plot as a job after the array.

Bad input (a sweeps file that is not JSON, a scenario without its torques, a torque that is not a
finite number, a bed or run config that does not exist, a folder without sweep.json) is refused
before anything runs, with one `anchor_sweep: error:` line naming the file and the key, and exit
status 2 (docs/exit-status.md); --debug adds the traceback.
"""
import argparse
import concurrent.futures
import csv
import json
import math
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tools/, the import root
from common.input_checks import (EXIT_RUN_FAILED, InputError, OneLineParser, finite_float, member,  # noqa: E402
                                 number_list_member, number_member, read_csv, run_guarded)
from common.input_checks import read_json as read_checked_json  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the tree


def read_json(path, what="a JSON file"):
    """A JSON file with // comments (the configs'); InputError names the file."""
    return read_checked_json(path, what, comments=True)


def write_json(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w") as f:
        json.dump(value, f, indent=1)
        f.write("\n")
    os.replace(path + ".tmp", path)


def in_root(path):
    return path if os.path.isabs(path) else os.path.join(ROOT, path)


# --- the plan -------------------------------------------------------------------------------------

def scenario_config(sweeps, a, key):
    """The bed or run config a scenario names: a JSON file that exists, checked now rather than
    found missing when the bed fails to settle."""
    name = member(sweeps, [a.scenario, key], a.sweeps)
    if not isinstance(name, str):
        raise InputError("%s: %s.%s: expected a path, got %r" % (a.sweeps, a.scenario, key, name))
    read_json(in_root(name), "a terrain config (%s.%s of %s)" % (a.scenario, key, a.sweeps))
    return in_root(name)


def read_scenario(a):
    """The scenario a.scenario of the sweeps file, every key the plan uses checked, naming the
    file and the key: `configs/anchor/sweeps.json: small.torques[1]: expected a finite number`."""
    if not os.path.isfile(in_root(a.sweeps)):
        raise InputError("--sweeps %s: no such file" % a.sweeps)
    sweeps = read_json(in_root(a.sweeps), "a sweeps file")
    if not isinstance(sweeps, dict) or not isinstance(sweeps.get(a.scenario), dict):
        there = ", ".join(k for k in sweeps if not k.startswith("/")) if isinstance(sweeps, dict) else "none"
        raise InputError(f"{a.sweeps}: no scenario '{a.scenario}' (there: {there})")
    checked = {"bed": scenario_config(sweeps, a, "bed"), "run": scenario_config(sweeps, a, "run")}
    wanted = (["torques", "pull_for_torques"] if a.sweep in ("both", "torques") else []) + \
             (["pulls", "torque_for_pulls"] if a.sweep in ("both", "pulls") else [])
    for key in wanted:
        read = number_list_member if key in ("torques", "pulls") else number_member
        checked[key] = read(sweeps, [a.scenario, key], a.sweeps)
    for key in ("grain_density", "press", "end_time", "torque_from", "pull_from"):
        if key in sweeps[a.scenario]:
            checked[key] = number_member(sweeps, [a.scenario, key], a.sweeps)
    return checked


def make_plan(a):
    sc = read_scenario(a)
    cases = []
    if a.sweep in ("both", "torques"):
        cases += [{"name": f"torque_{t:g}", "sweep": "torques", "torque": t, "pull": sc["pull_for_torques"]}
                  for t in sc["torques"]]
    if a.sweep in ("both", "pulls"):
        cases += [{"name": f"pull_{f:g}", "sweep": "pulls", "torque": sc["torque_for_pulls"], "pull": f}
                  for f in sc["pulls"]]
    # A scenario may set the grains' density, the press and the times instead of its configs'
    # (docs/anchor.md, "A bed of gravel"); the command line's options win over the scenario's.
    press = a.press if a.press is not None else sc.get("press")
    return {"scenario": a.scenario, "bed": sc["bed"], "run": sc["run"], "cases": cases,
            "grain_density": sc.get("grain_density"),
            "settings": {"iterations": a.iterations, "end_time": a.end_time or sc.get("end_time", 0),
                         "clearance": a.clearance, "torque_from": a.torque_from or sc.get("torque_from", 0),
                         "pull_from": a.pull_from or sc.get("pull_from", 0), "press": press,
                         "snapshot_interval": a.snapshot_interval},
            "terrain_node": os.path.abspath(a.terrain_node or os.path.join(a.build, "terrain_node", "terrain_node")),
            "threads": a.threads, "jobs": a.jobs}


def anchor_entry(config, source):
    bodies = config.get("bodies", []) if isinstance(config, dict) else []
    if not isinstance(bodies, list) or len(bodies) != 1 or not isinstance(bodies[0], dict) or \
            not isinstance(bodies[0].get("loads"), list) or len(bodies[0]["loads"]) != 3:
        raise InputError("%s: bodies: the anchor's run config needs one entry in `bodies` with three loads "
                         "(press; press and torque; pull)" % source)
    return bodies[0]


def spheres_of(entry, config_path):
    shape = entry["shape"]
    if "spheres" in shape:
        return shape["spheres"], None
    path = os.path.join(os.path.dirname(config_path), shape["spheres_file"])
    return read_json(path)["spheres"], os.path.abspath(path)


def bed_surface(bed_dir):
    """(mean top, highest top, the bed's last gid) of a settled bed."""
    settle_file, run_file = os.path.join(bed_dir, "settle.json"), os.path.join(bed_dir, "run.json")
    settle = read_json(settle_file, "a settled bed's settle.json")
    ranges = member(read_json(run_file, "a settled bed's run.json"), ["gid_ranges"], run_file)
    last = max(number_member(r, ["first"], run_file) + number_member(r, ["count"], run_file) - 1 for r in ranges)
    floor, mean_depth, max_depth = (number_member(settle, [k], settle_file) for k in ("floor_z", "depth_mean",
                                                                                      "depth_max"))
    return floor + mean_depth, floor + max_depth, int(last)


def case_config(plan, case, bed_dir):
    """The run config of one case, placed over the settled bed."""
    config = read_json(plan["run"], "the anchor's run config")
    entry = anchor_entry(config, plan["run"])
    spheres, spheres_file = spheres_of(entry, plan["run"])
    if spheres_file:
        entry["shape"]["spheres_file"] = spheres_file  # the case's config lives elsewhere
    tip_below_com = -min(s[2] - s[3] for s in spheres)
    mean_top, highest_top, last_gid = bed_surface(bed_dir)
    s = plan["settings"]
    entry["position"] = [entry["position"][0], entry["position"][1], highest_top + s["clearance"] + tip_below_com]
    if s.get("press") is not None:
        entry["loads"][0]["force"] = [0, 0, -s["press"]]
    if s.get("torque_from"):
        entry["loads"][1]["from"] = s["torque_from"]
    if s.get("pull_from"):
        entry["loads"][2]["from"] = s["pull_from"]
    press = entry["loads"][0]["force"][2]
    entry["loads"][1]["force"] = [0, 0, press]
    entry["loads"][1]["torque"] = [0, 0, -case["torque"]]
    entry["loads"][2]["force"] = [0, 0, case["pull"]]
    entry["loads"][2]["torque"] = [0, 0, 0]
    if plan.get("grain_density"):
        config["material"]["density"] = plan["grain_density"]  # the bed's, for the record
    config["output"]["probes"] = [last_gid + 1]  # --from-checkpoint: the bodies follow the bed's last gid
    if s["iterations"]:
        config["solver"]["max_iterations"] = s["iterations"]
    if s["end_time"]:
        config["end_time"] = s["end_time"]
    if s["snapshot_interval"] is not None:
        config["output"]["snapshot_interval"] = s["snapshot_interval"]
    meta = {"surface": mean_top, "highest_top": highest_top, "tip_below_com": tip_below_com,
            "torque_from": entry["loads"][1]["from"], "pull_from": entry["loads"][2]["from"],
            "gid": config["output"]["probes"][0]}
    return config, meta


# --- running --------------------------------------------------------------------------------------

def terrain_node(plan):
    return plan["terrain_node"]


def threads(plan):
    return os.environ.get("SLURM_CPUS_PER_TASK", str(plan["threads"]))


def bed_config(plan, bed_dir):
    """The config the bed settles from: the scenario's, or a copy in bed_dir with its grains'
    density replaced when the scenario gives one."""
    if not plan.get("grain_density"):
        return plan["bed"]
    config = read_json(plan["bed"])
    config["material"]["density"] = plan["grain_density"]
    path = os.path.abspath(os.path.join(bed_dir, "bed_config.json"))  # a Slurm job runs from the source tree
    write_json(path, config)
    return path


def settle_bed(plan, out):
    bed_dir = os.path.join(out, "bed")
    if os.path.exists(os.path.join(bed_dir, "checkpoint.bin")) and os.path.exists(os.path.join(bed_dir, "settle.json")):
        print(f"bed: {bed_dir}/checkpoint.bin (settled before)")
        return bed_dir
    os.makedirs(bed_dir, exist_ok=True)
    # the bed settles alone: all the cases' threads
    bed_threads = str(max(int(threads(plan)), plan["threads"] * plan["jobs"]))
    cmd = [terrain_node(plan), "--config", bed_config(plan, bed_dir), "--out", bed_dir, "--threads", bed_threads]
    print("bed: " + " ".join(cmd), flush=True)
    with open(os.path.join(bed_dir, "terrain_node.log"), "w") as log:
        if subprocess.call(cmd, stdout=log, stderr=subprocess.STDOUT) != 0:
            print(f"anchor_sweep: error: the bed did not settle; see {bed_dir}/terrain_node.log", file=sys.stderr)
            sys.exit(EXIT_RUN_FAILED)
    return bed_dir


def run_case(plan, out, index):
    case = plan["cases"][index]
    bed_dir = os.path.join(out, "bed")
    case_dir = os.path.join(out, case["name"])
    config, meta = case_config(plan, case, bed_dir)
    write_json(os.path.join(case_dir, "config.json"), config)
    write_json(os.path.join(case_dir, "case.json"), dict(case, **meta))
    cmd = [terrain_node(plan), "--config", os.path.join(case_dir, "config.json"), "--out", case_dir,
           "--from-checkpoint", os.path.join(bed_dir, "checkpoint.bin"), "--threads", threads(plan)]
    start = time.time()
    with open(os.path.join(case_dir, "terrain_node.log"), "w") as log:
        status = subprocess.call(cmd, stdout=log, stderr=subprocess.STDOUT)
    print(f"{case['name']}: torque {case['torque']:g} N m, pull {case['pull']:g} N: "
          f"{'done' if status == 0 else f'FAILED (status {status}, {case_dir}/terrain_node.log)'} "
          f"in {time.time() - start:.0f} s", flush=True)
    return status


def run_local(plan, out, jobs):
    settle_bed(plan, out)
    env_threads = {"OMP_WAIT_POLICY": os.environ.get("OMP_WAIT_POLICY", "passive")}
    os.environ.update(env_threads)
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        statuses = list(pool.map(lambda i: run_case(plan, out, i), range(len(plan["cases"]))))
    return 0 if all(s == 0 for s in statuses) else 1


def submit(args):
    out = subprocess.run(["sbatch", "--parsable"] + args, check=True, capture_output=True, text=True).stdout
    return out.strip().split(";")[0]


def run_slurm(plan, out, a):
    build = os.path.dirname(os.path.dirname(plan["terrain_node"]))
    env = f"ALL,TRACKCOSIM_ROOT={ROOT},SWEEP={os.path.abspath(out)}"
    extra = a.sbatch_args.split() if a.sbatch_args else []
    after = []
    if not os.path.exists(os.path.join(out, "bed", "checkpoint.bin")):
        bed = submit(extra + ["--job-name=trackcosim-anchor-bed", "-c", str(plan["threads"]),
                              f"--output={out}/bed.out",
                              f"--export=ALL,CONFIG={bed_config(plan, os.path.join(out, 'bed'))},"
                              f"OUT={os.path.abspath(out)}/bed,"
                              f"TRACKCOSIM_ROOT={ROOT},TRACKCOSIM_BUILD={build}",
                              "--ntasks=1", os.path.join(ROOT, "jobs", "terrain_run.sbatch")])
        after = [f"--dependency=afterok:{bed}", "--kill-on-invalid-dep=yes"]
        print(f"bed_job={bed}")
    n = len(plan["cases"])
    array = submit(extra + after + [f"--array=0-{n - 1}", "-c", str(plan["threads"]), f"--export={env}",
                                    f"--output={out}/case-%a.out", os.path.join(ROOT, "jobs", "anchor_sweep.sbatch")])
    plot = submit(extra + [f"--dependency=afterany:{array}", f"--export={env},PLOT=1", f"--output={out}/plot.out",
                           os.path.join(ROOT, "jobs", "anchor_sweep.sbatch")])
    print(f"array_job={array} ({n} cases) plot_job={plot} folder={out}")
    return 0


# --- the figures ----------------------------------------------------------------------------------

def depth_series(case_dir):
    case_file = os.path.join(case_dir, "case.json")
    meta = read_json(case_file, "a case's case.json")
    gid, surface, tip = (number_member(meta, [k], case_file) for k in ("gid", "surface", "tip_below_com"))
    probes = read_csv(os.path.join(case_dir, "probes.csv"), required=("t", "gid", "z"), torn_end=True,
                      what="a terrain_node probes.csv")
    t, depth = [], []
    for row in probes.rows:
        if float(row["gid"]) != gid:
            continue
        t.append(float(row["t"]))
        depth.append(surface - (float(row["z"]) - tip))
    return meta, t, depth


def value_at(t, y, when):
    best = min(range(len(t)), key=lambda i: abs(t[i] - when))
    return y[best]


def plot(plan, out):
    """depths.csv, then the figures (when matplotlib is there: the table alone otherwise)."""
    series, rows = {}, []
    for c in plan["cases"]:
        if not os.path.exists(os.path.join(out, c["name"], "probes.csv")):
            continue
        meta, t, depth = depth_series(os.path.join(out, c["name"]))
        if not t:
            continue
        series[c["name"]] = (c, meta, t, depth)
        pull_depth = value_at(t, depth, meta["pull_from"])
        rows.append({"case": c["name"], "torque": c["torque"], "pull": c["pull"], "t_end": t[-1],
                     "depth_at_torque": value_at(t, depth, meta["torque_from"]),
                     "depth_at_pull": pull_depth, "depth_end": depth[-1], "depth_max": max(depth),
                     "rise_under_pull": pull_depth - depth[-1] if t[-1] > meta["pull_from"] else float("nan")})
    with open(os.path.join(out, "depths.csv"), "w", newline="") as f:
        fields = ["case", "torque", "pull", "t_end", "depth_at_torque", "depth_at_pull", "depth_end", "depth_max",
                  "rise_under_pull"]
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for r in rows:
            w.writerow({k: (v if isinstance(v, str) else "" if math.isnan(v) else f"{v:.4f}" if k.startswith(("depth", "rise"))
                            else f"{v:g}") for k, v in r.items()})
    for r in rows:
        print(f"{r['case']:>12}: depth {r['depth_at_torque']:.3f} m when the torque starts, {r['depth_at_pull']:.3f} m "
              f"when the pull starts, {r['depth_end']:.3f} m at t = {r['t_end']:.2f} s (deepest {r['depth_max']:.3f} m)")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("no figures: this python3 lacks matplotlib (tools/install_deps.sh); depths.csv written")
        return 0
    for sweep, label, title in (("torques", "torque {torque:g} N m", "pull-out force {pull:g} N"),
                                ("pulls", "pull {pull:g} N", "torque {torque:g} N m")):
        done = [series[c["name"]] for c in plan["cases"] if c["sweep"] == sweep and c["name"] in series]
        if not done:
            continue
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for c, meta, t, depth in done:
            ax.plot(t, depth, label=label.format(**c))
        meta = done[0][1]
        for when, what in ((meta["torque_from"], "torque on"), (meta["pull_from"], "pull on")):
            if when <= max(max(s[2]) for s in done):
                ax.axvline(when, color="0.6", lw=0.8, ls="--")
                ax.text(when, ax.get_ylim()[1], " " + what, va="top", fontsize=8, color="0.4")
        ax.axhline(0, color="0.3", lw=0.6)
        ax.set_xlabel("time [s]")
        ax.set_ylabel("tip depth below the bed surface [m]")
        ax.set_title(f"Anchor ({plan['scenario']}), {sweep} at a {title.format(**done[0][0])}")
        ax.legend(loc="best", fontsize=8)
        ax.grid(alpha=0.3)
        fig.tight_layout()
        path = os.path.join(out, f"depth_{sweep}.png")
        fig.savefig(path, dpi=120)
        plt.close(fig)
        print(f"figure: {path}")
    return 0


def main(argv):
    p = OneLineParser(description=__doc__.split("\n")[0],
                      formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("command", nargs="?", default="run", choices=["run", "slurm", "case", "plot"],
                   help="run: everything here; slurm: submit; case: one case (array tasks); plot")
    p.add_argument("index", nargs="?", type=int, help="case: the case's index in DIR/sweep.json")
    p.add_argument("--scenario", default="small", help="a scenario of --sweeps")
    p.add_argument("--sweeps", default="configs/anchor/sweeps.json")
    p.add_argument("--sweep", default="both", choices=["both", "torques", "pulls"])
    p.add_argument("--out", help="the sweep's folder (default output/anchor_<scenario>)")
    p.add_argument("--build", default=os.path.join(ROOT, "build"), help="the build folder with terrain_node")
    p.add_argument("--terrain-node", help="the terrain_node program (default: BUILD/terrain_node/terrain_node)")
    p.add_argument("--jobs", type=int, default=2, help="cases at a time (run)")
    p.add_argument("--threads", type=int, default=1, help="OpenMP threads per case")
    p.add_argument("--iterations", type=int, default=0, help="solver.max_iterations (0: the run config's)")
    p.add_argument("--end-time", type=finite_float, default=0, help="end_time (0: the run config's)")
    p.add_argument("--press", type=finite_float, default=None, help="the pressing force [N] (default: the run config's)")
    p.add_argument("--torque-from", type=finite_float, default=0, help="when the torque starts [s] (0: the run config's)")
    p.add_argument("--pull-from", type=finite_float, default=0, help="when the pull starts [s] (0: the run config's)")
    p.add_argument("--clearance", type=finite_float, default=0.01, help="the tip's height over the highest grain [m]")
    p.add_argument("--snapshot-interval", type=int, default=None, help="output.snapshot_interval (default: the config's)")
    p.add_argument("--sbatch-args", default="", help="more sbatch options for every job (slurm), e.g. '-p batch -t 04:00:00'")
    a = p.parse_args(argv)
    out = a.out or os.path.join("output", f"anchor_{a.scenario}")
    plan_file = os.path.join(out, "sweep.json")
    if a.command in ("case", "plot"):
        if not os.path.isfile(plan_file):
            raise InputError(f"--out {out}: no sweep folder (no {plan_file}: `tools/anchor/anchor_sweep.py run` or "
                             "`slurm` writes it)")
        plan = read_json(plan_file, "a sweep's plan")
        if a.command == "plot":
            return plot(plan, out)
        if a.index is None or not 0 <= a.index < len(plan["cases"]):
            raise InputError(f"case: give an index 0..{len(plan['cases']) - 1}")
        return run_case(plan, out, a.index)
    plan = make_plan(a)
    os.makedirs(out, exist_ok=True)
    write_json(plan_file, plan)
    if a.command == "slurm":
        return run_slurm(plan, out, a)
    status = run_local(plan, out, a.jobs)
    plot(plan, out)
    return status


if __name__ == "__main__":
    sys.exit(run_guarded("anchor_sweep", lambda argv: main(argv[1:]), sys.argv))
