#pragma once
// How well a sphere set (geometry/sphere_decomposition.h) stands for the solid a mesh bounds, estimated
// by sampling, both figures relative to the part's size (largest_side):
//   protrusion: the largest distance from the mesh surface of a point of the sphere set's outer
//     boundary that lies outside the solid. Sampled with `cap_samples` points per sphere (a
//     Fibonacci lattice), of which those inside another sphere are skipped (not on the boundary);
//     inside/outside by the mesh's winding number, the distance to the nearest triangle exactly.
//   gap: the largest distance from a point of the mesh surface to the sphere set, where no sphere
//     covers it. Sampled on each triangle at the points of a barycentric grid with `face_steps`
//     steps per side ((steps+1)(steps+2)/2 points, corners and edges included).
// Sampling underestimates both maxima by at most about the sample spacing times the local slope;
// the cost is O(spheres^2 cap_samples + spheres cap_samples faces + faces steps^2 spheres), which
// is seconds for a few thousand faces.

#include <cstddef>
#include <vector>

#include "geometry/mesh_file.h"
#include "geometry/sphere_decomposition.h"

namespace trackcosim::geometry {

struct FitReport {
  std::size_t spheres = 0;
  double part_size = 0;           // m, largest side of the bounding box
  double protrusion = 0;          // relative to part_size
  double gap = 0;                 // relative to part_size
  std::size_t boundary_samples = 0;  // cap samples on the union's boundary
  std::size_t surface_samples = 0;
};

struct FitSampling {
  int cap_samples = 64;
  int face_steps = 4;
};

/// `spheres` relative to `origin` (as decompose_into_spheres writes them); `mesh` closed and
/// oriented outward. Throws io::ConfigError for fewer than 1 sample per sphere or step per side.
FitReport measure_fit(const TriangleMesh& mesh, const std::vector<Sphere>& spheres, Vec3 origin,
                      const FitSampling& sampling = {});

}  // namespace trackcosim::geometry
