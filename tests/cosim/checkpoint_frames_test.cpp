// The walltime-safety frames of the protocol (cosim/protocol.h, docs/protocol.md "Checkpoints"):
// checkpoint (kind 7) and forces_stop (kind 8) round trips, the hello's optional capability and
// start step, and the couplers' rules: forces_stop is never sent to a vehicle whose hello lacks
// the capability, a vehicle that did not offer it refuses one, and a resumed terrain accepts only
// a hello that resumes at its checkpoint's step. The two couplers talk through an in-memory
// channel pair, one thread, frames queued in order.

#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include "comm/tcp_channel.h"
#include "cosim/coupler.h"
#include "cosim/coupler_c.h"

namespace trackcosim::cosim {
namespace {

/// One direction of a loopback pair: send() appends to the peer's inbox.
struct Inbox {
  std::deque<comm::Frame> frames;
};
class QueueChannel : public comm::Channel {
 public:
  QueueChannel(std::shared_ptr<Inbox> mine, std::shared_ptr<Inbox> theirs) : mine_(mine), theirs_(theirs) {}
  void send(const comm::Frame& f, double) override { theirs_->frames.push_back(f); }
  comm::Frame receive(double) override {
    if (mine_->frames.empty()) throw std::runtime_error("nothing queued");
    comm::Frame f = mine_->frames.front();
    mine_->frames.pop_front();
    return f;
  }
  std::string peer() const override { return "queue"; }

