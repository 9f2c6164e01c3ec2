// What a static collider looks like: a lit triangle mesh of its shape (a plane as a
// square patch around the motion, a box, a sphere, a capsule), placed and turned as the
// scene says. Shared by the window and `nudge render`.
#pragma once

#include "nudge/colliders.h"
#include "nudge/render/draw_list.h"

namespace nudge::view {

// patch_center, patch_half_size: where a plane's square patch is drawn (planes are
// infinite; the patch covers the motion).
render::Mesh collider_mesh(const ColliderShape& shape, glm::vec3 patch_center, float patch_half_size,
                           render::Rgba color);

}  // namespace nudge::view
