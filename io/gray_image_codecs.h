#pragma once
// Internal to gray_image.cpp: one reader and one encoder per file format. Readers get the
// whole file's bytes and the path (for messages); encoders write 16-bit samples to a stream.

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "io/gray_image.h"

namespace trackcosim::io::detail {

bool is_png(const std::vector<std::uint8_t>& bytes);
bool is_pgm(const std::vector<std::uint8_t>& bytes);

GrayImage decode_png(const std::vector<std::uint8_t>& bytes, const std::filesystem::path& file);
GrayImage decode_pgm(const std::vector<std::uint8_t>& bytes, const std::filesystem::path& file);

/// The most pixels an image may have: 16384 x 16384, 2 GiB as doubles. A heightmap finer than
/// the grains it shapes gains nothing.
inline constexpr std::uint64_t kMaxPixels = std::uint64_t(1) << 28;

/// Checked before anything is allocated for the pixels, so that a header claiming 10^12 pixels
/// is refused with its numbers instead of ending in std::bad_alloc: empty when width x height is
/// at most kMaxPixels and the file has at least `least_bytes` of `need_what` left for them
/// (`available` bytes, `available_where`: "follow the header"); otherwise why not ("the header
/// claims 1000000 x 1000000 pixels, ...").
std::string pixel_claim_problem(std::uint64_t width, std::uint64_t height, double least_bytes, std::uint64_t available,
                                const char* need_what, const char* available_where);

/// Samples as 16-bit integers, 0 .. 65535 for 0 .. 1 (clamped), row-major.
std::vector<std::uint16_t> quantise16(const GrayImage& image);

void encode_png(std::ostream& out, const GrayImage& image);
void encode_pgm(std::ostream& out, const GrayImage& image);

}  // namespace trackcosim::io::detail
