#pragma once
// Value types of the multibody engine's public API: ids, body descriptions and states,
// contact shapes, solver settings and the per-step report. SI units, world frame X forward,
// Y left, Z up; angular velocities in the world frame; quaternions (w, x, y, z).

#include <array>
#include <cstdint>
#include <limits>
#include <string>

#include "math/vec3.h"

namespace trackcosim::vehicle {

/// Strongly typed handles, returned by the add_* calls, valid for the life of the system.
struct BodyId { std::uint32_t value = std::numeric_limits<std::uint32_t>::max(); };
struct JointId { std::uint32_t value = std::numeric_limits<std::uint32_t>::max(); };
struct ForceElementId { std::uint32_t value = std::numeric_limits<std::uint32_t>::max(); };
struct MotorId { std::uint32_t value = std::numeric_limits<std::uint32_t>::max(); };
struct BodyDriveId { std::uint32_t value = std::numeric_limits<std::uint32_t>::max(); };
inline bool operator==(BodyId a, BodyId b) { return a.value == b.value; }
inline bool operator==(JointId a, JointId b) { return a.value == b.value; }

struct BodyDesc {
  std::string name;
  double mass = 1.0;                      ///< kg, > 0 (ignored for fixed bodies)
  Vec3 inertia{1.0, 1.0, 1.0};            ///< principal moments in the body frame, kg m^2, > 0
  Vec3 position{0.0, 0.0, 0.0};           ///< centre of mass, world, m
  Quat orientation{1.0, 0.0, 0.0, 0.0};   ///< body -> world
  Vec3 velocity{0.0, 0.0, 0.0};           ///< m/s, world
  Vec3 angular_velocity{0.0, 0.0, 0.0};   ///< rad/s, world
  bool fixed = false;                     ///< fixed bodies never move (infinite mass)
};

struct BodyState {
  Vec3 position;
  Quat orientation;
  Vec3 velocity;
  Vec3 angular_velocity;  ///< world frame
};

/// A load integrated implicitly (MultibodySystem::set_implicit_load): a spring K and damper C
/// between a body and an anchor that moves from `anchor` (its state at `anchor_time`) with the
/// anchor's velocities held. 6x6, row-major, symmetric positive semidefinite, in the body's
/// generalised coordinates: its centre of mass, then a world-frame rotation vector.
struct ImplicitLoad {
  std::array<double, 36> stiffness{};  ///< N/m, N/rad, N m/m, N m/rad
  std::array<double, 36> damping{};    ///< the same over s
  BodyState anchor{};
  double anchor_time = 0;
};

/// One contact sphere of a sphere set, in the body frame.
struct LocalSphere {
  Vec3 offset;
  double radius;
};

/// Knobs of the time stepper. Defaults suit h = 1e-4 .. 1e-2 s and masses 0.1 .. 1e5 kg.
struct SolverSettings {
  /// Joint compliance (m/N, and rad/(N m) for the rotational rows). > 0: it regularises the
  /// redundant rows of closed track loops so the factorization never meets a zero pivot.
  double joint_compliance = 1e-10;
  /// Contact normal compliance (m/N); > 0 spreads load over statically indeterminate contacts.
  double contact_compliance = 1e-9;
  /// Floor on every row's regularization relative to its effective mass (dimensionless):
  /// sigma_r >= kappa (J M^-1 J^T)_rr, i.e. no row is stiffer than a spring of omega h =
  /// sqrt(4 Y / kappa) on its own effective mass (~21 steps^-1 at kappa = 1e-3). Keeps light
  /// bodies (0.3 kg shoes) as well conditioned as heavy ones; 0 turns it off.
  double relative_compliance_floor = 1e-3;
  /// SPOOK relaxation time in steps (tau / h): violations decay in about this many steps.
  double relaxation_steps = 2.0;
  /// Contacts are generated while the gap is below this (m); positive gaps are speculative.
  double contact_margin = 0.005;
  /// After the position update, move the bodies back onto their joints with one extra solve
  /// of the step's factorization (post-stabilization); SPOOK alone leaves O(h^2 v^2 / r) drift.
  bool position_projection = true;
  /// Active-set (block pivoting) iterations of the contact solve per step.
  int max_active_set_iterations = 12;
};

/// Phases of one step, in order of execution; each has a timer in StepReport.
enum class Phase : std::uint8_t {
  kCollision,   ///< broad + narrow phase: contacts from shapes and ground
  kAssemble,    ///< Jacobians, KKT matrix, symbolic analysis when the pattern changed
  kSolve,       ///< LDL^T factorization(s) and solves of the active-set iteration
  kIntegrate,   ///< positions and orientations from the new velocities, reactions
  kCount
};
inline constexpr std::array<const char*, static_cast<std::size_t>(Phase::kCount)> kPhaseNames{
    "collision", "assemble", "solve", "integrate"};

struct StepReport {
  int contacts = 0;              ///< contact points this step (ground + body-body)
  int constraint_rows = 0;       ///< bilateral + motor + contact rows
  int solver_iterations = 0;     ///< active-set iterations this step
  int factorizations = 0;        ///< LDL^T factorizations this step (1 + refactorizations)
  bool converged = true;         ///< active set stopped changing within the cap
  double residual = 0.0;         ///< largest wrong-sign slack of a clamped row left (m/s)
  double bound_excess = 0.0;     ///< largest impulse beyond its bound on a free row (N s)
  bool pattern_reanalyzed = false;  ///< symbolic analysis was redone this step
  std::array<double, static_cast<std::size_t>(Phase::kCount)> seconds{};  ///< per Phase
  double seconds_of(Phase p) const { return seconds[static_cast<std::size_t>(p)]; }
};

}  // namespace trackcosim::vehicle
