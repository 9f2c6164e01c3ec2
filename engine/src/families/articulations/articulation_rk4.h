// The classic fourth-order Runge-Kutta step of one tree (Integrator::RungeKutta4), as
// MuJoCo's mj_RungeKutta takes it, and its adjoint. Each stage is the tree's acceleration
// with everything explicit (tree_acceleration with dt 0: the joints' damping and the
// contacts at the stage's rates, as MuJoCo's RK4 has them); stage i starts from
//   q_i = q (+) dt c_i v_(i-1),  v_i = qd + dt c_i a_(i-1),   c = (1/2, 1/2, 1)
// ((+) turns a ball's or free joint's rotation, integrate_positions), and the step is
//   q' = q (+) dt sum_j b_j v_j,  qd' = qd + dt sum_j b_j a_j,  b = (1/6, 1/3, 1/3, 1/6).
// The controls hold for the whole step. The adjoint runs the stages again, then back
// from the last: each stage's acceleration by adjoint_tree_acceleration, its start by the
// maps above.
#pragma once

#include "families/articulations/articulation_dynamics.h"

namespace nudge {

// What RK4 keeps per step besides TreeScratch, each array indexed by the coordinate (or
// position) as the state is, so trees share them: the four stages' rates and
// accelerations (stage s at s * stride), a stage's positions, a weighted rate, and their
// adjoints.
template <class T>
struct Rk4Scratch {
  T* v;            // 4 x stride
  T* a;            // 4 x stride
  T* adj_v;        // 4 x stride
  T* adj_a;        // 4 x stride
  T* rate;         // stride
  T* adj_rate;     // stride
  T* q_stage;      // positions
  T* adj_q_stage;  // positions
  int stride;      // every tree's coordinates
  NUDGE_HD bool active() const { return v != nullptr; }
};

// MuJoCo's Butcher tableau for RK4 (RK4_A's nonzero entries, RK4_B).
NUDGE_HD double rk4_offset(int stage) { return stage == 3 ? 1.0 : 0.5; }  // c_i, i = 1..3
NUDGE_HD double rk4_weight(int stage) { return stage == 0 || stage == 3 ? 1.0 / 6.0 : 1.0 / 3.0; }

// Stage s's start into r.q_stage and the stage's rates (r.v at s): q (+) dt c_s v_(s-1)
// and qd + dt c_s a_(s-1); r.rate keeps c_s v_(s-1), the rate integrated.
template <class T>
NUDGE_HD void rk4_stage_start(const TreeModel& tree, const TreeStepInputs<T>& in, const T* q, const T* qd, int stage,
                              const Rk4Scratch<T>& r) {
  const T c = T(rk4_offset(stage));
  const T* v_prev = r.v + (stage - 1) * r.stride;
  const T* a_prev = r.a + (stage - 1) * r.stride;
  T* v = r.v + stage * r.stride;
  for (int i = tree.first_dof; i < tree.first_dof + tree.dofs; ++i) {
    r.rate[i] = c * v_prev[i];
    v[i] = qd[i] + in.dt * (c * a_prev[i]);
  }
  integrate_positions(tree, in.links, q, r.rate, in.dt, r.q_stage);
}

// The four stages' rates and accelerations into r.v and r.a. False where a stage's mass
// matrix is not positive definite.
template <class T>
NUDGE_HD_NOINLINE bool rk4_stages(const TreeModel& tree, const TreeStepInputs<T>& in, const T* q, const T* qd,
                                  const TreeScratch<T>& s, const Rk4Scratch<T>& r) {
  TreeStepInputs<T> stage_in = in;
  stage_in.dt = T(0);  // explicit stages
  const int first = tree.first_dof, end = tree.first_dof + tree.dofs;
  for (int i = first; i < end; ++i) r.v[i] = qd[i];
  if (!tree_acceleration(tree, stage_in, q, qd, s)) return false;
  for (int i = first; i < end; ++i) r.a[i] = s.qdd[i];
  for (int stage = 1; stage < 4; ++stage) {
    rk4_stage_start(tree, in, q, qd, stage, r);
    if (!tree_acceleration(tree, stage_in, r.q_stage, r.v + stage * r.stride, s)) return false;
    for (int i = first; i < end; ++i) r.a[stage * r.stride + i] = s.qdd[i];
  }
  return true;
}

// sum_j b_j x_j over the four stages of x (r.v or r.a), for coordinate i.
template <class T>
NUDGE_HD T rk4_weighted(const T* x, int stride, int i) {
  T sum = 0;
  for (int stage = 0; stage < 4; ++stage) sum += T(rk4_weight(stage)) * x[stage * stride + i];
  return sum;
}

// One RK4 step of a tree: (q, qd) -> (q', qd').
template <class T>
NUDGE_HD_NOINLINE bool tree_step_rk4(const TreeModel& tree, const TreeStepInputs<T>& in, const T* q, const T* qd,
                                     const TreeScratch<T>& s, const Rk4Scratch<T>& r, T* q_next, T* qd_next) {
  if (!rk4_stages(tree, in, q, qd, s, r)) return false;
  for (int i = tree.first_dof; i < tree.first_dof + tree.dofs; ++i) {
    r.rate[i] = rk4_weighted(r.v, r.stride, i);
    qd_next[i] = qd[i] + in.dt * rk4_weighted(r.a, r.stride, i);
  }
  integrate_positions(tree, in.links, q, r.rate, in.dt, q_next);
  return true;
}

// Its adjoint: adj_q and adj_qd hold dL/dq' and dL/dqd' on entry and dL/dq and dL/dqd on
// return; the parameters' shares of every stage are added to grad.
template <class T>
NUDGE_HD_NOINLINE bool adjoint_tree_step_rk4(const TreeModel& tree, const TreeStepInputs<T>& in, const T* q,
                                             const T* qd, const TreeScratch<T>& s, const Rk4Scratch<T>& r, T* adj_q,
                                             T* adj_qd, const TreeGrad<T>& grad, int tree_index) {
  if (!rk4_stages(tree, in, q, qd, s, r)) return false;
  TreeStepInputs<T> stage_in = in;
  stage_in.dt = T(0);
  const int first = tree.first_dof, end = tree.first_dof + tree.dofs;
  const int first_position = tree.first_position, end_position = tree.first_position + tree.positions;
  // q' = q (+) dt rate with rate = sum_j b_j v_j; qd' = qd + dt sum_j b_j a_j.
  for (int i = first; i < end; ++i) {
    r.rate[i] = rk4_weighted(r.v, r.stride, i);
    r.adj_rate[i] = 0;
  }
  adjoint_integrate_positions(tree, in.links, q, r.rate, static_cast<const T*>(nullptr), in.dt, adj_q, r.adj_rate);
  for (int stage = 0; stage < 4; ++stage) {
    const T b = T(rk4_weight(stage));
    for (int i = first; i < end; ++i) {
      r.adj_v[stage * r.stride + i] = b * r.adj_rate[i];
      r.adj_a[stage * r.stride + i] = in.dt * b * adj_qd[i];  // adj_qd keeps qd's own share
    }
  }
  for (int stage = 3; stage >= 0; --stage) {
    const T* v = r.v + stage * r.stride;
    T* adj_v = r.adj_v + stage * r.stride;
    const T* q_at = q;
    if (stage > 0) {
      rk4_stage_start(tree, in, q, qd, stage, r);
      q_at = r.q_stage;
      for (int p = first_position; p < end_position; ++p) r.adj_q_stage[p] = 0;
    }
    if (!tree_acceleration(tree, stage_in, q_at, v, s)) return false;
    inverse_dynamics(tree, in.links, v, s.qdd, in.gravity, s.frames, s.work, &in.contacts, T(0));
    for (int i = first; i < end; ++i) s.work[i] = r.adj_a[stage * r.stride + i];
    adjoint_tree_acceleration(tree, stage_in, q_at, v, s, stage > 0 ? r.adj_q_stage : adj_q, adj_v, grad, tree_index);
    if (stage == 0) break;
    // v_s = qd + dt c a_(s-1); q_s = q (+) dt rate with rate = c v_(s-1).
    const T c = T(rk4_offset(stage));
    for (int i = first; i < end; ++i) {
      adj_qd[i] += adj_v[i];
      r.adj_a[(stage - 1) * r.stride + i] += in.dt * c * adj_v[i];
      r.adj_rate[i] = 0;
    }
    adjoint_integrate_positions(tree, in.links, q, r.rate, static_cast<const T*>(nullptr), in.dt, r.adj_q_stage,
                                r.adj_rate);
    for (int p = first_position; p < end_position; ++p) adj_q[p] += r.adj_q_stage[p];
    for (int i = first; i < end; ++i) r.adj_v[(stage - 1) * r.stride + i] += c * r.adj_rate[i];
  }
  for (int i = first; i < end; ++i) adj_qd[i] += r.adj_v[i];  // v_0 = qd
  return true;
}

}  // namespace nudge
