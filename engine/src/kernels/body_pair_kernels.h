// The launchable units of the families that act between two bodies: one joint or one
// body-contact item per index. Forward, each writes the two sides' wrenches into its
// coupling slots (kernels/body_coupling.h); backward, it reads both bodies' dL/dwrench
// and writes each side's dL/dstate into its slots, and its parameters' gradients into
// its own entries. `first` is the family's first interaction in the coupling.
#pragma once

#include "families/bodies/body_kernels.h"
#include "families/joints/joint_wrench.h"

namespace nudge {

template <class T>
NUDGE_HD JointFrame<T> load_joint_frame(const T* frame, int j, int count) {
  return {load3(frame, j, count),
          load3(frame + 3 * count, j, count),
          load3(frame + 6 * count, j, count),
          load3(frame + 9 * count, j, count),
          load3(frame + 12 * count, j, count),
          load3(frame + 15 * count, j, count)};
}

template <class T>
NUDGE_HD void add_joint_frame(T* frame, int j, int count, const JointFrame<T>& f) {
  add3(frame, j, count, f.anchor_p);
  add3(frame + 3 * count, j, count, f.anchor_c);
  add3(frame + 6 * count, j, count, f.axis_p);
  add3(frame + 9 * count, j, count, f.axis_c);
  add3(frame + 12 * count, j, count, f.ref_p);
  add3(frame + 15 * count, j, count, f.ref_c);
}

// The motor's torque or force at step t: its own control, plus its channel's.
template <class T>
NUDGE_HD T joint_motor(const JointModel<T>& jm, int j, int t) {
  const T own = jm.control[size_t(t) * jm.count + j];
  const int c = jm.channel[j];
  return c < 0 ? own : own + jm.gain[j] * jm.controls[size_t(t) * jm.channels + c];
}

template <class T>
NUDGE_HD JointLaw<T> joint_law(const JointModel<T>& jm, int j, int t) {
  return {static_cast<JointKind>(jm.kind[j]),
          jm.stiffness,
          jm.linear_damping,
          jm.angular_stiffness,
          jm.angular_damping,
          jm.damping[j],
          joint_motor(jm, j, t),
          jm.limited[j] != 0,
          jm.lower[j],
          jm.upper[j],
          jm.limit_stiffness};
}

template <class T>
NUDGE_HD BodyState<T> side_state(StateView<const T> s, int body, int count) {
  return body >= 0 ? load_body(s, body, count) : world_body<T>();
}

template <class T>
NUDGE_HD Wrench<T> side_adj_wrench(const BodyCouplingView<T>& c, int body, int count) {
  return body >= 0 ? load_wrench(c.adj_wrench, body, count) : Wrench<T>{{0, 0, 0}, {0, 0, 0}};
}

// The slots of interaction i: its first side (parent, point body) and its second.
template <class T>
NUDGE_HD void store_pair_wrench(const BodyCouplingView<T>& c, int i, const PairWrench<T>& w) {
  store_wrench(c.wrench, 2 * i, c.slots, w.a);
  store_wrench(c.wrench, 2 * i + 1, c.slots, w.b);
}
template <class T>
NUDGE_HD void store_pair_adjoint(const BodyCouplingView<T>& c, int i, const BodyState<T>& a, const BodyState<T>& b) {
  store_body(slot_view(c.adj_state, c.slots), 2 * i, c.slots, a);
  store_body(slot_view(c.adj_state, c.slots), 2 * i + 1, c.slots, b);
}

template <class T>
struct JointForceKernel {  // over joints
  ModelView<T> m;
  StateView<const T> state;
  int t, first;
  NUDGE_HD void operator()(int j) const {
    const JointModel<T>& jm = m.joints;
    const int nb = m.bodies.count;
    const PairWrench<T> w = joint_wrench(joint_law(jm, j, t), load_joint_frame(jm.frame, j, jm.count),
                                         side_state(state, jm.parent[j], nb), side_state(state, jm.child[j], nb));
    store_pair_wrench(m.coupling, first + j, w);
  }
};

template <class T>
struct JointAdjointKernel {  // over joints
  ModelView<T> m;
  StateView<const T> state;
  JointGrad<T> grad;
  int t, first;
  NUDGE_HD void operator()(int j) const {
    const JointModel<T>& jm = m.joints;
    const int nb = m.bodies.count, parent = jm.parent[j], child = jm.child[j];
    const PairWrench<T> adj_w{side_adj_wrench(m.coupling, parent, nb), side_adj_wrench(m.coupling, child, nb)};
    BodyState<T> adj_p = zero_body_state<T>(), adj_c = zero_body_state<T>();
    JointFrame<T> adj_f = zero_joint_frame<T>();
    T adj_damping = 0, adj_control = 0;
    adj_joint_wrench(joint_law(jm, j, t), load_joint_frame(jm.frame, j, jm.count), side_state(state, parent, nb),
                     side_state(state, child, nb), adj_w, adj_p, adj_c, adj_f, adj_damping, adj_control);
    store_pair_adjoint(m.coupling, first + j, adj_p, adj_c);
    add_joint_frame(grad.frame, j, jm.count, adj_f);
    grad.damping[j] += adj_damping;
    grad.control[size_t(t) * jm.count + j] += adj_control;
  }
};

// Whether two bodies' bounding spheres, widened by the reach, miss each other: then
// the item's force is taken as zero (exactly so when the contact switch is sharp).
template <class T>
NUDGE_HD bool bodies_apart(const ModelView<T>& m, const BodyState<T>& sa, const BodyState<T>& sb, int a, int b) {
  const T reach = m.bodies.bound[a] + m.bodies.bound[b] + m.body_contacts.reach;
  return length_squared(sa.x - sb.x) > reach * reach;
}

template <class T>
struct BodyPairContactKernel {  // over body-contact items
  ModelView<T> m;
  StateView<const T> state;
  int first;
  NUDGE_HD void operator()(int i) const {
    const BodyModel<T>& bm = m.bodies;
    const int a = m.body_contacts.point_body[i], b = m.body_contacts.shape_body[i];
    const BodyState<T> sa = load_body(state, a, bm.count), sb = load_body(state, b, bm.count);
    PairWrench<T> sum{{{0, 0, 0}, {0, 0, 0}}, {{0, 0, 0}, {0, 0, 0}}};
    if (!bodies_apart(m, sa, sb, a, b))
      for (int j = bm.point_start[a]; j < bm.point_start[a + 1]; ++j) {
        const PairWrench<T> w =
            body_pair_contact(m.colliders, bm.shape[b], sa, sb, load3(bm.point_offset, j, bm.points),
                              bm.point_radius[j], bm.mass[a], bm.mass[b]);
        sum.a += w.a, sum.b += w.b;
      }
    store_pair_wrench(m.coupling, first + i, sum);
  }
};

template <class T>
struct BodyPairContactAdjointKernel {  // over body-contact items
  ModelView<T> m;
  StateView<const T> state;
  BodyContactGrad<T> grad;
  int first;
  NUDGE_HD void operator()(int i) const {
    const BodyModel<T>& bm = m.bodies;
    const int a = m.body_contacts.point_body[i], b = m.body_contacts.shape_body[i];
    const BodyState<T> sa = load_body(state, a, bm.count), sb = load_body(state, b, bm.count);
    BodyState<T> adj_a = zero_body_state<T>(), adj_b = zero_body_state<T>();
    Vec3<T> adj_point_size{0, 0, 0};
    T adj_shape_size[3] = {0, 0, 0};
    if (!bodies_apart(m, sa, sb, a, b)) {
      const PairWrench<T> adj_w{load_wrench(m.coupling.adj_wrench, a, bm.count),
                                load_wrench(m.coupling.adj_wrench, b, bm.count)};
      for (int j = bm.point_start[a]; j < bm.point_start[a + 1]; ++j) {
        Vec3<T> adj_offset{0, 0, 0};
        T adj_radius = 0;
        adj_body_pair_contact(m.colliders, bm.shape[b], sa, sb, load3(bm.point_offset, j, bm.points),
                              bm.point_radius[j], adj_w, adj_a, adj_b, adj_offset, adj_radius, grad.stiffness[i],
                              grad.damping[i], grad.friction[i], bm.mass[a], bm.mass[b], &grad.mass_point[i],
                              &grad.mass_shape[i], adj_shape_size);
        adj_point_size += point_size_gradient(bm, j, adj_offset, adj_radius);
      }
    }
    store_pair_adjoint(m.coupling, first + i, adj_a, adj_b);
    const int items = m.body_contacts.count;
    add3(grad.size_point, i, items, adj_point_size);
    add3(grad.size_shape, i, items, Vec3<T>{adj_shape_size[0], adj_shape_size[1], adj_shape_size[2]});
  }
};

}  // namespace nudge
