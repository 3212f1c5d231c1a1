#pragma once
// The granular terrain split over the ranks of one group, a RigidBodySystem per rank holding
// its owned bodies, its ghosts and the fixed and kinematic bodies every rank keeps. One step runs
// the stages of terrain_step_stages.h (docs/architecture.md, "The terrain step"):
//
//   1. ghosts (ghost_exchange.h): a body whose centre is in this rank's box is owned here; every
//      owned body a neighbour needs goes to it with its full state and shapes, and the received
//      ones are this step's ghosts;
//   2. proxies (shoe_loads.h): the kinematic shoe proxies were moved by set_kinematic_state
//      before the step;
//   3. collision detection over owned + ghost + fixed + proxy shapes (RigidBodySystem::detect_contacts);
//   4. ownership (contact_ownership.h): each contact is solved by the owner of its midpoint; only
//      the contacts near this rank's faces or at a ghost leave the device to be planned;
//   5. CCP solve with the per-iteration slot and velocity exchange (ContactOwnership::solve);
//   6. integrate every held body (RigidBodySystem::integrate; ghosts end bit-identical to their
//      owner's copy); impulses of contacts near a neighbour's box go to it, so a contact that
//      changes rank keeps its warm start (ContactOwnership::hand_over_warm_start, after stage 7,
//      which reads the store before the neighbours' impulses are merged into it);
//   7. loads (shoe_loads.h): the contact impulses on watched bodies (the shoe proxies) are added up.
// One rank runs the same stages: it has no neighbours, so stage 1 only checks the displacement
// and stage 4's plan is empty.
//
// With a fixed iteration count the result is bitwise the same for any number of ranks and any
// layout, with Jacobi and with APGD, whose line-search and restart sums are exact
// (math/exact_sum.h), so every split takes the same decisions.

#include <array>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "comm/gather.h"
#include "comm/neighbour_exchange.h"
#include "comm/rank_group.h"
#include "domain/decomposition.h"
#include "gpu/dynamics/rigid_body_system.h"
#include "terrain_node/checkpoint/checkpoint_share.h"
#include "terrain_node/checkpoint/terrain_checkpoint.h"
#include "terrain_node/config/terrain_config.h"
#include "terrain_node/distributed/contact_ownership.h"
#include "terrain_node/distributed/exchange_stats.h"
#include "terrain_node/distributed/ghost_exchange.h"
#include "terrain_node/distributed/held_bodies.h"
#include "terrain_node/distributed/patch_box.h"
#include "terrain_node/distributed/rank_place.h"
#include "terrain_node/distributed/shoe_loads.h"
#include "terrain_node/distributed/terrain_step_stages.h"

namespace trackcosim::terrain {

/// A sphere of a dynamic body where it is now.
struct WorldSphere {
  Vec3 centre;
  real radius;
};

/// The dynamic bodies of all ranks: how many and their total mass (exact, any rank count).
struct DynamicTotals {
  std::uint64_t bodies = 0;
  double mass = 0;
};

/// What a snapshot shows of one rank (DistributedTerrain::snapshot_piece).
struct SnapshotPiece {
  gpu::BodySet bodies;            ///< in gid order
  std::vector<PatchRole> roles;   ///< per body: Active without a moving patch
};

/// Contact ends at dynamic bodies among the last step's contacts, summed over all ranks (a
/// contact between two dynamic bodies has two ends, one with a wall one).
struct ContactEnds {
  std::uint64_t touching = 0;  ///< contacts whose gap is at most the given gap (negative: overlap)
  std::uint64_t loaded = 0;    ///< contacts whose normal impulse is > 0
};

class DistributedTerrain {
 public:
  /// Collective over `group`. Each rank generates only the particles of its own part of space
  /// from config.scene (config.bodies is not used: load the config with BuildBodies::FixedOnly),
  /// or starts from the block of a checkpoint it read (read_checkpoint_share); then the cuts are chosen and every particle
  /// goes to its owner (distributed_terrain_construction.cpp). `layout` overrides config.scene.domain.layout
  /// when not empty. Throws std::invalid_argument for a layout that does not fit the rank count,
  /// io::ConfigError on every rank when a generator fails on one.
  DistributedTerrain(const TerrainConfig& config, const comm::RankGroup& group, const std::string& layout = {},
                     const CheckpointShare* restart = nullptr);
  ~DistributedTerrain();

