"""A run folder as the plots read it (tools/plots/plot_run.py): which kind of run it holds, and its
CSV files as columns. A figure asks a Table for the columns it needs; one that is missing
raises MissingData naming the file and the column, so that the figure is skipped with that
reason rather than the whole plot failing. A cell that is not a number is not missing data but
a broken file: input_checks.InputError names the file, the line and the column, and the plot
stops there."""
import json
import os

import numpy as np

from common.input_checks import read_csv

# The columns of the run folders' CSV files that hold words: shoes.csv's side (left or right).
TEXT_COLUMNS = ("side",)


class MissingData(Exception):
    """A figure's input is not in the run folder; the message says what is missing."""


class RunFolderError(Exception):
    """The folder holds no run the plots know."""


class Table:
    """The rows of one CSV file (csv.DictReader dicts, as tools/mobility/mobility_metrics.py takes them)
    and its numeric columns as arrays; every cell was checked when read (input_checks.read_csv)."""

    def __init__(self, path, rows, fieldnames):
        self.path, self.rows, self.fieldnames = path, rows, list(fieldnames or [])

    def __contains__(self, name):
        return name in self.fieldnames

    def require(self, *names):
        for name in names:
            if name not in self.fieldnames:
                raise MissingData("%s has no column %s" % (os.path.basename(self.path), name))

    def __getitem__(self, name):
        self.require(name)
        return np.array([float(r[name]) if r[name] != "" else np.nan for r in self.rows])

    def text(self, name):
        self.require(name)
        return np.array([r[name] for r in self.rows])

    def columns_starting(self, prefix):
        """The columns named prefix<i>, in the order of i (road_wheel_fz_left_0, _1, ...)."""
        names = [c for c in self.fieldnames if c.startswith(prefix) and c[len(prefix):].isdigit()]
        return sorted(names, key=lambda c: int(c[len(prefix):]))


def read_table(path):
    """The checked CSV file: a last row cut short (a run killed while writing) is left out; a blank
    cell (a merged timing.csv where one program has no row) reads as nan; any other cell that is not
    a finite number is refused by file, line and column."""
    if not os.path.isfile(path):
        raise MissingData("no %s" % path)
    table = read_csv(path, required=("t",), texts=TEXT_COLUMNS, blanks=True, torn_end=True,
                     what="a CSV file of a trackcosim run")
    if not table.rows:
        raise MissingData("%s has no rows" % path)
    return Table(path, table.rows, table.fieldnames)


def read_json(path):
    """The document, {} when the file is missing or not JSON (facts the figures can do without)."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


class VehicleRun:
    """vehicle_node's outputs: vehicle.csv, shoes.csv and run.json, in folder (a co-simulation's
    vehicle/ or a standalone run's own folder). The tables are read on first use, so that one
    that is missing or empty skips only the figures that need it."""

    def __init__(self, folder):
        self.folder = folder
        self.facts = read_json(os.path.join(folder, "run.json"))
        self._tables = {}

    def table(self, name):
        if name not in self._tables:
            self._tables[name] = read_table(os.path.join(self.folder, name))
        return self._tables[name]

    @property
    def vehicle(self):
        return self.table("vehicle.csv")

    @property
    def shoes(self):
        return self.table("shoes.csv")

    def fact(self, *keys):
        """A value of run.json by its path of keys; MissingData when it is not recorded."""
        value = self.facts
        for key in keys:
            if not isinstance(value, dict) or key not in value:
                raise MissingData("%s records no %s" % (os.path.join(self.folder, "run.json"), ".".join(keys)))
            value = value[key]
        return value


def run_kind(folder):
    """("cosim" | "vehicle" | "terrain", the folder of the vehicle's files or None), by the files
    present; RunFolderError names what a run folder would hold."""
    if not os.path.isdir(folder):
        raise RunFolderError("%s: no such run folder" % folder)
    if os.path.isfile(os.path.join(folder, "vehicle", "vehicle.csv")):
        return "cosim", os.path.join(folder, "vehicle")
    if os.path.isfile(os.path.join(folder, "vehicle.csv")):
        return "vehicle", folder
    if os.path.isfile(os.path.join(folder, "stats.csv")):
        return "terrain", None
    raise RunFolderError("%s holds no run to plot: no vehicle/vehicle.csv (a co-simulation), vehicle.csv "
                         "(a vehicle_node run) or stats.csv (a terrain_node run)" % folder)
