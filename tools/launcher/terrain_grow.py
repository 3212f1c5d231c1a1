"""A terrain config grown along x for more ranks: weak scaling with the particles per rank fixed.

grow_terrain_config(config, factor) takes a parsed terrain config (docs/terrain-config.md) and
stretches, by `factor` along x from each box's min.x, the container and every "layers" and
"lattice" particle source. The bed's depth and width stay the same, so the particle count grows
with the factor (to within the rounding of whole cells). The vehicle drives along +x, so a
longer patch is also more room to drive. tools/launcher/run_terrain_config.py writes the grown
config to the run folder.
"""


def _stretch(box, factor):
    lo, hi = box["min"], box["max"]
    hi[0] = lo[0] + (hi[0] - lo[0]) * factor


def grow_terrain_config(config, factor):
    """config, stretched in place, and returned."""
    if factor <= 0:
        raise ValueError("the growth factor must be > 0, got %g" % factor)
    if "container" in config:
        _stretch(config["container"], factor)
    for source in config.get("particles", []):
        if source.get("kind") in ("layers", "lattice"):
            _stretch(source, factor)
    return config
