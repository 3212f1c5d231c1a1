#pragma once
// The terrain config: a standalone granular scene for `terrain_node --config` (a container, the
// particles, material, solver and collision settings, step size, end time, outputs), as a JSON
// document with comments allowed. docs/terrain-config.md lists every key with its default and
// unit; this loader is the reference for that page.
//
// Loading has two halves: reading the document into a description (TerrainScene: what the file
// says, defaults filled in, every value checked) and building the bodies from it (generators
// run, gids assigned). The description is what run.json records; the bodies are what the
// RigidBodySystem steps. Global ids follow the description deterministically: container walls
// first (floor, -x, +x, -y, +y, lid), then each `particles` entry in file order, then each
// `obstacles` entry, then each `bodies` entry. Every generator can build just the particles of a region with the same
// gids (build_terrain_bodies), so a distributed run never builds the whole scene on one rank.

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "domain/aabb.h"
#include "gpu/dynamics/body_set.h"
#include "gpu/dynamics/step_settings.h"
#include "io/config_error.h"
#include "geometry/sphere_decomposition.h"
#include "io/vtk_xml.h"
#include "terrain_node/config/sphere_lattice_json.h"
#include "terrain_node/generators/obstacles.h"
#include "terrain_node/generators/random_fill.h"
#include "terrain_node/generators/surface_fill.h"

namespace trackcosim::terrain {

struct Material {
  real friction = 0.5;   ///< Coulomb coefficient, >= 0
  real density = 2500;   ///< kg/m^3, > 0 (sphere mass = density * 4/3 pi r^3)
};

/// An axis-aligned box: the floor is the plane z = min.z, the side walls the planes x = min.x,
/// x = max.x, y = min.y, y = max.y, the lid z = max.z unless the top is open. Every wall is a
/// Fixed body of its own, so floor and sides can have different friction.
struct Container {
  Vec3 min{0, 0, 0}, max{0, 0, 0};
  bool open_top = true;
  real floor_friction = 0.5;
  real wall_friction = 0.5;  ///< side walls and lid; 0 = frictionless
};

/// Spheres on a regular lattice filling a box, jittered (terrain_node/generators/sphere_lattice.h); its first_id
/// is set when the bodies are built.
using LatticeSource = SphereLattice;

/// The co-simulation paper's bed (Negrut et al. 2018, sec. 4.1: "initialized in layers with
/// uniformly distributed positions in each layer in a rectangular grid"): `layers` horizontal
/// layers stacked from z = bottom with pitch d = 2 radius.max (1 + gap); in each layer one sphere
/// per grid cell of edge d, its centre uniform within +-radius.max * gap of the cell centre, so
/// that neighbours never overlap and every sphere of a layer sits at the same height.
struct LayersSource {
  real x_min = 0, y_min = 0, x_max = 0, y_max = 0;
  real bottom = 0;
  std::uint64_t layers = 0;
  SizeDistribution radius;
  real gap = 0.1;  ///< free room between neighbouring cells, as a fraction of the largest diameter
  std::uint64_t seed = 0;

