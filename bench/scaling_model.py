#!/usr/bin/python3
"""The distributed terrain step's scaling model: fitted to measured runs, projected to large ones.

  bench/scaling_model.py RUNS [RUNS ...] [--csv FILE] [--latency S] [--bandwidth BYTES_PER_S]
                         [--cores-per-node C] [--cores-per-rank T] [--core-speed F]

RUNS: text files holding the lines bench/terrain_scaling and bench/comm_costs print
("scaling key=value ..." and "comm key=value ..."), as bench/run_scaling_study.sh writes them
into runs.txt and jobs/scaling.py --study finds them in its job outputs; other lines are
ignored. A line may carry oversubscribed=1 (more ranks than cores), load1= and repeat=.
Of repeated runs of one point the fastest counts (on a shared machine other work only adds time);
the tables give how many there were and the spread (median / fastest).

The model of one step on a rank holding n particles and g ghosts, with k neighbours, of P ranks
(docs/scaling.md says where each term comes from and how it was measured):

  W    = c0 + c n                      the work one rank alone does (the plain step)
  T(1) = W
  T(P) = (W + c_g g + c_b n)           the work, plus what splitting adds: the ghosts' work and the
                                       bookkeeping of ownership, partition and warm-start hand-over
         x (1 + iota + s h(P))         the slowest rank's lead, and the waits at the solver's
                                       per-iteration exchanges (h: the mean of the largest of P
                                       standard normal draws, h(2) = 1/sqrt(pi))
       + X k alpha + b_g g / beta      the exchanges: X per step, b_g bytes per ghost per step
       + R alpha_r ceil(log2 P)        the solver's allreduces, R per step

fitted as: c from one-rank runs of several sizes; kappa = (2 ranks alone, at once) / (1 rank
alone), the cost of sharing the node; c_g = c (a ghost costs a particle's work: an assumption,
a slab's ghost count hardly varies) and c_b from the two-rank runs' compute minus their
alone-together reference; iota and s from the two-rank runs' lead and wait; alpha, beta from
comm_costs' neighbour exchanges on 2 ranks, alpha_r from its allreduces on ranks that did not
oversubscribe the cores. The projections take c (times --core-speed), the fitted overheads, and
the network of the options in place of this machine's shared memory.

Prints the measured tables, the fit and the projections; --csv writes the measured table (one
row per point, its fastest run). Python's standard library only.
"""

import argparse
import csv
import math
import re
import statistics
import sys

LINE = re.compile(r"^(scaling|comm) (.*)$")

# The co-simulation paper's settling bed (Negrut et al. 2018, sec. 4.1, tables 1-2): spheres of
# radius 1.25 mm, 1,236,372 per rank on a base 0.5 m wide and 4 m long per rank, grown along x.
PAPER_PER_RANK = 1236372
PAPER_RADIUS = 0.00125
PAPER_WIDTH = 0.5
PAPER_LENGTH_PER_RANK = 4.0
# The paper's weak-scaling table 2: ranks -> wall seconds per simulated second.
PAPER_WEAK = {1: 23489.5, 2: 23901.0, 4: 23997.6, 8: 24099.4, 16: 24406.5, 32: 24480.8}
# bench/terrain_scaling's bed: r = 5 mm spheres, 20 across 0.22 m, 8 layers, pitch 11 mm; ghost
# width 2 r + envelope + 2 max_displacement = 4 r + 0.1 r (domain/ghost_width.h, the default
# max_displacement of one radius, envelope 0.5 mm).
GHOST_WIDTH_IN_RADII = 4.1


def parse_runs(paths):
    """The scaling and comm lines of the files, as dicts of numbers (strings where not numbers)."""
    runs = []
    for path in paths:
        with open(path) as f:
            for text in f:
                m = LINE.match(text.strip())
                if not m:
                    continue
                row = {"line": m.group(1)}
                for item in m.group(2).split():
                    if "=" not in item:
                        continue
                    key, value = item.split("=", 1)
                    try:
                        row[key] = float(value)
                    except ValueError:
                        row[key] = value
                runs.append(row)
    return runs


