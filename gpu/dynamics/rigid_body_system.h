#pragma once
// A rigid-body scene stepped on the device: collision detection -> CCP solve -> semi-implicit
// Euler (detect_contacts, solve, integrate), one source for CUDA and OpenMP. The header is plain C++ (no Thrust types); device
// buffers live behind the pimpl and are reused from step to step.
//
// One step of size h (Anitescu-Tasora, Tasora-Negrut sec. 2-3):
//   1. contacts at the current positions (envelope: near-contacts too);
//   2. v_free = v + h M^-1 (f_applied + m g);
//   3. impulses gamma solve the cone complementarity problem with
//      b_i = Phi_i / h (optionally clamped), warm-started from the last step;
//   4. v = v_free + M^-1 D gamma; x += h v; q <- normalise(q + h/2 (0, w) q).
// Axial bodies (Motion::Axial) have M^-1 projected onto translation along and rotation about
// the world z axis (detail/device_bodies.h), in steps 2 and 4 alike.
// Results are bitwise identical for any number of OpenMP threads.

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "gpu/collision/contact_list.h"
#include "gpu/dynamics/body_set.h"
#include "gpu/dynamics/contact_compliance.h"
#include "gpu/dynamics/solver_exchange.h"
#include "gpu/dynamics/solver_progress.h"
#include "gpu/dynamics/step_settings.h"
#include "gpu/dynamics/step_stats.h"

namespace trackcosim::gpu {

/// Last step's contacts with the impulses the solver gave them. gamma_n >= 0 along the normal
/// (from A to B), gamma_u, gamma_w along the tangents; impulse_on_b is the world-frame impulse
/// [N s] that B received (A received its opposite).
struct ContactImpulses {
  ContactList contacts;
  std::vector<real> gamma_n, gamma_u, gamma_w;
  std::vector<Vec3> impulse_on_b;
  std::size_t size() const { return gamma_n.size(); }
};

/// A scalar bilateral constraint row between two bodies (the seeds' constraint kernel):
/// J_a . (v_a, w_a) + J_b . (v_b, w_b) + bias = 0, solved together with the contacts. Body
/// indices refer to the BodySet order.
struct BilateralRow {
  std::uint32_t body_a, body_b;
  Vec3 linear_a, angular_a, linear_b, angular_b;
  real bias;  ///< usually C / h
};

class RigidBodySystem {
 public:
  /// Validates and uploads. Throws std::invalid_argument naming the body (gid) or setting at
  /// fault: gids not increasing, dynamic mass or inertia <= 0, friction < 0, radius <= 0,
  /// step size <= 0, non-finite values.
  RigidBodySystem(const BodySet& bodies, StepSettings settings);
  ~RigidBodySystem();
  RigidBodySystem(const RigidBodySystem&) = delete;
  RigidBodySystem& operator=(const RigidBodySystem&) = delete;

  /// One step: detect_contacts, solve and integrate, the contacts staying on the device.
  void step();

  /// The step's phases, for a driver that splits the solve over ranks (solver_exchange.h) or
  /// runs its own work between them: detect_contacts finds this step's contacts (those with a
  /// dynamic body, sorted by key) and leaves them on the device (contact_count,
  /// contacts_near_faces, host_contacts read them); drop_contacts may then drop some, by index
  /// (increasing); solve prepares and iterates, over the ranks when given a partition and an
  /// exchange; integrate moves every dynamic body and keeps the impulses for the next step's warm
  /// start. Each phase is timed in last_stats(), which detect_contacts resets.
  void detect_contacts();
  void drop_contacts(const std::vector<std::uint32_t>& dropped);
  void solve(const SolvePartition* partition = nullptr, SolverExchange* exchange = nullptr);
  void integrate();
  /// Told after every solver iteration from now on (solver_progress.h); nullptr: nobody. Not
  /// owned; must outlive the solves it hears.
  void set_progress(SolverProgress* progress);
  /// The last detection's contacts (after drop_contacts): how many.
  std::size_t contact_count() const;

  /// The last detection's contacts (kept ones, after drop_contacts) on the host: copied when
  /// first asked after a detection (about 100 B per contact), never by a step itself.
  const ContactList& host_contacts();
  /// The last detection's contacts with an end at one of `gids` (sorted), found on the device so
  /// that only they cross to the host; `indices` receives their places in the step's list (what
  /// warm_start(contacts) takes).
  ContactList contacts_touching(const std::vector<GlobalId>& gids, std::vector<std::uint32_t>& indices) const;
  /// The last detection's contacts whose midpoint (between their two points) is outside the box
  /// [lo, hi) shrunk by `width` (as dynamic_bodies_near_faces tests a body), or that touch one of
  /// `gids` (sorted): a distributed driver's contacts near its faces or at its ghosts. Every
  /// other contact is deep inside the rank's box between bodies it holds itself. Found on the
  /// device, like contacts_touching.
  ContactList contacts_near_faces(Vec3 lo, Vec3 hi, real width, const std::vector<GlobalId>& gids,
                                  std::vector<std::uint32_t>& indices) const;
  /// The positions of some bodies, by index: three copies of their size, not of every body.
  std::vector<Vec3> positions(const std::vector<std::uint32_t>& indices) const;
  /// The dynamic bodies whose centre is outside the box [lo, hi) shrunk by `width` on every
  /// side (min(p - lo, hi - p) over the axes is not above `width`), increasing: a distributed
  /// driver's bodies that may change owner or be a neighbour's ghost. Only their indices cross.
  std::vector<std::uint32_t> dynamic_bodies_near_faces(Vec3 lo, Vec3 hi, real width) const;
  /// Copies the poses and velocities of some bodies (by index) into `into`, a body set in this
  /// system's order (as bodies() gives it); the rest of `into` is left as it is.
  void read_states(const std::vector<std::uint32_t>& indices, BodySet& into) const;
  /// The dynamic body with the largest |v|^2 (the lowest index among equals), found on the device;
  /// index == body_count() when there is no dynamic body.
  struct FastestBody {
    real speed_squared = 0;
    std::uint32_t index = 0;
  };
  FastestBody fastest_dynamic_body() const;

