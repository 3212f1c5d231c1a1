#!/usr/bin/python3
"""Strong- and weak-scaling series of the distributed terrain as Slurm jobs, and their tables.

  jobs/scaling.py --out DIR [--ranks 1,2,4,8] [--strong-particles 40000] [--weak-per-rank 20000]
                  [--steps 10] [--sbatch-args="-p batch -t 00:30:00 -c 1"] [--serial]
  jobs/scaling.py --out DIR --study ...  (also the runs the scaling model needs, and its fit)
  jobs/scaling.py --collect DIR        (the tables again from the job outputs already in DIR)

Submits one job per point (jobs/terrain_scaling.sbatch, bench/terrain_scaling on n tasks): the
strong series keeps the particle count, the weak series the particles per rank. It waits for
all of them, then reads each job's result line and writes, as in the reference's tables 1-2
(Negrut et al. 2018):
  DIR/strong.csv, DIR/weak.csv  ranks, particles, ratio, seconds per simulated second, efficiency
                                (strong: E = T1 / (n Tn); weak: E = T1 / Tn), job id
  DIR/scaling.png               both efficiencies and times against ranks (needs python3-matplotlib)
and prints the tables. --study adds, for each rank count n > 1, the weak series' per-rank work
run --alone on n tasks (the node as full, nothing sent: what sharing the node costs) and
bench/comm_costs on n tasks one per node (--ntasks-per-node=1: every message crosses the
network); then it gathers every job's result line into DIR/runs.txt and runs
bench/scaling_model.py on it, which fits the model to this cluster (DIR/model.txt,
DIR/measured.csv; docs/scaling.md). --serial chains the jobs (each starts when the last ended), for a
cluster whose jobs would share cores, such as the one-node test cluster: timings of jobs that
overlap on the same cores mean nothing. Debian's python3 (the shebang) has the plotting module.
Run it from the source tree (with build/bench/terrain_scaling built) on a
machine where sbatch reaches the cluster; TRACKCOSIM_SRUN_ARGS is passed on to srun in each job.
"""

import argparse
import csv
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RESULT = re.compile(r"^scaling (.*)$", re.M)


def submit(kind, ranks, scaling_args, sbatch_args, out, after=None, program="terrain_scaling"):
    """sbatch one point, after job `after` ended when given; returns the job id."""
    log = os.path.join(out, "%s-%d-%%j.out" % (kind, ranks))
    command = ["sbatch", "--parsable", "-n", str(ranks), "--output", log, "--job-name", "scaling-%s-%d" % (kind, ranks),
               "--export", "ALL,TRACKCOSIM_ROOT=%s,SCALING_PROGRAM=%s,SCALING_ARGS=%s" % (ROOT, program, scaling_args)] + \
              sbatch_args + (["--dependency", "afterany:" + after] if after else []) + \
              [os.path.join(HERE, "terrain_scaling.sbatch")]
    job = subprocess.run(command, check=True, capture_output=True, text=True).stdout.strip().split(";")[0]
    print("submitted %s scaling on %d ranks: job %s" % (kind, ranks, job), flush=True)
    return job


def wait_for(jobs):
    """Blocks until none of the jobs is queued or running (sbatch --wait per job would serialise)."""
    while True:
        left = subprocess.run(["squeue", "-h", "-j", ",".join(jobs), "-o", "%i"], capture_output=True,
                              text=True).stdout.split()
        if not left:
            return
        time.sleep(2)


def read_points(out, kind):
    points = []
    for name in sorted(os.listdir(out)):
        m = re.match(r"%s-(\d+)-(\d+)\.out$" % kind, name)
        if not m:
            continue
        with open(os.path.join(out, name)) as f:
            text = f.read()
        found = RESULT.search(text)
        if not found:
            sys.exit("scaling: job %s (%s, %s ranks) has no result line; see %s" % (m.group(2), kind, m.group(1),
                                                                                    os.path.join(out, name)))
        fields = dict(kv.split("=", 1) for kv in found.group(1).split())
        points.append({"ranks": int(fields["ranks"]), "particles": int(fields["particles"]),
                       "seconds": float(fields["seconds_per_simulated_second"]), "job": m.group(2)})
    return sorted(points, key=lambda p: p["ranks"])


STUDY_KINDS = ("strong", "weak", "alone", "comm")


