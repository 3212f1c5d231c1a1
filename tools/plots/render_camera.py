"""The cameras of `trackcosim render` (docs/render.md) and the pinhole projection they make.

A camera is written to POV-Ray as explicit vectors, `location`, `direction`, `right` and `up`,
rather than `look_at` and `angle`: POV-Ray then shoots the ray of the image point
(x, y) in [-1/2, 1/2]^2 (x to the right, y up) along direction + x right + y up, with no
handedness rule of its own to mirror our right-handed, z-up world. project() below is that same
ray read backwards, so a test can say where a body must appear in the picture."""
import math

UP = (0.0, 0.0, 1.0)


def add(a, b):
    return tuple(x + y for x, y in zip(a, b))


def sub(a, b):
    return tuple(x - y for x, y in zip(a, b))


def scale(a, s):
    return tuple(x * s for x in a)


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def unit(a):
    return scale(a, 1.0 / math.sqrt(dot(a, a)))


def rotate(q, v):
    """v turned by the unit quaternion q = (w, x, y, z)."""
    w, r = q[0], q[1:]
    t = scale(cross(r, v), 2.0)
    return add(add(v, scale(t, w)), cross(r, t))


class Camera:
    """A perspective camera: where it stands, what it looks at, its horizontal field of view."""

    def __init__(self, location, look_at, angle_deg):
        self.location, self.look_at, self.angle_deg = tuple(location), tuple(look_at), angle_deg

    def axes(self):
        """(forward, right, up) unit vectors; up is the world's z made perpendicular to forward."""
        forward = unit(sub(self.look_at, self.location))
        right = unit(cross(forward, UP))
        return forward, right, cross(right, forward)

    def depth(self, aspect):
        """The length of POV-Ray's direction vector: how far ahead of the camera the image plane
        lies where the image is aspect wide and 1 high, for the field of view angle_deg."""
        return 0.5 * aspect / math.tan(math.radians(self.angle_deg) / 2)

    def vectors(self, aspect):
        """(direction, right, up) as POV-Ray takes them: |right| = aspect, |up| = 1, and the
        direction's length gives the horizontal field of view angle_deg."""
        forward, right, up = self.axes()
        return scale(forward, self.depth(aspect)), scale(right, aspect), up

    def project(self, point, width, height):
        """(column, row) in pixels, from the top-left corner, where point appears; None behind."""
        forward, right, up = self.axes()
        v = sub(point, self.location)
        z = dot(v, forward)
        if z <= 0:
            return None
        aspect = width / height
        depth = self.depth(aspect)
        return pixel(dot(v, right) * depth / (z * aspect), dot(v, up) * depth / z, width, height)


def pixel(x, y, width, height):
    """(column, row) in pixels, from the top-left corner, of the image point (x, y) in [-1/2, 1/2]^2."""
    return ((x + 0.5) * width, (0.5 - y) * height)


def heading(orientation):
    """The chassis' forward (body x) axis turned into the horizontal plane: the chase camera
    follows the vehicle's yaw but not its pitch and roll, which would shake the picture."""
    x = rotate(orientation, (1.0, 0.0, 0.0))
    flat = (x[0], x[1], 0.0)
    return unit(flat) if dot(flat, flat) > 1e-12 else (1.0, 0.0, 0.0)


def chase_camera(position, orientation, size):
    """Behind and above the chassis, on its heading, looking a little ahead of it. It follows
    the chassis' position frame by frame, unsmoothed: a frame's camera then depends on that frame
    alone, as rendering frames apart (and apart on a cluster) needs. size: the vehicle's length
    scale (its bounding-box diagonal)."""
    h = heading(orientation)
    location = add(add(position, scale(h, -1.7 * size)), scale(UP, 0.8 * size))
    return Camera(location, add(position, scale(h, 0.3 * size)), 50.0)


def side_camera(points, travel, aspect, angle_deg=35.0, elevation_deg=20.0, fill=0.92):
    """Fixed for the whole run: looking across the direction of travel (the vehicle goes from
    left to right), a little from above, just far enough for every one of points (the bed's
    corners and the vehicle along its whole path) to lie within fill of the image."""
    across = unit(cross(UP, (travel[0], travel[1], 0.0)))
    e = math.radians(elevation_deg)
    forward = add(scale(across, math.cos(e)), scale(UP, -math.sin(e)))
    lo = [min(p[k] for p in points) for k in range(3)]
    hi = [max(p[k] for p in points) for k in range(3)]
    centre = tuple((a + b) / 2 for a, b in zip(lo, hi))
    right = unit(cross(forward, UP))
    up = cross(right, forward)
    tan_h = fill * math.tan(math.radians(angle_deg) / 2)
    tan_v = tan_h / aspect
    distance = 0.0
    for p in points:
        v = sub(p, centre)
        along = dot(v, forward)
        distance = max(distance, abs(dot(v, right)) / tan_h - along, abs(dot(v, up)) / tan_v - along)
    return Camera(sub(centre, scale(forward, distance)), centre, angle_deg)
