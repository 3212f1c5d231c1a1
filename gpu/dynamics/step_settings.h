#pragma once
// Everything that controls one time step: step size, gravity, collision settings and the CCP
// solver. Defaults are those of docs/ccp.md; the terrain config maps onto these one to one.

#include <cstdint>

#include "gpu/collision/collision_detector.h"
#include "math/real.h"
#include "math/vec3.h"

namespace trackcosim::gpu {

enum class SolverMethod : std::uint8_t {
  Jacobi,  ///< projected Jacobi with over-relaxation omega and blending lambda (Tasora-Negrut)
  Apgd,    ///< accelerated projected gradient descent, adaptive step and restart (Mazhar et al.)
};

struct SolverSettings {
  SolverMethod method = SolverMethod::Apgd;
  std::uint32_t max_iterations = 100;
  /// Stop when the residual (docs/ccp.md) falls below this; 0 always runs max_iterations.
  real tolerance = 0;
  /// With a tolerance, measure the residual after every residual_interval-th iteration only: a
  /// measurement is a walk over every constraint with its bodies (bench/ccp, APGD with rolling
  /// rows on 10^5 grains: +65% per iteration when measured every iteration, +7% every 10th), and
  /// 10 stops at most 9 iterations late. 1 measures every iteration. The iterates are the same bits whatever the interval; only where they stop moves.
  std::uint32_t residual_interval = 1;
  real jacobi_omega = 1.0;   ///< Jacobi step scale, (0, 1]: the seeds' omega
  real jacobi_lambda = 1.0;  ///< Jacobi blending of new and old impulses, (0, 1]
  /// Divide each Jacobi step by the larger number of constraints acting on its two bodies.
  /// The seeds' eta_i = 3 / trace(D_i^T M^-1 D_i) treats a contact as alone on its bodies, so
  /// a body with k contacts receives k full corrections per sweep and needs omega < ~2/k (a
  /// block resting on 8 contacts diverges at omega = 0.25). With the division any omega in
  /// (0, 1] is stable. false gives the seeds' iteration exactly.
  bool jacobi_split_by_contacts = true;
  /// Clamp on the speed at which penetration is removed, b = max(Phi/h, -v); 0 = no clamp.
  real max_recovery_speed = 0;
  /// Compliant grain contacts (docs/ccp.md, "Compliant grain contacts"): every contact that no
  /// compliant body claims (contact_compliance.h) becomes a spring-damper of this normal
  /// stiffness [N/m] and damping [N s/m], solved as a regularised row. 0 keeps the rigid CCP
  /// and its exact bits. A finite stiffness puts eps = 1 / (h (h k + c)) on the diagonal of N,
  /// which bounds the condition number of heavily loaded contact networks.
  real contact_stiffness = 0;
  real contact_damping = 0;
  /// Rolling resistance (docs/ccp.md, "Rolling resistance"): each contact also resists the
  /// relative rolling of its bodies with an angular impulse of at most rolling_friction R* gamma_n,
  /// R* the contact's effective radius. Smooth spheres roll past each other and give a bed a
  /// friction angle far below gravel's; 0 (no rows added) keeps the CCP and its exact bits.
  real rolling_friction = 0;
  /// APGD only: scale each constraint's gradient step by the inverse of its own diagonal of N
  /// (docs/ccp.md, "Preconditioned APGD"): a contact's normal row by 1 / (N_nn + eps), its two
  /// tangent rows by 2 / (N_uu + N_ww), each rolling pair and bilateral row by its eta. The cone
  /// projection and the line search then use the metric of that scaling, so the iteration is
  /// APGD on the rescaled problem. false keeps the plain iteration and its exact bits.
  bool preconditioned = false;
  bool warm_start = true;          ///< start from last step's impulses matched by contact key
  bool record_residuals = false;   ///< keep the residual of every iteration in StepStats
};

/// Whether the solve runs preconditioned APGD (the setting means nothing to Jacobi).
inline bool apgd_preconditioned(const SolverSettings& s) { return s.preconditioned && s.method == SolverMethod::Apgd; }

struct StepSettings {
  real step_size = 1e-3;
  Vec3 gravity{0, 0, -9.81};
  CollisionSettings collision;
  SolverSettings solver;
};

}  // namespace trackcosim::gpu
