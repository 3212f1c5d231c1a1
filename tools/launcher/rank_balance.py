"""How evenly a co-simulation's terrain ranks shared the work (terrain/ranks.csv, written by
terrain_node on several ranks: docs/protocol.md, "Outputs"; docs/domain-decomposition.md, "Balance").

Each rank's work is its terrain step less the time in its messages (work_s): what the cuts
between ranks should balance. The solver's iterations exchange every iteration, so every step
lasts as long as its slowest rank's work; the others wait in their halo. The imbalance is the
slowest rank's mean work per coupling step over the mean of all ranks', less one: 0.25 means
the slowest rank did a quarter more than the average, and the others waited for it.
Pure standard library, like the other launcher modules."""
import csv
import os

RANKS_FILE = os.path.join("terrain", "ranks.csv")


def rank_balance(folder):
    """{"ranks", "steps", "work_s", "contacts", "owned", "ghosts" (per-rank means per coupling
    step, rank order), "imbalance", "slowest"} from the run's terrain/ranks.csv, or None when the
    run has none (one terrain rank, or an older terrain_node) or it holds no whole step."""
    path = os.path.join(folder, RANKS_FILE)
    if not os.path.isfile(path):
        return None
    sums, steps = {}, {}
    with open(path) as f:
        for row in csv.DictReader(f):
            try:
                rank = int(row["rank"])
                figures = [float(row[k]) for k in ("work_s", "contacts", "owned", "ghosts")]
            except (KeyError, TypeError, ValueError):
                continue  # a cut last line
            total = sums.setdefault(rank, [0.0] * 4)
            for k, value in enumerate(figures):
                total[k] += value
            steps[rank] = steps.get(rank, 0) + 1
    ranks = sorted(sums)
    if len(ranks) < 2 or ranks != list(range(len(ranks))):
        return None
    count = min(steps.values())
    means = [[value / steps[r] for value in sums[r]] for r in ranks]
    work = [m[0] for m in means]
    average = sum(work) / len(work)
    slowest = max(ranks, key=lambda r: work[r])
    return {"ranks": len(ranks), "steps": count, "work_s": work, "contacts": [m[1] for m in means],
            "owned": [m[2] for m in means], "ghosts": [m[3] for m in means],
            "imbalance": work[slowest] / average - 1 if average > 0 else 0.0, "slowest": slowest}


def rank_balance_line(balance):
    """The summary's line, or None without a balance."""
    if balance is None:
        return None
    per_rank = ", ".join("rank %d %.1f ms (%.0f contacts)" % (r, 1e3 * w, c) for r, (w, c) in
                         enumerate(zip(balance["work_s"], balance["contacts"])))
    return ("  rank balance          work per coupling step %s: rank %d is %.1f%% above the mean, and the "
            "others wait for it (%s)" % (per_rank, balance["slowest"], 100 * balance["imbalance"], RANKS_FILE))
