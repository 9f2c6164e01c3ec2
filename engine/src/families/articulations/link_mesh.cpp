// A link's mesh shape: the convex hull of an OBJ or STL file's vertices, drawn and used
// for its contact points (articulation_links.h's link_contact_points).
#include <algorithm>
#include <cctype>

#include "io/obj_file.h"
#include "io/stl_file.h"
#include "nudge/articulations.h"
#include "nudge/convex_mesh.h"

namespace nudge {

Result<std::shared_ptr<const ConvexMesh>> load_link_mesh(const std::filesystem::path& file) {
  std::string extension = file.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension != ".obj" && extension != ".stl")
    return Error{file.string() + ": found a \"" + file.extension().string() +
                 "\" file; expected a mesh as an .obj or .stl file"};
  Result<std::vector<std::array<double, 3>>> points =
      extension == ".stl" ? read_stl_vertices(file) : read_obj_vertices(file);
  if (!points) return points.error();
  Result<ConvexMesh> hull = convex_hull(*points);
  if (!hull) return Error{file.string() + ": " + hull.error().message};
  return std::shared_ptr<const ConvexMesh>(std::make_shared<ConvexMesh>(std::move(*hull)));
}

}  // namespace nudge
