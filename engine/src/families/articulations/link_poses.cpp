// Forward kinematics for the studio and the command line (nudge/link_poses.h), by the
// rollout's own recursion in double.
#include "nudge/link_poses.h"

#include "families/articulations/articulation_dynamics.h"
#include "families/articulations/articulation_links.h"

namespace nudge {

std::vector<LinkPose> link_poses(const Scene& scene, std::span<const double> q) {
  const std::vector<LinkModel<double>> links = link_models<double>(scene.articulations, scene.params);
  std::vector<double> coordinates = initial_positions(scene.articulations, scene.params);
  if (q.size() == coordinates.size()) coordinates.assign(q.begin(), q.end());
  std::vector<LinkFrame<double>> frames(links.size());
  for (const TreeModel& tree : tree_models(scene.articulations))
    link_frames(tree, links.data(), coordinates.data(), frames.data());
  std::vector<LinkPose> poses(links.size());
  for (size_t k = 0; k < links.size(); ++k) {
    const LinkFrame<double>& f = frames[k];
    const Quat<double> r = quat_from_matrix(f.rot);
    LinkPose& p = poses[k];
    p.pos[0] = f.origin.x, p.pos[1] = f.origin.y, p.pos[2] = f.origin.z;
    p.quat[0] = r.x, p.quat[1] = r.y, p.quat[2] = r.z, p.quat[3] = r.w;
    const Vec3<double> axis = links[k].dofs == 1 ? f.rot * links[k].axis : Vec3<double>{0, 0, 0};
    const Vec3<double> anchor = f.origin + f.rot * links[k].anchor;
    const bool weld = links[k].dof < 0;
    p.anchor[0] = weld ? f.origin.x : anchor.x, p.anchor[1] = weld ? f.origin.y : anchor.y;
    p.anchor[2] = weld ? f.origin.z : anchor.z;
    p.axis[0] = weld ? 0 : axis.x, p.axis[1] = weld ? 0 : axis.y, p.axis[2] = weld ? 0 : axis.z;
    p.size = link_size(scene.params, k);
  }
  return poses;
}

}  // namespace nudge
