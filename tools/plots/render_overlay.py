"""The overlay of a rendered view (docs/render.md): the grains' colour bar with its quantity and
range, the frame's time, and a scale bar, drawn by POV-Ray into the picture, so that a frame or a
movie says what its colours mean, when it is and how big things are.

The overlay is laid out in the camera's own frame, in image heights: u to the right and v up from
the image's centre, on the plane DEPTH ahead where the image is aspect x 1 (render_camera.Camera
.depth). One matrix of the camera's right, up and forward axes and its location carries it into
the world, so it stays on the picture however the camera moves. Shrunk towards the camera until
it lies at NEAR of the look-at distance (shrinking about the camera's location moves nothing in
the picture), it is in front of everything the scene holds. It is unshaded (ambient 1, diffuse 0)
and casts no shadow: the lights neither change its colours nor throw it onto the scene. Text
needs POV-Ray's own font, FONT, which Debian ships apart from povray (fonts-povray)."""
import math
import os

from plots.render_camera import pixel as image_pixel
from plots.render_colours import level_colours
from plots.render_setup import UNITS

FONT = "timrom.ttf"
# Where FONT lies: Debian's fonts-povray; POV-Ray's include folder in a build from source.
FONT_FOLDERS = ("/usr/share/fonts/truetype/povray", "/usr/local/share/povray-3.7/include",
                "/usr/share/povray-3.7/include")
NEAR = 0.01  # of the look-at distance: geometry nearer to the camera than this would cover the overlay
# Layout, in image heights.
MARGIN = 0.03  # from the image's edges to the panels
PAD = 0.012  # inside a panel, around what it holds
TEXT = 0.05  # the font's size (about 0.7 of it is a digit's height)
CAP = 0.72 * TEXT  # a digit's height: where a line of text starts below a top edge
COLOUR_BAR = 0.04  # the colour bar's height; its length is colour_bar_length
SCALE_BAR = 0.012  # the scale bar's thickness
TICK = 0.035  # the height of the scale bar's end ticks
SCALE_SHARE = 0.25  # of the image's width at the look-at distance: the longest scale bar
INK, PAPER = (0.0, 0.0, 0.0), (1.0, 1.0, 1.0)
THIN = 1e-4  # how deep the bars and panels are; they face the camera
BEHIND = 2e-3  # how far a panel lies behind what it holds (the text is 5e-4 deep)


def round_length(span):
    """The largest 1, 2 or 5 x 10^k not above span: at least 0.4 of span, the widest gap of 1-2-5."""
    k = math.floor(math.log10(span) + 1e-12)
    return next(m * 10.0 ** k for m in (5, 2, 1) if m * 10.0 ** k <= span * (1 + 1e-12))


def distance(camera):
    return math.dist(camera.location, camera.look_at)


def scale_bar_length(camera, aspect):
    """Metres: a round length spanning 10-25% of the image's width at the look-at distance."""
    return round_length(SCALE_SHARE * aspect * distance(camera) / camera.depth(aspect))


def scale_bar_box(camera, aspect):
    """(left, bottom, right, top) of the scale bar, bottom left: exactly as long as its length
    would look in the plane through the look-at point across the view (similar triangles)."""
    left, bottom = -aspect / 2 + MARGIN + PAD, -0.5 + MARGIN + PAD
    span = scale_bar_length(camera, aspect) * camera.depth(aspect) / distance(camera)
    return left, bottom, left + span, bottom + SCALE_BAR


def colour_bar_length(aspect):
    return min(0.5, 0.4 * aspect)


def colour_bar_box(aspect):
    """(left, bottom, right, top) of the colour bar, top right, under its title line."""
    right, top = aspect / 2 - MARGIN - PAD, 0.5 - MARGIN - PAD - CAP - 0.35 * TEXT
    return right - colour_bar_length(aspect), top - COLOUR_BAR, right, top


def pixel(u, v, width, height):
    """(column, row) of the overlay's point (u, v) in a width x height image."""
    return image_pixel(u * height / width, v, width, height)


def box(left, bottom, right, top, texture):
    return "box { <%.6f,%.6f,0>, <%.6f,%.6f,%g> texture { %s } }" % (left, bottom, right, top, THIN, texture)


def flat(colour):
    return "pigment { color srgb <%.4f,%.4f,%.4f> } finish { ambient 1 diffuse 0 }" % tuple(colour)


