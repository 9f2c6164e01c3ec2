// A rigid body's shape as a boundary of the material points' grid, the kernel of their
// two-way coupling: a part placed at the body's pose, moving with it (v + w x (x - c) at
// a node x, c the body's centre of mass), met by a grid node as a vessel's part is
// (mpm_boundary.h: stopped or sliding with friction within a cell of its surface, carried
// along inside it). What the part takes from the node's momentum, the node gives the
// body: a force -m (v' - v) / dt at x, and its torque about c.
//
// The adjoint gives dL/dv and dL/dm of the node and the body's shares: dL/dc (the body
// moved by d carries its shape and its rotation centre with it), dL/d(turn) (a small
// rotation theta of the body about c, in the world frame: its shape's phi and n seen from
// x turned back by theta, its normal turned forward), dL/dv_b and dL/dw_b.
#pragma once

#include "families/bodies/body_model.h"
#include "kernels/body_coupling.h"
#include "families/material_points/mpm_boundary.h"

namespace nudge {

// The body this step: its centre of mass, velocity and angular velocity (world frame).
template <class T>
struct BodyPartMotion {
  Vec3<T> centre, v, w;
};

// A node after a body's part: its velocity, and the force and torque (about the body's
// centre) it puts on the body.
template <class T>
struct BodyPartEffect {
  Vec3<T> v, force, torque;
};

template <class T>
NUDGE_HD BodyPartEffect<T> body_part_effect(const Collider<T>& shape, const BodyPartMotion<T>& m, T friction, T reach,
                                            T dt, Vec3<T> x, Vec3<T> v, T mass) {
  const SdfSample<T> sdf = collider_sdf(shape, x);
  if (!(sdf.distance < reach)) return {v, {0, 0, 0}, {0, 0, 0}};
  const Vec3<T> r = x - m.centre;
  const Vec3<T> out =
      part_velocity(make_part_contact(shape, sdf, Vec3<T>{0, 0, 0}, m.v + cross(m.w, r), friction, reach), v);
  const Vec3<T> force = (-mass / dt) * (out - v);
  return {out, force, cross(r, force)};
}

// The body's shares of dL.
template <class T>
struct BodyPartShares {
  Vec3<T> centre{0, 0, 0}, turn{0, 0, 0}, v{0, 0, 0}, w{0, 0, 0};
  T size[3] = {0, 0, 0};  // dL/d(the shape's size), in its own frame
};

// Given dL/d(the effect's v, force and torque): adds dL/dv, dL/dm and the body's shares.
// hull_scale: a convex shape's size shares are dL/d(log of its scale along each of its
// axes), as the links' meshes take them (link_solid_shapes.h); else a hull has none.
template <class T>
NUDGE_HD void adj_body_part_effect(const Collider<T>& shape, const BodyPartMotion<T>& m, T friction, T reach, T dt,
                                   Vec3<T> x, Vec3<T> v, T mass, const BodyPartEffect<T>& adj_effect, Vec3<T>& adj_v,
                                   T& adj_mass, BodyPartShares<T>& shares, bool hull_scale = false) {
  const SdfSample<T> sdf = collider_sdf(shape, x);
  if (!(sdf.distance < reach)) {
    adj_v += adj_effect.v;
    return;
  }
  const Vec3<T> r = x - m.centre;
  const PartContact<T> c = make_part_contact(shape, sdf, Vec3<T>{0, 0, 0}, m.v + cross(m.w, r), friction, reach);
  const Vec3<T> out = part_velocity(c, v);
  const Vec3<T> delta = out - v;
  const Vec3<T> force = (-mass / dt) * delta;
  // torque = r x force: a . (r x F) = F . (a x r) = r . (F x a)
  const Vec3<T> adj_force = adj_effect.force + cross(adj_effect.torque, r);
  shares.centre += cross(adj_effect.torque, force);  // dL/dr = F x a, r = x - c
  // force = -(m / dt) delta, delta = out - v
  const Vec3<T> adj_delta = (-mass / dt) * adj_force;
  adj_mass += -dot(adj_force, delta) / dt;
  const PartVelocityAdjoint<T> a = adj_part_velocity(c, reach, x, v, adj_effect.v + adj_delta, shares.size);
  if (hull_scale && shape.type == ShapeType::Convex) add_hull_scale_adjoint_at(shape, x, a.phi, a.n, shares.size);
  adj_v += a.in - adj_delta;
  // solid_v = v_b + w_b x r: a . (w x r) = w . (r x a) = r . (a x w)
  shares.v += a.solid;
  shares.w += cross(r, a.solid);
  shares.centre += cross(m.w, a.solid);  // -(a x w), r = x - c
  // The shape moves and turns with the body.
  shares.centre += T(-1) * a.x;
  shares.turn += cross(c.sdf.normal, a.n) - cross(r, a.x);
}

// --- the grid's side: every body, at every node -----------------------------------

// How many bodies one node can meet in a step; more are passed over, in both passes
// alike (a node a cell from two bodies at once is rare; three, rarer).
inline constexpr int kMaxNodeBodies = 2;

// The bodies as the grid sees them in one step: each shape posed at the step's state
// and the body's motion (MpmPoseBodiesKernel), and per node the bodies it met, in order,
// with the wrench it gave each (forward) or each one's shares of dL (adjoint). Entry s of
// node id is at s * nodes + id; its k-th wrench value at (6 s + k) * nodes + id, its k-th
// share at (kShares s + k) * nodes + id.
template <class T>
struct MpmBodies {
  static constexpr int kShares = 15;  // centre, turn, v, w, size

