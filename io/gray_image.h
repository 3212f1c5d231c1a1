#pragma once
// Grayscale images as elevation data: heightmaps read as terrain inputs (PGM or PNG) and the
// settled surface written as a picture. Values are normalised to [0, 1] whatever the file's bit
// depth, so a caller maps them to a physical range without knowing the encoding. Pixels are
// raw sample values: no gamma or colour-space conversion is applied, because a heightmap's
// grey levels are numbers, not light.

#include <cstddef>
#include <filesystem>
#include <vector>

namespace trackcosim::io {

struct GrayImage {
  std::size_t width = 0, height = 0;
  std::vector<double> value;  ///< row-major, row 0 = top of the picture, each in [0, 1]

  double at(std::size_t column, std::size_t row) const { return value[row * width + column]; }
};

/// Reads a .pgm (P2 or P5, maxval up to 65535) or a .png (grey, grey + alpha, palette, RGB or
/// RGBA, 1 to 16 bits; colour becomes luminance 0.2126 R + 0.7152 G + 0.0722 B, alpha is
/// ignored). The format follows the file's signature, not its extension. Throws ConfigError
/// naming the file and what is wrong with it.
GrayImage read_gray_image(const std::filesystem::path& file);

/// Writes 16-bit grey (values clamped to [0, 1]); throws OutputError when the file cannot be
/// written. Both go through a temporary name, so a reader never sees half a picture.
void write_gray_png(const std::filesystem::path& file, const GrayImage& image);
void write_gray_pgm(const std::filesystem::path& file, const GrayImage& image);

}  // namespace trackcosim::io
