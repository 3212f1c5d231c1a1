"""A terrain config grown along x for more ranks: weak scaling with the particles per rank fixed.

grow_terrain_config(text, factor) takes a terrain config (JSON with // comments,
docs/terrain-config.md) and stretches, by `factor` along x from each box's min.x, the container
and every "layers" and "lattice" particle source. The bed's depth and width stay the same, so
the particle count grows with the factor (to within the rounding of whole cells). The vehicle
drives along +x, so a longer patch is also more room to drive.
"""

import json


def strip_comments(text):
    """JSON with // comments (outside strings) -> plain JSON."""
    out, i, in_string = [], 0, False
    while i < len(text):
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\" and i + 1 < len(text):
                out.append(text[i + 1])
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
            out.append(c)
        elif text.startswith("//", i):
            while i < len(text) and text[i] != "\n":
                i += 1
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)


def _stretch(box, factor):
    lo, hi = box["min"], box["max"]
    hi[0] = lo[0] + (hi[0] - lo[0]) * factor


def grow_terrain_config(text, factor):
    config = json.loads(strip_comments(text))
    if factor <= 0:
        raise ValueError("the growth factor must be > 0, got %g" % factor)
    if "container" in config:
        _stretch(config["container"], factor)
    for source in config.get("particles", []):
        if source.get("kind") in ("layers", "lattice"):
            _stretch(source, factor)
    return config