  real pitch() const { return 2 * radius.max * (1 + gap); }
  real top() const { return bottom + real(layers) * pitch(); }
  /// The same bed as a lattice of cubic cells of edge pitch() without vertical jitter.
  SphereLattice lattice() const;
};

struct ExplicitSphere {
  Vec3 position{0, 0, 0};
  real radius = 0;
  Vec3 velocity{0, 0, 0};
  Vec3 angular_velocity{0, 0, 0};
};

struct SphereListSource {
  std::vector<ExplicitSphere> spheres;
};

/// A rigid set of spheres with given mass properties (blocks, boulders).
struct CompoundBody {
  struct Member {
    Vec3 offset{0, 0, 0};  ///< body frame
    real radius = 0;
  };
  Vec3 position{0, 0, 0};
  Quat orientation{1, 0, 0, 0};
  Vec3 velocity{0, 0, 0};
  Vec3 angular_velocity{0, 0, 0};
  real mass = 0;
  Vec3 inertia{0, 0, 0};  ///< principal moments in the body frame
  std::vector<Member> spheres;
};

struct CompoundListSource {
  std::vector<CompoundBody> bodies;
};

/// One piece of a `bodies` entry's load schedule: from time `from` [s] on, until the next piece,
/// this force [N] and torque [N m] (world frame, about the centre of mass) act on the body.
struct BodyLoad {
  real from = 0;
  Vec3 force{0, 0, 0};
  Vec3 torque{0, 0, 0};
};

/// The sphere set of a `bodies` entry, as the config gives it and as it was resolved at load.
struct BodyShape {
  enum class Source { Mesh, SpheresFile, Inline };
  Source source = Source::Inline;
  std::filesystem::path file;  ///< mesh or spheres file, as resolved against the config's folder
  // Mesh only: density [kg/m^3] and the decomposition's options.
  real density = 0;
  geometry::DecompositionOptions decomposition;
  // Resolved: mass properties and spheres in the principal frame, relative to the centre of mass.
  real mass = 0;
  Vec3 inertia{0, 0, 0};          ///< principal moments
  Quat principal{1, 0, 0, 0};     ///< rotates principal-frame vectors into the shape's own frame
  std::vector<CompoundBody::Member> spheres;
};

/// One entry of `bodies` (docs/terrain-config.md): a rigid sphere set placed by hand, fixed,
/// free or axial, with an optional load schedule. Gids after the obstacles, in list order.
struct SceneBody {
  std::string name;  ///< optional label
  BodyShape shape;
  real mass_override = 0;          ///< `mass`: > 0 replaces the shape's mass, inertia scaled with it
  Vec3 position{0, 0, 0};          ///< centre of mass, world frame
  Quat orientation{1, 0, 0, 0};    ///< rotates the shape's frame into the world
  gpu::Motion motion = gpu::Motion::Dynamic;  ///< "free" = Dynamic, "fixed", "axial"
  real friction = 0.5;
  Vec3 velocity{0, 0, 0}, angular_velocity{0, 0, 0};
  std::vector<BodyLoad> loads;     ///< sorted by `from`

  real mass() const { return mass_override > 0 ? mass_override : shape.mass; }
  Vec3 inertia() const { return (mass_override > 0 ? mass_override / shape.mass : real(1)) * shape.inertia; }
  /// The body frame (principal axes) in the world: orientation after principal.
  Quat body_orientation() const { return multiply(orientation, shape.principal); }
  /// The load acting at time t (zero before the first piece).
  BodyLoad load_at(real t) const;
};

/// `bodies[i].motion` as the config writes it: "free", "fixed" or "axial".
const char* motion_name(gpu::Motion motion);

/// A surface file as a config names it: a heightmap image, a CSV height grid or an OBJ mesh
/// (terrain_node/generators/elevation_surface.h), loaded once at read time.
struct SurfaceFile {
  std::string format;                  ///< "heightmap" (PGM/PNG), "csv" or "obj"
  std::filesystem::path file;          ///< as resolved against the config's folder
  real elevation_min = 0, elevation_max = 0;  ///< heightmap: the elevations of black and white
  bool area_given = true;              ///< obj: false when the area is the mesh's x-y bounds
  Rectangle area;
  std::shared_ptr<const ElevationSurface> surface;
};

/// `heightmap` and `elevation_grid`: the volume between a floor and a surface read from a file,
/// filled in strata (terrain_node/generators/surface_fill.h). The plan (every column's count) is made at load.
struct SurfaceSource {
  SurfaceFile input;
  SurfaceFill fill;  ///< fill.area and fill.surface are the input's
  std::shared_ptr<const SurfaceFillPlan> plan;
};

/// `random_fill`: a box filled at random with a least gap between spheres (terrain_node/generators/random_fill.h).
struct RandomFillSource {
  RandomFill fill;
  std::optional<SurfaceFile> surface;  ///< `surface`: fill only below it (fill.surface is its surface)
  real packing = 0;  ///< the packing fraction asked for (count derived from it), 0 when a count was given
  std::shared_ptr<const RandomFillPlan> plan;
};

/// `rocks`: copies of one sphere-set shape (a `bodies` shape: mesh, sphere file or inline)
/// scattered over a box, one per cell of a cubic grid of edge 2 R (1 + gap), R the shape's reach
/// (the farthest point of its spheres from its centre of mass), each at a random place in its cell
/// that keeps it inside the cell and turned to a uniformly random orientation; so no two overlap.
/// Counter-based draws per cell (counter_random.h): any rank builds any cell's rock.
struct RocksSource {
  BodyShape shape;
  real mass_override = 0;  ///< `mass`: > 0 replaces the shape's, moments scaled with it
  Vec3 min{0, 0, 0}, max{0, 0, 0};
  real gap = 0.1;
  std::uint64_t seed = 0;

