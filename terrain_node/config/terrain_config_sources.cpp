// The file-driven and random `particles` kinds of a terrain config (docs/terrain-config.md):
// `heightmap` and `elevation_grid` (a surface from a file, filled in strata from the floor up)
// and `random_fill`. Each reads its keys, loads its file and makes the generator's plan (every
// cell's count), so a bad file or an impossible fill is reported here, naming the key.

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>
#include <string>

#include "io/number_text.h"
#include "terrain_node/config/sphere_lattice_json.h"
#include "terrain_node/config/terrain_config_read.h"

namespace trackcosim::terrain::terrain_config_detail {
namespace {

/// Above this, the cell-by-cell filling (each diameter grown by the gap) starts to miss its
/// quotas: measured about 0.27 in a 0.2 m box of 4-6 mm spheres, below random sequential adsorption's
/// 0.38 because a cell filled last finds its borders crowded by its neighbours' spheres.
constexpr double kMaxRandomPacking = 0.27;

std::vector<Stratum> read_strata(const io::JsonField& f) {
  const auto radius = f.optional_member("radius"), strata = f.optional_member("strata");
  if (radius.has_value() == strata.has_value()) f.fail("give exactly one of radius and strata");
  if (radius) return {Stratum{0, read_size_distribution(*radius)}};
  std::vector<Stratum> out;
  const std::vector<io::JsonField> items = strata->elements();
  if (items.empty()) strata->fail("needs at least one stratum");
  for (std::size_t i = 0; i < items.size(); ++i) {
    items[i].expect_object({"thickness", "radius"});
    Stratum s;
    s.radius = read_size_distribution(items[i].member("radius"));
    const auto thickness = items[i].optional_member("thickness");
    if (thickness) s.thickness = thickness->positive_number();
    else if (i + 1 < items.size()) items[i].fail("thickness is required on every stratum but the last");
    out.push_back(s);
  }
  return out;
}

std::filesystem::path resolve(const io::JsonField& field, const std::filesystem::path& folder) {
  const std::filesystem::path file = field.string();
  if (file.empty()) field.fail("expected a file name");
  return file.is_absolute() ? file : folder / file;
}

/// Loads the surface; a file error becomes an error on the `file` key.
std::shared_ptr<const ElevationSurface> load_surface(const io::JsonField& file_field, const SurfaceFile& s) {
  try {
    if (s.format == "heightmap")
      return std::make_shared<ElevationSurface>(read_heightmap(s.file, s.area, s.elevation_min, s.elevation_max));
    if (s.format == "csv") return std::make_shared<ElevationSurface>(read_elevation_csv(s.file, s.area));
    return std::make_shared<ElevationSurface>(read_elevation_obj(s.file));
  } catch (const io::ConfigError& e) {
    file_field.fail(e.what());
  }
}

/// `file`, `min`, `max` and (heightmap) `elevation` of `f`, whose other keys the caller checked.
/// `format`: "heightmap", or "" to take .csv / .obj from the extension, or "any" to also take
/// .png / .pgm as a heightmap.
SurfaceFile read_surface_file(const io::JsonField& f, const std::string& format, const std::filesystem::path& folder) {
  SurfaceFile s;
  const io::JsonField file_field = f.member("file");
  s.file = resolve(file_field, folder);
  const std::string ext = s.file.extension().string();
  if (format == "heightmap" || (format == "any" && (ext == ".png" || ext == ".pgm"))) {
    s.format = "heightmap";
    const io::JsonField elevation = f.member("elevation");
    const auto range = read_xy(elevation);
    if (!(range[1] > range[0]))
      elevation.fail("expected [lowest, highest] with highest > lowest, got [" + io::number_to_string(range[0]) + ", " +
                     io::number_to_string(range[1]) + "]");
    s.elevation_min = range[0], s.elevation_max = range[1];
  } else {
    if (ext != ".csv" && ext != ".obj")
      file_field.fail("expected a .csv height grid or an .obj mesh" + std::string(format == "any" ? " (or a .png/.pgm heightmap)" : "") +
                      ", got '" + ext + "'");
    s.format = ext.substr(1);
  }
  const auto min_field = f.optional_member("min"), max_field = f.optional_member("max");
  if (min_field.has_value() != max_field.has_value()) f.fail("give both min and max, or neither (obj only)");
  if (min_field) s.area = read_rectangle(*min_field, *max_field);
  else if (s.format != "obj") f.member("min");  // says "missing key"
  s.area_given = min_field.has_value();
  s.surface = load_surface(file_field, s);
  if (!s.area_given) s.area = s.surface->area();
  return s;
}

/// The share of the fill box below its surface (1 without one), from a 64 x 64 grid of columns.
double filled_fraction(const RandomFill& fill) {
  if (!fill.surface) return 1;
  constexpr int n = 64;
  double sum = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const real x = fill.min.x + (fill.max.x - fill.min.x) * (real(i) + real(0.5)) / n;
      const real y = fill.min.y + (fill.max.y - fill.min.y) * (real(j) + real(0.5)) / n;
      const std::optional<real> top = fill.surface->height(x, y);
      if (top) sum += std::clamp(double(*top - fill.min.z) / double(fill.max.z - fill.min.z), 0.0, 1.0);
    }
  return sum / (n * n);
}

}  // namespace

