#include "domain/body_roles.h"

namespace trackcosim::domain {

void ranks_needing_ghost(const Decomposition& d, int owner, Vec3 p, real width, std::vector<int>& out) {
  out.clear();
  for (int r = 0; r < d.rank_count(); ++r)
    if (r != owner && d.distance_to_box(p, r) <= width) out.push_back(r);
}

BodyRole classify(const Decomposition& d, int rank, Vec3 p, real width) {
  const int owner = d.owner_of(p);
  if (owner != rank) return d.distance_to_box(p, rank) <= width ? BodyRole::Ghost : BodyRole::Outside;
  for (int r = 0; r < d.rank_count(); ++r)
    if (r != rank && d.distance_to_box(p, r) <= width) return BodyRole::Shared;
  return BodyRole::Owned;
}

}  // namespace trackcosim::domain