 private:
  std::shared_ptr<Inbox> mine_, theirs_;
};

VehicleHello hello(bool checkpoint, std::uint64_t start_step = 0) {
  VehicleHello h;
  h.coupling_step = 1e-3;
  h.end_time = 0.01;
  h.checkpoint = checkpoint;
  h.start_step = start_step;
  h.start_time = 1e-3 * double(start_step);
  for (int i = 0; i < 2; ++i) {
    h.shoes.push_back({0.5, {{{0, 0, -0.01}, 0.005}}});
    ShoeState s{};
    s.orientation[0] = 1;
    s.position[0] = 0.1 * i;
    h.initial.push_back(s);
  }
  return h;
}

TerrainWelcome welcome() {
  TerrainWelcome w;
  w.surface_height = 0.2;
  w.particles = 100;
  w.terrain_step = 5e-4;
  w.checkpoint = true;
  return w;
}

const std::vector<ShoeForce> kForces = {{{1, 2, 3}, {4, 5, 6}}, {{-1, 0.5, 200}, {0, 0, 0.25}}};

struct Pair {
  std::shared_ptr<Inbox> to_vehicle = std::make_shared<Inbox>(), to_terrain = std::make_shared<Inbox>();
  VehicleCoupler vehicle{std::make_unique<QueueChannel>(to_vehicle, to_terrain)};
  TerrainCoupler terrain{std::make_unique<QueueChannel>(to_terrain, to_vehicle)};
  /// Handshake: the welcome is queued first, so that the vehicle finds it after its hello.
  void connect(const VehicleHello& h, const TerrainExpectations& expect = {}) {
    to_vehicle->frames.push_back(encode_welcome(welcome()));
    vehicle.handshake(h);
    to_vehicle->frames.clear();
    terrain.accept(expect, welcome());
    to_vehicle->frames.clear();
  }
};

TEST(CheckpointFrames, CheckpointRoundTripAndStepCheck) {
  const comm::Frame f = encode_checkpoint({17, 0.017, "SIGUSR1 on the vehicle"});
  EXPECT_EQ(f.kind, 7u);
  const CheckpointRequest r = decode_checkpoint(f, 17, "peer");
  EXPECT_EQ(r.step, 17u);
  EXPECT_EQ(r.time, 0.017);
  EXPECT_EQ(r.reason, "SIGUSR1 on the vehicle");
  try {
    decode_checkpoint(f, 18, "peer");
    FAIL() << "accepted a checkpoint request for another step";
  } catch (const ProtocolError& e) {
    EXPECT_NE(std::string(e.what()).find("coupling step 17, this side is at step 18"), std::string::npos) << e.what();
  }
}

TEST(CheckpointFrames, ContinuingCheckpointRoundTripsAndAnOldFrameStops) {
  CheckpointRequest periodic{40, 0.04, "every 0.04 s", true};
  const comm::Frame f = encode_checkpoint(periodic);
  const std::string text(f.payload.begin(), f.payload.end());
  EXPECT_NE(text.find("\"continue\":true"), std::string::npos) << text;
  const CheckpointRequest r = decode_checkpoint(f, 40, "peer");
  EXPECT_TRUE(r.keep_going);
  EXPECT_EQ(r.step, 40u);
  EXPECT_EQ(r.time, 0.04);
  EXPECT_EQ(r.reason, "every 0.04 s");
  // A stop's frame is what it always was, and a frame of an older vehicle (no key) stops.
  const comm::Frame stop = encode_checkpoint({40, 0.04, "SIGUSR1 on the vehicle"});
  EXPECT_EQ(std::string(stop.payload.begin(), stop.payload.end()).find("continue"), std::string::npos);
  const std::string old_text = R"({"step":40,"time":0.04,"reason":"SIGTERM on the vehicle"})";
  const comm::Frame old{7, std::vector<unsigned char>(old_text.begin(), old_text.end())};
  EXPECT_FALSE(decode_checkpoint(old, 40, "peer").keep_going);
  const std::string bad_text = R"({"step":40,"time":0.04,"reason":"","continue":1})";
  EXPECT_THROW(decode_checkpoint({7, std::vector<unsigned char>(bad_text.begin(), bad_text.end())}, 40, "peer"),
               ProtocolError)
      << "continue is a boolean";
}

TEST(CheckpointFrames, AContinuingCheckpointIsFollowedByTheSameStepsStates) {
  Pair p;
  p.connect(hello(true));
  double t = 0;
  p.vehicle.send_states(0.0, hello(true).initial);
  ASSERT_TRUE(p.terrain.receive_states(t));
  p.terrain.send_forces(kForces);
  p.vehicle.receive_forces();
  p.vehicle.checkpoint(1e-3, "every 0.001 s", true);
  EXPECT_FALSE(p.terrain.receive_states(t));
  ASSERT_TRUE(p.terrain.checkpoint_request());
  EXPECT_TRUE(p.terrain.checkpoint_request()->keep_going);
  EXPECT_EQ(p.terrain.checkpoint_request()->step, 1u);
  EXPECT_EQ(p.vehicle.step(), 1u) << "a checkpoint is no step";
  p.vehicle.send_states(1e-3, hello(true).initial);
  ASSERT_TRUE(p.terrain.receive_states(t)) << "the coupling goes on";
  EXPECT_EQ(t, 1e-3);
  EXPECT_FALSE(p.terrain.checkpoint_request()) << "the request was answered";
  EXPECT_EQ(p.terrain.step(), 2u);
  p.terrain.send_forces(kForces);
  p.vehicle.receive_forces();
  p.vehicle.finish();
  EXPECT_FALSE(p.terrain.receive_states(t));
  EXPECT_FALSE(p.terrain.checkpoint_request()) << "a finish, not a checkpoint";
}

TEST(CheckpointFrames, ForcesStopRoundTripOnlyForACapableReceiver) {
  const comm::Frame f = encode_forces(9, kForces, true);
  EXPECT_EQ(f.kind, 8u);
  EXPECT_EQ(f.payload, encode_forces(9, kForces).payload) << "the same payload as forces";
  bool stop = false;
  const std::vector<ShoeForce> back = decode_forces(f, 9, 2, "peer", &stop);
  EXPECT_TRUE(stop);
  EXPECT_EQ(back[1].force[2], 200.0);
  decode_forces(encode_forces(9, kForces), 9, 2, "peer", &stop);
  EXPECT_FALSE(stop);
  try {
    decode_forces(f, 9, 2, "peer");
    FAIL() << "a receiver without the capability accepted forces_stop";
  } catch (const ProtocolError& e) {
    EXPECT_NE(std::string(e.what()).find("got kind 8 (forces_stop)"), std::string::npos) << e.what();
  }
}

TEST(CheckpointFrames, HelloKeysAreOptionalAndRoundTrip) {
  const comm::Frame plain = encode_hello(hello(false));
  const std::string text(plain.payload.begin(), plain.payload.end());
  EXPECT_EQ(text.find("checkpoint"), std::string::npos) << "a plain hello stays as it was";
  EXPECT_EQ(text.find("start_step"), std::string::npos);
  const VehicleHello back = decode_hello(encode_hello(hello(true, 42)), "peer");
  EXPECT_TRUE(back.checkpoint);
  EXPECT_EQ(back.start_step, 42u);
  EXPECT_EQ(back.start_time, 0.042);
  EXPECT_FALSE(decode_hello(plain, "peer").checkpoint);
  EXPECT_TRUE(decode_welcome(encode_welcome(welcome()), "peer").checkpoint);
}

TEST(CheckpointFrames, TerrainNeverSendsForcesStopWithoutTheCapability) {
  Pair p;
  p.connect(hello(false));
  double t = 0;
  p.to_terrain->frames.push_back(encode_states(0, 0.0, hello(false).initial));
  ASSERT_TRUE(p.terrain.receive_states(t));
  EXPECT_THROW(p.terrain.send_forces(kForces, true), std::logic_error);
  EXPECT_TRUE(p.to_vehicle->frames.empty()) << "nothing was sent";
  p.terrain.send_forces(kForces);
  ASSERT_EQ(p.to_vehicle->frames.size(), 1u);
  EXPECT_EQ(p.to_vehicle->frames.front().kind, 4u);
}

TEST(CheckpointFrames, ForcesStopThenCheckpointEndsBothSidesAtOneStep) {
  Pair p;
  p.connect(hello(true));
  double t = 0;
  p.vehicle.send_states(0.0, hello(true).initial);
  ASSERT_TRUE(p.terrain.receive_states(t));
  p.terrain.send_forces(kForces, true);
  EXPECT_EQ(p.vehicle.receive_forces()[0].force[0], 1.0);
  EXPECT_TRUE(p.vehicle.terrain_asks_to_stop());
  p.vehicle.checkpoint(1e-3, "a stop signal on the terrain");
  EXPECT_FALSE(p.terrain.receive_states(t));
  ASSERT_TRUE(p.terrain.checkpoint_request());
  EXPECT_EQ(p.terrain.checkpoint_request()->step, 1u) << "the state after interval 0: t_1";
  EXPECT_EQ(p.terrain.checkpoint_request()->reason, "a stop signal on the terrain");
}

TEST(CheckpointFrames, ResumedTerrainAcceptsOnlyItsStartStep) {
  for (const auto& [vehicle_step, terrain_step, expected] :
       {std::tuple<std::uint64_t, std::uint64_t, std::string>{
            4, 5, "start step mismatch: the vehicle resumes at coupling step 4, the terrain checkpoint is at coupling step 5"},
        {0, 5, "the vehicle starts a new coupling at step 0, the terrain checkpoint is at coupling step 5"},
        {3, 0, "the vehicle resumes at coupling step 3, but this terrain starts a new coupling"}}) {
    Pair p;
    p.to_terrain->frames.push_back(encode_hello(hello(true, vehicle_step)));
    TerrainExpectations expect;
    expect.start_step = terrain_step;
    try {
      p.terrain.accept(expect, welcome());
      FAIL() << "accepted start step " << vehicle_step << " for " << terrain_step;
    } catch (const ProtocolError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
    ASSERT_EQ(p.to_vehicle->frames.size(), 1u);
    EXPECT_EQ(p.to_vehicle->frames.front().kind, 6u) << "the vehicle is told why (a refusal)";
  }
  Pair p;
  p.connect(hello(true, 5), {0, 0, 0, 5});
  double t = 0;
  p.vehicle.send_states(0.005, hello(true).initial);
  EXPECT_TRUE(p.terrain.receive_states(t));
  EXPECT_EQ(p.terrain.step(), 6u) << "the resumed coupling counts on from step 5";
}

TEST(CheckpointFrames, CApiOffersTheCapabilityAndSendsTheCheckpoint) {
  comm::TcpListener listener("127.0.0.1", 0);
  VehicleHello received;
  std::optional<CheckpointRequest> request;
  std::optional<std::uint64_t> periodic;
  std::string error;
  std::thread terrain([&] {
    try {
      TerrainCoupler t(listener.accept(5), 5);
      received = t.accept({0, 0, 0, 7}, welcome());
      double time = 0;
      for (;;) {
        if (t.receive_states(time))
          t.send_forces(kForces, true);
        else if (t.checkpoint_request() && t.checkpoint_request()->keep_going)
          periodic = t.checkpoint_request()->step;
        else
          break;
      }
      request = t.checkpoint_request();
    } catch (const std::exception& e) {
      error = e.what();
    }
  });
  tcs_coupler* c = tcs_connect_tcp("127.0.0.1", listener.port(), 5);
  const double masses[2] = {0.5, 0.5}, spheres[8] = {0, 0, -0.01, 0.005, 0, 0, -0.01, 0.005};
  const int counts[2] = {1, 1};
  double states[26] = {}, forces[12] = {};
  states[3] = states[16] = 1;
  ASSERT_EQ(tcs_offer_checkpoint(c, 7, 0.007), 0) << tcs_last_error(c);
  ASSERT_EQ(tcs_handshake(c, 1e-3, 0.01, 2, masses, counts, spheres, states, nullptr), 0) << tcs_last_error(c);
  EXPECT_EQ(tcs_terrain_asks_to_stop(c), 0);
  ASSERT_EQ(tcs_checkpoint_continue(c, 0.007, "every 0.007 s"), 0) << tcs_last_error(c);
  ASSERT_EQ(tcs_send_states(c, 0.007, states), 0) << tcs_last_error(c);
  ASSERT_EQ(tcs_receive_forces(c, forces), 0) << tcs_last_error(c);
  EXPECT_EQ(forces[8], 200.0);
  EXPECT_EQ(tcs_terrain_asks_to_stop(c), 1);
  ASSERT_EQ(tcs_checkpoint(c, 0.008, "SIGUSR1 on the terrain"), 0) << tcs_last_error(c);
  terrain.join();
  tcs_free(c);
  EXPECT_EQ(error, "");
  EXPECT_TRUE(received.checkpoint);
  EXPECT_EQ(received.start_step, 7u);
  EXPECT_EQ(periodic, std::optional<std::uint64_t>(7)) << "tcs_checkpoint_continue, then the states of step 7";
  ASSERT_TRUE(request);
  EXPECT_FALSE(request->keep_going);
  EXPECT_EQ(request->step, 8u);
  EXPECT_EQ(request->time, 0.008);
}

}  // namespace
}  // namespace trackcosim::cosim