  real reach() const;
  real cell() const { return 2 * reach() * (1 + gap); }
  std::array<std::uint64_t, 3> cells() const;
  std::uint64_t count() const;
  real mass() const { return mass_override > 0 ? mass_override : shape.mass; }
  Vec3 inertia() const { return (mass_override > 0 ? mass_override / shape.mass : real(1)) * shape.inertia; }
};

/// One entry of `particles`, with the material its bodies get (the entry's own or the default).
struct ParticleSource {
  std::variant<LatticeSource, LayersSource, SphereListSource, CompoundListSource, SurfaceSource, RandomFillSource,
               RocksSource>
      generator;
  Material material;
};

/// The `kind` key of a source: "lattice", "layers", "spheres", "compounds", "heightmap",
/// "elevation_grid", "random_fill" or "rocks".
const char* source_kind(const ParticleSource& source);

struct OutputSettings {
  std::vector<gpu::GlobalId> probes;    ///< bodies written to probes.csv
  std::uint64_t probe_interval = 1;     ///< probes.csv row every this many steps (>= 1)
  std::uint64_t snapshot_interval = 0;  ///< particle .vtu every this many steps; 0 = none
  /// The config gave snapshot_interval. A co-simulation without it takes a frame every 0.1 s
  /// (coupling/cosim_snapshots.h, cosim_snapshot_interval); a standalone run none.
  bool snapshot_interval_set = false;
  io::vtk::Encoding vtk_format = io::vtk::Encoding::Binary;  ///< of the particle snapshots (io/vtk_xml.h)
  bool stats = true;                    ///< stats.csv
  real progress_interval = 5;           ///< seconds of wall time between progress lines; 0 = none
  std::uint64_t checkpoint_interval = 0;  ///< checkpoint.bin every this many steps; 0 = only on request
  // The settled-bed measurements written at the end of a run (settle.json, heightmap.csv/.png;
  // docs/terrain-config.md, "Settle statistics").
  real heightmap_spacing = 0;  ///< m, cell edge of the height map; 0 = the mean sphere diameter
  real packing_margin = 2;     ///< mean diameters between the packing sample box and walls/surface
  real contact_gap = 0;        ///< m: a contact within this gap is counted as touching; 0 = 1% of the mean diameter
};

/// When a standalone run counts as settled (docs/terrain-config.md, "settle"). The measure is a
/// speed, not an energy per particle: a threshold in m/s means the same for sand and boulders,
/// while an energy per particle scales with density x radius^3.
struct SettleSettings {
  bool enabled = false;  ///< the config has a "settle" section
  /// m/s, > 0: the run stops at the first check where sqrt(2 E_kin / M) is below it (E_kin: the
  /// translational and rotational kinetic energy of every dynamic body, M: their total mass).
  real rms_speed = 0;
  real max_time = 0;                  ///< s: the time cap; 0 = end_time
  real min_time = 0;                  ///< s: no check before (a bed released at rest starts slow)
  std::uint64_t check_interval = 10;  ///< steps between checks (>= 1; each check is a reduction)
};

/// How the terrain is split over ranks (docs/domain-decomposition.md). The same config runs on
/// any number of ranks; these only shape the split.
struct DomainSettings {
  std::string layout = "auto";  ///< "auto", "slab:x|y|z" or "grid:PXxPYxPZ" (--layout overrides)
  bool balance = true;          ///< cuts at particle-count quantiles instead of equal widths
  /// What a moved cut balances once the terrain has stepped: "particles" (equal active particles
  /// per rank) or "contacts" (equal solved contacts, the solver's work: under a vehicle the
  /// compressed grains carry more contacts each, and a cut by particles left one rank waiting).
  std::string balance_by = "particles";
  std::uint64_t rebalance_interval = 0;  ///< move the cuts to the current quantiles every N steps; 0 = never
  /// Largest distance a body may move in one step [m]; it widens the ghost layer. 0: one
  /// particle radius. A faster body stops the run with an error naming it.
  real max_displacement = 0;
};

/// The moving patch (docs/moving-patch.md, Heyn thesis 6.2): a box that follows the shoes; the
/// particles inside it are simulated, those in a boundary layer around it are fixed, the rest are
/// stored until the box reaches them. Lengths in metres; the box spans z entirely.
struct MovingPatchSettings {
  real ahead = 0;            ///< box front = largest shoe x + ahead (X is forward)
  real behind = 0;           ///< box rear = smallest shoe x - behind
  real width = 0;            ///< box extent in y, centred between the shoes; 0 = the whole bed
  /// Two bands in y instead, one per track, each this wide around the mean y of its track's
  /// footprint shoes (the shoes left and right of halfway between the outermost); 0 = off.
  real track_width = 0;
  real boundary = 0;         ///< fixed layer outside the box; 0 = one particle diameter
  real rebalance_shift = 0;  ///< move the cuts after the box moved this far; 0 = a quarter of ahead + behind
  /// Only the shoes at most this far above the lowest shoe make the box: the track's footprint,
  /// not its top run or the shoes wrapped high on the sprocket and idler. 0 = every shoe.
  real footprint_height = 0;
};

/// The settled bed compacted to a packing fraction (docs/ccp.md, "A bed of a given density"): the
/// container is tapped along gravity, one sine period of its acceleration at a time, and the bed
/// relaxes between taps, until the packing of the settle statistics' sample box reaches `packing`.
/// In the container's frame a tap is a gravity g (1 + A sin(2 pi f t)).
struct CompactionSettings {
  real packing = 0;            ///< target packing fraction of the sample box, in (0, 0.74)
  real tap_acceleration = 2;   ///< A: the container's peak acceleration, in multiples of |g|
  real tap_frequency = 20;     ///< f [Hz]: one tap is one period
  real relax_time = 0.1;       ///< s at plain gravity after each tap, before the packing is measured
  std::uint64_t max_taps = 50; ///< more taps than this without reaching `packing` is an error
};

/// How the terrain meets a vehicle in a co-simulation (`terrain_node --config X --cosim`).
struct CosimSettings {
  std::string transport = "mpi";  ///< "mpi" (one MPI job with vehicle_node) or "tcp" (an external model connects)
  std::string host = "127.0.0.1"; ///< tcp: the address to listen on (loopback unless told otherwise)
  std::uint64_t port = 47000;     ///< tcp
  /// s: the longest silence of the vehicle on any wait (send or receive); terrain ranks that make
  /// no progress for 5 s longer end the job (docs/protocol.md, "Timeouts")
  real timeout = 20;
  real coupling_step = 0;         ///< s: the step the vehicle must use; 0 = whatever it announces
  real settle_time = 0;           ///< s of terrain settling before the handshake
  /// s: the terrain step while it settles; 0 = step_size. A bed's density depends on the step it
  /// settles at (docs/ccp.md, "The bed's preparation"), and the bed is settled once (the bed
  /// store), so it may settle at a finer step than the vehicle then drives at.
  real settle_step = 0;
  /// Compact the settled bed to a packing fraction before the vehicle comes (none: as settled).
  std::optional<CompactionSettings> compaction;
  /// The shoe proxies' contact law (docs/protocol.md, "Shoe contact law"): a spring-damper per
  /// contact, N/m and N s/m; 0 = derived from the shoe's mass and the coupling step.
  real shoe_stiffness = 0;
  real shoe_damping = 0;
  std::optional<MovingPatchSettings> moving_patch;  ///< none: the whole bed is simulated
};

/// What the file says, defaults filled in.
struct TerrainScene {
  std::optional<Container> container;
  Material material;
  std::vector<ParticleSource> particles;
  std::vector<Obstacle> obstacles;  ///< fixed bodies, gids after the particles
  std::vector<SceneBody> bodies;    ///< hand-placed sphere sets, gids after the obstacles
  gpu::StepSettings step;
  real end_time = 0;
  OutputSettings output;
  SettleSettings settle;
  DomainSettings domain;
  CosimSettings cosim;
};

/// The gids one container wall or one `particles` entry received: [first, first + count).
struct GidRange {
  std::string what;  ///< "container.floor", "particles[2] (layers)", ...
  gpu::GlobalId first = 0;
  std::uint64_t count = 0;
};

struct TerrainConfig {
  std::string source;  ///< the file name used in messages
  TerrainScene scene;
  gpu::BodySet bodies;  ///< all bodies, or only the fixed ones when loaded with BuildBodies::FixedOnly
  std::vector<GidRange> gid_ranges;  ///< in gid order
  /// The gid of each scene.bodies entry: after the obstacles (body_gid), or after the bed of the
  /// checkpoint a run starts from (start_state.h).
  std::vector<gpu::GlobalId> body_gids;