def best_points(rows, key_fields, time_field):
    """Rows grouped by key_fields, each group as its fastest run (whole, so that its parts add
    up): on a shared machine other work only ever adds time, so the fastest repeat is the least
    disturbed. Adds repeats and spread (median / fastest time)."""
    groups = {}
    for r in rows:
        groups.setdefault(tuple(r.get(k) for k in key_fields), []).append(r)
    points = []
    order = lambda kv: tuple((0, x, "") if isinstance(x, float) else (1, 0.0, str(x)) for x in kv[0])
    for key, members in sorted(groups.items(), key=order):
        best = dict(min(members, key=lambda m: m[time_field]))
        # CPU times (cpu_...) are their own best: other programs only add to them too (caches).
        for field in [f for f in best if f.startswith("cpu_")]:
            best[field] = min(m[field] for m in members if isinstance(m.get(field), float))
        best["repeats"] = len(members)
        best["spread"] = statistics.median(m[time_field] for m in members) / best[time_field]
        points.append(best)
    return points


def least_squares(columns, y, weights=None):
    """Coefficients x minimising sum w_i (sum_j columns[j][i] x_j - y_i)^2 (normal equations)."""
    n = len(columns)
    w = weights or [1.0] * len(y)
    a = [[sum(w[i] * columns[r][i] * columns[c][i] for i in range(len(y))) for c in range(n)] for r in range(n)]
    b = [sum(w[i] * columns[r][i] * y[i] for i in range(len(y))) for r in range(n)]
    for col in range(n):  # Gauss-Jordan with partial pivoting
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot], b[col], b[pivot] = a[pivot], a[col], b[pivot], b[col]
        if a[col][col] == 0:
            raise ValueError("least squares: the columns do not determine the fit")
        for r in range(n):
            if r != col:
                f = a[r][col] / a[col][col]
                a[r] = [a[r][c] - f * a[col][c] for c in range(n)]
                b[r] -= f * b[col]
    return [b[r] / a[r][r] for r in range(n)]


def expected_max_normal(p, samples=None):
    """h(P): the mean of the largest of P independent standard normal draws (0 for P = 1).
    Exact by numerical integration of P x phi(x) Phi(x)^(P-1)."""
    if p <= 1:
        return 0.0
    lo, hi, steps = -9.0, 9.0, samples or 3600
    dx = (hi - lo) / steps
    total = 0.0
    for i in range(steps + 1):
        x = lo + i * dx
        phi = math.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)
        cdf = 0.5 * (1 + math.erf(x / math.sqrt(2)))
        weight = 0.5 if i in (0, steps) else 1.0
        total += weight * x * p * phi * cdf ** (p - 1)
    return total * dx


def is_over(r):
    return r.get("oversubscribed", 0.0) == 1.0


