// The vehicle checkpoint (vehicle_node/coupled/vehicle_checkpoint.h, mbd/multibody_state.h): the
// light robot driving on rigid ground (contacts, motors, joint limits, warm starts all in play)
// saved after 150 steps and written to a file; a second, freshly built robot restored from the
// file must then continue bit for bit like the first (every body state equal as bits after 150
// more steps). A damaged, truncated or foreign file is refused with a message that says which.

#include "vehicle_node/coupled/vehicle_checkpoint.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "io/checkpoint_file.h"
#include "track_test_util.h"

namespace trackcosim::vehicle {
namespace {

namespace fs = std::filesystem;

constexpr double kStep = 1e-3;

RunConfig robot_config() {
  RunConfig config = load_run_config(test::shipped_config("ndia_light_robot"));
  config.driver.mode = DriveMode::kSpeed;  // the shipped profile starts at 0 rad/s until 0.5 s
  return config;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// Every body's position, orientation and velocities, bit for bit.
void expect_same_states(const MultibodySystem& a, const MultibodySystem& b) {
  ASSERT_EQ(a.body_count(), b.body_count());
  EXPECT_TRUE(same_bits(a.time(), b.time()));
  for (std::uint32_t i = 0; i < a.body_count(); ++i) {
    const BodyState x = a.state(BodyId{i}), y = b.state(BodyId{i});
    const double u[13] = {x.position.x, x.position.y, x.position.z, x.orientation.w, x.orientation.x,
                          x.orientation.y, x.orientation.z, x.velocity.x, x.velocity.y, x.velocity.z,
                          x.angular_velocity.x, x.angular_velocity.y, x.angular_velocity.z};
    const double v[13] = {y.position.x, y.position.y, y.position.z, y.orientation.w, y.orientation.x,
                          y.orientation.y, y.orientation.z, y.velocity.x, y.velocity.y, y.velocity.z,
                          y.angular_velocity.x, y.angular_velocity.y, y.angular_velocity.z};
    for (int k = 0; k < 13; ++k) ASSERT_TRUE(same_bits(u[k], v[k])) << "body " << i << " component " << k;
  }
}

VehicleCheckpoint sample_checkpoint(const MultibodySystem& system) {
  VehicleCheckpoint c;
  c.coupling_step_index = 150;
  c.coupling_step = kStep;
  c.scheme = "sequential";
  c.config_file = "configs/vehicles/ndia_light_robot.json";
  c.surface_height = 0.2;
  c.start_x = -0.125;
  c.particles = 3100;
  c.wall_seconds = 12.5;
  c.wait_seconds = 3.25;
  c.system = system.save_state();
  c.forces.assign(122, cosim::ShoeForce{{1, 2, 3}, {4, 5, 6}});
  c.forces[7].force[2] = 38.125;
  c.recorder_frames = 15;
  c.vehicle_csv = "t,x\n0.01,1\n";
  c.shoes_csv = "t,shoe\n0.01,0\n";
  c.timing_csv = "step,t,vehicle,wait,terrain_fz\n0,0.001,1e-05,2e-05,4625.5\n";
  c.rig_csv = "t,phase\n0.01,rest\n";
  c.rig_steps = 3;
  for (std::size_t k = 0; k < c.rig_sums.size(); ++k) c.rig_sums[k] = 0.5 + 1.25 * double(k);
  return c;
}

class VehicleCheckpointTest : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() / ("trackcosim_vehicle_checkpoint_" + std::to_string(::getpid()));
    fs::create_directories(folder_);
    file_ = folder_ / "checkpoint.bin";
  }
  void TearDown() override { fs::remove_all(folder_); }
  std::string bytes() const {
    std::ifstream in(file_, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }
  void put(const std::string& b) const { std::ofstream(file_, std::ios::binary | std::ios::trunc) << b; }
  std::string refusal() const {
    try {
      read_vehicle_checkpoint(file_);
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "(accepted)";
  }
  fs::path folder_, file_;
};

TEST_F(VehicleCheckpointTest, RestoredRobotContinuesBitForBit) {
  test::VehicleSim first(robot_config());
  for (int i = 0; i < 150; ++i) first.step(kStep);
  ASSERT_GT(first.system.last_report().contacts, 0) << "the robot must stand on the ground";
  write_vehicle_checkpoint(file_, sample_checkpoint(first.system));
  EXPECT_FALSE(fs::exists(file_.string() + ".tmp"));

  const VehicleCheckpoint back = read_vehicle_checkpoint(file_);
  const VehicleCheckpoint want = sample_checkpoint(first.system);
  EXPECT_EQ(back.coupling_step_index, 150u);
  EXPECT_EQ(back.scheme, want.scheme);
  EXPECT_EQ(back.config_file, want.config_file);
  EXPECT_TRUE(same_bits(back.surface_height, want.surface_height) && same_bits(back.start_x, want.start_x));
  EXPECT_EQ(back.particles, want.particles);
  EXPECT_TRUE(same_bits(back.wall_seconds, want.wall_seconds) && same_bits(back.wait_seconds, want.wait_seconds));
  ASSERT_EQ(back.forces.size(), want.forces.size());
  EXPECT_EQ(std::memcmp(back.forces.data(), want.forces.data(), want.forces.size() * sizeof(cosim::ShoeForce)), 0);
  EXPECT_EQ(back.recorder_frames, 15u);
  EXPECT_EQ(back.vehicle_csv, want.vehicle_csv);
  EXPECT_EQ(back.shoes_csv, want.shoes_csv);
  EXPECT_EQ(back.timing_csv, want.timing_csv);
  EXPECT_EQ(back.rig_csv, want.rig_csv);
  EXPECT_EQ(back.rig_steps, 3u);
  EXPECT_EQ(std::memcmp(back.rig_sums.data(), want.rig_sums.data(), sizeof want.rig_sums), 0);
  ASSERT_EQ(back.system.contacts.size(), want.system.contacts.size());
  EXPECT_FALSE(back.system.contacts.empty());
  EXPECT_EQ(back.system.motors.size(), 2u);

  test::VehicleSim second(robot_config());
  second.system.restore_state(back.system);
  expect_same_states(first.system, second.system);
  for (int i = 0; i < 150; ++i) first.step(kStep), second.step(kStep);
  expect_same_states(first.system, second.system);
  // Not trivially equal: the robot moved between the checkpoint and now.
  EXPECT_NE(first.system.state(first.vehicle.chassis()).position.z, back.system.bodies[0].position[2]);
}

TEST_F(VehicleCheckpointTest, RestoreRefusesAnotherModel) {
  test::VehicleSim robot(robot_config());
  MultibodyState state = robot.system.save_state();
  state.bodies.pop_back();
  try {
    robot.system.restore_state(state);
    FAIL() << "accepted a state with one body less";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("bodies"), std::string::npos) << e.what();
  }
}

TEST_F(VehicleCheckpointTest, DamagedFilesAreRefusedWithTheReason) {
  test::VehicleSim robot(robot_config());
  for (int i = 0; i < 20; ++i) robot.step(kStep);
  write_vehicle_checkpoint(file_, sample_checkpoint(robot.system));
  const std::string good = bytes();

  std::string flipped = good;
  flipped[good.size() / 2] ^= 0x10;
  put(flipped);
  EXPECT_NE(refusal().find("checksum mismatch"), std::string::npos) << refusal();

  put(good.substr(0, good.size() - 100));
  EXPECT_NE(refusal().find("truncated checkpoint: expected " + std::to_string(good.size()) + " bytes, found " +
                           std::to_string(good.size() - 100)),
            std::string::npos)
      << refusal();

  std::string version = good;
  version[8] = 9;
  put(version);
  EXPECT_NE(refusal().find("unsupported vehicle checkpoint format version 9 (this build reads versions 1 to 2)"),
            std::string::npos)
      << refusal();

  put("TCSMCKPT" + good.substr(8));
  EXPECT_NE(refusal().find("this is a terrain checkpoint"), std::string::npos) << refusal();
  put("hello world, not a checkpoint");
  EXPECT_NE(refusal().find("not a trackcosim vehicle checkpoint"), std::string::npos) << refusal();
  EXPECT_NE(refusal().find(file_.string()), std::string::npos) << "the message names the file";
  put(good);
  EXPECT_EQ(refusal(), "(accepted)");
}

// A version 1 file (before the drawbar rig's section: the same layout without its text, step
// count and sums) is still read, with no rig; runs checkpointed by an older build resume.
TEST_F(VehicleCheckpointTest, VersionOneFilesAreReadWithoutARig) {
  test::VehicleSim robot(robot_config());
  for (int i = 0; i < 20; ++i) robot.step(kStep);
  VehicleCheckpoint c = sample_checkpoint(robot.system);
  c.rig_csv.clear();
  write_vehicle_checkpoint(file_, c);
  const std::string v2 = bytes();
  const std::size_t rig_section = 8 + 8 + 9 * 8;  // empty text (its length), steps, sums
  std::string v1 = v2.substr(0, v2.size() - 8 - rig_section);
  v1[8] = 1;
  const std::uint64_t size = v1.size() + 8;
  std::memcpy(v1.data() + 16, &size, sizeof size);
  io::Fnv1a sum;
  sum.add(v1.data(), v1.size());
  const std::uint64_t checksum = sum.value();
  v1.append(reinterpret_cast<const char*>(&checksum), sizeof checksum);
  put(v1);
  ASSERT_EQ(refusal(), "(accepted)");
  const VehicleCheckpoint back = read_vehicle_checkpoint(file_);
  EXPECT_EQ(back.timing_csv, c.timing_csv);
  EXPECT_TRUE(back.rig_csv.empty());
  EXPECT_EQ(back.rig_steps, 0u);
  EXPECT_EQ(back.rig_sums[0], 0.0);
}

}  // namespace
}  // namespace trackcosim::vehicle
