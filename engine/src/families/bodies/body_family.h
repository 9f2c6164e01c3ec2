// Rigid bodies (families/bodies/body_step.h, body_kernels.h): spheres, boxes, capsules and convex
// meshes that move under gravity and meet the static colliders through contact points
// (a sphere's centre, a capsule's two end centres, with their radius; a box's eight
// corners; a mesh's hull vertices). Owns
// the bodies' mass properties (from shape and density), contact points, initial state
// and gradients. One thread per body on both backends; a body reads and writes only its
// own slots, so the result does not depend on threads.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "families/bodies/body_kernels.h"
#include "families/colliders/contact_report.h"
#include "nudge/scene.h"
#include "sim/backend.h"
#include "sim/step_pass.h"
#include "sim/soa.h"
#include "sim/state_layout.h"

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

// Adds dL/d(shape size) of body b (ShapeSize's order) to the size parameters it lives in.
inline void add_shape_size_gradient(ParameterSet& p, const RigidBody& body, int b, const double adj_size[3]) {
  const std::vector<ShapeSizeEntry> entries = shape_size_entries(body.shape);
  for (size_t k = 0; k < entries.size(); ++k) {
    Parameter& param = p[entries[k].param];
    param.grad[size_t(b) * size_t(param.cols) + size_t(entries[k].col)] += adj_size[k];
  }
}

// Adds dL/dm of body b's mass to its density's and sizes' gradients: m = rho V(size).
inline void add_body_mass_gradient(ParameterSet& p, const RigidBody& body, int b, double adj_mass) {
  const ShapeSize size = body_shape_size(body, p, b);
  const double rho = p[ParamId::BodyDensity].value[size_t(b)];
  p[ParamId::BodyDensity].grad[size_t(b)] += unit_mass_properties(body, size).volume * adj_mass;
  const std::array<UnitMassProperties, 3> d = unit_mass_derivatives(body, size);
  const double adj_size[3] = {rho * d[0].volume * adj_mass, rho * d[1].volume * adj_mass, rho * d[2].volume * adj_mass};
  add_shape_size_gradient(p, body, b, adj_size);
}

template <class T, Backend Exec>
class BodyFamily {
public:
  BodyFamily(const Scene& scene, const Exec& exec)
      : count_(scene.body_count()), bodies_(scene.bodies), contact_(scene.contact) {
    // A contact point's offset is base + sign * size, its radius size[0] where it has one
    // (ShapeSize's order): the signs and flags are fixed, the sizes are parameters.
    std::vector<int> start{0};
    std::vector<double> signs;  // xyz triples
    std::vector<T> sized_radius;
    std::vector<T> planes;  // every mesh body's face planes, 4 values each
    std::vector<int> plane_start;
    for (const RigidBody& body : scene.bodies) {
      const auto add = [&](double sx, double sy, double sz, double base_x, double base_y, double base_z, bool radius) {
        signs.insert(signs.end(), {sx, sy, sz});
        point_base_.insert(point_base_.end(), {base_x, base_y, base_z});
        sized_radius.push_back(radius ? T(1) : T(0));
      };
      switch (body.shape) {
        case BodyShape::Sphere: add(0, 0, 0, 0, 0, 0, true); break;
        case BodyShape::Capsule:
          add(0, 1, 0, 0, 0, 0, true);
          add(0, -1, 0, 0, 0, 0, true);
          break;
        case BodyShape::Box:
          for (int corner = 0; corner < 8; ++corner)
            add(corner & 1 ? 1 : -1, corner & 2 ? 1 : -1, corner & 4 ? 1 : -1, 0, 0, 0, false);
          break;
        case BodyShape::Mesh:
          for (const auto& v : body.mesh->hull.vertices) add(0, 0, 0, v[0], v[1], v[2], false);
          break;
      }
      start.push_back(static_cast<int>(sized_radius.size()));
      plane_start.push_back(static_cast<int>(planes.size()));
      if (body.shape == BodyShape::Mesh)
        for (const ConvexPlane& f : body.mesh->hull.planes)
          planes.insert(planes.end(), {static_cast<T>(f.normal[0]), static_cast<T>(f.normal[1]),
                                       static_cast<T>(f.normal[2]), static_cast<T>(f.offset)});
    }
    points_ = static_cast<int>(sized_radius.size());
    point_sign_ = signs;
    point_start_host_ = start;
    if (planes.empty()) planes.push_back(T(0));  // a valid pointer
    exec.upload(planes_, planes);
    for (size_t b = 0; b < plane_start.size(); ++b) plane_of_.push_back(exec.data(planes_) + plane_start[b]);
    exec.upload(point_start_, start);
    exec.upload(point_sign_array_, soa_from_triples<T>(signs, points_));
    exec.upload(point_sized_radius_, sized_radius);
  }