class Fit:
    """The model's constants from measured runs (see the module's docstring)."""

    def __init__(self, runs):
        steps = [r for r in runs if r["line"] == "scaling"]
        comm = [r for r in runs if r["line"] == "comm"]
        self.points = best_points(steps, ["mode", "ranks", "particles_per_rank", "threads", "oversubscribed"],
                                  "seconds_per_step")
        self.comm_points = best_points(comm, ["kind", "ranks", "bytes", "count", "oversubscribed"], "seconds")
        self._fit_compute()
        self._fit_split()
        self._fit_comm()

    def point(self, mode, ranks, per_rank, threads=1.0):
        for p in self.points:
            if (p["mode"], p["ranks"], p["particles_per_rank"], p.get("threads", 1.0)) == \
                    (mode, float(ranks), float(per_rank), float(threads)) and not is_over(p):
                return p
        return None

    def alone_one(self, per_rank, threads=1.0):
        """One rank alone: the plain step (mode distributed on one rank, or alone on one)."""
        return self.point("distributed", 1, per_rank, threads) or self.point("alone", 1, per_rank, threads)

    def _fit_compute(self):
        ones = sorted({p["particles_per_rank"] for p in self.points if p["ranks"] == 1 and p.get("threads", 1) == 1})
        if not ones:
            raise ValueError("scaling model: no one-rank, one-thread run to fit the compute to")
        t = [self.alone_one(n)["seconds_per_step"] for n in ones]
        if len(ones) >= 2:
            self.c0, self.c = least_squares([[1.0] * len(ones), ones], t)
        else:
            self.c0, self.c = 0.0, t[0] / ones[0]
        self.compute_sizes = list(zip(ones, t))
        # OpenMP: one rank with 2 threads against 1, on the same bed.
        self.omp_efficiency = None
        for n in ones:
            two = self.alone_one(n, threads=2.0)
            if two:
                self.omp_efficiency = self.alone_one(n)["seconds_per_step"] / (2 * two["seconds_per_step"])
                self.omp_size = n

    def _fit_split(self):
        """The two-rank runs against their references, per per-rank size n."""
        self.split = []
        for n in sorted({p["particles_per_rank"] for p in self.points if p["ranks"] == 2}):
            one, together, two = self.alone_one(n), self.point("alone", 2, n), self.point("distributed", 2, n)
            if not (one and together and two):
                continue
            self.split.append({"n": n, "one": one, "together": together, "two": two})
        if not self.split:
            raise ValueError("scaling model: no per-rank size has all of 1 rank, 2 alone and 2 distributed")
        # With CPU times (bench/terrain_scaling's cpu_...), node sharing and the work splitting adds
        # are read from them: unlike wall times they do not grow while another program holds the
        # core. Without, from wall times.
        self.by_cpu = all("cpu_compute_ms_mean" in s[k] for s in self.split for k in ("one", "together", "two"))
        work = (lambda p: p["cpu_compute_ms_mean"] * 1e-3) if self.by_cpu else \
            (lambda p: p["compute_ms_mean"] * 1e-3 if p["ranks"] > 1 else p["seconds_per_step"])
        for s in self.split:
            s["work"] = {k: work(s[k]) for k in ("one", "together", "two")}
        self.kappa = statistics.median(s["work"]["together"] / s["work"]["one"] for s in self.split)
        # What splitting adds to the work: the split ranks' compute (mean) minus the alone-together one.
        extra = [s["work"]["two"] - s["work"]["together"] for s in self.split]
        # A slab's ghost count hardly changes with n, so ghosts and bookkeeping cannot both be fitted
        # from these runs: a ghost is taken to cost what a particle costs (it is collided and
        # integrated, and its contacts with owned bodies are kept), c_g = c, and the rest is
        # bookkeeping per particle (ownership plan, warm-start hand-over), the median over sizes.
        # A negative median is noise, so the projections use c_b_used = max(c_b, 0).
        self.c_g = self.c
        self.c_b = statistics.median((e - self.c_g * s["two"]["ghosts_per_rank"]) / s["n"]
                                     for e, s in zip(extra, self.split))
        self.c_b_used = max(self.c_b, 0.0)
        self.iota_by_cpu = all("cpu_compute_ms_max" in s["two"] for s in self.split) and self.by_cpu
        mx, mean = ("cpu_compute_ms_max", "cpu_compute_ms_mean") if self.iota_by_cpu else \
            ("compute_ms_max", "compute_ms_mean")
        self.iota = statistics.median(s["two"][mx] / s["two"][mean] - 1 for s in self.split)
        self.bytes_per_ghost = statistics.median(s["two"]["bytes_per_step"] / s["two"]["ghosts_per_rank"]
                                                 for s in self.split)
        self.exchanges = statistics.median(s["two"]["exchanges_per_step"] for s in self.split)
        self.reductions = statistics.median(s["two"]["reductions_per_step"] for s in self.split)

    def _fit_comm(self):
        ex = [p for p in self.comm_points if p["kind"] == "exchange" and p["ranks"] == 2 and not is_over(p)]
        if len(ex) < 2:
            raise ValueError("scaling model: comm_costs' exchanges on 2 ranks are missing")
        size = [p["bytes"] for p in ex]
        t = [p["seconds"] for p in ex]
        # Relative errors count: weight 1/t^2, so 8 B and 2 MiB matter alike.
        self.alpha, inverse_beta = least_squares([[1.0] * len(ex), size], t, [1 / (x * x) for x in t])
        self.beta = 1 / inverse_beta
        ar = [p for p in self.comm_points if p["kind"] == "allreduce" and p["count"] <= 2 and p["ranks"] >= 2 and not is_over(p)]
        if not ar:
            raise ValueError("scaling model: comm_costs' allreduces are missing")
        self.alpha_r = statistics.median(p["seconds"] / math.ceil(math.log2(p["ranks"])) for p in ar)
        # The solver's waits: the critical rank's time in messages beyond their transfer cost,
        # as a share of its compute, per unit of h(2).
        self.jitter = []
        for s in self.split:
            two = s["two"]
            transfer = two["exchanges_per_step"] * self.alpha + two["bytes_per_step"] / self.beta
            s["transfer"] = transfer
            s["reductions"] = two["reductions_ms_min"] * 1e-3
            messages = two["seconds_per_step"] - two["compute_ms_max"] * 1e-3
            s["wait"] = messages - transfer - s["reductions"]
            self.jitter.append(s["wait"] / (two["compute_ms_mean"] * 1e-3) / expected_max_normal(2))
        self.s = statistics.median(self.jitter)


