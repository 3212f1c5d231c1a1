// Grayscale images as elevation data (io/gray_image.h): 16-bit PNG and PGM round trips
// within one quantisation step, row 0 at the top, the PNG colour and bit-depth variants read
// as raw values (fixtures in tests/io/data, written by hand with zlib), ASCII PGM with
// comments, and bad files refused with the file named.

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "io/config_error.h"
#include "io/gray_image.h"

namespace trackcosim::io {
namespace {

const std::filesystem::path kData = std::filesystem::path(TRACKCOSIM_SOURCE_DIR) / "tests/io/data";

std::filesystem::path scratch(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / "trackcosim_gray_image_test";
  std::filesystem::create_directories(dir);
  return dir / name;
}

io::GrayImage ramp(std::size_t width, std::size_t height) {
  io::GrayImage image{width, height, {}};
  for (std::size_t r = 0; r < height; ++r)
    for (std::size_t c = 0; c < width; ++c) image.value.push_back(double(c + 3 * r) / double(width + 3 * height));
  return image;
}

void write_text(const std::filesystem::path& file, const std::string& text) { std::ofstream(file, std::ios::binary) << text; }

void expect_round_trip(const std::filesystem::path& file, void (*write)(const std::filesystem::path&, const io::GrayImage&)) {
  const io::GrayImage original = ramp(7, 5);
  write(file, original);
  const io::GrayImage back = io::read_gray_image(file);
  ASSERT_EQ(back.width, 7u);
  ASSERT_EQ(back.height, 5u);
  for (std::size_t i = 0; i < original.value.size(); ++i)
    EXPECT_NEAR(back.value[i], original.value[i], 0.5 / 65535.0 + 1e-12) << "pixel " << i;
}

TEST(GrayImage, PngRoundTripWithinHalfAStepOf16Bits) { expect_round_trip(scratch("ramp.png"), io::write_gray_png); }

TEST(GrayImage, PgmRoundTripWithinHalfAStepOf16Bits) { expect_round_trip(scratch("ramp.pgm"), io::write_gray_pgm); }

TEST(GrayImage, WrittenValuesAreClampedToTheUnitRange) {
  const auto file = scratch("clamped.png");
  io::write_gray_png(file, io::GrayImage{3, 1, {-0.5, 0.25, 2.0}});
  const io::GrayImage back = io::read_gray_image(file);
  EXPECT_EQ(back.value[0], 0.0);
  EXPECT_NEAR(back.value[1], 0.25, 0.5 / 65535.0);
  EXPECT_EQ(back.value[2], 1.0);
}

TEST(GrayImage, RgbPngBecomesLuminanceOfRawSamples) {
  const io::GrayImage image = io::read_gray_image(kData / "rgb8_2x2.png");
  ASSERT_EQ(image.width, 2u);
  ASSERT_EQ(image.height, 2u);
  EXPECT_NEAR(image.at(0, 0), 0.2126, 1e-12);  // red, top left: row 0 is the top of the picture
  EXPECT_NEAR(image.at(1, 0), 0.7152, 1e-12);  // green
  EXPECT_NEAR(image.at(0, 1), 0.0722, 1e-12);  // blue
  EXPECT_NEAR(image.at(1, 1), 1.0, 1e-12);     // white
}

TEST(GrayImage, LowBitDepthGreyIsScaledToTheUnitRange) {
  const io::GrayImage image = io::read_gray_image(kData / "gray2_4x1.png");
  ASSERT_EQ(image.width, 4u);
  for (std::size_t c = 0; c < 4; ++c) EXPECT_NEAR(image.at(c, 0), double(c) / 3.0, 1e-12);
}

TEST(GrayImage, AlphaIsIgnored) {
  const io::GrayImage image = io::read_gray_image(kData / "grayalpha8_2x1.png");
  EXPECT_NEAR(image.at(0, 0), 51.0 / 255.0, 1e-12);
  EXPECT_NEAR(image.at(1, 0), 204.0 / 255.0, 1e-12);
}

TEST(GrayImage, AsciiPgmWithCommentsAndAnyMaxval) {
  const auto file = scratch("ascii.pgm");
  write_text(file, "P2\n# made by hand\n3 2 # width height\n10\n0 5 10\n# between rows\n2 4 6\n");
  const io::GrayImage image = io::read_gray_image(file);
  ASSERT_EQ(image.width, 3u);
  ASSERT_EQ(image.height, 2u);
  EXPECT_DOUBLE_EQ(image.at(1, 0), 0.5);
  EXPECT_DOUBLE_EQ(image.at(2, 0), 1.0);
  EXPECT_DOUBLE_EQ(image.at(0, 1), 0.2);
}

TEST(GrayImage, EightBitBinaryPgm) {
  const auto file = scratch("binary8.pgm");
  write_text(file, std::string("P5 2 1 200\n") + char(50) + char(200));
  const io::GrayImage image = io::read_gray_image(file);
  EXPECT_DOUBLE_EQ(image.at(0, 0), 0.25);
  EXPECT_DOUBLE_EQ(image.at(1, 0), 1.0);
}

void expect_refused(const std::filesystem::path& file, const std::string& reason) {
  try {
    io::read_gray_image(file);
    FAIL() << "accepted " << file;
  } catch (const io::ConfigError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(file.string()), std::string::npos) << message;
    EXPECT_NE(message.find(reason), std::string::npos) << message;
  }
}

/// A PNG chunk: length, type, data, CRC-32 of type and data (bitwise, as the PNG spec gives it).
std::string png_chunk(const std::string& type, const std::string& data) {
  auto be32 = [](std::uint32_t v) {
    return std::string{char(v >> 24), char((v >> 16) & 0xff), char((v >> 8) & 0xff), char(v & 0xff)};
  };
  std::uint32_t crc = 0xffffffffu;
  for (const char ch : type + data) {
    crc ^= static_cast<unsigned char>(ch);
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
  }
  return be32(std::uint32_t(data.size())) + type + data + be32(crc ^ 0xffffffffu);
}

/// Issue 17 item 7b: a header claiming 10^12 pixels ended in std::bad_alloc; it is refused
/// before anything is allocated, naming the file and the claimed size.
TEST(GrayImage, HeaderClaimingMorePixelsThanTheFileCanHoldIsRefusedBeforeAllocating) {
  write_text(scratch("huge.pgm"), std::string("P5\n1000000 1000000\n255\n") + "abcd");
  expect_refused(scratch("huge.pgm"), "the header claims 1000000 x 1000000 pixels, more than the 268435456");
  // Within the cap but far more than the bytes that follow (P2 needs 2 bytes a sample).
  write_text(scratch("short_ascii.pgm"), "P2 10000 10000 255\n1 2 3");
  expect_refused(scratch("short_ascii.pgm"), "the header claims 10000 x 10000 pixels, which need at least 199999999 bytes");

  const std::string ihdr = std::string("\x00\x0f\x42\x40\x00\x0f\x42\x40", 8) + std::string("\x08\x00\x00\x00\x00", 5);
  write_text(scratch("huge.png"), std::string("\x89PNG\r\n\x1a\n", 8) + png_chunk("IHDR", ihdr) +
                                      png_chunk("IDAT", std::string("\x78\x9c\x03\x00\x00\x00\x00\x01", 8)) +
                                      png_chunk("IEND", ""));
  expect_refused(scratch("huge.png"), "bad PNG image: the header claims 1000000 x 1000000 pixels");
  // 4000 x 4000 is within the cap, but no 100-byte file inflates to 16 MB of rows.
  const std::string ihdr_4k = std::string("\x00\x00\x0f\xa0\x00\x00\x0f\xa0", 8) + std::string("\x08\x00\x00\x00\x00", 5);
  write_text(scratch("thin.png"), std::string("\x89PNG\r\n\x1a\n", 8) + png_chunk("IHDR", ihdr_4k) +
                                      png_chunk("IDAT", std::string("\x78\x9c\x03\x00\x00\x00\x00\x01", 8)) +
                                      png_chunk("IEND", ""));
  expect_refused(scratch("thin.png"), "the header claims 4000 x 4000 pixels, which need at least");
}

TEST(GrayImage, BadFilesAreRefusedNamingTheFile) {
  expect_refused(scratch("missing.png"), "cannot open");
  write_text(scratch("text.png"), "hello");
  expect_refused(scratch("text.png"), "not a PNG or PGM");
  write_text(scratch("short.pgm"), std::string("P5 4 4 255\n") + "abc");
  expect_refused(scratch("short.pgm"), "ends inside the pixel data");
  write_text(scratch("above.pgm"), "P2 2 1 10 3 11");
  expect_refused(scratch("above.pgm"), "above maxval");
  io::write_gray_png(scratch("cut.png"), ramp(40, 40));
  std::filesystem::resize_file(scratch("cut.png"), 60);
  expect_refused(scratch("cut.png"), "bad PNG image");
}

}  // namespace
}  // namespace trackcosim::io
