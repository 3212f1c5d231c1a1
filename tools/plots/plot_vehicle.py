"""The figures of the vehicle's outputs (vehicle.csv, shoes.csv, run.json of vehicle_node; see
docs/plots.md). Each takes a plot_data.VehicleRun and returns a matplotlib Figure; a missing
column raises plot_data.MissingData."""
import sys

import numpy as np

from common.plot_style import label, new_figure
from mobility.mobility_metrics import MIN_TRACK_SPEED, driving_window, forward_speed, steady_window
from mobility.run_outputs import sprocket_pitch_radius
from plots.plot_data import MissingData

G = 9.81  # m/s^2, as the vehicle's weight is quoted
SIDES = ("left", "right")
LINE_STYLE = {"left": "-", "right": "--"}  # the sides often agree: the right one dashed over the left
SLIP_VIEW = (-1.0, 2.0)  # slip beyond this is a ratio of two small speeds, not the terrain: kept out of view


def forward_speeds(run):
    v = run.vehicle
    v.require("qw", "qx", "qy", "qz", "vx", "vy", "vz")
    return np.array([forward_speed(r) for r in v.rows])


def pitch_radius(run):
    """vehicle_node's sprocket pitch radius, or the config's sprocket radius it recorded."""
    try:
        return sprocket_pitch_radius(run.facts, run.facts.get("config", {}))
    except (KeyError, TypeError, ValueError):
        raise MissingData("%s/run.json records no sprocket_pitch_radius_m nor the config's sprocket radius"
                          % run.folder)


def motion_figure(run):
    t, x = run.vehicle["t"], run.vehicle["x"]
    figure, (speed_axes, distance_axes) = new_figure("Chassis motion", panels=2)
    speed_axes.plot(t, forward_speeds(run), label="forward speed")
    label(speed_axes, "forward speed v (m/s)")
    distance_axes.plot(t, x - x[0], label="distance x - x0")
    label(distance_axes, "distance travelled x - x0 (m)")
    return figure


def slip_figure(run):
    """i = 1 - v / (omega r) per side (tools/mobility/mobility_metrics.py), masked where the track stands
    still; the steady window over which the summary averages it is shaded."""
    r, t, v = pitch_radius(run), run.vehicle["t"], forward_speeds(run)
    figure, (axes,) = new_figure("Track slip (pitch radius %.4f m)" % r)
    for side in SIDES:
        track_speed = run.vehicle["sprocket_speed_" + side] * r
        moving = np.abs(track_speed) >= MIN_TRACK_SPEED
        slip = np.full(len(t), np.nan)
        slip[moving] = 1 - v[moving] / track_speed[moving]
        axes.plot(t, slip, LINE_STYLE[side], label=side)
    window = steady_window(driving_window(run.vehicle.rows, r))
    if window:
        axes.axvspan(float(window[0]["t"]), float(window[-1]["t"]), color="0.85", zorder=0, label="steady window")
    low, high = axes.get_ylim()
    axes.set_ylim(max(low, SLIP_VIEW[0]), min(high, SLIP_VIEW[1]))
    label(axes, "slip i = 1 - v / (ω r) (-)")
    return figure


def sprocket_figure(run):
    """Torque per side (thesis fig. 7.6) and the power torque x omega the drive delivers."""
    t = run.vehicle["t"]
    figure, (torque_axes, power_axes) = new_figure("Sprocket torque and power", panels=2)
    total = np.zeros(len(t))
    for side in SIDES:
        torque = run.vehicle["sprocket_torque_" + side]
        power = torque * run.vehicle["sprocket_speed_" + side] / 1000
        total += power
        torque_axes.plot(t, torque, LINE_STYLE[side], label=side)
        power_axes.plot(t, power, LINE_STYLE[side], label=side)
    power_axes.plot(t, total, label="total", color="black")
    label(torque_axes, "sprocket torque (N m)")
    label(power_axes, "sprocket power (kW)")
    return figure


def sums_per_time(t, values):
    """(times, sum of values at each time) over the rows of shoes.csv."""
    times, at = np.unique(t, return_inverse=True)
    return times, np.bincount(at, weights=values, minlength=len(times))


def terrain_force_figure(run):
    """The terrain's force on all shoes summed: vertically it carries the vehicle's weight."""
    shoes = run.shoes
    t = shoes["t"]
    figure, (vertical, horizontal) = new_figure("Terrain force on all shoes", panels=2)
    times, fz = sums_per_time(t, shoes["fz"])
    vertical.plot(times, fz, label="sum of fz")
    try:
        weight = float(run.fact("vehicle", "total_mass_kg")) * G
        vertical.axhline(weight, color="black", linestyle="--", label="weight m g = %.0f N" % weight)
    except MissingData as e:  # an older vehicle_node: the forces still tell their story
        print("trackcosim: plot: terrain_force.png without the weight line: %s" % e, file=sys.stderr)
    for name in ("fx", "fy"):
        horizontal.plot(*sums_per_time(t, shoes[name]), label="sum of " + name)
    label(vertical, "vertical force (N)")
    label(horizontal, "horizontal force (N)")
    return figure


def shoe_heights_figure(run, track="left"):
    """Heights of every shoe of one track (thesis fig. 7.4) as an image, time across, shoe index
    up, z as colour: 61 lines would overlap into one band that no legend could name, while in
    the image each shoe's way round the track (ground run, sprocket, top run) is a stripe."""
    shoes = run.shoes
    side = shoes.text("side") == track
    if not side.any():
        raise MissingData("shoes.csv has no %s track" % track)
    t, index, z = shoes["t"][side], shoes["shoe"][side].astype(int), shoes["z"][side]
    times, at = np.unique(t, return_inverse=True)
    heights = np.full((index.max() + 1, len(times)), np.nan)
    heights[index, at] = z
    figure, (axes,) = new_figure("Shoe heights, %s track" % track)
    image = axes.pcolormesh(times, np.arange(heights.shape[0]), heights, shading="nearest", cmap="viridis")
    figure.colorbar(image, ax=axes, label="shoe height z (m)")
    label(axes, "shoe index (-)")
    axes.grid(False)
    return figure


def road_wheel_figure(run):
    """Vertical reaction of each road wheel (thesis fig. 7.5), one panel per side."""
    t = run.vehicle["t"]
    figure, panels = new_figure("Road-wheel vertical reactions", panels=2)
    for side, axes in zip(SIDES, panels):
        columns = run.vehicle.columns_starting("road_wheel_fz_%s_" % side)
        if not columns:
            raise MissingData("vehicle.csv has no road_wheel_fz_%s_<i> columns" % side)
        for name in columns:
            axes.plot(t, run.vehicle[name], label="wheel " + name.rsplit("_", 1)[1])
        label(axes, "vertical reaction (N)", title="%s track" % side)
    return figure