  /// Collective. Rebalances first when domain.rebalance_interval steps have passed.
  void step();
  /// Collective: moves the cuts to the particle-count quantiles of the bodies' current
  /// positions and hands every body and warm-start impulse to its new rank. Results do not
  /// change (they do not depend on the layout); only the load does.
  void rebalance();
  /// Collective, every rank with the same arguments (docs/moving-patch.md): the terrain's
  /// particles whose centre is in `box` become (or stay) Dynamic, those in its boundary layer
  /// Fixed at rest (held by every rank, like the walls), the others leave the solver for this
  /// rank's store, at rest, with their pose as it was; a stored particle the box reaches comes
  /// back with that pose. With `move_cuts` (and domain.balance) the cuts then move to the
  /// quantiles of the active particles. Nothing is exchanged when no particle changes class
  /// and the cuts stay.
  PatchCounts apply_patch(const PatchBox& box, bool move_cuts);
  /// Told after every solver iteration of this rank's steps (gpu/dynamics/solver_progress.h):
  /// how a long step shows that the rank is alive. Not owned; nullptr: nobody.
  void set_solver_progress(gpu::SolverProgress* progress) { system_->set_progress(progress); }
  /// The terrain step from now on (gpu::RigidBodySystem::set_step_size); every rank calls it.
  void set_step_size(real step_size) { system_->set_step_size(step_size); }
  real step_size() const { return system_->settings().step_size; }
  /// The gravity from now on (gpu::RigidBodySystem::set_gravity); every rank calls it.
  void set_gravity(Vec3 gravity) { system_->set_gravity(gravity); }

  real time() const { return system_->time(); }
  std::uint64_t step_count() const { return system_->step_count(); }
  /// The last step's statistics over all ranks: contacts solved, kinetic energy of all dynamic
  /// bodies (exact sums, the same on any rank count), max penetration, iterations, residual,
  /// this rank's phase times. Collective (three small reductions), so a step itself needs
  /// none: call it when the numbers are wanted.
  gpu::StepStats global_stats() const;
  /// The contacts the last step solved, over all ranks (each solved once). Collective.
  std::uint64_t contact_total() const;
  /// The contacts the last step solved on this rank (a contact near a cut is solved by one rank).
  std::uint64_t contacts_solved_here() const;
  /// The fastest dynamic body over all ranks: its speed [m/s] and where it is [m] (of several
  /// as fast, one of them); found on the device, five numbers cross. Collective.
  struct FastestGrain {
    double speed = 0;
    std::array<double, 3> position{};
  };
  FastestGrain fastest_grain() const;
  /// This rank's own view of the last step (contacts it kept, its phase times), no messages.
  const gpu::StepStats& local_stats() const;
  const ExchangeStats& exchange_stats() const { return exchange_stats_; }
  /// This rank's wall seconds in each stage of the last step (terrain_step_stages.h); stage 2
  /// holds the set_kinematic_state calls made since the step before.
  const StageSeconds& stage_seconds() const { return stage_seconds_; }

  int rank() const { return rank_; }
  int ranks() const { return ranks_; }
  bool leader() const { return rank_ == 0; }
  /// The ranks the terrain is split over, for the collectives of the code around it.
  const comm::RankGroup& group() const { return group_; }
  const domain::Decomposition& decomposition() const { return decomposition_; }
  std::string layout_name() const;
  real ghost_width() const { return ghost_width_; }
  std::size_t owned_count() const;
  /// Particles this rank generated at construction (0 after a restart): over all ranks they add
  /// up to the scene's particle count, since no rank builds another's.
  std::uint64_t generated_count() const { return generated_; }
  /// Collective: the largest sphere radius of any particle, over all ranks.
  real largest_sphere_radius() const;

  /// Collective. Adds bodies that every rank holds (shoe proxies: kinematic sphere sets); their
  /// gids must be above every gid of the terrain.
  void add_everywhere_bodies(const gpu::BodySet& extra);
  /// Contacts with these bodies become spring-dampers (gpu/dynamics/contact_compliance.h); every
  /// rank must call it with the same list.
  void set_compliant_bodies(std::vector<gpu::CompliantBody> bodies);
  /// Moves kinematic bodies every rank holds (the shoe proxies, all at once: one upload);
  /// every rank must call it with the same values.
  void set_kinematic_states(const std::vector<gpu::BodyState>& states);
  void set_kinematic_state(const gpu::BodyState& state) { set_kinematic_states({state}); }
  /// The applied force and torque (world frame, about the centre of mass) of a dynamic body from
  /// the next step on, until changed; no messages: every rank calls it with the same values and
  /// the rank that owns the body (and any that holds it as a ghost) sets it. The values travel
  /// with the body when it changes rank. Throws std::invalid_argument for a gid that is no
  /// dynamic body of the terrain (checked on the ranks that hold it).
  void set_applied_load(gpu::GlobalId gid, Vec3 force, Vec3 torque);
  /// Accumulates, from now on, the contact impulse and angular impulse (about the body's
  /// position at each step's start) the terrain gives each of these bodies. With
  /// `contact_geometry`, also the sum over steps of G = sum g g^T over each body's loaded
  /// contacts, g = (n, r x n) (take_contact_geometry).
  void watch_loads(std::vector<gpu::GlobalId> gids, bool contact_geometry = false);
  /// Collective: the sums since the last call, per watched gid (impulse x y z, angular impulse
  /// x y z, N s and N m s), exact over all ranks (the same on any rank count); then resets.
  std::vector<std::array<double, 6>> take_loads();
  /// Collective: the sums of G since the last call, per watched gid, its lower triangle by rows
  /// (cosim::ShoeStiffness::packed), exact over all ranks; then resets. Needs
  /// watch_loads(..., true).
  std::vector<std::array<double, 21>> take_contact_geometry();