def gather_runs(out):
    """Every job's result lines (scaling ... and comm ...) into DIR/runs.txt, for the model;
    returns its path, or None when the study's jobs are not all there."""
    lines = []
    for name in sorted(os.listdir(out)):
        m = re.match(r"(%s)-(\d+)-(\d+)\.out$" % "|".join(STUDY_KINDS), name)
        if not m:
            continue
        with open(os.path.join(out, name)) as f:
            lines += ["%s job=%s oversubscribed=0" % (line.strip(), m.group(3)) for line in f
                      if re.match(r"^(scaling|comm) ", line)]
    if not any(line.startswith("comm ") for line in lines) or not any(" mode=alone " in line for line in lines):
        return None
    path = os.path.join(out, "runs.txt")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def table(kind, points, out):
    if not points:
        return []
    base = points[0]
    rows = []
    for p in points:
        ratio = p["particles"] / base["particles"]
        n = p["ranks"] / base["ranks"]
        eff = base["seconds"] / (n * p["seconds"]) if kind == "strong" else base["seconds"] / p["seconds"]
        rows.append({"ranks": p["ranks"], "particles": p["particles"], "ratio": round(ratio, 3),
                     "seconds_per_simulated_second": p["seconds"], "efficiency": round(eff, 3), "job": p["job"]})
    with open(os.path.join(out, kind + ".csv"), "w", newline="") as f:
        w = csv.DictWriter(f, list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    print("\n%s scaling (%s)" % (kind, "E = T1 / (n Tn)" if kind == "strong" else "E = T1 / Tn"))
    print("%6s %10s %7s %26s %8s %8s" % ("ranks", "particles", "ratio", "s per simulated s", "E", "job"))
    for r in rows:
        print("%6d %10d %7.3g %26.2f %8.3f %8s" % (r["ranks"], r["particles"], r["ratio"],
                                                  r["seconds_per_simulated_second"], r["efficiency"], r["job"]))
    return rows


def plot(strong, weak, out):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("scaling: no plot, python3-matplotlib is missing (tools/install_deps.sh --with-slurm)")
        return
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    for rows, name in ((strong, "strong"), (weak, "weak")):
        if rows:
            ranks = [r["ranks"] for r in rows]
            left.plot(ranks, [r["efficiency"] for r in rows], "o-", label=name)
            right.plot(ranks, [r["seconds_per_simulated_second"] for r in rows], "o-", label=name)
    left.set(xlabel="MPI ranks", ylabel="parallel efficiency", title="efficiency", ylim=(0, 1.2))
    right.set(xlabel="MPI ranks", ylabel="wall s per simulated s", title="time")
    all_ranks = sorted({r["ranks"] for r in strong + weak})
    for ax in (left, right):
        ax.set_xscale("log", base=2)
        ax.set_xticks(all_ranks, [str(n) for n in all_ranks])
        ax.grid(True, alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out, "scaling.png"), dpi=100)
    print("plot: %s" % os.path.join(out, "scaling.png"))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out")
    parser.add_argument("--collect")
    parser.add_argument("--ranks", default="1,2,4,8")
    parser.add_argument("--strong-particles", type=int, default=40000)
    parser.add_argument("--weak-per-rank", type=int, default=20000)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--sbatch-args", default="")
    parser.add_argument("--serial", action="store_true")
    parser.add_argument("--study", action="store_true", help="also the alone and comm_costs runs, and the model")
    a = parser.parse_args()
    out = a.collect or a.out
    if not out:
        parser.error("--out DIR (submit and collect) or --collect DIR")
    out = os.path.abspath(out)
    if not a.collect:
        if not os.access(os.path.join(ROOT, "build", "bench", "terrain_scaling"), os.X_OK) and \
                "TRACKCOSIM_BUILD" not in os.environ:
            sys.exit("scaling: build/bench/terrain_scaling is not built (cmake --build build --target bench_terrain_scaling)")
        os.makedirs(out, exist_ok=True)
        ranks = [int(r) for r in a.ranks.split(",")]
        extra = a.sbatch_args.split()
        jobs = []
        for n in ranks:
            for kind, size in (("strong", "--particles %d" % a.strong_particles),
                               ("weak", "--particles-per-rank %d" % a.weak_per_rank)):
                after = jobs[-1] if a.serial and jobs else None
                jobs.append(submit(kind, n, "%s --steps %d" % (size, a.steps), extra, out, after))
            if a.study and n > 1:
                after = jobs[-1] if a.serial else None
                jobs.append(submit("alone", n, "--particles-per-rank %d --alone --steps %d" % (a.weak_per_rank, a.steps),
                                   extra, out, after))
                after = jobs[-1] if a.serial else None
                jobs.append(submit("comm", n, "", extra + ["--ntasks-per-node=1"], out, after, "comm_costs"))
        wait_for(jobs)
    strong = table("strong", read_points(out, "strong"), out)
    weak = table("weak", read_points(out, "weak"), out)
    plot(strong, weak, out)
    runs = gather_runs(out)
    if runs:
        with open(os.path.join(out, "model.txt"), "w") as f:
            subprocess.run([sys.executable, os.path.join(ROOT, "bench", "scaling_model.py"), runs, "--csv",
                            os.path.join(out, "measured.csv")], check=True, stdout=f)
        with open(os.path.join(out, "model.txt")) as f:
            print(f.read())


if __name__ == "__main__":
    main()
