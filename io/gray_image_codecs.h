#pragma once
// Internal to gray_image.cpp: one reader and one encoder per file format. Readers get the
// whole file's bytes and the path (for messages); encoders write 16-bit samples to a stream.

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <vector>

#include "io/gray_image.h"

namespace trackcosim::io::detail {

bool is_png(const std::vector<std::uint8_t>& bytes);
bool is_pgm(const std::vector<std::uint8_t>& bytes);

GrayImage decode_png(const std::vector<std::uint8_t>& bytes, const std::filesystem::path& file);
GrayImage decode_pgm(const std::vector<std::uint8_t>& bytes, const std::filesystem::path& file);

/// Samples as 16-bit integers, 0 .. 65535 for 0 .. 1 (clamped), row-major.
std::vector<std::uint16_t> quantise16(const GrayImage& image);

void encode_png(std::ostream& out, const GrayImage& image);
void encode_pgm(std::ostream& out, const GrayImage& image);

}  // namespace trackcosim::io::detail
