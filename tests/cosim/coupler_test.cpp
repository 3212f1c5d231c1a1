// The protocol (cosim/protocol.h) and the couplers (cosim/coupler.h, coupler_c.h) over TCP on
// loopback, the terrain side in a thread: a handshake and coupling steps with forces computed
// from the states; the C API doing the same; connecting by transport name (TerrainAddress); and
// every disagreement (version, coupling step, shoe count, step index) stopping both sides with a
// message that names both values.

#include "cosim/coupler.h"

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <stdexcept>
#include <thread>
#include <tuple>

#include "comm/tcp_channel.h"
#include "cosim/coupler_c.h"

namespace trackcosim::cosim {
namespace {

VehicleHello hello(std::size_t shoes, double step = 1e-3) {
  VehicleHello h;
  h.coupling_step = step;
  h.end_time = 0.01;
  for (std::size_t i = 0; i < shoes; ++i) {
    ShoeGeometry g;
    g.mass = 0.5 + double(i);
    g.spheres = {{{0, 0, -0.01}, 0.005}, {{0.02, 0, -0.01}, 0.005}};
    h.shoes.push_back(g);
    ShoeState s{};
    s.position[0] = 0.1 * double(i), s.position[2] = 0.05;
    s.orientation[0] = 1;
    h.initial.push_back(s);
  }
  return h;
}

TerrainWelcome welcome() {
  TerrainWelcome w;
  w.patch_min = {0, -0.5, 0};
  w.patch_max = {4, 0.5, 0.2};
  w.surface_height = 0.2;
  w.particles = 50000;
  w.friction = 0.5;
  w.density = 2500;
  w.terrain_step = 5e-4;
  return w;
}

/// A stand-in terrain in a thread: the vertical force on each shoe is 1000 (0.1 - z), the
/// torque (x, t, 0).
struct Terrain {
  comm::TcpListener listener{"127.0.0.1", 0};
  std::thread thread;
  std::string error;
  std::size_t steps = 0;
  VehicleHello received;

