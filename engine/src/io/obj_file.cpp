#include "io/obj_file.h"

#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "io/marker_csv.h"  // read_text_file, printable_excerpt
#include "nudge/triangle_mesh.h"

namespace nudge {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

std::string_view trim_spaces(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// Splits off the first whitespace-separated token of s.
std::string_view next_token(std::string_view& s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  std::size_t length = 0;
  while (length < s.size() && !is_space(s[length])) ++length;
  const std::string_view token = s.substr(0, length);
  s.remove_prefix(length);
  return token;
}

// from_chars accepts no leading '+'; exporters write one now and then.
std::optional<double> parse_obj_number(std::string_view token) {
  if (token.size() > 1 && token.front() == '+' && token[1] != '-' && token[1] != '+') token.remove_prefix(1);
  double value = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (token.empty() || ec != std::errc() || end != token.data() + token.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

// A face's vertex reference: the index before any '/', 1-based, or negative (from the
// end of the vertices read so far).
std::optional<long long> parse_index(std::string_view token) {
  token = token.substr(0, token.find('/'));
  long long value = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (token.empty() || ec != std::errc() || end != token.data() + token.size() || value == 0) return std::nullopt;
  return value;
}

// Calls f(line_number, line, keyword, rest) for each line of an OBJ text: the line
// trimmed, its keyword (v, f, vn, ...) and the rest of it, a trailing comment cut off
// (some exporters end lines with one). The first Error f returns stops it.
template <class F>
std::optional<Error> each_obj_line(std::string_view text, F&& f) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // a UTF-8 byte order mark
  int line_number = 0;
  std::size_t position = 0;
  while (position < text.size()) {
    const std::size_t end = std::min(text.find('\n', position), text.size());
    const std::string_view line = trim_spaces(text.substr(position, end - position));
    position = end + 1;
    ++line_number;
    std::string_view rest = line.substr(0, line.find('#'));
    const std::string_view keyword = next_token(rest);
    if (std::optional<Error> error = f(line_number, line, keyword, rest)) return error;
  }
  return std::nullopt;
}

}  // namespace

namespace {

// A `v` line's position (its rest after the keyword), or the error naming the line.
Result<std::array<double, 3>> parse_vertex(std::string_view rest, std::string_view line, int line_number,
                                           std::string_view file_label) {
  // x y z, then w, or r g b (MeshLab, ZBrush), or w r g b: 3 to 7 numbers in all.
  double numbers[7] = {};
  int count = 0;
  for (std::string_view token = next_token(rest); !token.empty(); token = next_token(rest)) {
    const std::optional<double> value = parse_obj_number(token);
    if (!value || count == 7) {
      count = -1;
      break;
    }
    numbers[count++] = *value;
  }
  if (count < 3)
    return Error{std::string(file_label) + ":" + std::to_string(line_number) + ": found '" +
                 printable_excerpt(line, 60) + "'; expected 'v x y z' with three finite numbers"};
  return std::array<double, 3>{numbers[0], numbers[1], numbers[2]};
}

// An `f` line's corners (0-based, counted back from `seen` vertices when negative),
// fanned into triangles, or the error naming the line.
std::optional<Error> parse_face(std::string_view rest, std::string_view line, int line_number,
                                std::string_view file_label, long long seen, TriangleMesh& mesh) {
  const std::string at = std::string(file_label) + ":" + std::to_string(line_number);
  std::vector<int> corners;
  for (std::string_view token = next_token(rest); !token.empty(); token = next_token(rest)) {
    const std::optional<long long> index = parse_index(token);
    const long long resolved = !index ? 0 : *index > 0 ? *index : seen + *index + 1;
    if (!index || resolved < 1 || resolved > seen)
      return Error{at + ": found '" + printable_excerpt(line, 60) + "'; expected vertex indices from 1 to " +
                   std::to_string(seen) + " (or -1 to -" + std::to_string(seen) + ") in 'f a b c ...'"};
    corners.push_back(static_cast<int>(resolved - 1));
  }
  if (corners.size() < 3)
    return Error{at + ": found '" + printable_excerpt(line, 60) +
                 "'; expected 'f a b c ...' with at least three vertices"};
  for (std::size_t k = 1; k + 1 < corners.size(); ++k)
    mesh.triangles.push_back({corners[0], corners[k], corners[k + 1]});
  return std::nullopt;
}

std::string no_vertices(std::string_view file_label) {
  return std::string(file_label) + ": found no vertices; expected 'v x y z' lines (an OBJ file)";
}

}  // namespace

Result<std::vector<std::array<double, 3>>> parse_obj_vertices(std::string_view text, std::string_view file_label) {
  std::vector<std::array<double, 3>> vertices;
  const std::optional<Error> error =
      each_obj_line(text,
                    [&](int line_number, std::string_view line, std::string_view keyword,
                        std::string_view rest) -> std::optional<Error> {
                      if (keyword != "v") return std::nullopt;  // vn, vt, vp, f, g, o, #, ... are not positions
                      Result<std::array<double, 3>> v = parse_vertex(rest, line, line_number, file_label);
                      if (!v) return v.error();
                      vertices.push_back(*v);
                      return std::nullopt;
                    });
  if (error) return *error;
  if (vertices.empty()) return Error{no_vertices(file_label)};
  return vertices;
}

// One pass: a face's negative indices count back from the vertices read so far. The
// errors keep read_obj_vertices' precedence: a bad vertex anywhere, then no vertices,
// then the first bad face.
Result<TriangleMesh> parse_obj_mesh(std::string_view text, std::string_view file_label) {
  TriangleMesh mesh;
  std::optional<Error> bad_face;
  const std::optional<Error> bad_vertex =
      each_obj_line(text,
                    [&](int line_number, std::string_view line, std::string_view keyword,
                        std::string_view rest) -> std::optional<Error> {
                      if (keyword == "v") {
                        Result<std::array<double, 3>> v = parse_vertex(rest, line, line_number, file_label);
                        if (!v) return v.error();
                        mesh.vertices.push_back(*v);
                      } else if (keyword == "f" && !bad_face) {
                        bad_face = parse_face(rest, line, line_number, file_label,
                                              static_cast<long long>(mesh.vertices.size()), mesh);
                      }
                      return std::nullopt;
                    });
  if (bad_vertex) return *bad_vertex;
  if (mesh.vertices.empty()) return Error{no_vertices(file_label)};
  if (bad_face) return *bad_face;
  if (mesh.triangles.empty())
    return Error{std::string(file_label) + ": found no faces; expected 'f' lines, a closed surface around the solid"};
  return mesh;
}

Result<TriangleMesh> read_obj_mesh(const std::filesystem::path& file) {
  Result<std::string> text = read_text_file(file, kMaxObjFileBytes, "an OBJ file (.obj)");
  if (!text) return text.error();
  return parse_obj_mesh(*text, file.string());
}

Result<std::vector<std::array<double, 3>>> read_obj_vertices(const std::filesystem::path& file) {
  Result<std::string> text = read_text_file(file, kMaxObjFileBytes, "an OBJ file (.obj)");
  if (!text) return text.error();
  return parse_obj_vertices(*text, file.string());
}

}  // namespace nudge
