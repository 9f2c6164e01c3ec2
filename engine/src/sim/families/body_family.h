// Rigid bodies (kernels/body_step.h, body_kernels.h): spheres, boxes and capsules that
// move under gravity and meet the static colliders through contact points (a sphere's
// centre, a capsule's two end centres, with their radius; a box's eight corners). Owns
// the bodies' mass properties (from shape and density), contact points, initial state
// and gradients. One thread per body on both backends; a body reads and writes only its
// own slots, so the result does not depend on threads.
#pragma once

#include <cmath>
#include <vector>

#include "kernels/body_kernels.h"
#include "nudge/scene.h"
#include "sim/backend.h"
#include "sim/soa.h"

namespace nudge {

// Adds dL/do to grad_o for an orientation parameter o that is used normalised,
// q = o / |o|, given dL/dq: (dL/dq - q (q . dL/dq)) / |o|.
inline void add_orientation_gradient(const double* o, const double* adj_q, double* grad_o) {
  const double len = std::sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2] + o[3] * o[3]);
  double along = 0;
  for (int k = 0; k < 4; ++k) along += o[k] / len * adj_q[k];
  for (int k = 0; k < 4; ++k) grad_o[k] += (adj_q[k] - o[k] / len * along) / len;
}

// A body's starting pose from the parameters (its orientation normalised), the world's
// for body -1; and the way back: dL/dx0 and dL/dq0 (of the normalised q) added to the
// body's position and orientation parameters. Families whose frames are fixed in a
// body at the start (joints, attachments) carry their gradients on with these.
struct BodyPose {
  Vec3<double> x;
  Quat<double> q;
};

inline BodyPose body_start_pose(const ParameterSet& p, int body) {
  if (body < 0) return {{0, 0, 0}, {0, 0, 0, 1}};
  const double* x = &p[ParamId::BodyPosition].value[3 * size_t(body)];
  const double* o = &p[ParamId::BodyOrientation].value[4 * size_t(body)];
  return {{x[0], x[1], x[2]}, normalize(Quat<double>{o[0], o[1], o[2], o[3]})};
}

inline void add_body_start_gradient(ParameterSet& p, int body, Vec3<double> adj_x, Quat<double> adj_q) {
  if (body < 0) return;  // the world does not move
  for (int k = 0; k < 3; ++k) p[ParamId::BodyPosition].grad[3 * size_t(body) + k] += (&adj_x.x)[k];
  const double adj_qv[4] = {adj_q.x, adj_q.y, adj_q.z, adj_q.w};
  add_orientation_gradient(&p[ParamId::BodyOrientation].value[4 * size_t(body)], adj_qv,
                           &p[ParamId::BodyOrientation].grad[4 * size_t(body)]);
}

template <class T, Backend Exec>
class BodyFamily {
public:
  BodyFamily(const Scene& scene, const Exec& exec) : count_(scene.body_count()), contact_(scene.contact) {
    std::vector<int> start{0};
    std::vector<double> offsets;  // xyz triples
    std::vector<T> radius, bound;
    std::vector<Collider<T>> shapes;
    for (const RigidBody& body : scene.bodies) {
      shapes.push_back(shape_in_own_frame(body));
      bound.push_back(static_cast<T>(bounding_radius(body)));
      unit_.push_back(unit_mass_properties(body));
      const auto add = [&](double x, double y, double z, double r) {
        offsets.insert(offsets.end(), {x, y, z});
        radius.push_back(static_cast<T>(r));
      };
      switch (body.shape) {
        case BodyShape::Sphere: add(0, 0, 0, body.radius); break;
        case BodyShape::Capsule:
          add(0, body.half_length, 0, body.radius);
          add(0, -body.half_length, 0, body.radius);
          break;
        case BodyShape::Box:
          for (int corner = 0; corner < 8; ++corner)
            add((corner & 1 ? 1 : -1) * body.half_extents[0], (corner & 2 ? 1 : -1) * body.half_extents[1],
                (corner & 4 ? 1 : -1) * body.half_extents[2], 0.0);
          break;
      }
      start.push_back(static_cast<int>(radius.size()));
    }
    points_ = static_cast<int>(radius.size());
    exec.upload(point_start_, start);
    exec.upload(point_offset_, soa_from_triples<T>(offsets, points_));
    exec.upload(point_radius_, radius);
    exec.upload(shape_, shapes);
    exec.upload(bound_, bound);
  }