  void start(TerrainExpectations expect) {
    thread = std::thread([this, expect] {
      try {
        TerrainCoupler t(listener.accept(5), 5);
        received = t.accept(expect, welcome());
        double time = 0;
        while (auto states = t.receive_states(time)) {
          std::vector<ShoeForce> f(states->size());
          for (std::size_t i = 0; i < f.size(); ++i) {
            f[i] = ShoeForce{{0, 0, 1000 * (0.1 - (*states)[i].position[2])}, {(*states)[i].position[0], time, 0}};
          }
          t.send_forces(f);
          ++steps;
        }
      } catch (const std::exception& e) {
        error = e.what();
      }
    });
  }
  void join() { thread.join(); }
};

TEST(Coupler, HandshakeAndStepsOverTcp) {
  Terrain terrain;
  terrain.start({1e-3, 3});
  VehicleCoupler v = VehicleCoupler::connect_tcp("127.0.0.1", terrain.listener.port(), 5);
  const TerrainWelcome& w = v.handshake(hello(3));
  EXPECT_EQ(w.particles, 50000u);
  EXPECT_EQ(w.patch_max.x, 4);
  EXPECT_EQ(w.terrain_step, 5e-4);
  std::vector<ShoeState> states = hello(3).initial;
  for (int k = 0; k < 5; ++k) {
    for (ShoeState& s : states) s.position[2] -= 0.01;
    v.send_states(1e-3 * k, states);
    const std::vector<ShoeForce> f = v.receive_forces();
    ASSERT_EQ(f.size(), 3u);
    EXPECT_DOUBLE_EQ(f[2].force[2], 1000 * (0.1 - states[2].position[2]));
    EXPECT_DOUBLE_EQ(f[1].torque[0], 0.1);
    EXPECT_DOUBLE_EQ(f[1].torque[1], 1e-3 * k);
  }
  v.finish();
  terrain.join();
  EXPECT_EQ(terrain.error, "");
  EXPECT_EQ(terrain.steps, 5u);
  ASSERT_EQ(terrain.received.shoes.size(), 3u);
  EXPECT_EQ(terrain.received.shoes[1].mass, 1.5);
  EXPECT_EQ(terrain.received.shoes[0].spheres[1].offset.x, 0.02);
  EXPECT_EQ(terrain.received.initial[2].position[0], 0.2);
}

// The transport by name, as vehicle_node takes it from --terrain: "tcp" reaches the same
// terrain as connect_tcp.
TEST(Coupler, ConnectByTransportNameReachesATcpTerrain) {
  Terrain terrain;
  terrain.start({1e-3, 2});
  TerrainAddress address;
  address.transport = "tcp";
  address.port = terrain.listener.port();
  address.timeout_seconds = 5;
  VehicleCoupler v = VehicleCoupler::connect(address);
  EXPECT_EQ(v.handshake(hello(2)).particles, 50000u);
  std::vector<ShoeState> states = hello(2).initial;
  v.send_states(0, states);
  const std::vector<ShoeForce> f = v.receive_forces();
  ASSERT_EQ(f.size(), 2u);
  EXPECT_DOUBLE_EQ(f[1].force[2], 1000 * (0.1 - states[1].position[2]));
  v.finish();
  terrain.join();
  EXPECT_EQ(terrain.error, "");
  EXPECT_EQ(terrain.steps, 1u);
}

// A transport that is neither "mpi" nor "tcp" is refused before anything is opened, naming it.
TEST(Coupler, ConnectRefusesAnUnknownTransportNamingIt) {
  TerrainAddress address;
  address.transport = "udp";
  std::string e;
  try {
    VehicleCoupler::connect(address);
  } catch (const std::invalid_argument& error) {
    e = error.what();
  }
  EXPECT_NE(e.find("got udp"), std::string::npos) << e;
  // The C API says the same through its error, with a handle that refuses every call.
  tcs_coupler* c = tcs_connect("udp", "127.0.0.1", 1, 1);
  ASSERT_NE(tcs_last_error(c), nullptr);
  EXPECT_NE(std::string(tcs_last_error(c)).find("got udp"), std::string::npos) << tcs_last_error(c);
  double states[13] = {};
  EXPECT_EQ(tcs_send_states(c, 0, states), -1);
  tcs_free(c);
}

std::string protocol_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const ProtocolError& e) {
    return e.what();
  }
  return "";
}

TEST(Coupler, CouplingStepOrShoeCountMismatchStopsBothSidesNamingBothValues) {
  for (const auto& [expect, shoes, words] :
       std::vector<std::tuple<TerrainExpectations, std::size_t, std::string>>{
           {{2e-3, 0}, 2, "coupling step mismatch: the vehicle uses 0.001 s, the terrain 0.002 s"},
           {{1e-3, 4}, 2, "shoe count mismatch: the vehicle has 2 shoes, the terrain expects 4"}}) {
    Terrain terrain;
    terrain.start(expect);
    VehicleCoupler v = VehicleCoupler::connect_tcp("127.0.0.1", terrain.listener.port(), 5);
    const std::string e = protocol_error([&] { v.handshake(hello(shoes)); });
    terrain.join();
    EXPECT_NE(e.find(words), std::string::npos) << e;
    EXPECT_NE(terrain.error.find(words), std::string::npos) << terrain.error;
  }
}

TEST(Protocol, VersionMismatchNamesBothVersions) {
  comm::Frame f = encode_hello(hello(1));
  std::string text(f.payload.begin(), f.payload.end());
  text.replace(text.find("\"version\":1"), 11, "\"version\":7");
  f.payload.assign(text.begin(), text.end());
  const std::string e = protocol_error([&] { decode_hello(f, "tcp test"); });
  EXPECT_NE(e.find("the vehicle speaks version 7, this side speaks version 1"), std::string::npos) << e;
}