  /// The bodies as they are now (states, forces, shapes): what replace_bodies takes back.
  BodySet bodies() const;
  /// Replaces every body (a distributed driver's owned + ghost set changes from step to step);
  /// keeps time, step count and the warm-start store. Validates like the constructor.
  void replace_bodies(const BodySet& bodies);
  /// replace_bodies for a set that shares most bodies with the current one (a distributed
  /// driver's step when bodies join or leave a rank): `added` holds the bodies of `next` that
  /// join (or replace a held body of the same gid), as `next` has them; every other body of
  /// `next` must be held now and keeps its state on the device (next's state for it is not
  /// read). Only `added` and the indices of the bodies that leave cross to the device.
  /// Validates `next` like the constructor; std::invalid_argument when its gids are not the held
  /// ones less some plus added's.
  void update_bodies(const BodySet& next, const BodySet& added);
  /// The warm-start store (sorted by key) and additions to it: an entry replaces the one with
  /// the same key. Drivers hand these on when a contact changes rank.
  std::vector<WarmStartImpulse> warm_start() const;
  /// The stored impulses of some of the last step's contacts, by index into its contact list;
  /// valid until merge_warm_start changes the store.
  std::vector<WarmStartImpulse> warm_start(const std::vector<std::uint32_t>& contacts) const;
  void merge_warm_start(const std::vector<WarmStartImpulse>& entries);
  /// Restarts: the clock of a checkpoint.
  void set_clock(real time, std::uint64_t steps);

  real time() const { return time_; }
  std::uint64_t step_count() const { return steps_; }
  const StepSettings& settings() const { return settings_; }
  /// A new step size for the steps that follow (a bed settled at a finer step than it is then
  /// driven at). The warm start's impulses, an impulse per step, then start a step of another
  /// length: only a start. Throws std::invalid_argument unless it is positive and finite.
  void set_step_size(real step_size);
  /// The gravity of the steps that follow: a container shaken along it is, in its own frame, a
  /// gravity that varies in time (the bed's compaction, terrain_node/coupling/bed_compaction.h).
  /// Throws std::invalid_argument unless it is finite.
  void set_gravity(Vec3 gravity);
  const StepStats& last_stats() const { return stats_; }

  std::size_t body_count() const;
  std::optional<std::uint32_t> index_of(GlobalId gid) const;
  BodyState body_state(std::uint32_t index) const;
  std::vector<BodyState> body_states() const;  ///< all bodies, in index (= gid) order

  /// Dynamic: sets the state's velocity (axial: its z parts count from the next step on).
  /// Kinematic: the velocity it keeps until changed.
  void set_velocity(std::uint32_t index, Vec3 velocity, Vec3 angular_velocity);
  void set_applied_force(std::uint32_t index, Vec3 force, Vec3 torque);
  /// Moves a kinematic body (a shoe proxy) to a pose; fixed bodies refuse (std::logic_error).
  void set_pose(std::uint32_t index, Vec3 position, Quat orientation);
  /// set_pose and set_velocity for several bodies (by index; the states' gids are not read) in
  /// one upload and one kernel. Per body those two make 13 one-element copies, each a
  /// synchronisation on a GPU: 1,586 per coupling step for the light robot's 122 shoes. The same
  /// values land in the same places. Throws like set_pose (std::out_of_range, std::logic_error
  /// for a fixed body) before anything moves, std::invalid_argument for lists of unequal length.
  void set_kinematic_states(const std::vector<std::uint32_t>& indices, const std::vector<BodyState>& states);
  /// Bodies whose contacts are spring-dampers (contact_compliance.h), by gid, from the next step
  /// on; replaces the previous list and survives replace_bodies (a gid need not be held now).
  /// Contacts of a compliant fixed or kinematic body with another such body are kept too (the
  /// spring alone gives their force). Throws std::invalid_argument for a stiffness <= 0, a
  /// damping < 0 or a gid listed twice.
  void set_compliant_bodies(std::vector<CompliantBody> bodies);
  /// Rows solved with the contacts from the next step on; replaces the previous rows.
  void set_bilateral_rows(std::vector<BilateralRow> rows);
  /// Impulses of the bilateral rows in the last step, in row order.
  std::vector<real> bilateral_impulses() const;

  ContactImpulses contact_impulses() const;  ///< host copy of the last step's contacts
  /// Hash of every body's position, orientation and velocities (exact bits): equal hashes mean
  /// bitwise-equal states, the quick check for determinism.
  std::uint64_t state_hash() const;

 private:
  struct Impl;
  StepSettings settings_;
  StepStats stats_;
  real time_ = 0;
  std::uint64_t steps_ = 0;
  std::unique_ptr<Impl> impl_;
};

}  // namespace trackcosim::gpu