  int count() const { return count_; }

  // Centre of mass, orientation (x, y, z, w), linear and angular velocity (world frame).
  void state_fields(std::vector<StateField>& out) const {
    out.push_back({StateArray::BodyX, 3, count_, "body", "body position"});
    out.push_back({StateArray::BodyQ, 4, count_, "body", "body orientation"});
    out.push_back({StateArray::BodyV, 3, count_, "body", "body velocity"});
    out.push_back({StateArray::BodyW, 3, count_, "body", "body angular velocity"});
  }

  // From each body's size: its contact points, its shape and bounding sphere; with its
  // density, its mass and inertia; and the initial state (orientations normalised).
  void upload(const ParameterSet& p, StateView<T> initial, const Exec& exec) {
    if (count_ == 0) return;
    upload_shapes(p, exec);
    const std::vector<double>& density = p[ParamId::BodyDensity].value;
    std::vector<T> mass(count_), inertia(9 * size_t(count_), T(0)), inv_inertia(9 * size_t(count_), T(0));
    for (int b = 0; b < count_; ++b) {
      const UnitMassProperties& unit = unit_[size_t(b)];
      mass[b] = static_cast<T>(density[b] * unit.volume);
      for (int k = 0; k < 9; ++k) {
        inertia[size_t(k) * count_ + b] = static_cast<T>(density[b] * unit.inertia[k]);
        // A diagonal tensor's inverse is 1 / (rho M_kk) on the diagonal, to the last bit.
        inv_inertia[size_t(k) * count_ + b] =
            static_cast<T>(is_diagonal(unit) ? (k % 4 == 0 ? 1.0 / (density[b] * unit.inertia[k]) : 0.0)
                                             : unit_inverse_[size_t(b)][k] / density[b]);
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
    bm.point_sign = exec.data(point_sign_array_);
    bm.point_sized_radius = exec.data(point_sized_radius_);
    bm.points = points_;
    bm.shape = exec.data(shape_);
    bm.bound = exec.data(bound_);
    return bm;
  }

  void put_model(ModelView<T>& m, const Exec& exec) const { m.bodies = model(exec); }
  void put_grad(GradView<T>& g, const Exec& exec) { g.bodies = grad(exec); }

  // Each body gathers its coupling slots' wrenches and the particles' forces, and integrates.
  void integrate_bodies(const StepPass<T, Exec>& pass) const {
    pass.exec.launch(count_, BodyStepKernel<T>{pass.m, pass.state, pass.next});
  }

  // First in a step's adjoint: it needs the step's whole wrench, and leaves the bodies'
  // dL/dwrench in the coupling slots for the particles' and the couplings' adjoints.
  void adjoint_integrate_bodies(const AdjointPass<T, Exec>& pass) const {
    pass.exec.launch(count_, BodyAdjointKernel<T>{pass.m, pass.state, pass.adj, pass.grad.bodies});
  }

  // Last: after the joints' and body contacts' adjoints, each body adds its slots' share.
  void gather_body_adjoints(const AdjointPass<T, Exec>& pass) const {
    if (pass.m.coupling.slots > 0) pass.exec.launch(count_, BodyGatherAdjointKernel<T>{pass.m, pass.adj});
  }

  // Live play: each contact point of each body within a collider's reach, with its force.
  void contacts(const ModelView<T>& m, StateView<const T> s, std::vector<Contact>& out) const {
    const BodyModel<T>& bm = m.bodies;
    const ColliderModel<T>& cm = m.colliders;
    for (int b = 0; b < bm.count; ++b) {
      const BodyState<T> sb = load_body(s, b, bm.count);
      for (int j = bm.point_start[b]; j < bm.point_start[b + 1]; ++j) {
        const Vec3<T> offset = load3(bm.point_offset, j, bm.points);
        const Vec3<T> p = sb.x + rotate(sb.q, offset);
        for (int c = 0; c < cm.count; ++c) {
          const SphereTouch<T> touch = sphere_touch(cm.shapes[c], p, bm.point_radius[j]);
          if (touch.depth <= -smooth_reach(cm.smoothing)) continue;
          const Wrench<T> w = body_point_contact(cm, cm.shapes[c], sb, offset, bm.point_radius[j], bm.mass[b]);
          out.push_back(make_contact(Contact::Kind::BodyCollider, b, c, touch.point, w.force, touch.depth));
        }
      }
    }
  }

  void zero_gradients(const Exec& exec) {
    const size_t b = size_t(count_);
    for (auto* a : {&g_mass_, &g_stiffness_, &g_damping_, &g_friction_}) exec.resize(*a, b);
    for (auto* a : {&g_inertia_, &g_inv_inertia_}) exec.resize(*a, 9 * b);
    exec.resize(g_force_, 3 * b);
    exec.resize(g_size_, 3 * b);
    for (auto* a :
         {&g_mass_, &g_stiffness_, &g_damping_, &g_friction_, &g_inertia_, &g_inv_inertia_, &g_force_, &g_size_})
      exec.zero(*a);
  }

  BodyGrad<T> grad(const Exec& exec) {
    return {exec.data(g_mass_),      exec.data(g_inertia_), exec.data(g_inv_inertia_), exec.data(g_force_),
            exec.data(g_stiffness_), exec.data(g_damping_), exec.data(g_friction_),    exec.data(g_size_)};
  }

  // adj0: dL/dstate_0. Density reaches the loss through the mass and the inertia:
  // m = rho V, I = rho M, I^-1 = M^-1 / rho.
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
    const std::vector<double> g_size = fetch_values(exec, exec.data(g_size_), b3);
    const std::vector<double>& density = p[ParamId::BodyDensity].value;
    for (int b = 0; b < count_; ++b) {
      const double rho = density[b];
      // I = rho M, I^-1 = M^-1 / rho: dL/dM = rho dL/dI - M^-T dL/dI^-1 M^-T / rho, and for
      // the density dL/drho = sum M . dL/dI - sum M^-1 . dL/dI^-1 / rho^2.
      double adj_rho = unit_[size_t(b)].volume * g_mass[b];
      for (int k = 0; k < 9; ++k) {
        const size_t at = size_t(k) * count_ + b;
        adj_rho += unit_[size_t(b)].inertia[k] * g_inertia[at] - unit_inverse_[size_t(b)][k] * g_inv[at] / (rho * rho);
      }
      p[ParamId::BodyDensity].grad[b] = adj_rho;
      // The sizes: through the contact points and the shape (the kernels' share), and
      // through the mass and the diagonal inertia (primitive shapes have no other entries).
      double adj_size[3] = {g_size[size_t(b)], g_size[size_t(count_) + b], g_size[2 * size_t(count_) + b]};
      for (int s = 0; s < 3; ++s) {
        const UnitMassProperties& d = unit_derivative_[size_t(b)][size_t(s)];
        adj_size[s] += rho * d.volume * g_mass[b];
        for (int k = 0; k < 3; ++k) {
          const size_t at = size_t(4 * k) * count_ + b;
          const double moment = unit_[size_t(b)].inertia[4 * k];
          adj_size[s] +=
              rho * d.inertia[4 * k] * g_inertia[at] - d.inertia[4 * k] / (rho * moment * moment) * g_inv[at];
        }
      }
      add_shape_size_gradient(p, bodies_[size_t(b)], b, adj_size);
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
  // Each body's contact points, shape and bounding sphere, and its mass properties per
  // unit density, at the sizes the parameters give.
  void upload_shapes(const ParameterSet& p, const Exec& exec) {
    std::vector<double> offsets(3 * size_t(points_));
    std::vector<T> radius(static_cast<size_t>(points_)), bound(static_cast<size_t>(count_));
    std::vector<Collider<T>> shapes;
    unit_.clear(), unit_inverse_.clear(), unit_derivative_.clear();
    for (int b = 0; b < count_; ++b) {
      const RigidBody& body = bodies_[size_t(b)];
      const ShapeSize size = body_shape_size(body, p, b);
      for (int j = point_start_host_[size_t(b)]; j < point_start_host_[size_t(b) + 1]; ++j) {
        for (int k = 0; k < 3; ++k)
          offsets[3 * size_t(j) + k] =
              point_base_[3 * size_t(j) + k] + point_sign_[3 * size_t(j) + k] * size[size_t(k)];
        radius[size_t(j)] =
            body.shape == BodyShape::Sphere || body.shape == BodyShape::Capsule ? static_cast<T>(size[0]) : T(0);
      }
      shapes.push_back(shape_in_own_frame(body, size, plane_of_[size_t(b)]));
      bound[size_t(b)] = static_cast<T>(body_reach(body, size));
      unit_.push_back(unit_mass_properties(body, size));
      unit_inverse_.push_back(inverse_of(unit_.back()));
      unit_derivative_.push_back(unit_mass_derivatives(body, size));
    }
    exec.upload(point_offset_, soa_from_triples<T>(offsets, points_));
    exec.upload(point_radius_, radius);
    exec.upload(shape_, shapes);
    exec.upload(bound_, bound);
  }

  // The body's shape as other bodies' points meet it: a collider at its centre, unturned;
  // a mesh's faces are at `planes`.
  static Collider<T> shape_in_own_frame(const RigidBody& body, const ShapeSize& size, const T* planes) {
    Collider<T> c{};
    for (int k = 0; k < 9; ++k) c.rotation[k] = k % 4 == 0 ? T(1) : T(0);
    for (int k = 0; k < 3; ++k) c.size[k] = static_cast<T>(size[size_t(k)]);
    switch (body.shape) {
      case BodyShape::Sphere: c.type = ShapeType::Sphere; break;
      case BodyShape::Capsule: c.type = ShapeType::Capsule; break;
      case BodyShape::Box: c.type = ShapeType::Box; break;
      case BodyShape::Mesh:
        c.type = ShapeType::Convex, c.planes = planes, c.plane_count = static_cast<int>(body.mesh->hull.planes.size());
        break;
    }
    return c;
  }

  static bool is_diagonal(const UnitMassProperties& u) {
    return u.inertia[1] == 0 && u.inertia[2] == 0 && u.inertia[3] == 0 && u.inertia[5] == 0 && u.inertia[6] == 0 &&
           u.inertia[7] == 0;
  }

  // M^-1 of the unit-density inertia tensor M.
  static std::array<double, 9> inverse_of(const UnitMassProperties& u) {
    std::array<double, 9> out{};
    if (is_diagonal(u)) {
      for (int k = 0; k < 3; ++k) out[size_t(4 * k)] = 1.0 / u.inertia[4 * k];
      return out;
    }
    Mat33<double> m;
    for (int k = 0; k < 9; ++k) m.m[k] = u.inertia[k];
    const Mat33<double> inv = inverse(m);
    for (int k = 0; k < 9; ++k) out[size_t(k)] = inv.m[k];
    return out;
  }

  using Array = typename Exec::template Array<T>;
  int count_, points_ = 0;
  std::vector<RigidBody> bodies_;
  ContactSettings contact_;
  // Each contact point: offset = base + sign * size (xyz triples), body b's are
  // [point_start_host_[b], point_start_host_[b + 1]).
  std::vector<double> point_base_, point_sign_;
  std::vector<int> point_start_host_;
  std::vector<const T*> plane_of_;  // each body's first face plane in planes_
  // At the last upload's sizes: mass properties per unit density, the inertia's inverse
  // and their derivatives with respect to the shape's size.
  std::vector<UnitMassProperties> unit_;
  std::vector<std::array<double, 9>> unit_inverse_;
  std::vector<std::array<UnitMassProperties, 3>> unit_derivative_;
  Array planes_;  // the mesh bodies' face planes, which their shapes point into
  Array mass_, inertia_, inv_inertia_, point_offset_, point_radius_, point_sign_array_, point_sized_radius_, bound_;
  typename Exec::template Array<Collider<T>> shape_;
  typename Exec::template Array<int> point_start_;
  Array g_mass_, g_inertia_, g_inv_inertia_, g_force_, g_stiffness_, g_damping_, g_friction_, g_size_;
};

}  // namespace nudge
