"""What a rendered frame must show, shared by the render tests on the synthetic run
(render_run_test.py) and on the real short co-simulation (tests/visual): a PNG of the asked
size that is not one flat colour, the chassis' projected bounding box inside the image, and the
chassis' orange pixels inside that box and nowhere else. The box comes from the camera's pinhole
projection (tools/plots/render_camera.py), so these checks hold POV-Ray's picture to our geometry.
The overlay (tools/plots/render_overlay.py) is read where it says it draws: the colour bar's levels,
the scale bar's length against the projection of that length at the look-at point, and ink
where the time is written. Frames drawn without antialiasing (--quality low) have its exact
colours."""
import colorsys

from png_pixels import read_png
from plots.render_camera import add, scale
from plots.render_colours import LEVELS, level_colours
from plots.render_overlay import CAP, TEXT, colour_bar_box, pixel, scale_bar_box, scale_bar_length, time_anchor

MARGIN = 1.5  # pixels: a pixel's centre against the box of continuous projected points


def is_chassis_colour(rgb):
    """The chassis' orange (tools/plots/render_colours.py) under any light: hue 10-45 degrees, saturated,
    not black. The grains' colour map, the greys and the sky stay out of this range."""
    h, s, v = colorsys.rgb_to_hsv(*(c / 255 for c in rgb))
    return 10 / 360 <= h <= 45 / 360 and s > 0.6 and v > 0.25


def projected_box(camera, points, width, height):
    """(left, top, right, bottom) in pixels of the points seen by camera; None if one is behind it."""
    projected = [camera.project(p, width, height) for p in points]
    if any(p is None for p in projected):
        return None
    xs, ys = [p[0] for p in projected], [p[1] for p in projected]
    return min(xs), min(ys), max(xs), max(ys)


def check_frame(test, png, size, camera, chassis_points, min_fill=0.2):
    """The checks above on one frame; chassis_points: the chassis' corners (or surface points)."""
    width, height, rows = read_png(png)
    test.assertEqual((width, height), size, png)
    colours = {c for row in rows for c in row}
    test.assertGreater(len(colours), 20, "%s: %d colours only" % (png, len(colours)))
    box = projected_box(camera, chassis_points, width, height)
    test.assertIsNotNone(box, "%s: the chassis is behind the camera" % png)
    left, top, right, bottom = box
    test.assertTrue(0 <= left and right <= width and 0 <= top and bottom <= height,
                    "%s: the chassis' box %s leaves the %dx%d image" % (png, box, width, height))
    orange = [(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if is_chassis_colour(c)]
    outside = [(x, y) for x, y in orange if not (left - MARGIN <= x + 0.5 <= right + MARGIN and
                                                   top - MARGIN <= y + 0.5 <= bottom + MARGIN)]
    test.assertEqual(outside[:10], [], "%s: %d chassis-coloured pixels outside its box %s" % (png, len(outside), box))
    area = (right - left) * (bottom - top)
    test.assertGreater(len(orange), min_fill * area, "%s: %d chassis pixels in a box of %.0f" % (png, len(orange), area))
    return box


LEVEL_TOLERANCE = 3  # of 255, per channel: POV-Ray's rounding of a flat colour
TIME_WIDTH = 3.5 * TEXT  # "t = 0.12" in POV-Ray's timrom.ttf: the part of the time that changes first


def is_ink(rgb):
    return max(rgb) <= 3


def overlay_marks(png, camera):
    """What a frame shows where the overlay goes: (how many of the colour bar's levels have their
    colour at their place, the length in pixels of the black run across the scale bar's middle, the
    pixels of the time's first characters)."""
    width, height, rows = read_png(png)
    aspect = width / height

    def at(u, v):
        x, y = pixel(u, v, width, height)
        return rows[int(y)][int(x)]

    left, bottom, right, top = colour_bar_box(aspect)
    step = (right - left) / LEVELS
    levels = sum(all(abs(p - 255 * c) <= LEVEL_TOLERANCE for p, c in zip(at(left + (i + 0.5) * step, (bottom + top) / 2), colour))
                 for i, colour in enumerate(level_colours()))
    left, bottom, right, top = scale_bar_box(camera, aspect)
    x, y = (int(c) for c in pixel((left + right) / 2, (bottom + top) / 2, width, height))
    run = 0
    if is_ink(rows[y][x]):
        first, last = x, x
        while first > 0 and is_ink(rows[y][first - 1]):
            first -= 1
        while last < width - 1 and is_ink(rows[y][last + 1]):
            last += 1
        run = last - first + 1
    u, v = time_anchor(aspect)
    (x0, y0), (x1, y1) = pixel(u, v + CAP, width, height), pixel(u + TIME_WIDTH, v, width, height)
    time = [rows[y][x] for y in range(int(y0), int(y1) + 1) for x in range(int(x0), int(x1) + 1)]
    return levels, run, time


def projected_scale_bar(camera, width, height):
    """Pixels: how long the scale bar's length looks lying across the view at the look-at point."""
    right = camera.axes()[1]
    half = scale(right, scale_bar_length(camera, width / height) / 2)
    a, b = camera.project(add(camera.look_at, scale(half, -1)), width, height), camera.project(add(camera.look_at, half), width, height)
    return b[0] - a[0]


def check_overlay(test, png, size, camera, colour_bar=True):
    """The overlay is in the frame: the colour bar (only where colour_bar), a scale bar as long
    as its length at the look-at point (to a pixel), ink in the time. Returns overlay_marks."""
    levels, run, time = marks = overlay_marks(png, camera)
    if colour_bar:
        test.assertEqual(levels, LEVELS, "%s: the colour bar's levels in place" % png)
    else:
        test.assertLess(levels, LEVELS // 4, "%s: a colour bar in a frame without grains" % png)
    test.assertAlmostEqual(run, projected_scale_bar(camera, *size), delta=1.5, msg="%s: the scale bar's length" % png)
    test.assertGreater(sum(is_ink(p) for p in time), 10, "%s: no ink where the time is written" % png)
    return marks


def check_no_overlay(test, png, size, camera):
    """Neither colour bar nor scale bar where the overlay would put them (--no-overlay)."""
    levels, run, _ = overlay_marks(png, camera)
    test.assertLess(levels, LEVELS // 4, "%s: colour bar levels without the overlay" % png)
    test.assertGreater(abs(run - projected_scale_bar(camera, *size)), 1.5, "%s: a scale bar without the overlay" % png)
