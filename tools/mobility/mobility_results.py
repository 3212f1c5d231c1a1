"""A finished mobility-test point read back from its folder, and the tables the points make
(OUT/dbp.csv, resistance.csv, grade.csv, obstacle.csv; tools/mobility/mobility_tests.py).

The figures come from the point's vehicle/rig.csv (tools/mobility/rig_analysis.py: steady window by
MSER-5, standard errors by batch means), the obstacle's from vehicle/vehicle.csv
(tools/mobility/obstacle_analysis.py). sinkage_m: on a terrain, the mean sinkage of the loaded shoes over
the same window (tools/mobility/sinkage.py), nan where the run lacks its inputs; on rigid ground 0.0, as
rigid ground does not sink (not a measurement).
"""
import csv
import json
import math
import os

from common.input_checks import InputError, read_csv
from common.vtk_reader import VtkError
from mobility.mobility_plan import TESTS
from mobility.obstacle_analysis import obstacle_figures, series as obstacle_series
from mobility.rig_analysis import climbs, point_figures, read_rig
from mobility.sinkage import mean_over, missing_inputs, sinkage_over_time

NAN = float("nan")

COLUMNS = {
    "dbp": ["slip", "measured_slip", "drawbar_pull_n", "drawbar_pull_se_n", "dbp_over_weight", "dbp_over_weight_se",
            "sprocket_torque_nm", "sprocket_torque_se_nm", "sinkage_m", "tractive_efficiency",
            "tractive_efficiency_se", "window_start_s", "window_end_s", "samples"],
    "resistance": ["speed_mps", "measured_speed_mps", "measured_speed_se_mps", "motion_resistance_n",
                   "motion_resistance_se_n", "resistance_over_weight", "resistance_over_weight_se", "sinkage_m",
                   "pitch_deg", "pitch_se_deg", "window_start_s", "window_end_s", "samples"],
    "grade": ["slope_deg", "climbs", "measured_slip", "measured_slip_se", "chassis_speed_mps", "chassis_speed_se_mps",
              "sprocket_torque_nm", "sprocket_torque_se_nm", "pitch_deg", "pitch_se_deg", "sinkage_m",
              "window_start_s", "window_end_s", "samples"],
    "obstacle": ["speed_mps", "pitch_max_deg", "pitch_min_deg", "accel_max_mps2", "accel_max_t_s"],  # + wheels
}
# The columns each test's row takes from point_figures, in COLUMNS' order after the value.
FIGURE_COLUMNS = {
    "dbp": [("measured_slip", "slip"), ("drawbar_pull_n", "drawbar_pull"), ("drawbar_pull_se_n", "drawbar_pull_se"),
            ("dbp_over_weight", "dbp_over_weight"), ("dbp_over_weight_se", "dbp_over_weight_se"),
            ("sprocket_torque_nm", "sprocket_torque"), ("sprocket_torque_se_nm", "sprocket_torque_se"),
            ("tractive_efficiency", "tractive_efficiency"), ("tractive_efficiency_se", "tractive_efficiency_se")],
    "resistance": [("measured_speed_mps", "chassis_vx"), ("measured_speed_se_mps", "chassis_vx_se"),
                   ("motion_resistance_n", "motion_resistance"), ("motion_resistance_se_n", "motion_resistance_se"),
                   ("resistance_over_weight", "resistance_over_weight"),
                   ("resistance_over_weight_se", "resistance_over_weight_se"),
                   ("pitch_deg", "pitch_deg"), ("pitch_se_deg", "pitch_deg_se")],
    "grade": [("measured_slip", "slip"), ("measured_slip_se", "slip_se"), ("chassis_speed_mps", "chassis_vx"),
              ("chassis_speed_se_mps", "chassis_vx_se"), ("sprocket_torque_nm", "sprocket_torque"),
              ("sprocket_torque_se_nm", "sprocket_torque_se"), ("pitch_deg", "pitch_deg"),
              ("pitch_se_deg", "pitch_deg_se")],
}


class PointError(Exception):
    """A point folder without the outputs its figures need; the message says which."""


