// The links' solid shapes (articulations/link_shape_model.h) as boundaries of the
// material points' grid: the two-way coupling of material with robots. Each solid is a
// body part (mpm_body_boundary.h) placed where the kinematics phase put it at the step's
// start, moving with its link: a point x of it at V.lin + V.ang x x, V the link's
// spatial velocity about the origin, which is the part's motion about its centre c
// (v = V.lin + V.ang x c, w = V.ang). What a node loses to a solid reaches its link as a
// wrench about the origin, (torque + c x F, F), which the trees' step takes with the
// particles' and bodies' (added after the kinematics phase wrote theirs).
//
// The adjoint: a link's dL/d(its external wrench) gives each of its solids dL/d(force,
// torque about c); a solid's shares at its nodes (centre, turn, v, w, size, the body
// part's) and the force it took give its link's dL/d(spatial velocity) and dL per twist
// of its frame, which the articulations take through the links' motions to q and qd, and
// the shape's dL/d(centre, turn, size) in its link's frame, which they take to
// link_scale and link_length (link_solid_shapes.h).
#pragma once

#include "families/articulations/link_shape_model.h"
#include "families/material_points/mpm_body_boundary.h"

namespace nudge {

// Solid j of the links: its shape placed in the world, and its motion as a body part.
template <class T>
NUDGE_HD Collider<T> posed_link_solid(const LinkShapeModel<T>& ls, int j) {
  const ShapePlacement<T>& at = ls.placement[j];
  Collider<T> c = ls.shape[j];  // at the origin, unturned
  c.position[0] = at.centre.x, c.position[1] = at.centre.y, c.position[2] = at.centre.z;
  for (int e = 0; e < 9; ++e) c.rotation[e] = at.rot.m[e];
  return c;
}

template <class T>
NUDGE_HD BodyPartMotion<T> link_solid_motion(const LinkShapeModel<T>& ls, int j) {
  const Vec3<T> c = ls.placement[j].centre;
  const Spatial<T>& v = ls.motion[ls.link[j]].v;
  return {c, v.lin + cross(v.ang, c), v.ang};
}

// A part's wrench (force, torque about its centre c) as its link's, about the origin.
template <class T>
NUDGE_HD Spatial<T> link_wrench_of_part(Vec3<T> c, const Wrench<T>& w) {
  return {w.torque + cross(c, w.force), w.force};
}

// Given dL/d(the link's wrench), dL/d(the part's force and torque about c).
template <class T>
NUDGE_HD Wrench<T> part_adj_wrench(Vec3<T> c, const Spatial<T>& adj) {
  return {adj.lin + cross(adj.ang, c), adj.ang};  // a . (c x F) = F . (a x c)
}

// A solid's shares of dL as its link's and its shape's.
template <class T>
struct LinkPartAdjoint {
  Spatial<T> velocity{{0, 0, 0}, {0, 0, 0}}, frame{{0, 0, 0}, {0, 0, 0}};  // the link's
  Vec3<T> centre{0, 0, 0}, turn{0, 0, 0};                                  // the shape's, in its link's frame
  T size[3] = {0, 0, 0};
};

// Adds solid j's shares, from its summed shares at its nodes (s) and the force it took
// from them (force): dL/dc holding the part's v and w counts v = V.lin + V.ang x c and
// the wrench's arm c x F, both of which move with c; a twist (w, u) of the link's frame
// moves c by u + w x c and turns the shape by w.
template <class T>
NUDGE_HD void add_link_part_adjoint(const LinkShapeModel<T>& ls, int j, const BodyPartShares<T>& s, Vec3<T> force,
                                    LinkPartAdjoint<T>& out) {
  const int k = ls.link[j];
  const Vec3<T> c = ls.placement[j].centre;
  const Spatial<T>& v = ls.motion[k].v;
  const Vec3<T> at_centre = s.centre + cross(s.v, v.ang) + cross(force, ls.adj_wrench[k].ang);
  out.velocity.lin += s.v;
  out.velocity.ang += s.w + cross(c, s.v);  // a . (w x c) = w . (c x a)
  out.frame.lin += at_centre;
  out.frame.ang += cross(c, at_centre) + s.turn;
  const Mat33<T>& rot = ls.motion[k].rot;
  out.centre += mul_transpose(rot, at_centre);
  out.turn += mul_transpose(rot, s.turn);
  for (int e = 0; e < 3; ++e) out.size[e] += s.size[e];
}

// The solids as the grid meets them (an MpmBodies of S parts), from the model's links.
template <class T>
NUDGE_HD MpmBodies<T> link_solids_view(const LinkShapeModel<T>& ls, T friction, const Collider<T>* shape,
                                       const BodyPartMotion<T>* motion, const T* adj_wrench) {
  MpmBodies<T> b;
  b.count = ls.count;
  b.friction = friction;
  b.hull_scale = true;
  b.shape = shape;
  b.motion = motion;
  b.bound = ls.bound;
  b.adj_wrench = adj_wrench;
  return b;
}

// Per solid: its shape and motion at the step's start.
template <class T>
struct MpmPoseLinkSolidsKernel {
  LinkShapeModel<T> ls;
  Collider<T>* shape;
  BodyPartMotion<T>* motion;
  NUDGE_HD void operator()(int j) const {
    shape[j] = posed_link_solid(ls, j);
    motion[j] = link_solid_motion(ls, j);
  }
};

// values (`per` x S entries at node id: (per s + e) x nodes + id) of solid j summed over
// the step's active nodes, in order.
template <class T, int Per>
NUDGE_HD void sum_solid_records(const MpmBodies<T>& solids, const T* values, int j, const int* active, int active_count,
                                int nodes, T* sum) {
  for (int a = 0; a < active_count; ++a) {
    const int id = active[a];
    for (int s = 0; s < kMaxNodeBodies; ++s) {
      if (solids.node_body[s * nodes + id] != j) continue;
      const T* v = values + size_t(Per * s) * nodes + id;
      for (int e = 0; e < Per; ++e) sum[e] += v[size_t(e) * nodes];
    }
  }
}

// Per link: the wrench its solids took from the step's nodes, added to its external
// wrench (which the kinematics phase wrote).
template <class T>
struct MpmLinkWrenchSumKernel {
  LinkShapeModel<T> ls;
  MpmBodies<T> solids;  // with node records
  const int* active;
  int active_count, nodes;
  NUDGE_HD void operator()(int k) const {
    Spatial<T> total{{0, 0, 0}, {0, 0, 0}};
    for (int j = ls.shape_start[k]; j < ls.shape_start[k + 1]; ++j) {
      T w[6] = {0, 0, 0, 0, 0, 0};
      sum_solid_records<T, 6>(solids, solids.node_wrench, j, active, active_count, nodes, w);
      total += link_wrench_of_part(ls.placement[j].centre, Wrench<T>{{w[0], w[1], w[2]}, {w[3], w[4], w[5]}});
    }
    ls.external[k] += total;
  }
};

// Per solid: dL/d(its force and torque) from its link's dL/d(external wrench), 6 x S.
template <class T>
struct MpmLinkAdjWrenchKernel {
  LinkShapeModel<T> ls;
  T* adj_wrench;
  NUDGE_HD void operator()(int j) const {
    store_wrench(adj_wrench, j, ls.count, part_adj_wrench(ls.placement[j].centre, ls.adj_wrench[ls.link[j]]));
  }
};

// Per link, after the grid's adjoint: its solids' shares, as its dL/d(velocity) and dL
// per twist of its frame (written), and its shapes' gradients (added, where grads).
template <class T>
struct MpmLinkShareSumKernel {
  LinkShapeModel<T> ls;
  MpmBodies<T> solids;  // with node records
  const int* active;
  int active_count, nodes;
  bool grads;
  NUDGE_HD void operator()(int k) const {
    LinkPartAdjoint<T> link;
    for (int j = ls.shape_start[k]; j < ls.shape_start[k + 1]; ++j) {
      T sum[MpmBodies<T>::kShares] = {}, w[6] = {0, 0, 0, 0, 0, 0};
      sum_solid_records<T, MpmBodies<T>::kShares>(solids, solids.node_share, j, active, active_count, nodes, sum);
      sum_solid_records<T, 6>(solids, solids.node_wrench, j, active, active_count, nodes, w);
      BodyPartShares<T> s;
      s.centre = {sum[0], sum[1], sum[2]}, s.turn = {sum[3], sum[4], sum[5]};
      s.v = {sum[6], sum[7], sum[8]}, s.w = {sum[9], sum[10], sum[11]};
      for (int e = 0; e < 3; ++e) s.size[e] = sum[12 + e];
      LinkPartAdjoint<T> shape;
      add_link_part_adjoint(ls, j, s, Vec3<T>{w[0], w[1], w[2]}, shape);
      link.velocity += shape.velocity, link.frame += shape.frame;
      if (!grads) continue;
      ls.grad_centre[j] += shape.centre;
      ls.grad_turn[j] += shape.turn;
      for (int e = 0; e < 3; ++e) ls.grad_size[3 * j + e] += shape.size[e];
    }
    ls.grid_adj_velocity[k] = link.velocity;
    ls.grid_adj_frame[k] = link.frame;
  }
};

}  // namespace nudge