// The coupling scheme travels in the hello; a hello without it (an older or minimal client)
// means concurrent, and an unknown scheme is refused with the allowed values named.
TEST(Protocol, HelloCarriesTheCouplingSchemeAbsentMeansConcurrent) {
  VehicleHello h = hello(2);
  h.scheme = "sequential";
  EXPECT_EQ(decode_hello(encode_hello(h), "test").scheme, "sequential");

  comm::Frame f = encode_hello(h);
  std::string text(f.payload.begin(), f.payload.end());
  const std::string key = "\"scheme\":\"sequential\",";
  ASSERT_NE(text.find(key), std::string::npos) << text;
  text.replace(text.find(key), key.size(), "");
  f.payload.assign(text.begin(), text.end());
  EXPECT_EQ(decode_hello(f, "test").scheme, "concurrent");

  f = encode_hello(h);
  text.assign(f.payload.begin(), f.payload.end());
  text.replace(text.find("sequential"), 10, "staggered");
  f.payload.assign(text.begin(), text.end());
  const std::string e = protocol_error([&] { decode_hello(f, "test"); });
  EXPECT_NE(e.find("staggered"), std::string::npos) << e;
  EXPECT_NE(e.find("concurrent"), std::string::npos) << e;
}

TEST(Protocol, StatesAndForcesRoundTripAndCheckTheStepAndCount) {
  std::vector<ShoeState> s(2);
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 13; ++k) reinterpret_cast<double*>(&s[i])[k] = 0.1 * k + i + 1.0 / 3.0;
  double t = 0;
  const std::vector<ShoeState> back = decode_states(encode_states(4, 0.004, s), 4, 2, t, "test");
  EXPECT_EQ(std::memcmp(back.data(), s.data(), sizeof(ShoeState) * 2), 0);
  EXPECT_EQ(t, 0.004);
  EXPECT_NE(protocol_error([&] { decode_states(encode_states(4, 0, s), 5, 2, t, "test"); })
                .find("coupling step 4, this side is at step 5"),
            std::string::npos);
  EXPECT_NE(protocol_error([&] { decode_states(encode_states(4, 0, s), 4, 3, t, "test"); })
                .find("sent 2 shoe states, the handshake announced 3"),
            std::string::npos);
  comm::Frame cut = encode_forces(1, std::vector<ShoeForce>(2));
  cut.payload.resize(cut.payload.size() - 5);
  EXPECT_NE(protocol_error([&] { decode_forces(cut, 1, 2, "test"); }).find("truncated"), std::string::npos);
  EXPECT_NE(protocol_error([&] { expect_kind(encode_refusal("terrain out of memory"), MessageKind::Forces, "peer"); })
                .find("peer stopped the co-simulation: terrain out of memory"),
            std::string::npos);
}

