"""What every figure of tools/plots/plot_run.py shares: a matplotlib Figure made without pyplot (no
display, no global figure list: the Agg canvas draws it when saved, so plotting works on a
cluster node without X), its title, and axes labelled with quantity and unit."""
from matplotlib.figure import Figure

FIGURE_SIZE = (8, 4.5)  # inches; a panel more adds PANEL_HEIGHT
PANEL_HEIGHT = 3.0
TIME_LABEL = "time t (s)"


def new_figure(title, panels=1):
    """(Figure, [axes]) with panels stacked over one shared time axis."""
    height = FIGURE_SIZE[1] + PANEL_HEIGHT * (panels - 1)
    figure = Figure(figsize=(FIGURE_SIZE[0], height), layout="constrained")
    axes = figure.subplots(panels, 1, sharex=True, squeeze=False)[:, 0]
    figure.suptitle(title)
    axes[-1].set_xlabel(TIME_LABEL)
    return figure, list(axes)


def label(axes, quantity, title=None):
    """The y label (quantity with its unit), a panel title, and a legend when several lines are
    labelled."""
    axes.set_ylabel(quantity)
    if title:
        axes.set_title(title)
    if len([h for h in axes.get_legend_handles_labels()[1] if not h.startswith("_")]) > 1:
        axes.legend(loc="best", fontsize="small")
    axes.grid(True, alpha=0.3)
