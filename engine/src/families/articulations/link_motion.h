// Where each link is and how it moves at a state, for what meets the links from outside
// their trees (particles: particle_link_contact.h): the kinematics phase, and its
// adjoint from dL/d(each link's velocity) and dL per twist of each link's frame back to
// dL/dq, dL/dqd and the links' placements.
#pragma once

#include "families/articulations/articulation_dynamics.h"
#include "families/articulations/link_shape_model.h"

namespace nudge {

// Per tree, at (q, qd): every link's frame (into frames, whose motions the adjoint
// reads) and velocity, and each of its shapes' placement.
template <class T>
NUDGE_HD_NOINLINE void tree_link_motion(const TreeModel& tree, const LinkModel<T>* links, const T* q, const T* qd,
                                        LinkFrame<T>* frames, LinkMotion<T>* motion, const int* shape_start,
                                        const Vec3<T>* shape_pos, const Mat33<T>* shape_rot,
                                        ShapePlacement<T>* placement) {
  link_frames(tree, links, q, frames);
  for (int k = tree.first_link; k < tree.first_link + tree.links; ++k) {
    const LinkModel<T>& l = links[k];
    LinkFrame<T>& fr = frames[k];
    fr.v = (l.parent >= 0 ? frames[l.parent].v : zero_spatial<T>()) + joint_velocity(l, fr, qd);
    motion[k] = {fr.rot, fr.origin, fr.v};
    for (int j = shape_start[k]; j < shape_start[k + 1]; ++j)
      placement[j] = {fr.rot * shape_rot[j], fr.origin + fr.rot * shape_pos[j]};
  }
}

// Its adjoint on the frames tree_link_motion left: adj_velocity and adj_frame hold, per
// link, dL/d(its velocity) and dL per twist of its frame (the placements' shares are in
// adj_frame already); adds to adj_q, adj_qd and, when given, dL/d(each link's position in
// its parent's frame) to grad_pos. Uses the frames' adj_v and wrench as scratch.
template <class T>
NUDGE_HD_NOINLINE void adjoint_tree_link_motion(const TreeModel& tree, const LinkModel<T>* links, const T* q,
                                                const T* qd, LinkFrame<T>* frames, const Spatial<T>* adj_velocity,
                                                const Spatial<T>* adj_frame, T* adj_q, T* adj_qd, Vec3<T>* grad_pos) {
  const int first = tree.first_link, end = tree.first_link + tree.links;
  for (int k = first; k < end; ++k) frames[k].adj_v = adj_velocity[k], frames[k].wrench = adj_frame[k];
  for (int k = end - 1; k >= first; --k) {
    const LinkModel<T>& l = links[k];
    LinkFrame<T>& fr = frames[k];
    // v = v_parent + motion qd
    const Spatial<T> vbar = fr.adj_v;
    if (l.parent >= 0) frames[l.parent].adj_v += vbar;
    for (int c = 0; c < l.dofs; ++c) {
      adj_qd[l.dof + c] += dot(fr.motion[c], vbar);
      if (!motion_moves_with_link(l, c)) continue;
      // a twist d of the frame turns the motion s to d x s
      const Spatial<T> s = fr.motion[c], adj_s = qd[l.dof + c] * vbar;
      fr.wrench.ang += cross(s.ang, adj_s.ang) + cross(s.lin, adj_s.lin);
      fr.wrench.lin += cross(s.ang, adj_s.lin);
    }
    add_joint_position_adjoint(l, fr, q, fr.wrench, adj_q);
    Mat33<T> rp;
    Vec3<T> op;
    parent_frame(frames, l.parent, rp, op);
    if (grad_pos) grad_pos[k] += mul_transpose(rp, fr.wrench.lin);
    if (l.parent >= 0) frames[l.parent].wrench += fr.wrench;
  }
}

}  // namespace nudge
