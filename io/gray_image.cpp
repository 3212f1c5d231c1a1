#include "io/gray_image.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <system_error>

#include "io/config_error.h"
#include "io/gray_image_codecs.h"
#include "io/input_file.h"
#include "io/output_file.h"

namespace trackcosim::io {
namespace {

std::vector<std::uint8_t> read_bytes(const std::filesystem::path& file) {
  const std::string bytes = read_input_file(file);
  return {bytes.begin(), bytes.end()};
}

void check_shape(const GrayImage& image, const std::filesystem::path& file) {
  if (image.width == 0 || image.height == 0 || image.value.size() != image.width * image.height)
    throw OutputError("cannot write " + file.string() + ": the image has no pixels or a wrong pixel count");
}

/// Writes through a temporary name and renames, so a reader never sees half a picture.
template <class Encode>
void write_atomically(const std::filesystem::path& file, const GrayImage& image, Encode encode) {
  check_shape(image, file);
  std::filesystem::path partial = file;
  partial += ".partial";
  write_output_file(partial, [&](std::ostream& out) { encode(out, image); });
  std::error_code error;
  std::filesystem::rename(partial, file, error);
  if (error) throw OutputError("cannot write " + file.string() + ": " + error.message());
}

}  // namespace

GrayImage read_gray_image(const std::filesystem::path& file) {
  const std::vector<std::uint8_t> bytes = read_bytes(file);
  if (detail::is_png(bytes)) return detail::decode_png(bytes, file);
  if (detail::is_pgm(bytes)) return detail::decode_pgm(bytes, file);
  throw ConfigError(file.string() + ": not a PNG or PGM (P2/P5) image");
}

void write_gray_png(const std::filesystem::path& file, const GrayImage& image) {
  write_atomically(file, image, detail::encode_png);
}

void write_gray_pgm(const std::filesystem::path& file, const GrayImage& image) {
  write_atomically(file, image, detail::encode_pgm);
}

namespace detail {

std::string pixel_claim_problem(std::uint64_t width, std::uint64_t height, double least_bytes, std::uint64_t available,
                                const char* need_what, const char* available_where) {
  const std::string claim =
      "the header claims " + std::to_string(width) + " x " + std::to_string(height) + " pixels";
  const double pixels = double(width) * double(height);
  if (pixels > double(kMaxPixels))
    return claim + ", more than the " + std::to_string(kMaxPixels) + " (16384 x 16384) an image may have";
  if (least_bytes > double(available)) {
    char need[32];
    std::snprintf(need, sizeof need, "%.0f", least_bytes);
    return "the file ends inside the pixel data: " + claim + ", which need at least " + need + " bytes of " + need_what +
           ", and " + std::to_string(available) + " bytes " + available_where;
  }
  return {};
}

std::vector<std::uint16_t> quantise16(const GrayImage& image) {
  std::vector<std::uint16_t> out(image.value.size());
  std::transform(image.value.begin(), image.value.end(), out.begin(), [](double v) {
    const double clamped = std::isnan(v) ? 0.0 : std::clamp(v, 0.0, 1.0);
    return static_cast<std::uint16_t>(std::lround(clamped * 65535.0));
  });
  return out;
}

}  // namespace detail
}  // namespace trackcosim::io
