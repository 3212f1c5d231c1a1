"""The figures of the terrain: a standalone terrain_node run's stats.csv (kinetic energy,
contacts, solver residual per time step) and a co-simulation's sinkage over time
(tools/mobility/sinkage.py). See docs/plots.md."""
import numpy as np

from common.plot_style import label, new_figure


def stats_figure(stats, column, title, quantity, log=False):
    """One column of stats.csv against time; log: a log scale, with the steps where the value is
    zero (a solver that needed no iteration) left out, as a log axis cannot show them."""
    t, values = stats["t"], stats[column]
    if log:
        values = np.where(values > 0, values, np.nan)
    figure, (axes,) = new_figure(title)
    axes.plot(t, values, label=column)
    if log:
        axes.set_yscale("log")
    label(axes, quantity)
    return figure


def energy_figure(stats):
    return stats_figure(stats, "kinetic_energy", "Kinetic energy of the bed", "kinetic energy (J)")


def contacts_figure(stats):
    return stats_figure(stats, "contacts", "Contacts", "contacts (-)")


def residual_figure(stats):
    return stats_figure(stats, "residual", "Solver residual at the end of each step", "residual (m/s)", log=True)


def sinkage_figure(sinkage):
    """sinkage: {"t", "mean", "max"} in s and m (tools/mobility/sinkage.py sinkage_over_time)."""
    figure, (axes,) = new_figure("Sinkage below the undisturbed surface")
    for key in ("mean", "max"):
        axes.plot(np.asarray(sinkage["t"], float), np.asarray(sinkage[key], float), label=key)
    label(axes, "sinkage (m)")
    return figure
