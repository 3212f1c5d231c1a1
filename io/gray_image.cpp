#include "io/gray_image.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <system_error>

#include "io/config_error.h"
#include "io/gray_image_codecs.h"
#include "io/output_file.h"

namespace trackcosim::io {
namespace {

std::vector<std::uint8_t> read_bytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw ConfigError(file.string() + ": cannot open the image file");
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
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
