#include "view/tet_surface.h"

#include <algorithm>
#include <array>

#include "nudge/tet_mesh.h"

namespace nudge::view {

TetSurface tet_surface(const Scene& scene) {
  TetSurface surface;
  surface.tets = scene.tets;
  if (scene.tet_count() == 0) return surface;
  // surface_triangles needs only the indices (and positions for nothing but its order);
  // the particles are the mesh's vertices.
  TetMesh mesh;
  const std::vector<double>& x = scene.initial_positions();
  mesh.vertices.resize(x.size() / 3);
  for (size_t i = 0; i < mesh.vertices.size(); ++i) mesh.vertices[i] = {x[3 * i], x[3 * i + 1], x[3 * i + 2]};
  mesh.tets = scene.tets;
  const std::vector<std::array<int, 3>> faces = surface_triangles(mesh);

  // Which tet owns each face: every tet's four faces, keyed by their sorted corners; a
  // boundary face has one owner.
  using Key = std::array<int, 3>;
  std::vector<std::pair<Key, int>> owners;
  owners.reserve(4 * size_t(scene.tet_count()));
  for (int t = 0; t < scene.tet_count(); ++t) {
    const int* c = &scene.tets[4 * size_t(t)];
    for (int skip = 0; skip < 4; ++skip) {
      Key key;
      for (int k = 0, n = 0; k < 4; ++k)
        if (k != skip) key[size_t(n++)] = c[k];
      std::sort(key.begin(), key.end());
      owners.emplace_back(key, t);
    }
  }
  std::sort(owners.begin(), owners.end());
  surface.indices.reserve(3 * faces.size());
  surface.face_tet.reserve(faces.size());
  for (const std::array<int, 3>& face : faces) {
    Key key = face;
    std::sort(key.begin(), key.end());
    const auto it = std::lower_bound(owners.begin(), owners.end(), std::pair<Key, int>{key, -1});
    surface.face_tet.push_back(it != owners.end() && it->first == key ? it->second : 0);
    for (int corner : face) surface.indices.push_back(static_cast<std::uint32_t>(corner));
  }
  return surface;
}

}  // namespace nudge::view
