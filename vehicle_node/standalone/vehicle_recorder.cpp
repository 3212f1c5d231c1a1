#include "vehicle_node/standalone/vehicle_recorder.h"

#include <stdexcept>
#include <utility>

#include "io/number_text.h"
#include "io/output_file.h"

namespace trackcosim::vehicle {
namespace {

void put(std::string& out, double v) {
  out += ',';
  io::append_number(out, v);
}

void put_state(std::string& out, const BodyState& s) {
  for (const double v : {s.position.x, s.position.y, s.position.z, s.orientation.w, s.orientation.x, s.orientation.y,
                         s.orientation.z, s.velocity.x, s.velocity.y, s.velocity.z, s.angular_velocity.x,
                         s.angular_velocity.y, s.angular_velocity.z})
    put(out, v);
}

constexpr const char* kStateColumns = "x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz";

}  // namespace

VehicleRecorder::VehicleRecorder(const TrackedVehicle& vehicle) : vehicle_(vehicle) {
  vehicle_csv_ = std::string("t,") + kStateColumns +
                 ",sprocket_torque_left,sprocket_torque_right,sprocket_speed_left,sprocket_speed_right"
                 ",idler_travel_left,idler_travel_right";
  for (const Side s : kSides)
    for (std::size_t i = 0; i < vehicle.track(s).road_wheels.size(); ++i)
      vehicle_csv_ += ",road_wheel_fz_" + std::string(side_name(s)) + "_" + std::to_string(i);
  vehicle_csv_ += '\n';
  shoes_csv_ = std::string("t,shoe,side,") + kStateColumns + ",fx,fy,fz\n";
}

void VehicleRecorder::record(const MultibodySystem& system) {
  std::vector<Vec3> ground;
  for (const Side s : kSides)
    for (const BodyId shoe : vehicle_.track(s).shoes) ground.push_back(system.ground_contact_force(shoe));
  record(system, ground);
}

void VehicleRecorder::record(const MultibodySystem& system, const std::vector<Vec3>& shoe_forces) {
  if (shoe_forces.size() != vehicle_.shoe_count())
    throw std::logic_error("VehicleRecorder::record: " + std::to_string(shoe_forces.size()) + " shoe forces for " +
                           std::to_string(vehicle_.shoe_count()) + " shoes");
  const double t = system.time();
  io::append_number(vehicle_csv_, t);
  put_state(vehicle_csv_, system.state(vehicle_.chassis()));
  for (const Side s : kSides) put(vehicle_csv_, system.motor_torque(vehicle_.track(s).motor));
  for (const Side s : kSides) put(vehicle_csv_, system.revolute_speed(vehicle_.track(s).sprocket_axle));
  for (const Side s : kSides) put(vehicle_csv_, vehicle_.idler_travel(system, s));
  for (const Side s : kSides)
    for (const BodyId wheel : vehicle_.track(s).road_wheels) put(vehicle_csv_, system.body_contact_force(wheel).z);
  vehicle_csv_ += '\n';

  std::size_t next = 0;  // index into shoe_forces: left track, then right
  for (const Side s : kSides) {
    const std::vector<BodyId>& shoes = vehicle_.track(s).shoes;
    for (std::size_t i = 0; i < shoes.size(); ++i, ++next) {
      io::append_number(shoes_csv_, t);
      shoes_csv_ += ',';
      io::append_number(shoes_csv_, i);
      shoes_csv_ += ',';
      shoes_csv_ += side_name(s);
      put_state(shoes_csv_, system.state(shoes[i]));
      const Vec3 f = shoe_forces[next];
      put(shoes_csv_, f.x);
      put(shoes_csv_, f.y);
      put(shoes_csv_, f.z);
      shoes_csv_ += '\n';
    }
  }
  ++frames_;
}

void VehicleRecorder::restore(std::size_t frames, std::string vehicle_text, std::string shoes_text) {
  // A checkpoint of another vehicle would have other columns: refuse it rather than mix them.
  const std::string vehicle_header = vehicle_csv_.substr(0, vehicle_csv_.find('\n') + 1);
  const std::string shoes_header = shoes_csv_.substr(0, shoes_csv_.find('\n') + 1);
  if (vehicle_text.compare(0, vehicle_header.size(), vehicle_header) != 0 ||
      shoes_text.compare(0, shoes_header.size(), shoes_header) != 0)
    throw std::invalid_argument("the checkpoint's vehicle.csv/shoes.csv columns are not this vehicle's");
  frames_ = frames;
  vehicle_csv_ = std::move(vehicle_text);
  shoes_csv_ = std::move(shoes_text);
}

void VehicleRecorder::write(const std::filesystem::path& folder) const {
  io::write_output_file(folder / "vehicle.csv", [this](std::ostream& out) { out << vehicle_csv_; });
  io::write_output_file(folder / "shoes.csv", [this](std::ostream& out) { out << shoes_csv_; });
}

}  // namespace trackcosim::vehicle