  int count = 0;  // B; 0: no body meets the grid
  T friction = 0;
  bool hull_scale = false;                    // adj_body_part_effect's: the links' solids (mpm_link_boundary.h)
  const Collider<T>* shape = nullptr;         // B: posed
  const BodyPartMotion<T>* motion = nullptr;  // B
  const T* bound = nullptr;                   // B: a sphere about the centre that holds the shape
  int* node_body = nullptr;                   // kMaxNodeBodies x nodes: a body, or -1
  T* node_wrench = nullptr;                   // 6 kMaxNodeBodies x nodes: force, torque
  const T* adj_wrench = nullptr;              // 6 x B: dL/d(force, torque) (adjoint only)
  T* node_share = nullptr;                    // kShares kMaxNodeBodies x nodes (adjoint only)
};

// What the grid's nodes meet after its boundaries, in this order: the free bodies, then
// the links' solids (mpm_link_boundary.h), each a body part by the same law.
template <class T>
struct MpmSolids {
  MpmBodies<T> bodies, links;
};

// A body's shape (in its own frame, BodyModel::shape) placed at its state.
template <class T>
NUDGE_HD Collider<T> posed_shape(const Collider<T>& local, const BodyState<T>& s) {
  const Mat33<T> r = to_matrix(s.q);
  Collider<T> c = local;
  const Vec3<T> p = s.x + r * Vec3<T>{local.position[0], local.position[1], local.position[2]};
  c.position[0] = p.x, c.position[1] = p.y, c.position[2] = p.z;
  Mat33<T> turned;
  for (int k = 0; k < 9; ++k) turned.m[k] = local.rotation[k];
  turned = r * turned;
  for (int k = 0; k < 9; ++k) c.rotation[k] = turned.m[k];
  return c;
}

// Per body: its shape and motion at the step's state.
template <class T>
struct MpmPoseBodiesKernel {
  BodyModel<T> bodies;
  StateView<const T> state;
  Collider<T>* shape;
  BodyPartMotion<T>* motion;
  NUDGE_HD void operator()(int b) const {
    const BodyState<T> s = load_body(state, b, bodies.count);
    shape[b] = posed_shape(bodies.shape[b], s);
    motion[b] = {s.x, s.v, s.w};
  }
};

// Whether node x is within body b's reach (its bounding sphere first).
template <class T>
NUDGE_HD bool body_reaches(const MpmBodies<T>& bodies, int b, T reach, Vec3<T> x, SdfSample<T>& sdf) {
  const Vec3<T> d = x - bodies.motion[b].centre;
  const T far = bodies.bound[b] + reach;
  if (dot(d, d) >= far * far) return false;
  sdf = collider_sdf(bodies.shape[b], x);
  return sdf.distance < reach;
}

// The node's velocity v (after the other boundaries) after the bodies within reach, in
// body order, each given the momentum the node loses to it; records them at node id. A
// node without mass meets none (no point reads its velocity).
template <class T>
NUDGE_HD Vec3<T> bodies_velocity(const MpmBodies<T>& bodies, T reach, T dt, int id, int nodes, Vec3<T> x, Vec3<T> v,
                                 T mass) {
  int met = 0;
  for (int b = 0; b < bodies.count && met < kMaxNodeBodies && mass > T(0); ++b) {
    SdfSample<T> sdf;
    if (!body_reaches(bodies, b, reach, x, sdf)) continue;
    const BodyPartEffect<T> e =
        body_part_effect(bodies.shape[b], bodies.motion[b], bodies.friction, reach, dt, x, v, mass);
    bodies.node_body[met * nodes + id] = b;
    for (int k = 0; k < 3; ++k) {
      bodies.node_wrench[(6 * met + k) * nodes + id] = (&e.force.x)[k];
      bodies.node_wrench[(6 * met + 3 + k) * nodes + id] = (&e.torque.x)[k];
    }
    v = e.v;
    ++met;
  }
  for (int s = met; s < kMaxNodeBodies; ++s) bodies.node_body[s * nodes + id] = -1;
  return v;
}

// bodies_velocity's result again, through the bodies the step's grid recorded at node id;
// where given, each one's input velocity into input and how many there were into met.
template <class T>
NUDGE_HD Vec3<T> recorded_bodies_velocity(const MpmBodies<T>& bodies, T reach, T dt, int id, int nodes, Vec3<T> x,
                                          Vec3<T> v, T mass, Vec3<T>* input = nullptr, int* met = nullptr) {
  int s = 0;
  for (; s < kMaxNodeBodies && bodies.node_body[s * nodes + id] >= 0; ++s) {
    const int b = bodies.node_body[s * nodes + id];
    if (input) input[s] = v;
    v = body_part_effect(bodies.shape[b], bodies.motion[b], bodies.friction, reach, dt, x, v, mass).v;
  }
  if (met) *met = s;
  return v;
}

// Given dL/d(bodies_velocity's result): returns dL/dv, adds dL/d(node mass), and writes
// each body met's shares of dL (through the node's velocity and its wrench) at node id:
// the bodies the step's bodies_velocity recorded there.
template <class T>
NUDGE_HD Vec3<T> adj_bodies_velocity(const MpmBodies<T>& bodies, T reach, T dt, int id, int nodes, Vec3<T> x, Vec3<T> v,
                                     T mass, Vec3<T> adj_out, T& adj_mass) {
  Vec3<T> input[kMaxNodeBodies];
  int met = 0;
  recorded_bodies_velocity(bodies, reach, dt, id, nodes, x, v, mass, input, &met);
  for (int s = met - 1; s >= 0; --s) {
    const int b = bodies.node_body[s * nodes + id];
    const Wrench<T> adj_w = load_wrench(bodies.adj_wrench, b, bodies.count);
    BodyPartShares<T> shares;
    Vec3<T> adj_in{0, 0, 0};
    adj_body_part_effect(bodies.shape[b], bodies.motion[b], bodies.friction, reach, dt, x, input[s], mass,
                         BodyPartEffect<T>{adj_out, adj_w.force, adj_w.torque}, adj_in, adj_mass, shares,
                         bodies.hull_scale);
    const Vec3<T> parts[4] = {shares.centre, shares.turn, shares.v, shares.w};
    T* out = bodies.node_share + size_t(MpmBodies<T>::kShares * s) * nodes + id;
    for (int p = 0; p < 4; ++p)
      for (int k = 0; k < 3; ++k) out[size_t(3 * p + k) * nodes] = (&parts[p].x)[k];
    for (int k = 0; k < 3; ++k) out[size_t(12 + k) * nodes] = shares.size[k];
    adj_out = adj_in;
  }
  return adj_out;
}

// Per body: the wrench its nodes gave it, summed over the step's active nodes in order,
// into its coupling slot (slot(b) = first_slot + 2 b: the body's side of (b, world)).
template <class T>
struct MpmBodyWrenchSumKernel {
  MpmBodies<T> bodies;
  const int* active;
  int active_count, nodes;
  BodyCouplingView<T> coupling;
  int first_slot;
  NUDGE_HD void operator()(int b) const {
    Wrench<T> sum{{0, 0, 0}, {0, 0, 0}};
    for (int a = 0; a < active_count; ++a) {
      const int id = active[a];
      for (int s = 0; s < kMaxNodeBodies; ++s) {
        if (bodies.node_body[s * nodes + id] != b) continue;
        const T* w = bodies.node_wrench + size_t(6 * s) * nodes + id;
        sum += Wrench<T>{{w[0], w[size_t(nodes)], w[2 * size_t(nodes)]},
                         {w[3 * size_t(nodes)], w[4 * size_t(nodes)], w[5 * size_t(nodes)]}};
      }
    }
    store_wrench(coupling.wrench, first_slot + 2 * b, coupling.slots, sum);
  }
};

// Per body: its shares of dL from the step's active nodes, in order, as dL/d(its state)
// into its coupling slot's adj_state, and dL/d(its shape's size) added to size. A turn
// theta (world frame) of the body is q' = q + 1/2 [theta, 0] q, so dL/dq = 2 [turn, 0] q
// (tangent to the unit sphere, where q lives).
template <class T>
struct MpmBodyShareSumKernel {
  MpmBodies<T> bodies;
  const int* active;
  int active_count, nodes;
  StateView<const T> state;
  BodyCouplingView<T> coupling;
  int first_slot;
  T* size;  // 3 x B: dL/d(shape size), added to
  NUDGE_HD void operator()(int b) const {
    T sum[MpmBodies<T>::kShares] = {};
    for (int a = 0; a < active_count; ++a) {
      const int id = active[a];
      for (int s = 0; s < kMaxNodeBodies; ++s) {
        if (bodies.node_body[s * nodes + id] != b) continue;
        const T* share = bodies.node_share + size_t(MpmBodies<T>::kShares * s) * nodes + id;
        for (int k = 0; k < MpmBodies<T>::kShares; ++k) sum[k] += share[size_t(k) * nodes];
      }
    }
    const BodyState<T> s = load_body(state, b, bodies.count);
    const Vec3<T> turn{sum[3], sum[4], sum[5]};
    BodyState<T> adj{{sum[0], sum[1], sum[2]},
                     T(2) * (quat_from(turn, T(0)) * s.q),
                     {sum[6], sum[7], sum[8]},
                     {sum[9], sum[10], sum[11]}};
    store_body(slot_view(coupling.adj_state, coupling.slots), first_slot + 2 * b, coupling.slots, adj);
    add3(size, b, bodies.count, Vec3<T>{sum[12], sum[13], sum[14]});
  }
};

}  // namespace nudge
