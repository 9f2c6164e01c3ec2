// Where an articulation's links are for given joint coordinates: forward kinematics on
// the host, in double, for drawing, picking and the pose panel (the rollout runs the same
// recursion in its kernels, families/articulations/articulation_dynamics.h).
#pragma once

#include <span>
#include <vector>

#include "nudge/scene.h"

namespace nudge {

struct LinkPose {
  double pos[3];     // the link frame's origin in the world
  double quat[4];    // its orientation, x, y, z, w
  double anchor[3];  // its joint's point and axis in the world (a weld's are its origin and 0;
                     // a ball's and a free joint's axis is 0)
  double axis[3];
  LinkSize size;  // its link_scale and link_length (resized_link_shape)
};

// Every link's pose at joint positions q (articulation_position_count of them, in link
// order), with the scene's link parameters; q empty: the scene's initial q (link_q,
// link_rotation, link_translation).
std::vector<LinkPose> link_poses(const Scene& scene, std::span<const double> q = {});

}  // namespace nudge
