"""tools/plots/render_overlay.py, the overlay of a rendered view, without POV-Ray: the scale bar's round
length spans 10-25% of the image's width at the look-at distance (2 d tan(angle / 2) wide) for
near and far cameras, narrow and wide angles; its length in pixels is the pinhole projection of
that length lying across the view at the look-at point; the overlay's text holds the time, the
quantity with its unit, the range's ends and the map's 32 levels, and no colour bar for a frame
without grains; a missing font is said before any frame is drawn. The rendered overlay is checked in the frames of render_run_frames and
visual_render_frames (render_checks.check_overlay)."""
import math
import os
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools"))
from plots import render_overlay  # noqa: E402
from plots import render_run  # noqa: E402
from plots.render_camera import Camera, chase_camera, side_camera  # noqa: E402
from render_checks import projected_scale_bar  # noqa: E402
from plots.render_colours import level_colours  # noqa: E402
from plots.render_overlay import NEAR, overlay, pixel, round_length, scale_bar_box, scale_bar_length  # noqa: E402

WIDE = 16 / 9
# A camera 4 m from what it looks at, 35 degrees across: the image is 2.52 m wide there.
FOUR_METRES = Camera((1.0, -4.0, 0.5), (1.0, 0.0, 0.5), 35.0)


def is_round(length):
    k = math.floor(math.log10(length) + 1e-9)
    return any(abs(length - m * 10.0 ** k) <= 1e-9 * length for m in (1, 2, 5))


def cameras():
    """Near and far, narrow and wide, level and looking down, and the render's own two."""
    for d in (0.05, 0.3, 1.0, 3.7, 12.0, 80.0, 1000.0):
        for angle in (20.0, 35.0, 50.0, 90.0):
            yield Camera((0.0, -d * 0.8, d * 0.6), (0.0, 0.0, 0.0), angle)
    yield chase_camera((2.0, 1.0, 0.4), (math.cos(0.3), 0.0, 0.0, math.sin(0.3)), 2.5)
    yield side_camera([(0, 0, 0), (6, 2, 0), (6, 2, 1), (0, 2, 1)], (1.0, 0.0, 0.0), WIDE)


class ScaleBar(unittest.TestCase):
    def test_round_lengths(self):
        for span, length in ((0.63, 0.5), (1.0, 1.0), (0.99, 0.5), (2.4, 2.0), (4.99, 2.0), (5.0, 5.0),
                             (0.0031, 0.002), (1234.0, 1000.0), (1000.0, 1000.0), (7e-5, 5e-5)):
            self.assertAlmostEqual(round_length(span), length, delta=1e-12 * length, msg=span)

    def test_spans_10_to_25_percent_of_the_width_at_the_look_at_distance(self):
        self.assertAlmostEqual(scale_bar_length(FOUR_METRES, WIDE), 0.5)
        for aspect in (WIDE, 1.0, 0.5):
            for camera in cameras():
                d = math.dist(camera.location, camera.look_at)
                width = 2 * d * math.tan(math.radians(camera.angle_deg) / 2)
                length = scale_bar_length(camera, aspect)
                self.assertTrue(is_round(length), length)
                self.assertTrue(0.1 <= length / width <= 0.25 + 1e-9, "%g m of %g m" % (length, width))

    def test_exact_across_the_view_at_the_look_at_point(self):
        for size in ((320, 180), (960, 540), (300, 600)):
            for camera in cameras():
                left, _, right, _ = scale_bar_box(camera, size[0] / size[1])
                drawn = pixel(right, 0, *size)[0] - pixel(left, 0, *size)[0]
                self.assertAlmostEqual(drawn, projected_scale_bar(camera, *size), delta=1e-6 * drawn)


class OverlayText(unittest.TestCase):
    def test_time_range_quantity_and_scale(self):
        text = overlay(FOUR_METRES, WIDE, 1.2344, ("speed", 0.0, 1.5))
        for words in ('"t = 1.234 s"', '"speed [m/s]"', '"0"', '"1.5"', '"0.5 m"'):
            self.assertIn(words, text)
        self.assertIn('"height [m]"', overlay(FOUR_METRES, WIDE, 0.0, ("height", -0.05, 0.12)))
        self.assertIn('"-0.05"', overlay(FOUR_METRES, WIDE, 0.0, ("height", -0.05, 0.12)))

    def test_the_colour_bar_is_the_maps_levels_in_order(self):
        text = overlay(FOUR_METRES, WIDE, 0.0, ("speed", 0.0, 1.5))
        drawn = [tuple(float(c) for c in m) for m in re.findall(r"box \{ <[-\d.,]+>, <[-\d.,e]+> texture \{ pigment \{ color srgb <([\d.]+),([\d.]+),([\d.]+)>", text)]
        self.assertEqual(len(drawn), len(level_colours()))
        for got, want in zip(drawn, level_colours()):
            self.assertEqual(got, tuple(round(c, 4) for c in want))

    def test_no_colour_bar_without_grains(self):
        text = overlay(FOUR_METRES, WIDE, 0.25, None)
        self.assertIn('"t = 0.250 s"', text)
        self.assertIn('"0.5 m"', text)
        self.assertNotIn("speed", text)
        self.assertNotIn("OverlayColours", text)
        self.assertNotIn("srgb <%.4f,%.4f,%.4f>" % level_colours()[0], text)

    def test_unshaded_shadowless_and_carried_by_the_camera(self):
        text = overlay(FOUR_METRES, WIDE, 0.0, ("speed", 0.0, 1.5))
        self.assertEqual(set(re.findall(r"finish \{ ([^}]*) \}", text)), {"ambient 1 diffuse 0"})
        self.assertIn("no_shadow", text)
        forward, right, up = FOUR_METRES.axes()
        matrix = [float(c) for c in re.search(r"matrix <([^>]*)>", text).group(1).split(",")]
        self.assertEqual(len(matrix), 12)
        for got, want in zip(matrix, right + up + forward + FOUR_METRES.location):
            self.assertAlmostEqual(got, want, places=5)
        depth, shrink = (float(x) for x in re.search(r"translate <0, 0, ([\d.]+)> no_shadow scale ([\d.e-]+)", text).groups())
        self.assertAlmostEqual(depth * shrink, NEAR * 4.0, places=5)  # the image plane at NEAR of 4 m


class Font(unittest.TestCase):
    def test_a_missing_font_is_one_line_naming_the_package_and_the_way_around(self):
        kept = render_overlay.FONT_FOLDERS
        render_overlay.FONT_FOLDERS = (os.path.join(HERE, "no such folder"),)
        try:
            with self.assertRaises(render_run.RenderFailed) as caught:
                render_run.overlay_font_folder()
        finally:
            render_overlay.FONT_FOLDERS = kept
        self.assertIn("apt-get install fonts-povray", str(caught.exception))
        self.assertIn("--no-overlay", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
