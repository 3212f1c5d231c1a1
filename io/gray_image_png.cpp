// PNG through libpng's classic interface. Sample values are taken as stored (no gamma or sRGB
// conversion, which libpng's simplified API would apply): a heightmap's grey levels are
// elevations. libpng reports errors through a callback; ours throws, and a guard frees
// libpng's structures on every path (x86-64 C code carries unwind tables).
#include <png.h>

#include <cstring>
#include <stdexcept>
#include <string>

#include "io/config_error.h"
#include "io/gray_image_codecs.h"
#include "io/output_file.h"

namespace trackcosim::io::detail {
namespace {

struct PngFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void on_error(png_structp, png_const_charp message) { throw PngFailure(message); }
void on_warning(png_structp, png_const_charp) {}

struct MemorySource {
  const std::vector<std::uint8_t>& bytes;
  std::size_t pos = 0;
};

void read_from_memory(png_structp png, png_bytep out, png_size_t size) {
  auto* source = static_cast<MemorySource*>(png_get_io_ptr(png));
  if (source->pos + size > source->bytes.size()) png_error(png, "the file ends inside the image data");
  std::memcpy(out, source->bytes.data() + source->pos, size);
  source->pos += size;
}

void write_to_stream(png_structp png, png_bytep data, png_size_t size) {
  static_cast<std::ostream*>(png_get_io_ptr(png))->write(reinterpret_cast<const char*>(data), std::streamsize(size));
}
void flush_stream(png_structp png) { static_cast<std::ostream*>(png_get_io_ptr(png))->flush(); }

/// libpng's read or write structures, freed on every path. One template: the two differ only
/// in the functions that make and free them.
template <png_structp (*Create)(png_const_charp, png_voidp, png_error_ptr, png_error_ptr),
          void (*Destroy)(png_structpp, png_infopp)>
class PngGuard {
 public:
  PngGuard() {
    png_ = Create(PNG_LIBPNG_VER_STRING, nullptr, on_error, on_warning);
    if (png_ != nullptr) info_ = png_create_info_struct(png_);
    if (png_ == nullptr || info_ == nullptr) {
      Destroy(&png_, &info_);
      throw std::bad_alloc();
    }
  }
  ~PngGuard() { Destroy(&png_, &info_); }
  PngGuard(const PngGuard&) = delete;
  PngGuard& operator=(const PngGuard&) = delete;
  png_structp png() const { return png_; }
  png_infop info() const { return info_; }

 private:
  png_structp png_ = nullptr;
  png_infop info_ = nullptr;
};

void destroy_read(png_structpp png, png_infopp info) { png_destroy_read_struct(png, info, nullptr); }
using ReadGuard = PngGuard<png_create_read_struct, destroy_read>;
using WriteGuard = PngGuard<png_create_write_struct, png_destroy_write_struct>;

/// One sample of a decoded row: 8-bit, or 16-bit big-endian as PNG stores it.
double sample(const std::uint8_t* row, std::size_t index, bool wide) {
  return wide ? double((unsigned(row[2 * index]) << 8) | row[2 * index + 1]) / 65535.0 : double(row[index]) / 255.0;
}

GrayImage decode(const std::vector<std::uint8_t>& bytes) {
  ReadGuard guard;
  png_structp png = guard.png();
  png_infop info = guard.info();
  MemorySource source{bytes};
  png_set_read_fn(png, &source, read_from_memory);
  png_read_info(png, info);
  // Deflate packs at most 1032 bytes into 1 (zlib's limit), so a file of n bytes holds at most
  // 1032 n bytes of rows (each with its filter byte): a larger claim is a broken or hostile header.
  const double raw_bytes = double(png_get_rowbytes(png, info) + 1) * double(png_get_image_height(png, info));
  const std::string problem = pixel_claim_problem(png_get_image_width(png, info), png_get_image_height(png, info),
                                                  raw_bytes / 1032, bytes.size(),
                                                  "compressed image data (deflate packs at most 1032 bytes into 1)",
                                                  "are in the file");
  if (!problem.empty()) png_error(png, problem.c_str());
  const int colour = png_get_color_type(png, info);
  if (colour == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (colour == PNG_COLOR_TYPE_GRAY && png_get_bit_depth(png, info) < 8) png_set_expand_gray_1_2_4_to_8(png);
  png_set_strip_alpha(png);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);

  GrayImage image;
  image.width = png_get_image_width(png, info);
  image.height = png_get_image_height(png, info);
  const unsigned channels = png_get_channels(png, info);
  const bool wide = png_get_bit_depth(png, info) == 16;
  if (channels != 1 && channels != 3) png_error(png, "unsupported channel layout");
  std::vector<std::uint8_t> pixels(png_get_rowbytes(png, info) * image.height);
  std::vector<png_bytep> rows(image.height);
  for (std::size_t r = 0; r < image.height; ++r) rows[r] = pixels.data() + r * png_get_rowbytes(png, info);
  png_read_image(png, rows.data());

  image.value.resize(image.width * image.height);
  for (std::size_t r = 0; r < image.height; ++r)
    for (std::size_t c = 0; c < image.width; ++c) {
      const std::uint8_t* row = rows[r];
      image.value[r * image.width + c] =
          channels == 1 ? sample(row, c, wide)
                        : 0.2126 * sample(row, 3 * c, wide) + 0.7152 * sample(row, 3 * c + 1, wide) +
                              0.0722 * sample(row, 3 * c + 2, wide);
    }
  return image;
}

}  // namespace

bool is_png(const std::vector<std::uint8_t>& bytes) {
  return bytes.size() >= 8 && png_sig_cmp(bytes.data(), 0, 8) == 0;
}

GrayImage decode_png(const std::vector<std::uint8_t>& bytes, const std::filesystem::path& file) {
  try {
    return decode(bytes);
  } catch (const PngFailure& e) {
    throw ConfigError(file.string() + ": bad PNG image: " + e.what());
  }
}

void encode_png(std::ostream& out, const GrayImage& image) {
  const std::vector<std::uint16_t> samples = quantise16(image);
  std::vector<std::uint8_t> row(2 * image.width);
  try {
    WriteGuard guard;
    png_structp png = guard.png();
    png_infop info = guard.info();
    png_set_write_fn(png, &out, write_to_stream, flush_stream);
    png_set_IHDR(png, info, png_uint_32(image.width), png_uint_32(image.height), 16, PNG_COLOR_TYPE_GRAY,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (std::size_t r = 0; r < image.height; ++r) {
      for (std::size_t c = 0; c < image.width; ++c) {
        const std::uint16_t s = samples[r * image.width + c];
        row[2 * c] = static_cast<std::uint8_t>(s >> 8);
        row[2 * c + 1] = static_cast<std::uint8_t>(s & 0xff);
      }
      png_write_row(png, row.data());
    }
    png_write_end(png, nullptr);
  } catch (const PngFailure& e) {
    throw OutputError(std::string("cannot encode PNG: ") + e.what());
  }
}

}  // namespace trackcosim::io::detail
