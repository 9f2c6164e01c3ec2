#include "io/stl_file.h"

#include <cmath>
#include <cstring>
#include <string>

#include "io/marker_csv.h"  // read_text_file
#include "io/token_lines.h"

namespace nudge {

namespace {

constexpr std::size_t kHeaderBytes = 84, kTriangleBytes = 50;

// STL's numbers are little-endian, whatever the machine's order.
std::uint32_t little_endian_u32(const char* p) {
  const auto* b = reinterpret_cast<const unsigned char*>(p);
  return std::uint32_t(b[0]) | std::uint32_t(b[1]) << 8 | std::uint32_t(b[2]) << 16 | std::uint32_t(b[3]) << 24;
}

float little_endian_float(const char* p) {
  const std::uint32_t bits = little_endian_u32(p);
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

std::uint32_t triangle_count(std::string_view bytes) { return little_endian_u32(bytes.data() + 80); }

Result<std::vector<std::array<double, 3>>> parse_binary(std::string_view bytes, std::string_view label) {
  const std::uint32_t n = triangle_count(bytes);
  std::vector<std::array<double, 3>> corners;
  corners.reserve(3 * std::size_t(n));
  for (std::size_t t = 0; t < n; ++t) {
    const char* triangle = bytes.data() + kHeaderBytes + t * kTriangleBytes + 12;  // past its normal
    for (int c = 0; c < 3; ++c) {
      std::array<double, 3> v;
      for (int k = 0; k < 3; ++k) v[size_t(k)] = little_endian_float(triangle + 12 * c + 4 * k);
      if (!(std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2])))
        return Error{std::string(label) + ": triangle " + std::to_string(t + 1) + " has a corner that is not finite"};
      corners.push_back(v);
    }
  }
  if (corners.empty()) return Error{std::string(label) + ": found no triangles; expected a binary STL mesh"};
  return corners;
}

Result<std::vector<std::array<double, 3>>> parse_ascii(std::string_view text, std::string_view label) {
  TokenLines lines(text, std::string(label), '\0');
  std::vector<std::array<double, 3>> corners;
  while (lines.next()) {
    if (lines[0] != "vertex") continue;  // solid, facet, outer loop, endloop, endfacet, endsolid
    std::array<double, 3> v{};
    bool ok = lines.size() == 4;
    for (std::size_t k = 0; ok && k < 3; ++k) {
      const std::optional<double> x = TokenLines::finite(lines[k + 1]);
      ok = x.has_value();
      if (ok) v[k] = *x;
    }
    if (!ok) return lines.expected("'vertex x y z' with three finite numbers");
    corners.push_back(v);
  }
  if (corners.empty())
    return Error{std::string(label) + ": found no 'vertex x y z' lines; expected an ASCII or binary STL mesh"};
  return corners;
}

}  // namespace

Result<std::vector<std::array<double, 3>>> parse_stl_vertices(std::string_view bytes, std::string_view file_label) {
  if (bytes.size() >= kHeaderBytes) {
    const std::uint32_t n = triangle_count(bytes);
    if (bytes.size() == kHeaderBytes + kTriangleBytes * std::size_t(n)) return parse_binary(bytes, file_label);
    // An ASCII file starts with "solid"; anything else was meant to be binary.
    if (!bytes.starts_with("solid"))
      return Error{std::string(file_label) + ": found " + std::to_string(bytes.size()) + " bytes; expected 84 + 50 x " +
                   std::to_string(n) + " = " + std::to_string(kHeaderBytes + kTriangleBytes * std::size_t(n)) +
                   " for the " + std::to_string(n) + " triangles its header counts (a binary STL file)"};
  } else if (!bytes.starts_with("solid")) {
    return Error{std::string(file_label) + ": found " + std::to_string(bytes.size()) +
                 " bytes; expected an STL file (ASCII, starting with 'solid', or binary, at least 84 bytes)"};
  }
  return parse_ascii(bytes, file_label);
}

Result<std::vector<std::array<double, 3>>> read_stl_vertices(const std::filesystem::path& file) {
  Result<std::string> bytes = read_text_file(file, kMaxStlFileBytes, "an STL file");
  if (!bytes) return bytes.error();
  return parse_stl_vertices(*bytes, file.string());
}

}  // namespace nudge