// Implicit shoe loads: the hello asks with "stiffness" (sequential only, refused by name with
// the concurrent scheme), the welcome answers it, and the forces then carry each shoe's 42
// numbers after its 6, bit for bit; a forces payload without them is refused as truncated.
TEST(Protocol, StiffnessIsAskedAnsweredAndCarriedAfterTheForces) {
  VehicleHello h = hello(2);
  h.scheme = "sequential";
  EXPECT_FALSE(decode_hello(encode_hello(h), "test").stiffness);
  h.stiffness = true;
  EXPECT_TRUE(decode_hello(encode_hello(h), "test").stiffness);
  h.scheme = "concurrent";
  const std::string e = protocol_error([&] { decode_hello(encode_hello(h), "test"); });
  EXPECT_NE(e.find("stiffness"), std::string::npos) << e;
  EXPECT_NE(e.find("sequential"), std::string::npos) << e;

  TerrainWelcome w;
  w.terrain_step = 1e-3;
  EXPECT_FALSE(decode_welcome(encode_welcome(w), "test").stiffness);
  w.stiffness = true;
  EXPECT_TRUE(decode_welcome(encode_welcome(w), "test").stiffness);

  std::vector<ShoeForce> f(2);
  std::vector<ShoeStiffness> k(2);
  for (int i = 0; i < 2; ++i) {
    for (int c = 0; c < 6; ++c) reinterpret_cast<double*>(&f[i])[c] = i + c / 7.0;
    for (int c = 0; c < 42; ++c) reinterpret_cast<double*>(&k[i])[c] = 1e5 * i + c / 3.0;
  }
  const comm::Frame frame = encode_forces(3, f, false, &k);
  EXPECT_EQ(frame.payload.size(), 16u + 2 * 48 * sizeof(double));
  std::vector<ShoeStiffness> back_k;
  const std::vector<ShoeForce> back_f = decode_forces(frame, 3, 2, "test", nullptr, &back_k);
  ASSERT_EQ(back_k.size(), 2u);
  EXPECT_EQ(std::memcmp(back_f.data(), f.data(), sizeof(ShoeForce) * 2), 0);
  EXPECT_EQ(std::memcmp(back_k.data(), k.data(), sizeof(ShoeStiffness) * 2), 0);
  EXPECT_NE(protocol_error([&] { decode_forces(encode_forces(3, f), 3, 2, "test", nullptr, &back_k); }).find("truncated"),
            std::string::npos);
  EXPECT_NE(protocol_error([&] { decode_forces(frame, 3, 2, "test"); }).find("bytes too many"), std::string::npos);
  // The packed lower triangle: (row, col) and (col, row) are the same number.
  EXPECT_EQ(ShoeStiffness::packed(0, 0), 0);
  EXPECT_EQ(ShoeStiffness::packed(1, 0), 1);
  EXPECT_EQ(ShoeStiffness::packed(0, 1), 1);
  EXPECT_EQ(ShoeStiffness::packed(5, 5), 20);
  EXPECT_EQ(ShoeStiffness::packed(3, 5), ShoeStiffness::packed(5, 3));
}

TEST(CouplerC, TheCApiRunsTheSameExchange) {
  Terrain terrain;
  terrain.start({1e-3, 2});
  tcs_coupler* c = tcs_connect_tcp("127.0.0.1", terrain.listener.port(), 5);
  ASSERT_EQ(tcs_last_error(c), nullptr);
  const double masses[2] = {1, 2};
  const int counts[2] = {1, 2};
  const double spheres[12] = {0, 0, 0, 0.01, 0, 0, 0, 0.01, 0.02, 0, 0, 0.01};
  double states[26] = {};
  states[2] = 0.05, states[3] = 1, states[13 + 2] = 0.07, states[13 + 3] = 1;
  tcs_terrain_info info{};
  ASSERT_EQ(tcs_handshake(c, 1e-3, 0.01, 2, masses, counts, spheres, states, &info), 0) << tcs_last_error(c);
  EXPECT_EQ(info.particles, 50000u);
  double forces[12];
  ASSERT_EQ(tcs_send_states(c, 0, states), 0);
  ASSERT_EQ(tcs_receive_forces(c, forces), 0) << tcs_last_error(c);
  EXPECT_DOUBLE_EQ(forces[2], 1000 * (0.1 - 0.05));
  EXPECT_DOUBLE_EQ(forces[6 + 2], 1000 * (0.1 - 0.07));
  EXPECT_EQ(tcs_receive_forces(c, forces), -1);  // out of order: refused, not hung
  EXPECT_NE(std::string(tcs_last_error(c)).find("before send_states"), std::string::npos);
  ASSERT_EQ(tcs_finish(c), 0);
  tcs_free(c);
  terrain.join();
  EXPECT_EQ(terrain.error, "");
  ASSERT_EQ(terrain.received.shoes.size(), 2u);
  EXPECT_EQ(terrain.received.shoes[1].spheres.size(), 2u);
}

}  // namespace
}  // namespace trackcosim::cosim