def paper_waits():
    """s fitted to the paper's weak series, all its losses read as waits: 1/E - 1 = s h(P)."""
    h = {p: expected_max_normal(p) for p in PAPER_WEAK if p > 1}
    loss = {p: PAPER_WEAK[p] / PAPER_WEAK[1] - 1 for p in h}
    return sum(loss[p] * h[p] for p in h) / sum(h[p] ** 2 for p in h), loss, h


def step_time(fit, n, ghosts, neighbours, ranks, latency, bandwidth, allreduce_latency, speed=1.0, threads_speedup=1.0,
              waits=None, sharing=1.0, lead=None):
    """The model's seconds per step (and its terms) of one rank of `ranks` holding n particles and
    `ghosts` ghosts. speed: a core's speed over this machine's; threads_speedup: the rank's cores'
    over one; waits, lead: s and iota in place of the fitted ones; sharing: the compute's factor for a node as
    full as the run's (kappa for two ranks on this machine; the projections leave it out of both
    T(1) and T(P))."""
    scale = 1.0 / (speed * threads_speedup)
    work = sharing * (fit.c0 + fit.c * n) * scale
    if ranks == 1:
        return work, {"compute": work}
    split = (fit.c_g * ghosts + fit.c_b_used * n) * scale
    terms = {
        "compute": work,
        "split": split,
        "lead": (work + split) * (fit.iota if lead is None else lead),
        "waits": (work + split) * (fit.s if waits is None else waits) * expected_max_normal(ranks),
        "halo": fit.exchanges * neighbours * latency + fit.bytes_per_ghost * ghosts / bandwidth,
        "reductions": fit.reductions * allreduce_latency * math.ceil(math.log2(ranks)),
    }
    return sum(terms.values()), terms