SurfaceSource read_surface_source(const io::JsonField& f, const std::string& kind, const ParticleContext& context,
                                  std::vector<FilledBox>& boxes) {
  if (kind == "heightmap")
    f.expect_object({"kind", "material", "file", "min", "max", "elevation", "bottom", "radius", "strata", "gap", "seed"});
  else
    f.expect_object({"kind", "material", "file", "min", "max", "bottom", "radius", "strata", "gap", "seed"});
  SurfaceSource s;
  s.fill.strata = read_strata(f);
  if (const auto v = f.optional_member("gap")) s.fill.gap = v->non_negative_number();
  if (const auto v = f.optional_member("seed")) s.fill.seed = v->unsigned_integer();
  s.input = read_surface_file(f, kind == "heightmap" ? "heightmap" : "", context.folder);
  s.fill.area = s.input.area;
  s.fill.surface = s.input.surface;
  if (const auto v = f.optional_member("bottom")) s.fill.bottom = v->number();
  else if (context.container) s.fill.bottom = context.container->min.z;
  else f.member("bottom");  // says "missing key": no container floor to default to
  if (s.fill.bottom >= s.fill.surface->highest())
    f.fail("bottom " + io::number_to_string(s.fill.bottom) + " is not below the highest surface point " +
           io::number_to_string(s.fill.surface->highest()) + ": nothing to fill");
  const Vec3 lo{s.fill.area.x_min, s.fill.area.y_min, s.fill.bottom};
  const Vec3 hi{s.fill.area.x_max, s.fill.area.y_max, s.fill.surface->highest()};
  check_inside(f, "the filled volume", lo, hi, context.container);
  check_disjoint(f, lo, hi, boxes);
  for (const Stratum& stratum : s.fill.strata) {
    const double pitch = 2 * stratum.radius.largest() * (1 + s.fill.gap);
    const double columns = std::floor(double(hi.x - lo.x) / pitch) * std::floor(double(hi.y - lo.y) / pitch);
    if (columns > double(kMaxLatticeSpheres))
      f.fail("a stratum would have " + io::number_to_string(columns) + " columns, more than the limit of " +
             std::to_string(kMaxLatticeSpheres) + "; check radius and units (metres)");
  }
  const ObstacleSet obstacles = context.obstacles ? ObstacleSet(*context.obstacles) : ObstacleSet();
  s.plan = std::make_shared<SurfaceFillPlan>(s.fill, obstacles);
  if (s.plan->count() > kMaxLatticeSpheres)
    f.fail("would make " + std::to_string(s.plan->count()) + " spheres, more than the limit of " +
           std::to_string(kMaxLatticeSpheres));
  return s;
}

RandomFillSource read_random_fill(const io::JsonField& f, const ParticleContext& context, std::vector<FilledBox>& boxes) {
  f.expect_object({"kind", "material", "min", "max", "radius", "gap", "count", "packing", "seed", "surface"});
  RandomFillSource s;
  s.fill.min = f.member("min").vec3();
  const io::JsonField max_field = f.member("max");
  s.fill.max = max_field.vec3();
  if (const auto v = f.optional_member("surface")) {
    v->expect_object({"file", "min", "max", "elevation"});
    s.surface = read_surface_file(*v, "any", context.folder);
    s.fill.surface = s.surface->surface;
  }
  s.fill.radius = read_size_distribution(f.member("radius"));
  if (const auto v = f.optional_member("gap")) s.fill.gap = v->non_negative_number();
  if (const auto v = f.optional_member("seed")) s.fill.seed = v->unsigned_integer();
  const real d = 2 * s.fill.radius.largest();
  for (int a = 0; a < 3; ++a)
    if (!(axis(s.fill.max, a) - axis(s.fill.min, a) >= d))
      max_field.fail(std::string("the box must be at least one largest diameter (") + io::number_to_string(d) +
                     " m) long along " + "xyz"[a]);
  const auto count = f.optional_member("count"), packing = f.optional_member("packing");
  if (count.has_value() == packing.has_value()) f.fail("give exactly one of count and packing");
  if (count) {
    s.fill.count = count->unsigned_integer();
    if (s.fill.count == 0) count->fail("must be >= 1, got 0");
  } else {
    s.packing = packing->positive_number();
    s.fill.count = std::uint64_t(std::llround(double(count_for_packing(s.fill.min, s.fill.max, s.fill.radius, s.packing)) *
                                              filled_fraction(s.fill)));
    if (s.fill.count == 0) packing->fail("gives no sphere in this box");
  }
  // The packing the darts must reach, with each diameter grown by the gap.
  const Vec3 e = (s.fill.max - s.fill.min) * real(std::cbrt(filled_fraction(s.fill)));
  const double mean_r = std::cbrt(s.fill.radius.mean_cubed_radius());
  const double effective = double(s.fill.count) * 4.0 / 3.0 * std::numbers::pi *
                           std::pow(mean_r + s.fill.gap / 2, 3) / (double(e.x) * e.y * e.z);
  const io::JsonField& target = count ? *count : *packing;
  if (effective > kMaxRandomPacking)
    target.fail("asks for a packing fraction of " + io::number_to_string(effective) +
                " (each sphere grown by half the gap), more than random filling reaches (" +
                io::number_to_string(kMaxRandomPacking) + "); fill less and let the bed settle");
  if (s.fill.count > kMaxLatticeSpheres)
    target.fail("asks for " + std::to_string(s.fill.count) + " spheres, more than the limit of " +
                std::to_string(kMaxLatticeSpheres));
  check_inside(max_field, "the box [min, max]", s.fill.min, s.fill.max, context.container);
  check_disjoint(f, s.fill.min, s.fill.max, boxes);
  const ObstacleSet obstacles = context.obstacles ? ObstacleSet(*context.obstacles) : ObstacleSet();
  s.plan = std::make_shared<RandomFillPlan>(s.fill, obstacles);
  return s;
}

}  // namespace trackcosim::terrain::terrain_config_detail