def label(words, u, v, align):
    """Text with its baseline at v, its left end (align 0), centre (0.5) or right end (1) at u."""
    return 'OverlayLabel("%s", %.6f, %.6f, %g)' % (words, u, v, align)


def time_anchor(aspect):
    """(u, v) where the time's text starts, on its baseline, top left."""
    return -aspect / 2 + MARGIN + PAD, 0.5 - MARGIN - PAD - CAP


def time_label(time, aspect):
    return [label("t = %.3f s" % time, *time_anchor(aspect), 0)]


def colour_bar(legend, aspect):
    """The map's levels side by side, low on the left; the quantity above, the range below."""
    quantity, low, high = legend
    left, bottom, right, top = colour_bar_box(aspect)
    colours = level_colours()
    step = (right - left) / len(colours)
    items = [box(left + i * step, bottom, left + (i + 1) * step, top, flat(c)) for i, c in enumerate(colours)]
    below = bottom - 0.3 * TEXT - CAP
    return items + [label("%s [%s]" % (quantity, UNITS[quantity]), (left + right) / 2, top + 0.3 * TEXT, 0.5),
                    label("%.3g" % low, left, below, 0), label("%.3g" % high, right, below, 1)]


def scale_bar(camera, aspect):
    """A bar with a tick at each end and its length above it."""
    left, bottom, right, top = scale_bar_box(camera, aspect)
    tick = SCALE_BAR / 2
    return [box(left, bottom, right, top, "OverlayInk"), box(left, bottom, left + tick, bottom + TICK, "OverlayInk"),
            box(right - tick, bottom, right, bottom + TICK, "OverlayInk"),
            label("%g m" % scale_bar_length(camera, aspect), (left + right) / 2, bottom + TICK + 0.25 * TEXT, 0.5)]


# min_extent and max_extent are the parsed objects' bounding boxes: POV-Ray knows the glyphs'
# widths, so it aligns the text and fits the panels, not us.
MACROS = """#declare OverlayInk = texture { %(ink)s }
#macro OverlayLabel(Words, U, V, Align)
  #local Raw = text { ttf "%(font)s" Words 0.01, 0 scale %(size)g }
  #local Left = U - min_extent(Raw).x - Align * (max_extent(Raw).x - min_extent(Raw).x);
  object { Raw translate <Left, V, 0> texture { OverlayInk } }
#end
#macro OverlayPanel(Thing)
  box { <min_extent(Thing).x - %(pad)g, min_extent(Thing).y - %(pad)g, %(behind)g>,
        <max_extent(Thing).x + %(pad)g, max_extent(Thing).y + %(pad)g, %(back)g> texture { %(paper)s } }
#end"""


def overlay(camera, aspect, time, legend=None):
    """The POV-Ray text of a view's overlay; legend: (quantity, low, high) of the grains' colours,
    or None for a frame without terrain, which has no colour bar."""
    groups = {"OverlayTime": time_label(time, aspect), "OverlayScale": scale_bar(camera, aspect)}
    if legend is not None:
        groups["OverlayColours"] = colour_bar(legend, aspect)
    forward, right, up = camera.axes()
    depth = camera.depth(aspect)
    lines = ["// The overlay (tools/plots/render_overlay.py): u right, v up in image heights on the plane %g "
             "ahead" % depth,
             MACROS % {"ink": flat(INK), "font": FONT, "size": TEXT, "pad": PAD, "behind": BEHIND,
                       "back": BEHIND + THIN, "paper": flat(PAPER)}]
    for name, items in groups.items():
        body = items[0] if len(items) == 1 else "union {\n  %s\n}" % "\n  ".join(items)
        lines.append("#declare %s = %s" % (name, body))
    lines.append("union {")
    lines += ["  object { %s } OverlayPanel(%s)" % (name, name) for name in groups]
    lines.append("  translate <0, 0, %.6f> no_shadow scale %.6g" % (depth, NEAR * distance(camera) / depth))
    lines.append("  matrix <%s>\n}" % ", ".join("%.6f" % c for c in right + up + forward + camera.location))
    return "\n".join(lines) + "\n"


def font_folder():
    """The first of FONT_FOLDERS that holds FONT (POV-Ray gets it as a library path), or None."""
    return next((f for f in FONT_FOLDERS if os.path.isfile(os.path.join(f, FONT))), None)