def measured_tables(fit, out):
    w = out.write
    w("\nmeasured: compute of one rank alone, one thread (seconds per step)\n")
    w("%12s %14s %18s\n" % ("particles", "s per step", "us per particle"))
    for n, t in fit.compute_sizes:
        w("%12d %14.5f %18.3f\n" % (n, t, 1e6 * t / n))
    w("\nmeasured: two ranks split, against one rank alone and two alone at once (ms per step, fastest runs)\n")
    w("%9s %8s %9s %9s | %10s %9s %9s %9s %9s %9s | %6s %6s\n" % (
        "n/rank", "1 alone", "2 alone", "2 split", "contention", "split", "lead", "transfer", "reduce", "wait",
        "E_w", "E_w'"))
    for s in fit.split:
        one, together, two = (s[k]["seconds_per_step"] * 1e3 for k in ("one", "together", "two"))
        mean, mx = s["two"]["compute_ms_mean"], s["two"]["compute_ms_max"]
        w("%9d %8.2f %9.2f %9.2f | %10.2f %9.2f %9.2f %9.3f %9.3f %9.2f | %6.3f %6.3f\n" % (
            s["n"], one, together, two, together - one, mean - together, mx - mean, s["transfer"] * 1e3,
            s["reductions"] * 1e3, s["wait"] * 1e3, one / two, together / two))
    w("  (the six parts add up to 2 split - 1 alone; E_w = 1 alone / 2 split, E_w' = 2 alone / 2 split:\n"
      "   the efficiency without the cost of sharing the node)\n")
    if fit.by_cpu:
        w("\nmeasured: the same work in CPU time, polling left out (ms per step per rank, fastest of the repeats)\n")
        w("%9s %9s %9s %9s | %10s %9s\n" % ("n/rank", "1 alone", "2 alone", "2 split", "sharing", "splitting"))
        for s in fit.split:
            one, together, two = (s["work"][k] * 1e3 for k in ("one", "together", "two"))
            w("%9d %9.2f %9.2f %9.2f | %9.1f%% %8.1f%%\n" % (s["n"], one, together, two, 100 * (together / one - 1),
                                                           100 * (two / together - 1)))
    weak = sorted((p for p in fit.points if p["mode"] == "distributed"), key=lambda p: (p["particles_per_rank"], p["ranks"]))
    sizes = sorted({p["particles_per_rank"] for p in weak if p["ranks"] > 2 or is_over(p)})
    for n in sizes:
        series = [p for p in fit.points if p["particles_per_rank"] == n and p.get("threads", 1) == 1]
        base = [p for p in series if p["ranks"] == 1 and p["mode"] == "distributed"]
        if not base:
            continue
        t1 = base[0]["seconds_per_step"]
        w("\nmeasured: weak scaling, %d particles per rank (ms per step; * = more ranks than cores)\n" % n)
        w("%6s %10s %10s %10s %8s %8s %10s %10s\n" % ("ranks", "particles", "split", "alone", "E_w", "E_w'",
                                                       "mpi ms", "ghosts"))
        for r in sorted({p["ranks"] for p in series}):
            d = [p for p in series if p["ranks"] == r and p["mode"] == "distributed"]
            a = [p for p in series if p["ranks"] == r and p["mode"] == "alone"]
            if not d:
                continue
            d = d[0]
            alone = a[0]["seconds_per_step"] if a else (t1 if r == 1 else float("nan"))
            w("%5d%1s %10d %10.2f %10.2f %8.3f %8.3f %10.2f %10d\n" % (
                r, "*" if is_over(d) else "", d["particles"], d["seconds_per_step"] * 1e3, alone * 1e3,
                t1 / d["seconds_per_step"], alone / d["seconds_per_step"], d.get("mpi_ms_min", 0.0),
                d.get("ghosts_per_rank", 0)))
    w("\nmeasured: messages (seconds per call, best batch; * = more ranks than cores)\n")
    for p in fit.comm_points:
        if p["kind"] == "exchange":
            w("  exchange %3d%1s ranks %9d B  %10.2f us\n" % (p["ranks"], "*" if is_over(p) else "", p["bytes"],
                                                           p["seconds"] * 1e6))
    for p in fit.comm_points:
        if p["kind"] == "allreduce":
            w("  allreduce %2d%1s ranks %3d doubles %9.2f us\n" % (p["ranks"], "*" if is_over(p) else "",
                                                                 p["count"], p["seconds"] * 1e6))


def fit_table(fit, out):
    w = out.write
    w("\nfit\n")
    w("  compute        c       = %.4g s per particle per step (one core; intercept %.3g s)\n" % (fit.c, fit.c0))
    w("  sharing        kappa   = %.3f (2 ranks alone at once / 1 alone: memory bus and caches shared; %s)\n" % (
        fit.kappa, "CPU time" if fit.by_cpu else "wall time"))
    w("  ghosts         c_g     = %.4g s per ghost per step (taken = c)\n" % fit.c_g)
    w("  bookkeeping    c_b     = %.4g s per particle per step (%.1f%% of c; median over sizes%s)\n" % (
        fit.c_b, 100 * fit.c_b / fit.c, ", below 0: noise, 0 projected" if fit.c_b < 0 else ""))
    w("  lead           iota    = %.4f (slowest rank's compute / mean - 1, %s)\n" % (
        fit.iota, "CPU time" if fit.iota_by_cpu else "wall time"))
    w("  waits          s       = %.4f (per unit of h(P); h(2) = %.3f)\n" % (fit.s, expected_max_normal(2)))
    w("  halo           alpha   = %.3g s per exchange, beta = %.3g B/s (neighbour exchange, 2 ranks)\n" % (
        fit.alpha, fit.beta))
    w("                 X       = %.0f exchanges per step, b_g = %.0f bytes per ghost per step\n" % (
        fit.exchanges, fit.bytes_per_ghost))
    w("  reductions     alpha_r = %.3g s per allreduce per log2(P), R = %.0f per step\n" % (fit.alpha_r, fit.reductions))
    if fit.omp_efficiency:
        w("  OpenMP         e       = %.3f (1 rank, 2 threads against 1, %d particles)\n" % (fit.omp_efficiency,
                                                                                          fit.omp_size))


