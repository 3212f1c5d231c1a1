// Netpbm greymap (PGM): P2 (ASCII samples) and P5 (binary, 1 byte per sample when maxval < 256,
// else 2 bytes big-endian). Header fields are separated by whitespace and may carry '#' comments.
#include <cctype>
#include <string>

#include "io/config_error.h"
#include "io/gray_image_codecs.h"

namespace trackcosim::io::detail {
namespace {

class PgmReader {
 public:
  PgmReader(const std::vector<std::uint8_t>& bytes, const std::filesystem::path& file) : bytes_(bytes), file_(file) {}

  /// The next whitespace-separated number of the header or of a P2 body.
  std::uint64_t number(const char* what) {
    skip_space_and_comments();
    std::uint64_t n = 0;
    std::size_t digits = 0;
    while (pos_ < bytes_.size() && std::isdigit(bytes_[pos_]) && digits < 12) {
      n = n * 10 + (bytes_[pos_++] - '0');
      ++digits;
    }
    if (digits == 0) fail(std::string("expected the ") + what);
    return n;
  }
  /// P5: exactly one whitespace byte separates maxval from the samples.
  void single_space() {
    if (pos_ >= bytes_.size() || !std::isspace(bytes_[pos_])) fail("expected one whitespace byte after maxval");
    ++pos_;
  }
  std::uint32_t binary_sample(bool wide) {
    const std::size_t size = wide ? 2 : 1;
    if (pos_ + size > bytes_.size()) fail("the file ends inside the pixel data");
    const std::uint32_t v = wide ? (std::uint32_t(bytes_[pos_]) << 8) | bytes_[pos_ + 1] : bytes_[pos_];
    pos_ += size;
    return v;
  }
  std::size_t position() const { return pos_; }
  [[noreturn]] void fail(const std::string& why) const {
    throw ConfigError(file_.string() + ": bad PGM image: " + why + " (byte " + std::to_string(pos_) + ")");
  }

 private:
  void skip_space_and_comments() {
    while (pos_ < bytes_.size()) {
      if (bytes_[pos_] == '#')
        while (pos_ < bytes_.size() && bytes_[pos_] != '\n') ++pos_;
      else if (std::isspace(bytes_[pos_]))
        ++pos_;
      else
        break;
    }
  }

  const std::vector<std::uint8_t>& bytes_;
  const std::filesystem::path& file_;
  std::size_t pos_ = 2;  // after the magic
};

}  // namespace

bool is_pgm(const std::vector<std::uint8_t>& bytes) {
  return bytes.size() >= 2 && bytes[0] == 'P' && (bytes[1] == '2' || bytes[1] == '5');
}

GrayImage decode_pgm(const std::vector<std::uint8_t>& bytes, const std::filesystem::path& file) {
  const bool ascii = bytes[1] == '2';
  PgmReader in(bytes, file);
  GrayImage image;
  image.width = in.number("width");
  image.height = in.number("height");
  const std::uint64_t maxval = in.number("maxval");
  if (image.width == 0 || image.height == 0 || image.width > (1u << 20) || image.height > (1u << 20))
    in.fail("width and height must be 1 .. 1048576, got " + std::to_string(image.width) + " x " +
            std::to_string(image.height));
  if (maxval == 0 || maxval > 65535) in.fail("maxval must be 1 .. 65535, got " + std::to_string(maxval));
  if (!ascii) in.single_space();
  // P5: one or two bytes a sample; P2: a digit and a separator each, but for the last one.
  const double pixels = double(image.width) * double(image.height);
  const double least_bytes = ascii ? 2 * pixels - 1 : pixels * (maxval > 255 ? 2 : 1);
  const std::string problem =
      pixel_claim_problem(image.width, image.height, least_bytes, bytes.size() - in.position(), "samples",
                          "follow the header");
  if (!problem.empty()) in.fail(problem);
  image.value.resize(image.width * image.height);
  for (double& v : image.value) {
    const std::uint64_t sample = ascii ? in.number("next sample") : in.binary_sample(maxval > 255);
    if (sample > maxval) in.fail("sample " + std::to_string(sample) + " above maxval " + std::to_string(maxval));
    v = double(sample) / double(maxval);
  }
  return image;
}

void encode_pgm(std::ostream& out, const GrayImage& image) {
  out << "P5\n" << image.width << ' ' << image.height << "\n65535\n";
  for (const std::uint16_t s : quantise16(image)) {
    const char be[2] = {static_cast<char>(s >> 8), static_cast<char>(s & 0xff)};
    out.write(be, 2);
  }
}

}  // namespace trackcosim::io::detail
