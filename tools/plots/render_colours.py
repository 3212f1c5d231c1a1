"""The colours of `trackcosim render` (docs/render.md), as sRGB triples in [0, 1].

The grains' colour map runs from dark blue through teal to a pale yellow-green, and no
grain colour has the chassis' orange hue (about 25 degrees): the orange body stands out on any bed,
and a test can find the chassis in a picture by its hue alone."""

CHASSIS = (1.0, 0.42, 0.0)
WHEEL = (0.16, 0.16, 0.18)
SHOE = (0.50, 0.53, 0.57)
CONTACT_SPHERE = (0.75, 0.2, 0.8)
STORED_GRAIN = (0.62, 0.62, 0.62)
GROUND = (0.80, 0.80, 0.78)
BACKGROUND = (0.86, 0.90, 0.95)

# Body kinds of the vehicle's `kind` arrays: 0 chassis, 1 sprocket, 2 idler, 3 road wheel,
# 4 roller, 5 shoe.
BODY_KINDS = {0: ("chassis", CHASSIS), 1: ("sprocket", WHEEL), 2: ("idler", WHEEL), 3: ("road_wheel", WHEEL),
              4: ("roller", WHEEL), 5: ("shoe", SHOE)}

MAP_STOPS = ((0.0, (0.12, 0.16, 0.42)), (0.35, (0.10, 0.42, 0.66)), (0.7, (0.28, 0.72, 0.56)),
             (1.0, (0.86, 0.95, 0.38)))
# The map is drawn in this many flat colours: each becomes one declared POV-Ray texture that
# thousands of spheres share, instead of a texture per sphere.
LEVELS = 32


def map_colour(fraction):
    """The colour map at fraction in [0, 1], interpolated linearly between its stops."""
    f = min(1.0, max(0.0, fraction))
    for (f0, c0), (f1, c1) in zip(MAP_STOPS, MAP_STOPS[1:]):
        if f <= f1:
            w = (f - f0) / (f1 - f0)
            return tuple(a + (b - a) * w for a, b in zip(c0, c1))
    return MAP_STOPS[-1][1]


def level_colours():
    """The LEVELS flat colours of the map, lowest first."""
    return [map_colour(i / (LEVELS - 1)) for i in range(LEVELS)]


def level_of(value, low, high):
    """The level (0..LEVELS-1) of value on the fixed range [low, high]."""
    if high <= low:
        return 0
    return min(LEVELS - 1, max(0, int((value - low) / (high - low) * LEVELS)))
