// A scene's soft bodies as the viewport shows them: the boundary faces of its tets (the
// faces that belong to one tet only), with the tet each face bounds, so that a face can
// be coloured by its tet. Computed once per scene (scene_draw_options keeps it), not per
// frame: the faces do not change as the particles move.
#pragma once

#include <cstdint>
#include <vector>

#include "nudge/scene.h"

namespace nudge::view {

struct TetSurface {
  std::vector<int> tets;               // 4 T: the scene's tet indices it was made from
  std::vector<std::uint32_t> indices;  // 3 F: particle indices, counter-clockwise seen from outside
  std::vector<int> face_tet;           // F: the tet each face bounds

  int face_count() const { return static_cast<int>(face_tet.size()); }
  // Whether it was made from this scene's tets (an edit may have changed them since).
  bool matches(const Scene& scene) const { return tets == scene.tets; }
};

// The boundary of the scene's tets (nudge/tet_mesh.h's surface_triangles over the scene's
// particles), in the order of their tets. Empty without tets.
TetSurface tet_surface(const Scene& scene);

}  // namespace nudge::view