  int count() const { return count_; }

  // Mass and inertia from each body's density, and the initial state (orientations
  // normalised).
  void upload(const ParameterSet& p, StateView<T> initial, const Exec& exec) {
    if (count_ == 0) return;
    const std::vector<double>& density = p[ParamId::BodyDensity].value;
    std::vector<T> mass(count_), inertia(9 * size_t(count_), T(0)), inv_inertia(9 * size_t(count_), T(0));
    for (int b = 0; b < count_; ++b) {
      mass[b] = static_cast<T>(density[b] * unit_[b].volume);
      for (int k = 0; k < 3; ++k) {
        const double moment = density[b] * unit_[b].moments[k];
        inertia[size_t(4 * k) * count_ + b] = static_cast<T>(moment);  // diagonal entry (k, k) is 4k
        inv_inertia[size_t(4 * k) * count_ + b] = static_cast<T>(1.0 / moment);
      }
    }
    exec.upload(mass_, mass);
    exec.upload(inertia_, inertia);
    exec.upload(inv_inertia_, inv_inertia);
    std::vector<T> q(4 * size_t(count_));
    for (int b = 0; b < count_; ++b) {
      const double* o = &p[ParamId::BodyOrientation].value[4 * size_t(b)];
      const double len = std::sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2] + o[3] * o[3]);
      for (int k = 0; k < 4; ++k) q[size_t(k) * count_ + b] = static_cast<T>(o[k] / len);
    }
    exec.upload_to(initial.body_x, soa_from_triples<T>(p[ParamId::BodyPosition].value, count_));
    exec.upload_to(initial.body_q, q);
    exec.upload_to(initial.body_v, soa_from_triples<T>(p[ParamId::BodyVelocity].value, count_));
    exec.upload_to(initial.body_w, soa_from_triples<T>(p[ParamId::BodyAngularVelocity].value, count_));
  }

  BodyModel<T> model(const Exec& exec) const {
    BodyModel<T> bm;
    bm.count = count_;
    bm.mass = exec.data(mass_);
    bm.inertia = exec.data(inertia_);
    bm.inv_inertia = exec.data(inv_inertia_);
    bm.point_start = exec.data(point_start_);
    bm.point_offset = exec.data(point_offset_);
    bm.point_radius = exec.data(point_radius_);
    bm.points = points_;
    bm.shape = exec.data(shape_);
    bm.bound = exec.data(bound_);
    return bm;
  }

  void step(const Exec& exec, const ModelView<T>& m, StateView<const T> s, StateView<T> next) const {
    exec.launch(count_, BodyStepKernel<T>{m, s, next});
  }

  void adjoint(const Exec& exec, const ModelView<T>& m, StateView<const T> s, StateView<T> adj,
               const BodyGrad<T>& grad) const {
    exec.launch(count_, BodyAdjointKernel<T>{m, s, adj, grad});
  }

  // After the joints' and body contacts' adjoints: each body adds its slots' share.
  void gather_adjoint(const Exec& exec, const ModelView<T>& m, StateView<T> adj) const {
    if (m.coupling.slots > 0) exec.launch(count_, BodyGatherAdjointKernel<T>{m, adj});
  }

  void zero_gradients(const Exec& exec) {
    const size_t b = size_t(count_);
    for (auto* a : {&g_mass_, &g_stiffness_, &g_damping_, &g_friction_}) exec.resize(*a, b);
    for (auto* a : {&g_inertia_, &g_inv_inertia_}) exec.resize(*a, 9 * b);
    exec.resize(g_force_, 3 * b);
    for (auto* a : {&g_mass_, &g_stiffness_, &g_damping_, &g_friction_, &g_inertia_, &g_inv_inertia_, &g_force_})
      exec.zero(*a);
  }

  BodyGrad<T> grad(const Exec& exec) {
    return {exec.data(g_mass_),  exec.data(g_inertia_), exec.data(g_inv_inertia_), exec.data(g_force_),
            exec.data(g_stiffness_), exec.data(g_damping_), exec.data(g_friction_)};
  }

  // adj0: dL/dstate_0. Density reaches the loss through the mass and the inertia:
  // m = rho V, I_kk = rho M_k, (I^-1)_kk = 1 / (rho M_k).
  void download_gradients(ParameterSet& p, StateView<const T> adj0, const Exec& exec) const {
    if (count_ == 0) return;
    const size_t b3 = 3 * size_t(count_);
    p[ParamId::BodyPosition].grad = triples_from_soa(fetch_values(exec, adj0.body_x, b3), count_);
    p[ParamId::BodyVelocity].grad = triples_from_soa(fetch_values(exec, adj0.body_v, b3), count_);
    p[ParamId::BodyAngularVelocity].grad = triples_from_soa(fetch_values(exec, adj0.body_w, b3), count_);
    // q0 = o / |o|
    const std::vector<double> adj_q = fetch_values(exec, adj0.body_q, 4 * size_t(count_));
    for (int b = 0; b < count_; ++b) {
      const double adj_qb[4] = {adj_q[size_t(b)], adj_q[size_t(count_) + b], adj_q[2 * size_t(count_) + b],
                                adj_q[3 * size_t(count_) + b]};
      add_orientation_gradient(&p[ParamId::BodyOrientation].value[4 * size_t(b)], adj_qb,
                               &p[ParamId::BodyOrientation].grad[4 * size_t(b)]);
    }
    const std::vector<double> g_mass = fetch_values(exec, exec.data(g_mass_), count_);
    const std::vector<double> g_inertia = fetch_values(exec, exec.data(g_inertia_), 9 * size_t(count_));
    const std::vector<double> g_inv = fetch_values(exec, exec.data(g_inv_inertia_), 9 * size_t(count_));
    const std::vector<double>& density = p[ParamId::BodyDensity].value;
    for (int b = 0; b < count_; ++b) {
      double d = unit_[b].volume * g_mass[b];
      for (int k = 0; k < 3; ++k) {
        const size_t at = size_t(4 * k) * count_ + b;
        d += unit_[b].moments[k] * g_inertia[at] - g_inv[at] / (density[b] * density[b] * unit_[b].moments[k]);
      }
      p[ParamId::BodyDensity].grad[b] = d;
    }
    // Gravity: F = m g for each body, so dL/dg += m_b dL/dF_b.
    const std::vector<double> g_force = fetch_values(exec, exec.data(g_force_), b3);
    for (int k = 0; k < 3; ++k)
      for (int b = 0; b < count_; ++b)
        p[ParamId::Gravity].grad[k] += density[b] * unit_[b].volume * g_force[size_t(k) * count_ + b];
    // The contact parameters' shares, after the particles'.
    p[ParamId::ContactStiffness].grad[0] += ordered_sum(fetch_values(exec, exec.data(g_stiffness_), count_));
    p[contact_damping_parameter(contact_)].grad[0] += ordered_sum(fetch_values(exec, exec.data(g_damping_), count_));
    p[ParamId::ContactFriction].grad[0] += ordered_sum(fetch_values(exec, exec.data(g_friction_), count_));
  }

