// The C API (coupler_c.h) over cosim::VehicleCoupler: exceptions become -1 and a message.

#include "cosim/coupler_c.h"

#include <cstring>
#include <memory>
#include <string>

#include "cosim/coupler.h"

struct tcs_coupler {
  std::unique_ptr<trackcosim::cosim::VehicleCoupler> coupler;
  std::string error;
  bool failed = false;
  bool offer_checkpoint = false;  ///< tcs_offer_checkpoint: the next hello's capability and start
  unsigned long long start_step = 0;
  double start_time = 0;
};

namespace {

template <class Work>
int guarded(tcs_coupler* c, Work work) {
  if (c == nullptr) return -1;
  c->failed = false;
  try {
    if (!c->coupler) throw std::runtime_error(c->error.empty() ? "not connected" : c->error);
    work(*c->coupler);
    return 0;
  } catch (const std::exception& e) {
    c->error = e.what();
    c->failed = true;
    return -1;
  }
}

trackcosim::cosim::ShoeState state_from(const double* s) {
  trackcosim::cosim::ShoeState st;
  std::memcpy(&st, s, sizeof st);
  return st;
}

}  // namespace

extern "C" {

tcs_coupler* tcs_connect_tcp(const char* host, int port, double timeout_seconds) {
  return tcs_connect("tcp", host, port, timeout_seconds);
}

tcs_coupler* tcs_connect(const char* transport, const char* host, int port, double timeout_seconds) {
  auto* c = new tcs_coupler;
  try {
    const trackcosim::cosim::TerrainAddress address{transport != nullptr ? transport : "",
                                                    host != nullptr ? host : "127.0.0.1", port, timeout_seconds};
    c->coupler = std::make_unique<trackcosim::cosim::VehicleCoupler>(trackcosim::cosim::VehicleCoupler::connect(address));
  } catch (const std::exception& e) {
    c->error = e.what();
    c->failed = true;
  }
  return c;
}

const char* tcs_last_error(const tcs_coupler* c) {
  if (c == nullptr) return "no coupler (NULL handle)";
  return c->failed ? c->error.c_str() : nullptr;
}

int tcs_handshake(tcs_coupler* c, double coupling_step, double end_time, int shoes, const double* masses,
                  const int* sphere_counts, const double* spheres, const double* states, tcs_terrain_info* terrain) {
  return guarded(c, [&](trackcosim::cosim::VehicleCoupler& v) {
    trackcosim::cosim::VehicleHello h;
    h.coupling_step = coupling_step;
    h.end_time = end_time;
    h.checkpoint = c->offer_checkpoint;
    h.start_step = c->start_step;
    h.start_time = c->start_time;
    const double* s = spheres;
    for (int i = 0; i < shoes; ++i) {
      trackcosim::cosim::ShoeGeometry g;
      g.mass = masses[i];
      for (int k = 0; k < sphere_counts[i]; ++k, s += 4) g.spheres.push_back({{s[0], s[1], s[2]}, s[3]});
      h.shoes.push_back(g);
      h.initial.push_back(state_from(states + 13 * i));
    }
    const trackcosim::cosim::TerrainWelcome& w = v.handshake(h);
    if (terrain != nullptr) {
      const double lo[3] = {w.patch_min.x, w.patch_min.y, w.patch_min.z};
      const double hi[3] = {w.patch_max.x, w.patch_max.y, w.patch_max.z};
      std::memcpy(terrain->patch_min, lo, sizeof lo);
      std::memcpy(terrain->patch_max, hi, sizeof hi);
      terrain->surface_height = w.surface_height;
      terrain->particles = w.particles;
      terrain->friction = w.friction;
      terrain->density = w.density;
      terrain->terrain_step = w.terrain_step;
    }
  });
}

int tcs_send_states(tcs_coupler* c, double time, const double* states) {
  return guarded(c, [&](trackcosim::cosim::VehicleCoupler& v) {
    std::vector<trackcosim::cosim::ShoeState> s(v.shoes());
    for (std::size_t i = 0; i < s.size(); ++i) s[i] = state_from(states + 13 * i);
    v.send_states(time, s);
  });
}

int tcs_receive_forces(tcs_coupler* c, double* forces) {
  return guarded(c, [&](trackcosim::cosim::VehicleCoupler& v) {
    const std::vector<trackcosim::cosim::ShoeForce> f = v.receive_forces();
    std::memcpy(forces, f.data(), f.size() * sizeof(trackcosim::cosim::ShoeForce));
  });
}

int tcs_finish(tcs_coupler* c) {
  return guarded(c, [](trackcosim::cosim::VehicleCoupler& v) { v.finish(); });
}

int tcs_offer_checkpoint(tcs_coupler* c, unsigned long long start_step, double start_time) {
  return guarded(c, [&](trackcosim::cosim::VehicleCoupler&) {
    c->offer_checkpoint = true;
    c->start_step = start_step;
    c->start_time = start_time;
  });
}

int tcs_terrain_asks_to_stop(const tcs_coupler* c) {
  if (c == nullptr || !c->coupler) return -1;
  return c->coupler->terrain_asks_to_stop() ? 1 : 0;
}

int tcs_checkpoint(tcs_coupler* c, double time, const char* reason) {
  return guarded(c, [&](trackcosim::cosim::VehicleCoupler& v) {
    v.checkpoint(time, reason != nullptr ? reason : "asked by the vehicle model");
  });
}

int tcs_checkpoint_continue(tcs_coupler* c, double time, const char* reason) {
  return guarded(c, [&](trackcosim::cosim::VehicleCoupler& v) {
    v.checkpoint(time, reason != nullptr ? reason : "a periodic checkpoint of the vehicle model", true);
  });
}

void tcs_abort(tcs_coupler* c, const char* reason) {
  if (c != nullptr && c->coupler) c->coupler->abort(reason != nullptr ? reason : "aborted by the vehicle model");
}

void tcs_free(tcs_coupler* c) { delete c; }

}  // extern "C"
