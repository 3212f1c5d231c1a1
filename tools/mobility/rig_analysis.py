"""The steady state of one mobility-test point, read off the rig.csv that vehicle_node writes with
`--rig` (cosim/drawbar_rig.h): drawbar pull, slip, sprocket torque, tractive efficiency and motion
resistance, each a mean over a steady window with its standard error.

Two choices decide every figure, and both are made from the data rather than by a fixed time:
- the window. Only the measure phase counts (the rig has rested, ramped and settled before it),
  and its first rows may still carry the ramp's transient. MSER-5 (White 1997, the marginal
  standard error rule on batches of 5 samples) cuts the start that minimises the standard error
  of the rest, searched over the first half of the measure rows, on the series being measured
  (the drawbar pull when the rig imposes the slip or the speed, the chassis speed when it
  imposes the pull);
- the error bar. The samples of a granular run are strongly autocorrelated (a grouser loading a
  heap of grains shows in many outputs in a row), so sd / sqrt(n), which assumes independent
  samples, understates the error of the mean by sqrt((1 + phi) / (1 - phi)) for an AR(1) series
  of lag-one correlation phi: 4.4 times at phi = 0.9. Non-overlapping batch means (about
  BATCHES batches, each far longer than the correlation time) are nearly independent, and their
  spread gives an honest standard error.

Pure functions of the rows; the only I/O is read_rig. nan marks a figure the point does not have.
"""
import math

from common.input_checks import InputError, read_csv

RIG_COLUMNS = ("t", "phase", "chassis_x", "chassis_z", "chassis_vx", "pitch_deg", "sprocket_speed_left",
               "sprocket_speed_right", "sprocket_torque_left", "sprocket_torque_right", "track_speed", "slip",
               "drawbar_pull", "weight", "ground_fx", "ground_fz")
MEASURE = "measure"
MSER_BATCH = 5          # samples per batch of MSER-5
BATCHES = 10            # batch means of the standard error
MIN_BATCH = 2           # samples per batch at least
POWER_FLOOR_W = 1e-3    # sprocket power below this: no tractive efficiency (the drive does no work)
CLIMB_SLIP = 0.9        # a grade is climbed while the tracks slip less than this

NAN = float("nan")


def read_rig(path):
    """{column: list}: floats, phase as text. input_checks.InputError names the file (and the line
    and column) of a file without the rig's columns, a row cut short, a cell that is not a finite
    number (slip may be nan: the rig writes nan while the track stands) and a file without rows."""
    table = read_csv(path, required=RIG_COLUMNS, texts=("phase",), nan_columns=("slip",), what="a rig.csv")
    if not table.rows:
        raise InputError("%s: no rows, only the header (the run ended before its first output)" % path)
    return {c: [r[c] for r in table.rows] if c == "phase" else table.numbers(c) for c in RIG_COLUMNS}


def mean(values):
    return sum(values) / len(values) if values else NAN


