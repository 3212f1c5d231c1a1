"""What a mobility engineer reads off a run: track slip, sprocket power and ground pressure
(docs/mobility-metrics.md).

Pure functions of the rows of vehicle.csv and shoes.csv (csv.DictReader dicts, values as text
or numbers) and the vehicle config; tools/launcher/trackcosim.py reads the files and prints the result.
All three figures are means over the steady window, found from the data in two cuts:
- the driving window: the driver ramps the sprockets up first, and slip while the tracks barely
  turn is a ratio of two small numbers, not a property of the terrain;
- its start-up transient: once the sprockets turn, the chassis still has to catch up with the
  tracks (issue 34, the light robot on gravel: slip 0.065 from 0.46 s, 0.022 from 1.0 s, once steady).
  MSER-5 cuts it, as the mobility rig cuts its measure phase (tools/mobility/rig_analysis.py), on the
  chassis's forward speed: the response to the sprocket speed the driver imposes, as the chassis
  speed is the rig's series when it imposes the track speed and the pull (the grade test).
"""

import math

from mobility.rig_analysis import mser5_cut

DRIVING_SHARE = 0.5     # the driving window: mean sprocket speed at least this share of its maximum
MIN_TRACK_SPEED = 1e-3  # m/s of track (sprocket speed x pitch radius): below it a track stands still
LOADED_FORCE_N = 1.0    # a shoe the terrain carries, as vehicle_node's sinkage counts it
# ... and on the ground: above this share of the most loaded shoe at the same time. Grains that
# ride a shoe up the track's top run, or caught at the sprocket, press it with newtons to tens
# of newtons (the excavator's top-run shoes, 1.5 m above the bed, took 2-83 N) where the ground
# carries a shoe with kilonewtons (up to 14 kN there): counted, they made its sinkage -0.08 m.
LOADED_SHARE = 0.02
PEAK_QUANTILE = 0.95    # the peak pressure: a high quantile, as one grain under one shoe spikes
END_SHARE = 0.2         # the end of a run whose speed is judged: this share of the driving window
STEADY_CHANGE = 0.05    # steady: the fitted speed changes by less than this share over that end


def forward_speed(row):
    """The chassis velocity along its own x axis, which the tracks run along (tilted with the
    chassis on a slope or in a pitch, unlike the world's x)."""
    qw, qx, qy, qz = (float(row[k]) for k in ("qw", "qx", "qy", "qz"))
    axis = (1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy + qw * qz), 2 * (qx * qz - qw * qy))
    return sum(float(row[k]) * a for k, a in zip(("vx", "vy", "vz"), axis))


def sprocket_speeds(row):
    return float(row["sprocket_speed_left"]), float(row["sprocket_speed_right"])


def driving_window(vehicle_rows, pitch_radius):
    """The rows where the mean sprocket speed is at least DRIVING_SHARE of its maximum, or []
    when the tracks never reach MIN_TRACK_SPEED (a vehicle standing still, or turning on the
    spot: the mean of the two sides is what moves the chassis). Magnitudes, so that reversing
    counts as driving."""
    mean_speed = [abs(sum(sprocket_speeds(r))) / 2 for r in vehicle_rows]
    top = max(mean_speed, default=0.0)
    if top * pitch_radius < MIN_TRACK_SPEED:
        return []
    return [r for r, w in zip(vehicle_rows, mean_speed) if w >= DRIVING_SHARE * top]


def steady_window(driving):
    """The driving window less its start-up transient: the rows after MSER-5's cut on the forward
    speed (searched over the first half of the window, so a run still accelerating keeps a
    transient; speed_at_end says so)."""
    return driving[mser5_cut([forward_speed(r) for r in driving]):]


def time_span(rows):
    """[first, last] output time of rows, None without rows."""
    return [float(rows[0]["t"]), float(rows[-1]["t"])] if rows else None


def mean(values):
    return sum(values) / len(values) if values else None


def side_slip(window, side, pitch_radius):
    """Mean of i = 1 - v_x / (omega r) over the window on one side; samples where that track
    stands still (a steering driver may stop one side) have no slip and are left out."""
    slips = []
    for r in window:
        track_speed = float(r["sprocket_speed_" + side]) * pitch_radius
        if abs(track_speed) >= MIN_TRACK_SPEED:
            slips.append(1 - forward_speed(r) / track_speed)
    return mean(slips)


def track_slip(window, pitch_radius):
    """{"left", "right", "mean"}, or None without a driving window."""
    if not window:
        return None
    left, right = side_slip(window, "left", pitch_radius), side_slip(window, "right", pitch_radius)
    return {"left": left, "right": right, "mean": mean([s for s in (left, right) if s is not None])}


