#include "vehicle_node/standalone/vehicle_recorder.h"

#include <charconv>
#include <stdexcept>
#include <utility>

#include "io/number_text.h"

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
const std::string kShoesHeader = std::string("t,shoe,side,") + kStateColumns + ",fx,fy,fz";

std::string vehicle_header(const TrackedVehicle& vehicle) {
  std::string header = std::string("t,") + kStateColumns +
                       ",sprocket_torque_left,sprocket_torque_right,sprocket_speed_left,sprocket_speed_right"
                       ",idler_travel_left,idler_travel_right";
  for (const Side s : kSides)
    for (std::size_t i = 0; i < vehicle.track(s).road_wheels.size(); ++i)
      header += ",road_wheel_fz_" + std::string(side_name(s)) + "_" + std::to_string(i);
  return header;
}

}  // namespace

VehicleRecorder::Opening VehicleRecorder::opening(const TrackedVehicle& vehicle, const RecordedRows& before) {
  Opening o;
  o.vehicle_header = vehicle_header(vehicle);
  o.vehicle_rows = io::rows_after_header(before.vehicle_csv, o.vehicle_header, "vehicle.csv");
  o.shoes_rows = io::rows_after_header(before.shoes_csv, kShoesHeader, "shoes.csv");
  return o;
}

// The headers are checked (opening) while the argument of the delegated constructor is
// evaluated, before the streams truncate the files.
VehicleRecorder::VehicleRecorder(const TrackedVehicle& vehicle, const std::filesystem::path& folder,
                                 const RecordedRows& before)
    : VehicleRecorder(vehicle, folder, before.frames, opening(vehicle, before)) {}

VehicleRecorder::VehicleRecorder(const TrackedVehicle& vehicle, const std::filesystem::path& folder,
                                 std::size_t frames, const Opening& o)
    : vehicle_(vehicle),
      frames_(frames),
      vehicle_csv_(folder / "vehicle.csv", o.vehicle_header),
      shoes_csv_(folder / "shoes.csv", kShoesHeader) {
  vehicle_csv_.write_lines(o.vehicle_rows);
  shoes_csv_.write_lines(o.shoes_rows);
}

std::vector<Vec3> ground_forces(const MultibodySystem& system, const TrackedVehicle& vehicle) {
  std::vector<Vec3> ground;
  for (const Side s : kSides)
    for (const BodyId shoe : vehicle.track(s).shoes) ground.push_back(system.ground_contact_force(shoe));
  return ground;
}

void VehicleRecorder::record(const MultibodySystem& system) { record(system, ground_forces(system, vehicle_)); }

void VehicleRecorder::record(const MultibodySystem& system, const std::vector<Vec3>& shoe_forces) {
  if (shoe_forces.size() != vehicle_.shoe_count())
    throw std::logic_error("VehicleRecorder::record: " + std::to_string(shoe_forces.size()) + " shoe forces for " +
                           std::to_string(vehicle_.shoe_count()) + " shoes");
  const double t = system.time();
  row_.clear();
  io::append_number(row_, t);
  put_state(row_, system.state(vehicle_.chassis()));
  for (const Side s : kSides) put(row_, system.motor_torque(vehicle_.track(s).motor));
  for (const Side s : kSides) put(row_, system.revolute_speed(vehicle_.track(s).sprocket_axle));
  for (const Side s : kSides) put(row_, vehicle_.idler_travel(system, s));
  for (const Side s : kSides)
    for (const BodyId wheel : vehicle_.track(s).road_wheels) put(row_, system.body_contact_force(wheel).z);
  vehicle_csv_.write_row(row_);

  std::size_t next = 0;  // index into shoe_forces: left track, then right
  for (const Side s : kSides) {
    const std::vector<BodyId>& shoes = vehicle_.track(s).shoes;
    for (std::size_t i = 0; i < shoes.size(); ++i, ++next) {
      row_.clear();
      io::append_number(row_, t);
      row_ += ',';
      io::append_number(row_, i);
      row_ += ',';
      row_ += side_name(s);
      put_state(row_, system.state(shoes[i]));
      const Vec3 f = shoe_forces[next];
      put(row_, f.x);
      put(row_, f.y);
      put(row_, f.z);
      shoes_csv_.write_row(row_);
    }
  }
  ++frames_;
  vehicle_csv_.flush();
  shoes_csv_.flush();
}

std::vector<double> row_times(const RecordedRows& rows) {
  std::vector<double> times;
  const std::string_view text = rows.vehicle_csv;
  // Line by line after the header; every row the recorder keeps ends in '\n'.
  for (std::size_t line = text.find('\n'); line != std::string_view::npos && line + 1 < text.size();
       line = text.find('\n', line + 1)) {
    double t = 0;
    const char* first = text.data() + line + 1;
    const auto [end, error] = std::from_chars(first, text.data() + text.size(), t);
    if (error != std::errc() || (end != text.data() + text.size() && *end != ','))
      throw std::invalid_argument("vehicle.csv: a row that does not start with its time t: " +
                                  std::string(text.substr(line + 1, text.find('\n', line + 1) - line - 1)));
    times.push_back(t);
  }
  return times;
}

RecordedRows VehicleRecorder::rows() { return {frames_, vehicle_csv_.text(), shoes_csv_.text()}; }

}  // namespace trackcosim::vehicle