def rig_path(folder):
    return os.path.join(folder, "vehicle", "rig.csv")


def point_record(folder):
    """The point's point.json ({} when absent: a folder prepared by hand)."""
    try:
        with open(os.path.join(folder, "point.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def sinkage_in(folder, window, rigid):
    """Mean sinkage over the window (m): 0.0 on rigid ground, nan when it cannot be measured."""
    if rigid:
        return 0.0
    if missing_inputs(folder) or any(math.isnan(t) for t in window):
        return NAN
    try:
        figure = mean_over(sinkage_over_time(folder), window)
    except (OSError, ValueError, KeyError, VtkError):  # a VTK series cut short: the other figures stand
        return NAN
    return figure["mean"] if figure else NAN


def analyse_point(point, rigid):
    """(row of the test's table, figures) of a finished point; PointError when its outputs are
    missing or unreadable."""
    path = rig_path(point.folder)
    if not os.path.isfile(path):
        raise PointError("%s: no rig.csv (did vehicle_node run with --rig?)" % path)
    try:
        rig = read_rig(path)
    except InputError as e:  # names the file, and the line and column of a bad cell
        raise PointError(str(e))
    if point.test == "obstacle":
        return obstacle_row(point, rig)
    figures = point_figures(rig, TESTS[point.test]["series"])
    if not figures["samples"]:
        raise PointError("%s: no row of the measure phase (the run ended before it was measured)" % path)
    row = {COLUMNS[point.test][0]: point.value}
    row.update({column: figures[key] for column, key in FIGURE_COLUMNS[point.test]})
    if point.test == "grade":
        row["climbs"] = int(climbs(figures))
    row.update({"sinkage_m": sinkage_in(point.folder, figures["window"], rigid),
                "window_start_s": figures["window"][0], "window_end_s": figures["window"][1],
                "samples": figures["samples"]})
    return row, figures


def obstacle_start(rig):
    """The end of the rest phase: the first rig.csv time past it (the landing comes before)."""
    return next((t for t, phase in zip(rig["t"], rig["phase"]) if phase != "rest"), 0.0)


def read_vehicle_csv(folder):
    """(rows, column names) of the point's vehicle.csv, every cell checked; PointError names the file."""
    try:
        table = read_csv(os.path.join(folder, "vehicle", "vehicle.csv"), required=("t",), what="a vehicle.csv")
    except InputError as e:
        raise PointError(str(e))
    return table.rows, table.fieldnames


def obstacle_row(point, rig):
    rows, fieldnames = read_vehicle_csv(point.folder)
    start = obstacle_start(rig)
    figures = obstacle_figures(rows, fieldnames, start)
    row = {"speed_mps": point.value}
    row.update({k: figures[k] for k in COLUMNS["obstacle"][1:]})
    row.update({c + "_max_n": v for c, v in figures["wheel_fz_max_n"].items()})
    figures["series"] = obstacle_series(rows, fieldnames, start)
    return row, figures


def cell(value):
    if isinstance(value, float):
        return "nan" if math.isnan(value) else "%.6g" % value
    return str(value)


class Table:
    """OUT/<test>.csv written as the points finish: a row appended and flushed per point (a run
    cut short keeps what it measured); finish() rewrites it sorted by the test's value."""

    def __init__(self, path, test):
        self.path, self.test, self.rows, self.columns = path, test, [], None

    def add(self, row):
        first = self.columns is None
        if first:
            self.columns = COLUMNS[self.test] + [k for k in row if k not in COLUMNS[self.test]]
        with open(self.path, "w" if first else "a", newline="") as f:
            w = csv.writer(f)
            if first:
                w.writerow(self.columns)
            w.writerow([cell(row.get(c, NAN)) for c in self.columns])
            f.flush()
        self.rows.append(row)

    def finish(self):
        """Sorted by value; without a row, the header alone (no table of an earlier series stays)."""
        self.rows.sort(key=lambda r: r[COLUMNS[self.test][0]])
        self.columns = self.columns or COLUMNS[self.test]
        with open(self.path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(self.columns)
            w.writerows([cell(r.get(c, NAN)) for c in self.columns] for r in self.rows)
