"""What a rendered frame must show, shared by the render tests on the synthetic run
(render_run_test.py) and on the real short co-simulation (tests/visual): a PNG of the asked
size that is not one flat colour, the chassis' projected bounding box inside the image, and the
chassis' orange pixels inside that box and nowhere else. The box comes from the camera's pinhole
projection (tools/render_camera.py), so these checks hold POV-Ray's picture to our geometry."""
import colorsys

from png_pixels import read_png

MARGIN = 1.5  # pixels: a pixel's centre against the box of continuous projected points


def is_chassis_colour(rgb):
    """The chassis' orange (tools/render_colours.py) under any light: hue 10-45 degrees, saturated,
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