def sprocket_power_kw(window):
    """Mean motor power torque x omega per side over the window and their sum, kW: what the
    drive delivers to the tracks (negative: braking)."""
    if not window:
        return None
    left = mean([float(r["sprocket_torque_left"]) * float(r["sprocket_speed_left"]) for r in window]) / 1000
    right = mean([float(r["sprocket_torque_right"]) * float(r["sprocket_speed_right"]) for r in window]) / 1000
    return {"left": left, "right": right, "total": left + right}


def pad_area(vehicle_config):
    """The contact area of one shoe, m^2: the pad's length x width (track.shoes.pad, the box the
    terrain's shoe spheres fill), not pitch x width: the pad is what the config gives, and the
    gap between pads carries no load. None for shoes made of spheres only (no pad)."""
    pad = vehicle_config.get("track", {}).get("shoes", {}).get("pad")
    return float(pad["length"]) * float(pad["width"]) if pad else None


def quantile(values, q):
    """Linear interpolation between the closest ranks (numpy's default)."""
    ordered = sorted(values)
    at = q * (len(ordered) - 1)
    low = math.floor(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


def carried_shoes(shoe_rows):
    """{t: {(side, shoe): fz}}: at each time of shoes.csv, the shoes the ground carries (vertical
    force above LOADED_FORCE_N and above LOADED_SHARE of the most loaded shoe at that time)."""
    forces = {}
    for row in shoe_rows:
        forces.setdefault(float(row["t"]), {})[(row["side"], int(row["shoe"]))] = float(row["fz"])
    carried = {}
    for t, by_shoe in forces.items():
        least = max(LOADED_FORCE_N, LOADED_SHARE * max(by_shoe.values()))
        carried[t] = {shoe: fz for shoe, fz in by_shoe.items() if fz > least}
    return carried


def ground_pressure_kpa(window, shoe_rows, area):
    """{"mean", "p95", "loaded_shoes"} over the window, kPa: per sample, the total vertical
    terrain force on the loaded shoes over their total pad area, averaged over the samples;
    the peak is the PEAK_QUANTILE of each loaded shoe's own pressure over shoes and samples.
    None without a driving window, a pad or a loaded shoe."""
    if not window or not area:
        return None
    times = {float(r["t"]) for r in window}
    # t -> vertical forces of the loaded shoes at t
    loads = {t: list(by_shoe.values()) for t, by_shoe in carried_shoes(shoe_rows).items() if t in times and by_shoe}
    if not loads:
        return None
    each = [fz / area for forces in loads.values() for fz in forces]
    return {"mean": mean([sum(forces) / (len(forces) * area) for forces in loads.values()]) / 1000,
            "p95": quantile(each, PEAK_QUANTILE) / 1000,
            "loaded_shoes": mean([len(forces) for forces in loads.values()])}


def fitted_change(times, values):
    """The change over [times[0], times[-1]] of the least-squares line through the samples: the
    trend, which the grains' jitter of the chassis speed does not decide."""
    n = len(times)
    mt, mv = sum(times) / n, sum(values) / n
    stt = sum((t - mt) ** 2 for t in times)
    slope = sum((t - mt) * (v - mv) for t, v in zip(times, values)) / stt if stt > 0 else 0.0
    return slope * (times[-1] - times[0])


def speed_at_end(window):
    """{"speed", "change", "over_s", "steady"}: the mean forward speed over the last END_SHARE of
    the (driving) window, how much its fitted line changes there (as a share of that speed) and
    whether that is under STEADY_CHANGE: a run still accelerating gives no steady-state figures.
    None without a driving window of at least 4 samples in that end."""
    if not window:
        return None
    t_end = float(window[-1]["t"])
    start = t_end - END_SHARE * (t_end - float(window[0]["t"]))
    tail = [r for r in window if float(r["t"]) >= start]
    if len(tail) < 4:
        return None
    times = [float(r["t"]) for r in tail]
    speeds = [forward_speed(r) for r in tail]
    speed = mean(speeds)
    change = fitted_change(times, speeds) / abs(speed) if abs(speed) > 0 else math.inf
    return {"speed": speed, "change": change, "over_s": times[-1] - times[0], "steady": abs(change) < STEADY_CHANGE}


def mobility(vehicle_rows, shoe_rows, vehicle_config, pitch_radius):
    """The figures of a run, for run.json's summary (None: not defined for this run).
    driving_window_s is the steady window, over which every figure is a mean (its name is kept
    for the readers of run.json); driving_from_s the start of the driving window it was cut from.
    Whether the run ended steady is judged on the driving window: a run accelerating throughout
    leaves MSER-5 little to tell apart."""
    driving = driving_window(vehicle_rows, pitch_radius)
    window = steady_window(driving)
    area = pad_area(vehicle_config)
    return {"driving_window_s": time_span(window),
            "driving_from_s": float(driving[0]["t"]) if driving else None,
            "sprocket_pitch_radius_m": pitch_radius,
            "slip": track_slip(window, pitch_radius),
            "sprocket_power_kw": sprocket_power_kw(window),
            "ground_pressure_kpa": ground_pressure_kpa(window, shoe_rows, area),
            "pad_area_m2": area,
            "speed_at_end": speed_at_end(driving)}


def text(value, form):
    return "n/a" if value is None else form % value


def report_lines(m):
    """The summary's lines for the printout."""
    slip, power, pressure = m["slip"], m["sprocket_power_kw"], m["ground_pressure_kpa"]
    lines = [sinkage_line(m)] + bed_floor_lines(m.get("bed_floor"))
    if slip is None:
        return lines + ["  slip                  n/a (the sprockets did not turn)",
                        "  sprocket power        n/a (the sprockets did not turn)",
                        "  ground pressure       n/a (no driving window)"]
    t0, t1 = m["driving_window_s"]
    lines += [end_speed_line(m["speed_at_end"]),
             "  steady window         t = %.2f..%.2f s: the driving window from t = %.2f s less its start-up transient "
             "(MSER-5 on the forward speed), over which this summary's means are taken" % (t0, t1, m["driving_from_s"]),
             "  slip                  left %s, right %s (mean %s), over t = %.2f..%.2f s, against the track speed "
             "sprocket speed x pitch radius %.4f m" % (
                 text(slip["left"], "%.3f"), text(slip["right"], "%.3f"), text(slip["mean"], "%.3f"), t0, t1,
                 m["sprocket_pitch_radius_m"]),
             "  sprocket power        %.2f kW (left %.2f, right %.2f), over the same window" % (
                 power["total"], power["left"], power["right"])]
    if pressure is None:
        lines.append("  ground pressure       n/a (%s)" % ("no shoe pad in the vehicle config" if not m["pad_area_m2"]
                                                         else "no shoe carried by the terrain"))
    else:
        lines.append("  ground pressure       mean %.1f kPa, 95th percentile %.1f kPa over %.1f loaded shoes "
                     "(pad %.4f m^2)" % (pressure["mean"], pressure["p95"], pressure["loaded_shoes"], m["pad_area_m2"]))
    return lines


def sinkage_line(m):
    """The sinkage of the loaded shoes below the undisturbed surface (tools/mobility/sinkage.py), or why not."""
    s = m.get("sinkage")
    if s is None:
        return "  sinkage               n/a (%s)" % m.get("sinkage_note", "not measured")
    return ("  sinkage               mean %.4f m, deepest shoe %.4f m: track bottom below the undisturbed "
            "surface, loaded shoes, t = %.2f..%.2f s" % (s["mean"], s["max"], s["from"], s["to"]))


def bed_floor_lines(check):
    """A warning when the tracks reached the container floor or the bed is too thin for them
    (tools/mobility/sinkage.py, floor_check): the sinkage is then the bed's depth, not the soil's answer."""
    if not check or not (check["floor"] or check["thin"]):
        return []
    why = []
    if check["floor"]:
        why.append("shoes reached the container floor (%.3f m of grains left under the deepest)" % check["clearance_m"])
    if check["thin"]:
        why.append("the deepest shoe sank %.3f m into a bed %.3f m deep" % (check["deepest_m"], check["bed_depth_m"]))
    return ["  WARNING               %s: the bed is too thin for this vehicle, and the sinkage measures the bed, "
            "not the soil (docs/mobility-metrics.md, \"Sinkage\")" % "; ".join(why)]


def end_speed_line(end):
    if end is None:
        return "  speed at the end      n/a (too few samples at the end of the driving window)"
    verdict = "steady" if end["steady"] else "NOT steady: still %s, so the figures below are not a steady state" % (
        "accelerating" if end["change"] > 0 else "slowing down")
    return "  speed at the end      %.3f m/s, %s (fitted change %+.1f%% over the last %.2f s)" % (
        end["speed"], verdict, 100 * end["change"], end["over_s"])


def sinkage_mean(m):
    """The summary's sinkage_m: the mean sinkage (m), None where not measured."""
    return m["sinkage"]["mean"] if m.get("sinkage") else None


def line_fields(m):
    """The fields appended to the parseable `cosim steps=...` line, "n/a" where not defined."""
    def part(figure, key):
        return None if m[figure] is None else m[figure][key]
    return " slip=%s sprocket_power_kw=%s ground_pressure_kpa=%s" % (
        text(part("slip", "mean"), "%.4f"), text(part("sprocket_power_kw", "total"), "%.3f"),
        text(part("ground_pressure_kpa", "mean"), "%.2f"))