  /// Steps to reach end_time: ceil(end_time / h), a whisker below so that 1.0 / 1e-3 is 1000.
  /// With a settle section, its time cap replaces end_time.
  std::uint64_t step_count() const;
};

/// Which bodies a loader builds: all of them (single-process tools and tests), or only the fixed
/// ones (container walls, obstacles) for a distributed run whose ranks generate their own
/// particles (build_terrain_bodies with a region).
enum class BuildBodies { All, FixedOnly };

/// Which bed output.probes name bodies of: the config's own scene (a run it builds), or a bed a
/// checkpoint brings, which only load_start_state knows (it then calls check_probes itself).
enum class ProbeCheck { AgainstScene, Later };

/// Reads, validates and builds. Throws ConfigError "<file>: <key path>: <why>" for the first bad
/// key: unknown key, wrong type, missing required key, impossible value. Relative file names in
/// the config (heightmaps, elevation grids) are resolved against the config's folder.
TerrainConfig load_terrain_config(const std::filesystem::path& file, BuildBodies build = BuildBodies::All,
                                  ProbeCheck probes = ProbeCheck::AgainstScene);
/// The same from text in memory; `source_name` stands for the file in messages.
TerrainConfig parse_terrain_config(std::string_view text, const std::string& source_name,
                                   BuildBodies build = BuildBodies::All);

/// The description as a config document with every key written: run.json's "config". It parses
/// back to the same scene (and so the same bodies, bit for bit).
nlohmann::ordered_json resolved_config_json(const TerrainScene& scene);

// The pieces, for the loader's own files and for tests.
TerrainScene read_terrain_scene(const nlohmann::json& document, const std::string& source_name,
                                ProbeCheck probes = ProbeCheck::AgainstScene);
/// output.probes against a bed whose gids are 0 .. gids - 1 (dense): a probe no body has is a
/// ConfigError "<source>: output.probes[i]: no body has gid G (<bed> has gids 0 to N)".
void check_probes(const TerrainScene& scene, std::uint64_t gids, const std::string& source_name,
                  const std::string& bed);
/// Gids per wall and per source, from the counts alone (no generator runs).
std::vector<GidRange> plan_gid_ranges(const TerrainScene& scene);
/// Bodies and spheres of the whole scene, from the counts alone.
std::uint64_t body_count(const TerrainScene& scene);
std::uint64_t sphere_count(const TerrainScene& scene);
/// Bodies the ranges number; gids are dense from 0, so it is also the first free gid.
std::uint64_t body_count(const std::vector<GidRange>& ranges);
/// The largest sphere radius any source can make (walls and obstacles have none).
real largest_sphere_radius(const TerrainScene& scene);
/// "bodies[1] (anchor, axial)": how the gid ranges name a `bodies` entry.
std::string body_label(std::size_t i, const SceneBody& body);
/// The gid of `bodies[i]`: after the walls, particles and obstacles.
gpu::GlobalId body_gid(const TerrainScene& scene, std::size_t i);
/// Does the gid belong to a `particles` entry (a dynamic body), not a wall, an obstacle or a body?
bool is_particle(const std::vector<GidRange>& ranges, gpu::GlobalId gid);

/// Runs the generators and fills a BodySet in gid order: every fixed body (container walls,
/// obstacles, fixed `bodies`) and the particles and moving `bodies` whose centre lies in `region` (half-open, Aabb::contains), each
/// built only there: a rank passes its subdomain box and builds nothing of the others'. Gids do
/// not depend on the region. `built`, when given, receives the number of particles built.
gpu::BodySet build_terrain_bodies(const TerrainScene& scene, const domain::Aabb& region = whole_space(),
                                  std::uint64_t* built = nullptr);
/// Appends one `bodies` entry to `bodies` as the body `gid` (its sphere set in the principal
/// frame, the load of t = 0 applied).
void add_scene_body(gpu::BodySet& bodies, gpu::GlobalId gid, const SceneBody& body);
/// Bounds of every particle centre the sources can make (for a first split of space before any
/// particle exists); an empty box when there are none.
domain::Aabb particle_bounds(const TerrainScene& scene);

}  // namespace trackcosim::terrain
