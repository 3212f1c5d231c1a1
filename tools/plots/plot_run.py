"""`trackcosim plot RUN_DIR`: the figures of a run folder as PNG files (docs/plots.md).

Which figures, by the files present (plot_data.run_kind): a co-simulation or a standalone
vehicle_node run gets the vehicle's figures (plot_vehicle.py); a co-simulation also the sinkage
and the phase times (plot_terrain.py, plot_timing.py); a standalone terrain_node run the
figures of its stats.csv. A figure whose data are missing is skipped with the reason on stderr;
each file written is one line on stdout (its path). A folder none of whose figures can be made
(another program's files under the expected names, a run that wrote no rows yet) is refused:
an exit status 0 with no figure would read as success."""
import os
import sys

from plots.plot_data import MissingData, RunFolderError, VehicleRun, read_table, run_kind
from plots.plot_terrain import contacts_figure, energy_figure, residual_figure, sinkage_figure
from plots.plot_timing import phase_times_figure
from plots.plot_vehicle import (motion_figure, road_wheel_figure, shoe_heights_figure, slip_figure, sprocket_figure,
                                terrain_force_figure)


def sinkage_of(folder):
    """sinkage_over_time of tools/mobility/sinkage.py: the sinkage needs the bed's undisturbed surface,
    which not every run records, and the module is younger than this one."""
    try:
        from mobility.sinkage import sinkage_over_time
    except ImportError as e:
        raise MissingData("no sinkage module (tools/mobility/sinkage.py: %s)" % e)
    sinkage = sinkage_over_time(folder)
    if sinkage is None:
        raise MissingData("the run has no map of the undisturbed surface")
    return sinkage


def figures_of(folder, track="left"):
    """[(file name, function making its Figure)] for the run in folder, in the order written."""
    kind, vehicle_folder = run_kind(folder)
    if kind == "terrain":
        stats = lambda: read_table(os.path.join(folder, "stats.csv"))  # noqa: E731
        return [("terrain_energy.png", lambda: energy_figure(stats())),
                ("terrain_contacts.png", lambda: contacts_figure(stats())),
                ("terrain_residual.png", lambda: residual_figure(stats()))]
    run = VehicleRun(vehicle_folder)
    figures = [("motion.png", lambda: motion_figure(run)),
               ("slip.png", lambda: slip_figure(run))]
    if kind == "cosim":
        figures.append(("sinkage.png", lambda: sinkage_figure(sinkage_of(folder))))
    figures += [("sprocket.png", lambda: sprocket_figure(run)),
                ("terrain_force.png", lambda: terrain_force_figure(run)),
                ("shoe_heights.png", lambda: shoe_heights_figure(run, track)),
                ("road_wheel_reactions.png", lambda: road_wheel_figure(run))]
    if kind == "cosim":
        figures.append(("phase_times.png",
                        lambda: phase_times_figure(read_table(os.path.join(folder, "timing.csv")))))
    return figures


def write_plots(folder, out=None, track="left", dpi=None):
    """Writes the run's figures to out (default folder/plots); returns the paths written. A run
    folder the plots do not know raises plot_data.RunFolderError."""
    figures = figures_of(folder, track)
    out = out or os.path.join(folder, "plots")
    written, skipped = [], []
    for name, make in figures:
        try:
            figure = make()
        except MissingData as e:
            print("trackcosim: plot: skipped %s: %s" % (name, e), file=sys.stderr)
            skipped.append("%s: %s" % (name, e))
            continue
        os.makedirs(out, exist_ok=True)
        path = os.path.join(out, name)
        figure.savefig(path, dpi=dpi or "figure", format="png")
        written.append(path)
        print(path, flush=True)
    if not written:
        raise RunFolderError("%s: no figure could be made from it (a folder of another program, or a run that has "
                             "written no rows yet?); the first reason: %s" % (folder, skipped[0]))
    return written
