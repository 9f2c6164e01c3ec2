// Reading TetGen's .node/.ele pairs (nudge/tet_mesh_file.h).
#include <optional>
#include <string>
#include <vector>

#include "io/marker_csv.h"  // read_text_file
#include "io/tet_mesh_file.h"
#include "io/token_lines.h"
#include "nudge/tet_mesh_file.h"

namespace nudge {

namespace {

// A header field: an integer in [low, high], or `fallback` when the line stops before it.
std::optional<long long> header_field(const TokenLines& lines, std::size_t i, long long fallback, long long low,
                                      long long high) {
  if (i >= lines.size()) return fallback;
  const std::optional<long long> value = TokenLines::integer(lines[i]);
  if (!value || *value < low || *value > high) return std::nullopt;
  return value;
}

std::string count_of(long long n, const char* noun) { return std::to_string(n) + " " + noun; }

}  // namespace

Result<TetMesh> parse_tetgen_mesh(std::string_view node_text, std::string_view node_label, std::string_view ele_text,
                                  std::string_view ele_label) {
  TetMesh mesh;

  // .node: <points> [3 [<attributes> [<markers 0|1>]]], then the points.
  TokenLines nodes(node_text, std::string(node_label), '#');
  if (!nodes.next()) return nodes.error("the file is empty; expected '<points> 3 <attributes> <boundary markers>'");
  const std::optional<long long> point_count = header_field(nodes, 0, 0, 4, kMaxTetMeshVertices);
  const std::optional<long long> dimension = header_field(nodes, 1, 3, 3, 3);
  const std::optional<long long> attributes = header_field(nodes, 2, 0, 0, 1000);
  const std::optional<long long> markers = header_field(nodes, 3, 0, 0, 1);
  if (!point_count || !dimension || !attributes || !markers || nodes.size() > 4)
    return nodes.expected("'<points> 3 <attributes> <boundary markers 0|1>' with 4 to " +
                          std::to_string(kMaxTetMeshVertices) + " points in 3 dimensions");
  const std::size_t node_tokens = static_cast<std::size_t>(4 + *attributes + *markers);
  const std::string node_line_form =
      "'<number> x y z'" +
      (node_tokens > 4 ? " and " + std::to_string(node_tokens - 4) + " more numbers" : std::string());

  long long base = 0;  // the first point's number: 0 or 1, what both files count from
  std::vector<long long> ids;
  mesh.vertices.reserve(static_cast<std::size_t>(*point_count));
  ids.reserve(static_cast<std::size_t>(*point_count));
  for (long long i = 0; i < *point_count; ++i) {
    if (!nodes.next())
      return nodes.error("the file ends after " + std::to_string(i) + " of the " + count_of(*point_count, "points") +
                         " its first line declares");
    const std::optional<long long> number = TokenLines::integer(nodes[0]);
    if (nodes.size() != node_tokens || !number) return nodes.expected(node_line_form + " (as the first line declares)");
    if (i == 0) {
      if (*number != 0 && *number != 1)
        return nodes.error("the first point is numbered " + std::to_string(*number) + "; expected 0 or 1");
      base = *number;
    } else if (*number != base + i) {
      return nodes.error("point number " + std::to_string(*number) + " follows " + std::to_string(base + i - 1) +
                         "; expected the numbers to run on consecutively (" + std::to_string(base + i) + ")");
    }
    std::array<double, 3> p;
    for (int a = 0; a < 3; ++a) {
      const std::optional<double> x = TokenLines::finite(nodes[1 + static_cast<std::size_t>(a)]);
      if (!x) return nodes.expected(node_line_form + " with finite coordinates");
      p[a] = *x;
    }
    for (std::size_t k = 4; k < node_tokens; ++k)  // attributes and the marker: read, not kept
      if (!TokenLines::finite(nodes[k])) return nodes.expected(node_line_form + ", all numbers");
    mesh.vertices.push_back(p);
    ids.push_back(*number);
  }
  if (nodes.next())
    return nodes.error("found more than the " + count_of(*point_count, "points") + " the first line declares");

  // .ele: <tets> [4 [<region attribute 0|1>]], then the tets.
  TokenLines eles(ele_text, std::string(ele_label), '#');
  if (!eles.next()) return eles.error("the file is empty; expected '<tets> 4 <region attribute>'");
  const std::optional<long long> tet_count = header_field(eles, 0, 0, 1, kMaxTetMeshTets);
  const std::optional<long long> per_tet = header_field(eles, 1, 4, 4, 10);
  const std::optional<long long> region = header_field(eles, 2, 0, 0, 1);
  if (per_tet && *per_tet == 10)
    return eles.error("the tets have 10 nodes (quadratic, tetgen -o2); only 4-node tets are supported");
  if (!tet_count || !per_tet || *per_tet != 4 || !region || eles.size() > 3)
    return eles.expected("'<tets> 4 <region attribute 0|1>' with 1 to " + std::to_string(kMaxTetMeshTets) + " tets");
  const std::size_t ele_tokens = static_cast<std::size_t>(5 + *region);
  const std::string ele_line_form = "'<number> a b c d'" + std::string(*region ? " and a region attribute" : "");

  std::vector<int> tet_lines;
  mesh.tets.reserve(4 * static_cast<std::size_t>(*tet_count));
  tet_lines.reserve(static_cast<std::size_t>(*tet_count));
  const long long last = base + *point_count - 1;
  for (long long t = 0; t < *tet_count; ++t) {
    if (!eles.next())
      return eles.error("the file ends after " + std::to_string(t) + " of the " + count_of(*tet_count, "tets") +
                        " its first line declares");
    if (eles.size() != ele_tokens || !TokenLines::integer(eles[0]))
      return eles.expected(ele_line_form + " (as the first line declares)");
    for (std::size_t k = 1; k <= 4; ++k) {
      const std::optional<long long> point = TokenLines::integer(eles[k]);
      if (!point) return eles.expected(ele_line_form + " with integer point numbers");
      if (*point < base || *point > last)
        return eles.error("found point " + std::to_string(*point) + "; " + std::string(node_label) + " has points " +
                          std::to_string(base) + " to " + std::to_string(last));
      mesh.tets.push_back(static_cast<int>(*point - base));
    }
    if (*region && !TokenLines::finite(eles[5])) return eles.expected(ele_line_form + ", all numbers");
    tet_lines.push_back(eles.line());
  }
  if (eles.next())
    return eles.error("found more than the " + count_of(*tet_count, "tets") + " the first line declares");

  if (Status status = finish_read_tet_mesh(mesh, std::string(ele_label), tet_lines, ids); !status)
    return status.error();
  return mesh;
}

Result<TetMesh> read_tetgen_mesh(const std::filesystem::path& path) {
  std::filesystem::path stem = path;
  if (path.extension() == ".node" || path.extension() == ".ele") stem.replace_extension();
  const std::filesystem::path node_file = std::filesystem::path(stem).concat(".node");
  const std::filesystem::path ele_file = std::filesystem::path(stem).concat(".ele");
  Result<std::string> node_text = read_text_file(node_file, kMaxTetMeshFileBytes, "a TetGen .node file");
  if (!node_text) return node_text.error();
  Result<std::string> ele_text = read_text_file(ele_file, kMaxTetMeshFileBytes, "a TetGen .ele file");
  if (!ele_text) return ele_text.error();
  return parse_tetgen_mesh(*node_text, node_file.string(), *ele_text, ele_file.string());
}

}  // namespace nudge
