// OBJ text of an axis-aligned cube, for the tests of reading and filling closed meshes
// (engine: triangle_mesh_test; studio: scene_edits_points_test).
#pragma once

#include <string>

namespace nudge::test {

// A cube from (low, low, low) to (high, high, high): 8 vertices numbered from
// `first_vertex` on, 6 quads facing out, or in when `flip` (a hollow solid's inner wall).
inline std::string cube_obj(double low, double high, int first_vertex = 1, bool flip = false) {
  std::string text;
  for (int k = 0; k < 8; ++k)
    text += "v " + std::to_string(k & 1 ? high : low) + " " + std::to_string(k & 2 ? high : low) + " " +
            std::to_string(k & 4 ? high : low) + "\n";
  const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (const auto& q : quads) {
    text += "f";
    for (int k = 0; k < 4; ++k) text += " " + std::to_string(first_vertex + q[flip ? 3 - k : k]);
    text += "\n";
  }
  return text;
}

}  // namespace nudge::test