def check_rows(fit):
    """(n, model, measured) seconds per step of the two-rank runs the model was fitted to, on this
    machine's messages and with its node sharing."""
    rows = []
    for s in fit.split:
        two = s["two"]
        t, _ = step_time(fit, s["n"], two["ghosts_per_rank"], two["neighbours"], 2, fit.alpha, fit.beta, fit.alpha_r,
                         sharing=fit.kappa)
        rows.append((s["n"], t, two["seconds_per_step"]))
    return rows


def check_table(fit, out):
    out.write("\nmodel against the two-rank runs it was fitted to (ms per step; this machine's messages, kappa)\n")
    for n, model, measured in check_rows(fit):
        out.write("  n/rank %7d: model %8.2f, measured %8.2f\n" % (n, model * 1e3, measured * 1e3))


def bed_case(name, total, ranks, layout):
    """(name, N, P, n per rank, ghosts per rank, neighbours) of the paper's bed grown to N grains:
    a slab decomposition along a bed 0.5 m wide, or a square grid of square columns."""
    n = total / ranks
    density = PAPER_PER_RANK / (PAPER_WIDTH * PAPER_LENGTH_PER_RANK)  # grains per m^2 of base
    width = GHOST_WIDTH_IN_RADII * PAPER_RADIUS
    if layout == "slab":
        length = n / (density * PAPER_WIDTH)  # along x, per rank
        return name, total, ranks, n, 2 * n * width / length, 2
    side = math.sqrt(n / density)
    return name, total, ranks, n, 4 * n * width / side + 4 * n * (width / side) ** 2, 8


def projections():
    """The cases docs/scaling.md projects."""
    return [bed_case("paper weak, slab", 39555236, 32, "slab"),
            bed_case("1e9, slab", 1e9, 1024, "slab"),
            bed_case("1e9, grid 32x32", 1e9, 1024, "grid")]


def paper_table(out):
    s, loss, h = paper_waits()
    w = out.write
    w("\nthe paper's weak series (table 2) read as waits: 1/E - 1 = s h(P), s = %.4f\n" % s)
    w("%6s %8s %10s %10s\n" % ("ranks", "h(P)", "E paper", "E = 1/(1+s h)"))
    for p in sorted(h):
        w("%6d %8.3f %10.3f %10.3f\n" % (p, h[p], 1 / (1 + loss[p]), 1 / (1 + s * h[p])))


