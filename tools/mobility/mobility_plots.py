"""The mobility tests' figures (tools/mobility/mobility_tests.py): each test's table against its value with
the batch-means standard errors as error bars, and the obstacle run over time. Rows as
tools/mobility/mobility_results.py makes them; plot_style's figures (no pyplot, no display)."""
import math
import os

from common.plot_style import label, new_figure

X_LABELS = {"dbp": "imposed slip i", "resistance": "towing speed (m/s)", "grade": "slope (deg)"}


def bars(axes, rows, x, y, se, name):
    """One series with error bars; the points without a figure (nan) left out."""
    kept = [r for r in rows if not math.isnan(r[y])]
    axes.errorbar([r[x] for r in kept], [r[y] for r in kept],
                  yerr=[0.0 if math.isnan(r[se]) else r[se] for r in kept], marker="o", capsize=3, label=name)


# Each test's figure: its title and two panels of (y column, its standard error, legend, axis label);
# x is the test's value (the table's first column).
PANELS = {
    "dbp": ("Drawbar pull and tractive efficiency against slip",
            [("dbp_over_weight", "dbp_over_weight_se", "DBP / W", "drawbar pull / weight"),
             ("tractive_efficiency", "tractive_efficiency_se", "tractive efficiency", "tractive efficiency")]),
    "resistance": ("Motion resistance of the towed vehicle",
                   [("resistance_over_weight", "resistance_over_weight_se", "R / W", "motion resistance / weight"),
                    ("pitch_deg", "pitch_se_deg", "pitch", "chassis pitch (deg, + nose up)")]),
    "grade": ("Gradeability: free running up the slope",
              [("chassis_speed_mps", "chassis_speed_se_mps", "chassis speed", "chassis speed along the slope (m/s)"),
               ("measured_slip", "measured_slip_se", "slip", "slip")]),
}
X_COLUMNS = {"dbp": "slip", "resistance": "speed_mps", "grade": "slope_deg"}


def table_figure(test, rows):
    title, panels = PANELS[test]
    figure, axes = new_figure(title, panels=len(panels))
    for ax, (y, se, name, y_label) in zip(axes, panels):
        bars(ax, rows, X_COLUMNS[test], y, se, name)
        if test == "grade" and y == "measured_slip":
            ax.axhline(0.9, color="grey", linestyle=":", label="climb limit")
        label(ax, y_label)
    return figure


def obstacle_figure(series):
    figure, (pitch, wheels) = new_figure("Obstacle crossing", panels=2)
    pitch.plot(series["t"], series["pitch_deg"], label="pitch")
    label(pitch, "chassis pitch (deg, + nose up)")
    for name in (c for c in series if c.startswith("road_wheel_fz_")):
        wheels.plot(series["t"], series[name], label=name[len("road_wheel_fz_"):].replace("_", " "),
                    linestyle="-" if "_left_" in name else "--")
    label(wheels, "road-wheel vertical reaction (N)")
    return figure


def write_figure(out, test, rows, figures_of_points):
    """OUT/<test>.png; returns its path, or None without rows."""
    if not rows:
        return None
    if test == "obstacle":
        figure = obstacle_figure(figures_of_points[0]["series"])
    else:
        figure = table_figure(test, rows)
        figure.axes[-1].set_xlabel(X_LABELS[test])
    path = os.path.join(out, test + ".png")
    figure.savefig(path, format="png")
    return path
