"""The phase-times figure of a co-simulation: where each coupling step's wall time goes, in both
programs, from the merged timing.csv (tools/mobility/run_outputs.py merge_timing; docs/plots.md)."""
import numpy as np

from common.plot_style import label, new_figure
from plots.plot_data import MissingData

# Columns of timing.csv that are not a stage of the terrain step (run_outputs.TERRAIN_TIMING_FIXED
# with the merge's prefix): every other terrain_<name> column is a stage, in step order.
TERRAIN_NOT_STAGES = ("terrain_wait", "terrain_compute", "terrain_halo", "terrain_exchange")


def terrain_stages(timing):
    return [c for c in timing.fieldnames if c.startswith("terrain_") and c not in TERRAIN_NOT_STAGES]


def phase_times_figure(timing):
    """Stacked areas, ms per coupling step: the stack's top is each program's step time, so the
    two panels' tops agree where the programs are in step. The halo messages happen inside the
    stages (the solver's exchanges with the neighbour ranks), so they are a line over the stack,
    not a layer of it; the terrain's compute time that no stage owns is its own layer."""
    t = timing["t"]
    stages = terrain_stages(timing)
    if not stages:
        raise MissingData("timing.csv has no terrain stage columns")
    figure, (vehicle, terrain) = new_figure("Phase times per coupling step", panels=2)
    vehicle.stackplot(t, 1000 * timing["vehicle_compute"], 1000 * timing["vehicle_wait"],
                      labels=["compute", "wait"])
    label(vehicle, "time per coupling step (ms)", title="vehicle_node")
    layers = [1000 * timing[s] for s in stages]
    other = np.clip(1000 * timing["terrain_compute"] - sum(layers), 0, None)
    layers += [other, 1000 * timing["terrain_exchange"], 1000 * timing["terrain_wait"]]
    names = [s[len("terrain_"):] for s in stages] + ["other compute", "exchange", "wait"]
    terrain.stackplot(t, *layers, labels=names)
    terrain.plot(t, 1000 * timing["terrain_halo"], color="black", linestyle="--", linewidth=0.8,
                 label="halo (within the stages)")
    label(terrain, "time per coupling step (ms)", title="terrain_node (leader rank)")
    terrain.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small")
    return figure