def mser5_cut(series):
    """Samples to cut from the start of series (a multiple of MSER_BATCH): the d minimising
    MSER(d) = sum_{j>d} (z_j - mean(z_{>d}))^2 / (m - d)^2 over the m batch means z of 5 samples,
    d searched over the first half of the batches. A series too short for 2 batches is kept whole."""
    m = len(series) // MSER_BATCH
    if m < 2:
        return 0
    z = [mean(series[MSER_BATCH * j:MSER_BATCH * (j + 1)]) for j in range(m)]
    best, best_d = math.inf, 0
    for d in range(0, m // 2 + 1):
        rest = z[d:]
        zbar = mean(rest)
        value = sum((v - zbar) ** 2 for v in rest) / len(rest) ** 2
        if value < best:
            best, best_d = value, d
    return MSER_BATCH * best_d


def batch_means(values, batches=BATCHES):
    """(mean, standard error, batches used) by non-overlapping batch means: b = min(batches,
    n // MIN_BATCH) batches of n // b samples; the n mod b samples left over are dropped from the
    start, nearest the transient. The standard error is sd(batch means) / sqrt(b); nan with fewer
    than 2 batches."""
    values = [v for v in values if not math.isnan(v)]
    b = min(batches, len(values) // MIN_BATCH)
    if b < 2:
        return mean(values), NAN, b
    size = len(values) // b
    used = values[len(values) - b * size:]
    z = [mean(used[k * size:(k + 1) * size]) for k in range(b)]
    zbar = mean(z)
    return zbar, math.sqrt(sum((v - zbar) ** 2 for v in z) / (b - 1) / b), b


def naive_se(values):
    """sd / sqrt(n): right for independent samples only (see the module's docstring)."""
    n = len(values)
    mu = mean(values)
    return math.sqrt(sum((v - mu) ** 2 for v in values) / (n - 1) / n) if n > 1 else NAN


def steady_rows(rig, key):
    """Indices of the steady window: the measure phase's rows after MSER-5's cut on rig[key]."""
    measure = [i for i, phase in enumerate(rig["phase"]) if phase == MEASURE]
    cut = mser5_cut([rig[key][i] for i in measure])
    return measure[cut:]


def sprocket_power(rig, i):
    return sum(rig["sprocket_torque_" + s][i] * rig["sprocket_speed_" + s][i] for s in ("left", "right"))


def efficiency(drawbar_power, sprocket_power_w):
    """Tractive efficiency: mean drawbar power (DBP x v) over mean sprocket power (sum of torque x
    speed), a ratio of means, not a mean of ratios (one row's small sprocket power would swing
    it); nan when the drive does no positive work (the ground drives the sprockets, or nothing)."""
    return drawbar_power / sprocket_power_w if sprocket_power_w >= POWER_FLOOR_W else NAN


def ratio_batch_means(numerator, denominator, ratio, batches=BATCHES):
    """(ratio of the means, standard error): the ratio over the whole window, its error from the
    spread of the same ratio over the batches of batch_means."""
    whole = ratio(mean(numerator), mean(denominator))
    b = min(batches, len(numerator) // MIN_BATCH)
    if b < 2:
        return whole, NAN
    size = len(numerator) // b
    start = len(numerator) - b * size
    z = [ratio(mean(numerator[start + k * size:start + (k + 1) * size]),
               mean(denominator[start + k * size:start + (k + 1) * size])) for k in range(b)]
    if any(math.isnan(v) for v in z):
        return whole, NAN
    zbar = mean(z)
    return whole, math.sqrt(sum((v - zbar) ** 2 for v in z) / (b - 1) / b)


def per_row(rig, rows):
    """The per-row series whose means the point reports."""
    return {"slip": [rig["slip"][i] for i in rows],
            "drawbar_pull": [rig["drawbar_pull"][i] for i in rows],
            "dbp_over_weight": [rig["drawbar_pull"][i] / rig["weight"][i] if rig["weight"][i] else NAN for i in rows],
            "sprocket_torque": [rig["sprocket_torque_left"][i] + rig["sprocket_torque_right"][i] for i in rows],
            "motion_resistance": [-rig["drawbar_pull"][i] for i in rows],
            "resistance_over_weight": [-rig["drawbar_pull"][i] / rig["weight"][i] if rig["weight"][i] else NAN
                                       for i in rows],
            "chassis_vx": [rig["chassis_vx"][i] for i in rows],
            "pitch_deg": [rig["pitch_deg"][i] for i in rows]}


def point_figures(rig, key):
    """{figure: mean, figure + "_se": its standard error, "window": [t0, t1], "samples": n} over the
    steady window chosen on rig[key]; every figure nan without a window (no measure rows)."""
    rows = steady_rows(rig, key)
    figures = {"window": [rig["t"][rows[0]], rig["t"][rows[-1]]] if rows else [NAN, NAN], "samples": len(rows),
               "weight": mean([rig["weight"][i] for i in rows])}
    for name, series in per_row(rig, rows).items():
        figures[name], figures[name + "_se"], _ = batch_means(series)
    figures["tractive_efficiency"], figures["tractive_efficiency_se"] = ratio_batch_means(
        [rig["drawbar_pull"][i] * rig["chassis_vx"][i] for i in rows], [sprocket_power(rig, i) for i in rows],
        efficiency)
    return figures


def climbs(figures):
    """A grade is climbed when the chassis goes on up it (mean speed > 0) with the tracks slipping
    less than CLIMB_SLIP; a nan slip (tracks standing) is no climb."""
    return figures["chassis_vx"] > 0 and figures["slip"] < CLIMB_SLIP


def gradeability(points):
    """The largest slope (deg) of (slope, figures) pairs that climbs; nan when none does."""
    climbed = [slope for slope, figures in points if climbs(figures)]
    return max(climbed) if climbed else NAN