private:
  // The body's shape as other bodies' points meet it: a collider at its centre, unturned.
  static Collider<T> shape_in_own_frame(const RigidBody& body) {
    Collider<T> c{};
    for (int k = 0; k < 9; ++k) c.rotation[k] = k % 4 == 0 ? T(1) : T(0);
    switch (body.shape) {
      case BodyShape::Sphere: c.type = ShapeType::Sphere, c.size[0] = static_cast<T>(body.radius); break;
      case BodyShape::Capsule:
        c.type = ShapeType::Capsule, c.size[0] = static_cast<T>(body.radius), c.size[1] = static_cast<T>(body.half_length);
        break;
      case BodyShape::Box:
        c.type = ShapeType::Box;
        for (int k = 0; k < 3; ++k) c.size[k] = static_cast<T>(body.half_extents[k]);
        break;
    }
    return c;
  }

  static double bounding_radius(const RigidBody& body) {
    switch (body.shape) {
      case BodyShape::Sphere: return body.radius;
      case BodyShape::Capsule: return body.half_length + body.radius;
      case BodyShape::Box: break;
    }
    const double* e = body.half_extents;
    return std::sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
  }

  using Array = typename Exec::template Array<T>;
  int count_, points_ = 0;
  ContactSettings contact_;
  std::vector<UnitMassProperties> unit_;
  Array mass_, inertia_, inv_inertia_, point_offset_, point_radius_, bound_;
  typename Exec::template Array<Collider<T>> shape_;
  typename Exec::template Array<int> point_start_;
  Array g_mass_, g_inertia_, g_inv_inertia_, g_force_, g_stiffness_, g_damping_, g_friction_;
};

}  // namespace nudge
