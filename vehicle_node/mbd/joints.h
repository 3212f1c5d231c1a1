#pragma once
// Internal: revolute and prismatic joints, each stored in the frames of its two bodies and
// turned into constraint rows every step.

#include <vector>

#include "vehicle_node/mbd/body_store.h"
#include "vehicle_node/mbd/constraint_row.h"

namespace trackcosim::vehicle::detail {

enum class JointType : std::uint8_t { kRevolute, kPrismatic };

struct Joint {
  JointType type;
  int a, b;
  V3 ra, rb;            // anchor in a's and b's body frames
  V3 axis_a, axis_b;    // unit axis in a's and b's body frames
  V3 u_a, v_a;          // unit vectors normal to the axis, a's frame
  Eigen::Quaterniond q_rel0;  // q_a^-1 q_b at assembly (prismatic orientation lock)
  int first_row = -1;   // first of its 5 rows in the last step's row list
  // Prismatic travel limits (unilateral rows, always present once set).
  bool limited = false;
  double min_travel = 0.0, max_travel = 0.0;
  RowState limit_state[2] = {RowState::kAtLower, RowState::kAtLower};  // warm start
  int limit_row = -1;   // first of its 2 limit rows in the last step's row list
};

/// Defines the joint from the bodies' current poses. Throws std::invalid_argument (naming the
/// joint by its bodies) for a zero axis, a == b, or two fixed bodies.
Joint make_joint(JointType type, const BodyStore& bodies, int a, int b, const V3& world_point,
                 const V3& world_axis);

/// Appends the joint's 5 rows (SPOOK-stabilised, see constraint_row.h).
void append_joint_rows(Joint& j, const BodyStore& bodies, const Spook& spook,
                       std::vector<ConstraintRow>& rows);

/// Appends the 2 travel-limit rows of a limited prismatic joint:
///   s - min >= 0 and max - s >= 0, s = n . (pb - pa); speculative while the gap is open.
void append_limit_rows(Joint& j, const BodyStore& bodies, const Spook& spook, double h,
                       std::vector<ConstraintRow>& rows);

/// Position-level violation of each of the joint's 5 rows, in the order append_joint_rows
/// writes them (m for position rows, rad for orientation rows).
void joint_row_violations(const Joint& j, const BodyStore& bodies, double g[5]);

/// Position-level violation (m): anchor separation (revolute), off-axis offset (prismatic).
double joint_position_violation(const Joint& j, const BodyStore& bodies);
/// Travel of b's anchor relative to a's along the axis (m).
double prismatic_travel(const Joint& j, const BodyStore& bodies);
/// World axis (attached to body a).
V3 joint_axis_world(const Joint& j, const BodyStore& bodies);

}  // namespace trackcosim::vehicle::detail
