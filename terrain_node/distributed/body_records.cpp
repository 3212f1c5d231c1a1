#include "terrain_node/distributed/body_records.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace trackcosim::terrain {

void BodyRecords::append(const gpu::BodySet& s, const SphereIndex& index, std::uint32_t i) {
  BodyRecord r{};
  r.gid = s.gid[i];
  const real state[] = {s.px[i], s.py[i], s.pz[i], s.qw[i], s.qx[i], s.qy[i], s.qz[i],
                        s.vx[i], s.vy[i], s.vz[i], s.wx[i], s.wy[i], s.wz[i]};
  std::copy(state, state + 3, r.position);
  std::copy(state + 3, state + 7, r.orientation);
  std::copy(state + 7, state + 10, r.velocity);
  std::copy(state + 10, state + 13, r.angular_velocity);
  r.mass = s.mass[i];
  r.inertia[0] = s.ix[i], r.inertia[1] = s.iy[i], r.inertia[2] = s.iz[i];
  r.friction = s.friction[i];
  r.force[0] = s.fx[i], r.force[1] = s.fy[i], r.force[2] = s.fz[i];
  r.torque[0] = s.tx[i], r.torque[1] = s.ty[i], r.torque[2] = s.tz[i];
  r.motion = static_cast<std::uint8_t>(s.motion[i]);
  const auto spheres = index.of(i);
  r.sphere_count = static_cast<std::uint32_t>(spheres.size());
  bodies.push_back(r);
  for (const std::uint32_t k : spheres)
    this->spheres.push_back({{s.sphere_ox[k], s.sphere_oy[k], s.sphere_oz[k]}, s.sphere_radius[k]});
}

void BodyRecords::append(const BodyRecords& from, std::size_t body, std::size_t first_sphere) {
  const BodyRecord& r = from.bodies[body];
  bodies.push_back(r);
  spheres.insert(spheres.end(), from.spheres.begin() + static_cast<std::ptrdiff_t>(first_sphere),
                 from.spheres.begin() + static_cast<std::ptrdiff_t>(first_sphere + r.sphere_count));
}

void sort_by_gid(BodyRecords& records) {
  std::vector<std::size_t> first(records.bodies.size()), order(records.bodies.size());
  for (std::size_t i = 0, at = 0; i < records.bodies.size(); at += records.bodies[i++].sphere_count) first[i] = at;
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t l, std::size_t r) { return records.bodies[l].gid < records.bodies[r].gid; });
  BodyRecords sorted;
  sorted.bodies.reserve(records.bodies.size());
  sorted.spheres.reserve(records.spheres.size());
  for (const std::size_t i : order) sorted.append(records, i, first[i]);
  records = std::move(sorted);
}

gpu::BodyState state_of(const BodyRecord& r) {
  return {r.gid,
          {r.position[0], r.position[1], r.position[2]},
          {r.orientation[0], r.orientation[1], r.orientation[2], r.orientation[3]},
          {r.velocity[0], r.velocity[1], r.velocity[2]},
          {r.angular_velocity[0], r.angular_velocity[1], r.angular_velocity[2]}};
}

void set_at_rest(BodyRecord& r, gpu::Motion motion) {
  r.motion = static_cast<std::uint8_t>(motion);
  std::fill(r.velocity, r.velocity + 3, real(0));
  std::fill(r.angular_velocity, r.angular_velocity + 3, real(0));
}

namespace {

gpu::BodyDesc desc_of(const BodyRecord& r) {
  gpu::BodyDesc d;
  d.gid = r.gid;
  d.position = {r.position[0], r.position[1], r.position[2]};
  d.orientation = {r.orientation[0], r.orientation[1], r.orientation[2], r.orientation[3]};
  d.velocity = {r.velocity[0], r.velocity[1], r.velocity[2]};
  d.angular_velocity = {r.angular_velocity[0], r.angular_velocity[1], r.angular_velocity[2]};
  d.mass = r.mass;
  d.inertia = {r.inertia[0], r.inertia[1], r.inertia[2]};
  d.motion = static_cast<gpu::Motion>(r.motion);
  d.friction = r.friction;
  d.applied_force = {r.force[0], r.force[1], r.force[2]};
  d.applied_torque = {r.torque[0], r.torque[1], r.torque[2]};
  return d;
}

}  // namespace

const BodyRecord* find_record(const BodyRecords& sorted, gpu::GlobalId gid) {
  const auto at = std::lower_bound(sorted.bodies.begin(), sorted.bodies.end(), gid,
                                   [](const BodyRecord& r, gpu::GlobalId g) { return r.gid < g; });
  return at != sorted.bodies.end() && at->gid == gid ? &*at : nullptr;
}

gpu::BodySet merge_bodies(const gpu::BodySet& held, const std::vector<std::uint32_t>& held_bodies,
                          const std::vector<const BodyRecords*>& received) {
  // (gid, source, index): source 0 = held body, k+1 = received[k]'s record with its first sphere.
  struct Entry {
    gpu::GlobalId gid;
    std::uint32_t source, index, first_sphere;
  };
  std::vector<Entry> entries;
  for (const std::uint32_t b : held_bodies) entries.push_back({held.gid[b], 0, b, 0});
  for (std::uint32_t k = 0; k < received.size(); ++k) {
    std::uint32_t sphere = 0;
    for (std::uint32_t r = 0; r < received[k]->bodies.size(); ++r) {
      entries.push_back({received[k]->bodies[r].gid, k + 1, r, sphere});
      sphere += received[k]->bodies[r].sphere_count;
    }
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& l, const Entry& r) { return l.gid < r.gid; });
  const SphereIndex index(held);
  gpu::BodySet out;
  for (std::size_t e = 0; e < entries.size(); ++e) {
    const Entry& entry = entries[e];
    if (e > 0 && entries[e - 1].gid == entry.gid)
      throw std::logic_error("body gid " + std::to_string(entry.gid) + " is held twice on one rank");
    if (entry.source == 0) {
      copy_body(held, index, entry.index, out);
      continue;
    }
    const BodyRecords& from = *received[entry.source - 1];
    const BodyRecord& r = from.bodies[entry.index];
    const std::uint32_t at = out.add_body(desc_of(r));
    for (std::uint32_t s = 0; s < r.sphere_count; ++s) {
      const SphereRecord& sphere = from.spheres[entry.first_sphere + s];
      out.add_sphere(at, {sphere.offset[0], sphere.offset[1], sphere.offset[2]}, sphere.radius);
    }
  }
  return out;
}

}  // namespace trackcosim::terrain
