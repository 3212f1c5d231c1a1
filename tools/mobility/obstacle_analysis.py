"""What an obstacle run is judged by, from vehicle_node's vehicle.csv (docs/vehicle.md): the peak
vertical reaction on each road wheel, the chassis' largest nose-up and nose-down pitch, and its
largest vertical acceleration.

A run starts with the vehicle dropped onto the ground, and that landing loads the road wheels
more than many obstacles do: only the rows from `start` on count (the end of the rig's rest
phase). The acceleration is the difference of the chassis' vertical velocity between output
rows, the mean over one output interval: a finer output interval shows sharper peaks.
Pure functions of csv.DictReader rows."""
import math

WHEEL_PREFIX = "road_wheel_fz_"


def wheel_columns(fieldnames):
    """The road-wheel reaction columns of vehicle.csv's header, in its order (left wheels first)."""
    return [c for c in fieldnames if c.startswith(WHEEL_PREFIX)]


def pitch_deg(row):
    """Chassis pitch, + nose up: the elevation of the chassis' x axis above the horizontal."""
    qw, qx, qy, qz = (float(row[k]) for k in ("qw", "qx", "qy", "qz"))
    ax, ay = 1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy + qw * qz)
    az = 2 * (qx * qz - qw * qy)
    return math.degrees(math.atan2(az, math.hypot(ax, ay)))


def vertical_accelerations(rows):
    """[(t, a_z)]: the change of vz over each output interval, at the interval's end."""
    out = []
    for before, after in zip(rows, rows[1:]):
        dt = float(after["t"]) - float(before["t"])
        if dt > 0:
            out.append((float(after["t"]), (float(after["vz"]) - float(before["vz"])) / dt))
    return out


def series(rows, fieldnames, start):
    """{"t", "pitch_deg", wheel column: [...]} of the rows from time start on, for the figure."""
    kept = [r for r in rows if float(r["t"]) >= start]
    out = {"t": [float(r["t"]) for r in kept], "pitch_deg": [pitch_deg(r) for r in kept]}
    for c in wheel_columns(fieldnames):
        out[c] = [float(r[c]) for r in kept]
    return out


def obstacle_figures(rows, fieldnames, start):
    """{"pitch_max_deg", "pitch_min_deg", "accel_max_mps2" (largest |a_z|), "accel_max_t_s",
    "wheel_fz_max_n": {column: peak}, "wheel_fz_max_t_s": {column: t of the peak}} over the rows
    from start on; nan figures and no wheels without such rows."""
    s = series(rows, fieldnames, start)
    kept = [r for r in rows if float(r["t"]) >= start]
    accel = vertical_accelerations(kept)
    peak = max(accel, key=lambda ta: abs(ta[1]), default=(math.nan, math.nan))
    figures = {"pitch_max_deg": max(s["pitch_deg"], default=math.nan),
               "pitch_min_deg": min(s["pitch_deg"], default=math.nan),
               "accel_max_mps2": abs(peak[1]), "accel_max_t_s": peak[0],
               "wheel_fz_max_n": {}, "wheel_fz_max_t_s": {}}
    for c in wheel_columns(fieldnames):
        if s[c]:
            k = max(range(len(s[c])), key=s[c].__getitem__)
            figures["wheel_fz_max_n"][c] = s[c][k]
            figures["wheel_fz_max_t_s"][c] = s["t"][k]
    return figures
