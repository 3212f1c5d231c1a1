"""The POV-Ray scene text of one frame (docs/render.md).

A frame is two files: frame_<n>.inc, what the frame shows (lights, ground, grains, vehicle), written
once, and one small .pov per view, its camera and an #include of the .inc. Grains are `sphere`s,
exact primitives that POV-Ray bounds in a hierarchy of its own, so a bed of 10^5 grains needs no
tessellation; they share LEVELS declared textures. The vehicle's surfaces (quads and polygons of
bodies.vtu) become one `mesh2` per body kind, each polygon cut into a fan of triangles."""
from common.vtk_reader import cell_points
from plots.render_colours import (BACKGROUND, BODY_KINDS, CONTACT_SPHERE, GROUND, STORED_GRAIN, level_colours,
                                  level_of)
from plots.render_setup import STORED, grain_state, grain_value


def vec(v):
    return "<%.5f,%.5f,%.5f>" % tuple(v)


def rgb(c):
    return "srgb <%.3f,%.3f,%.3f>" % tuple(c)


def texture(colour, shiny=False):
    finish = "ambient 0.18 diffuse 0.75" + (" phong 0.4 phong_size 40" if shiny else "")
    return "texture { pigment { color %s } finish { %s } }" % (rgb(colour), finish)


def world(setup, quality):
    """Background, ground and lights. The sun comes from behind the side camera's left shoulder
    and high, so the vehicle's flank facing that camera is lit; its shadows (quality high only:
    they about double the time of a frame) fall away from it. A shadowless fill light from the
    other side keeps the shaded faces readable."""
    c, d = setup.centre, max(setup.extent, 1e-3)
    sun = (c[0] - 0.5 * d, c[1] - 1.5 * d, c[2] + 3.0 * d)
    fill = (c[0] + 1.0 * d, c[1] + 1.0 * d, c[2] + 1.5 * d)
    return "\n".join([
        "background { color %s }" % rgb(BACKGROUND),
        "light_source { %s color rgb 0.85 %s }" % (vec(sun), "" if quality == "high" else "shadowless"),
        "light_source { %s color rgb 0.35 shadowless }" % vec(fill),
        "plane { z, %.5f texture { pigment { checker color %s color %s scale %.4f } finish { ambient 0.2 diffuse 0.6 } } }"
        % (setup.ground - 1e-4, rgb(GROUND), rgb(tuple(0.92 * x for x in GROUND)), max(setup.size, 0.1 * d) / 2),
    ])


def grains(grid, setup):
    """One sphere per grain, its texture the level of its speed or height; stored grains grey."""
    lines = ["#declare G%d = %s" % (i, texture(c)) for i, c in enumerate(level_colours())]
    lines.append("#declare GS = %s" % texture(STORED_GRAIN))
    radius = grid.point_data["radius"]
    for p, r, v, s in zip(grid.points, radius, grain_value(grid, setup.quantity), grain_state(grid)):
        name = "GS" if s == STORED else "G%d" % level_of(v, setup.low, setup.high)
        lines.append("sphere { %s, %.6g texture { %s } }" % (vec(p), r, name))
    return "\n".join(lines)


def vehicle_meshes(bodies):
    """One mesh2 per body kind present, coloured by kind (render_colours.BODY_KINDS)."""
    kinds = bodies.cell_data["kind"]
    text = []
    for kind, (name, colour) in sorted(BODY_KINDS.items()):
        index, vertices, faces = {}, [], []
        for cell, points in cell_points(bodies):
            if kinds[cell] != kind or len(points) < 3:
                continue
            local = []
            for p in points:
                if p not in index:
                    index[p] = len(vertices)
                    vertices.append(bodies.points[p])
                local.append(index[p])
            faces += [(local[0], local[k], local[k + 1]) for k in range(1, len(local) - 1)]
        if faces:
            text.append("// %s: %d triangles\nmesh2 {\n  vertex_vectors { %d, %s }\n  face_indices { %d, %s }\n  %s\n}" % (
                name, len(faces), len(vertices), ",".join(vec(v) for v in vertices), len(faces),
                ",".join("<%d,%d,%d>" % f for f in faces), texture(colour, shiny=True)))
    return "\n".join(text)


def contact_spheres(spheres):
    if not spheres.points:
        return ""
    lines = ["#declare CS = %s" % texture(CONTACT_SPHERE)]
    lines += ["sphere { %s, %.6g texture { CS } }" % (vec(p), r) for p, r in zip(spheres.points, spheres.point_data["radius"])]
    return "\n".join(lines)


def frame_include(setup, quality, title, terrain=None, bodies=None, spheres=None):
    """The text of frame_<n>.inc; terrain, bodies and spheres are vtk_reader Grids or None."""
    parts = ["// " + title, world(setup, quality)]
    if terrain is not None:
        parts.append(grains(terrain, setup))
    if bodies is not None:
        parts.append(vehicle_meshes(bodies))
    if spheres is not None:
        parts.append(contact_spheres(spheres))
    return "\n".join(parts) + "\n"


def view_scene(camera, aspect, include, overlay=""):
    """The text of one view's .pov: the camera (explicit vectors, render_camera.py), the frame,
    and the view's overlay (render_overlay.py; it depends on the camera, so it is not the frame's)."""
    direction, right, up = camera.vectors(aspect)
    return "\n".join([
        "#version 3.7;",
        "global_settings { assumed_gamma 1.0 }",
        "// location %s, looking at %s, %g degrees across" % (vec(camera.location), vec(camera.look_at), camera.angle_deg),
        "camera { perspective location %s direction %s right %s up %s }" % (
            vec(camera.location), vec(direction), vec(right), vec(up)),
        '#include "%s"' % include,
    ]) + "\n" + overlay
