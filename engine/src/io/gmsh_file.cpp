// Reading Gmsh .msh files, version 2 ASCII (nudge/tet_mesh_file.h).
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "io/marker_csv.h"  // read_text_file
#include "io/tet_mesh_file.h"
#include "io/token_lines.h"
#include "nudge/tet_mesh_file.h"

namespace nudge {

namespace {

constexpr long long kTet4 = 4;  // Gmsh's element type numbers
constexpr long long kTet10 = 11;

// Reads the count line that opens $Nodes or $Elements.
std::optional<long long> section_count(TokenLines& lines, long long max) {
  if (!lines.next() || lines.size() != 1) return std::nullopt;
  const std::optional<long long> count = TokenLines::integer(lines[0]);
  if (!count || *count < 0 || *count > max) return std::nullopt;
  return count;
}

// Moves past the section's end marker, whatever is in it.
Status skip_section(TokenLines& lines, const std::string& end) {
  while (lines.next())
    if (lines[0] == end) return Ok{};
  return lines.error("the file ends before '" + end + "'");
}

}  // namespace

Result<TetMesh> parse_gmsh_mesh(std::string_view text, std::string_view label) {
  TokenLines lines(text, std::string(label), '\0');
  TetMesh mesh;
  std::vector<long long> ids;                 // V: each vertex's node number
  std::unordered_map<long long, int> vertex;  // node number -> vertex index
  std::vector<int> tet_lines;
  bool have_format = false, have_nodes = false, have_elements = false;

  while (lines.next()) {
    const std::string_view section = lines[0];
    if (!section.starts_with("$") || lines.size() != 1) return lines.expected("a section such as $Nodes");
    if (!have_format && section != "$MeshFormat") return lines.expected("'$MeshFormat' first (a Gmsh .msh file)");

    if (section == "$MeshFormat") {
      // <version> <file type: 0 ASCII, 1 binary> <data size>
      if (!lines.next() || lines.size() != 3) return lines.expected("'2.2 0 8' (version, file type, data size)");
      if (!lines[0].starts_with("2."))
        return lines.error(
            "the file is .msh version " + std::string(lines[0]) +
            "; expected version 2.2 (write it with gmsh -format msh22, or File > Export, Version 2 ASCII)");
      if (lines[1] != "0")
        return lines.error("the file is binary; expected an ASCII .msh (gmsh -format msh22 without -bin)");
      if (!lines.next() || lines[0] != "$EndMeshFormat") return lines.expected("'$EndMeshFormat'");
      have_format = true;
    } else if (section == "$Nodes") {
      if (have_nodes) return lines.error("found a second $Nodes section; expected one");
      const std::optional<long long> count = section_count(lines, kMaxTetMeshVertices);
      if (!count) return lines.expected("the node count, 0 to " + std::to_string(kMaxTetMeshVertices));
      for (long long i = 0; i < *count; ++i) {
        if (!lines.next() || lines[0] == "$EndNodes")
          return lines.error("found " + std::to_string(i) + " of the " + std::to_string(*count) +
                             " nodes $Nodes declares (the file is truncated or the count is wrong)");
        const std::optional<long long> id = TokenLines::integer(lines[0]);
        std::array<double, 3> p{};
        bool numbers = lines.size() == 4 && id && *id > 0;
        for (int a = 0; a < 3 && numbers; ++a) {
          const std::optional<double> x = TokenLines::finite(lines[1 + static_cast<std::size_t>(a)]);
          numbers = x.has_value();
          if (x) p[a] = *x;
        }
        if (!numbers) return lines.expected("'<node number> x y z' with a positive node number and finite coordinates");
        if (!vertex.emplace(*id, mesh.vertex_count()).second)
          return lines.error("node " + std::to_string(*id) + " is defined twice");
        mesh.vertices.push_back(p);
        ids.push_back(*id);
      }
      if (!lines.next() || lines[0] != "$EndNodes")
        return lines.expected("'$EndNodes' after the " + std::to_string(*count) + " nodes $Nodes declares");
      have_nodes = true;
    } else if (section == "$Elements") {
      if (!have_nodes) return lines.error("found $Elements before $Nodes; expected the nodes first");
      if (have_elements) return lines.error("found a second $Elements section; expected one");
      const std::optional<long long> count = section_count(lines, kMaxTetMeshTets);
      if (!count) return lines.expected("the element count, 0 to " + std::to_string(kMaxTetMeshTets));
      for (long long i = 0; i < *count; ++i) {
        if (!lines.next() || lines[0] == "$EndElements")
          return lines.error("found " + std::to_string(i) + " of the " + std::to_string(*count) +
                             " elements $Elements declares (the file is truncated or the count is wrong)");
        // <number> <type> <tag count> <tags...> <nodes...>
        const std::optional<long long> number = TokenLines::integer(lines[0]);
        const std::optional<long long> type = lines.size() >= 3 ? TokenLines::integer(lines[1]) : std::nullopt;
        const std::optional<long long> tags = lines.size() >= 3 ? TokenLines::integer(lines[2]) : std::nullopt;
        if (!number || !type || !tags || *tags < 0 || static_cast<std::size_t>(*tags) + 3 > lines.size())
          return lines.expected("'<number> <type> <tag count> <tags...> <nodes...>'");
        if (*type == kTet10)
          return lines.error("found a 10-node tet (type 11, second order); only 4-node tets (type 4) are supported");
        if (*type != kTet4) continue;  // points, lines, triangles, ...: not part of the solid
        const std::size_t first = 3 + static_cast<std::size_t>(*tags);
        if (lines.size() != first + 4)
          return lines.expected("a 4-node tet: '<number> 4 <tag count> <tags...>' and 4 node numbers");
        for (std::size_t k = first; k < first + 4; ++k) {
          const std::optional<long long> node = TokenLines::integer(lines[k]);
          if (!node) return lines.expected("a 4-node tet with integer node numbers");
          const auto found = vertex.find(*node);
          if (found == vertex.end())
            return lines.error("the tet names node " + std::to_string(*node) + ", which $Nodes does not define");
          mesh.tets.push_back(found->second);
        }
        tet_lines.push_back(lines.line());
      }
      if (!lines.next() || lines[0] != "$EndElements")
        return lines.expected("'$EndElements' after the " + std::to_string(*count) + " elements $Elements declares");
      have_elements = true;
    } else {
      // $PhysicalNames, $NodeData, $Comments, ...: not geometry.
      if (Status skipped = skip_section(lines, "$End" + std::string(section.substr(1))); !skipped)
        return skipped.error();
    }
  }
  if (!have_format) return lines.error("the file is empty; expected a Gmsh .msh file ($MeshFormat)");
  if (!have_elements) return lines.error("found no $Elements section; expected the mesh's tets there");
  if (Status status = finish_read_tet_mesh(mesh, std::string(label), tet_lines, ids); !status) return status.error();
  return mesh;
}

Result<TetMesh> read_gmsh_mesh(const std::filesystem::path& path) {
  Result<std::string> text = read_text_file(path, kMaxTetMeshFileBytes, "a Gmsh .msh file");
  if (!text) return text.error();
  return parse_gmsh_mesh(*text, path.string());
}

}  // namespace nudge
