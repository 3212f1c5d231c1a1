#pragma once
// Exact-to-quadrature volumes of spheres cut by an axis-aligned box: the packing fraction of a
// sample box (settle_statistics.h) counts the part of every sphere that lies inside it, so the
// estimate has no boundary bias (counting whole spheres by their centre errs by about one
// diameter over the box's edge). For a periodic packing sampled over whole periods the result is
// exact: a box of n x m x k unit cells of a simple cubic lattice of touching spheres gives pi/6.

#include "domain/aabb.h"

namespace trackcosim::terrain {

/// Area of the disk of radius r centred at the origin inside the rectangle [x0, x1] x [y0, y1]
/// (closed form: the chord integral split where the disk's boundary crosses y = y0 or y = y1).
double disk_rectangle_area(double r, double x0, double x1, double y0, double y1);

/// Volume of the sphere (centre c, radius r) inside `box`: 4/3 pi r^3 when it is inside, 0 when
/// apart, else the integral over z of the cut disk's area (composite Gauss-Legendre in the angle,
/// relative error below 1e-9).
double sphere_box_volume(Vec3 c, double r, const domain::Aabb& box);

}  // namespace trackcosim::terrain