def projection_table(fit, a, out):
    w = out.write
    ranks_per_node = max(1, a.cores_per_node // a.cores_per_rank)
    bandwidth = a.bandwidth / ranks_per_node
    speedup = a.omp_efficiency ** math.log2(a.cores_per_rank) * a.cores_per_rank if a.cores_per_rank > 1 else 1.0
    w("\nprojection: %d core(s) per rank, %d ranks per node sharing a %.3g B/s link (%.3g B/s each), latency %.3g s,\n"
      "allreduce %.3g s per log2(P), compute c / %.2f per core (x %.2f for the rank's cores), bed of the paper (r = %.2f mm)\n"
      % (a.cores_per_rank, ranks_per_node, a.bandwidth, bandwidth, a.latency, a.allreduce_latency, a.core_speed,
         speedup, PAPER_RADIUS * 1e3))
    w("%-18s %-6s %13s %5s %9s %6s | %8s %7s %7s %7s %8s %8s | %8s %6s %6s\n" % (
        "case", "s", "N", "P", "n/rank", "ghosts", "compute", "lead", "waits", "split", "halo", "reduce", "T s/step",
        "E", "E/kap"))
    rows = []
    for label, waits, lead in (("here", fit.s, fit.iota), ("paper", paper_waits()[0], 0.0)):
        for name, total, ranks, n, ghosts, neighbours in projections():
            t, terms = step_time(fit, n, ghosts, neighbours, ranks, a.latency, bandwidth, a.allreduce_latency,
                                 a.core_speed, speedup, waits, lead=lead)
            t1, _ = step_time(fit, n, 0, 0, 1, a.latency, bandwidth, a.allreduce_latency, a.core_speed, speedup)
            e = t1 / t
            rows.append({"case": name, "waits": label, "N": total, "P": ranks, "n": n, "ghosts": ghosts,
                         "seconds_per_step": t, "efficiency": e, **terms})
            w("%-18s %-6s %13.0f %5d %9.0f %6.0f | %8.3f %7.3f %7.3f %7.4f %8.5f %8.6f | %8.3f %6.3f %6.3f\n" % (
                name, label, total, ranks, n, ghosts, terms["compute"], terms["lead"], terms["waits"], terms["split"],
                terms["halo"], terms["reductions"], t, e, e / fit.kappa))
    w("  (seconds per step. here: lead and waits as fitted here (iota %.4f, s %.4f); paper: no lead and the waits\n"
      "   fitted to the paper's weak series (s %.4f, which then holds all its losses). E = T(1)/T(P), T(1) one rank on\n"
      "   a node as full as the P-rank run's; E/kap: T(1) alone on its node,\n"
      "   kappa = %.3f as measured for 2 ranks here. The paper measured E = 0.960 at 32 ranks.)\n"
      % (fit.iota, fit.s, paper_waits()[0], fit.kappa))
    return rows


def write_csv(fit, path):
    fields = ["mode", "ranks", "oversubscribed", "threads", "particles", "particles_per_rank", "repeats",
              "seconds_per_step", "compute_ms_max", "compute_ms_mean", "compute_ms_min", "mpi_ms_min", "mpi_ms_max",
              "halo_ms_min", "solver_messages_ms_min", "reductions_ms_min", "exchanges_per_step", "bytes_per_step",
              "reductions_per_step", "neighbours", "ghosts_per_rank", "load1"]
    with open(path, "w", newline="") as f:
        wr = csv.DictWriter(f, fields, extrasaction="ignore")
        wr.writeheader()
        for p in fit.points:
            wr.writerow(p)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="+")
    parser.add_argument("--csv", help="write the measured points (medians) here")
    parser.add_argument("--latency", type=float, default=2e-6, help="s per message between nodes (default 2e-6)")
    parser.add_argument("--bandwidth", type=float, default=12.5e9, help="B/s of a node's link (default 12.5e9: 100 Gb/s)")
    parser.add_argument("--allreduce-latency", type=float, default=None,
                        help="s per allreduce per log2(P) (default: twice the latency)")
    parser.add_argument("--cores-per-node", type=int, default=12, help="default 12 (the paper's Cray XC30 nodes)")
    parser.add_argument("--cores-per-rank", type=int, default=1)
    parser.add_argument("--omp-efficiency", type=float, default=None,
                        help="OpenMP efficiency per doubling of threads (default: measured 1 vs 2 threads, else 0.8)")
    parser.add_argument("--core-speed", type=float, default=1.0, help="a cluster core's speed / this machine's core")
    a = parser.parse_args(argv)
    if a.allreduce_latency is None:
        a.allreduce_latency = 2 * a.latency
    fit = Fit(parse_runs(a.runs))
    if a.omp_efficiency is None:
        a.omp_efficiency = fit.omp_efficiency or 0.8
    measured_tables(fit, sys.stdout)
    fit_table(fit, sys.stdout)
    check_table(fit, sys.stdout)
    paper_table(sys.stdout)
    projection_table(fit, a, sys.stdout)
    if a.csv:
        write_csv(fit, a.csv)
    return fit


if __name__ == "__main__":
    main()