  /// Collective: the state of every body (all ranks) on the leader, in gid order; {} elsewhere.
  std::vector<gpu::BodyState> gather_states() const;
  /// Collective: the states of the given gids on the leader, in the order given.
  std::vector<gpu::BodyState> gather_states(const std::vector<gpu::GlobalId>& gids) const;
  /// The spheres of the particles this rank owns (dynamic bodies of the config's `particles` or
  /// a checkpoint's bed, not its `bodies`), in the world frame (no messages); every such sphere
  /// is in exactly one rank's list (distributed_terrain_sampling.cpp).
  std::vector<WorldSphere> owned_spheres() const;
  /// This rank's piece of a snapshot (no messages): the dynamic bodies it owns, and with a moving
  /// patch the fixed particles whose position it owns and the particles in its store. Every
  /// particle of the terrain is in exactly one rank's piece; walls, fixed obstacles and shoe
  /// proxies (held by every rank) are in none.
  SnapshotPiece snapshot_piece() const;
  /// Collective: per body of `piece` (this rank's snapshot_piece), the sum of the magnitudes of
  /// its contacts' forces in the last step [N] (zeros before the first). Each contact is solved by
  /// one rank, which sends the share of a body shown by another rank to that rank.
  std::vector<real> contact_force_sums(const SnapshotPiece& piece) const;
  /// Collective.
  DynamicTotals dynamic_totals() const;
  /// Collective: the last step's contacts (each counted by the one rank that solved it); zeros
  /// before the first step.
  ContactEnds contact_ends(real gap) const;

  /// Collective: writes the checkpoint file (docs/checkpoint-format.md), every rank its slice
  /// (distributed_terrain_checkpoint.cpp); `config_text` is the leader's. The bytes are the same
  /// for any rank count. Throws OutputError on every rank when it cannot be written.
  void write_checkpoint(const std::filesystem::path& path, const std::string& config_text) const;
  /// Collective: the whole terrain as a checkpoint on the leader (bodies of all ranks merged,
  /// warm-start impulses of the contacts each rank solved); an empty checkpoint elsewhere. For
  /// tests and benchmarks that compare whole states: it holds the terrain on one rank.
  TerrainCheckpoint gather_checkpoint() const;

 private:
  /// Where this rank sits now and whom it talks to (the cuts change on a rebalance).
  RankPlace place();
  /// The stored impulses of the contacts this rank solved in the last step (and their midpoints).
  std::vector<gpu::WarmStartImpulse> solved_impulses(std::vector<Vec3>* midpoints) const;
  void use_decomposition(domain::Decomposition d);
  /// Restart: each warm-start entry of the file to the ranks whose box both its bodies are near.
  void take_warm_start(const CheckpointShare& share);
  struct Handover;
  /// Collective: gives every active body and stored particle to its owner under the next cuts
  /// (the current ones unless `move_cuts`), with the warm starts near each rank's new box; keeps
  /// the `everywhere` bodies and adds `fixed` (the same on every rank).
  void hand_over(Handover h, bool move_cuts);
  /// HeldBodies::set with its poses and velocities as the system has them now, copied if a step
  /// moved them (outputs, checkpoints and the multi-rank exchanges read this; a step alone not).
  const gpu::BodySet& held_bodies() const;
  /// HeldBodies::set copied from the system whole (its membership changed).
  void reload_held_bodies();
  /// The last step's kept contacts on the host, copied when first asked.
  const gpu::ContactList& held_contacts() const;

  comm::RankGroup group_;
  int rank_ = 0, ranks_ = 1;
  domain::Decomposition decomposition_;
  real ghost_width_ = 0;
  real max_displacement_ = 0;
  std::uint64_t rebalance_interval_ = 0;
  bool balance_ = true;
  bool balance_contacts_ = false;  ///< domain.balance_by is "contacts"
  std::vector<int> neighbours_;
  std::unique_ptr<comm::NeighbourExchange> exchange_;
  std::unique_ptr<gpu::RigidBodySystem> system_;
  std::unique_ptr<HeldBodies> held_;
  // The stages of a step that keep state of their own (terrain_step_stages.h).
  GhostExchange ghosts_;
  ContactOwnership ownership_;
  ShoeLoads shoe_loads_;
  std::vector<GidRange> particle_ranges_;  ///< the config's particle gid ranges: what a patch sorts
  bool config_particle(gpu::GlobalId gid) const {
    for (const GidRange& r : particle_ranges_)
      if (gid >= r.first && gid - r.first < r.count) return true;
    return false;
  }
  ExchangeStats exchange_stats_;
  StageSeconds stage_seconds_{};
  std::uint64_t generated_ = 0;
};

}  // namespace trackcosim::terrain
