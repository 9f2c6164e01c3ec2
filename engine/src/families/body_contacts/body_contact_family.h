// Contact between rigid bodies (families/body_contacts/body_pair_contact.h), with the colliders'
// contact law and parameters. Every pair of bodies is tested (a bounding-sphere check
// first), except two bodies a joint joins unless the joint says they collide, and none
// when the scene's contact settings turn body contact off. A pair is one item or two
// (families/body_contacts/body_contact_model.h); one thread per item, writing its two coupling slots.
#pragma once

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "families/colliders/contact_report.h"
#include "kernels/body_pair_kernels.h"
#include "families/bodies/body_family.h"
#include "nudge/scene.h"
#include "sim/backend.h"
#include "sim/step_pass.h"
#include "sim/soa.h"

namespace nudge {

template <class T, Backend Exec>
class BodyContactFamily {
public:
  BodyContactFamily(const Scene& scene, const Exec& exec)
      : reach_(static_cast<T>(kBodyContactReachWidths * scene.contact.smoothing)), contact_(scene.contact),
        bodies_(scene.bodies) {
    if (scene.contact.bodies) items_ = items_of(scene);
    count_ = static_cast<int>(items_.size());
    std::vector<int> point_body{0}, shape_body{0};  // valid pointers when there are no items
    if (count_ > 0) point_body.clear(), shape_body.clear();
    for (const auto& [a, b] : items_) point_body.push_back(a), shape_body.push_back(b);
    exec.upload(point_body_, point_body);
    exec.upload(shape_body_, shape_body);
  }

  int count() const { return count_; }

  // Each item's (point body, shape body).
  const std::vector<std::pair<int, int>>& coupling_pairs() const { return items_; }

  BodyContactModel<T> model(const Exec& exec) const {
    BodyContactModel<T> bc;
    bc.count = count_;
    bc.point_body = exec.data(point_body_);
    bc.shape_body = exec.data(shape_body_);
    bc.reach = reach_;
    return bc;
  }

  void put_model(ModelView<T>& m, const Exec& exec) const { m.body_contacts = model(exec); }
  void put_grad(GradView<T>& g, const Exec& exec) { g.body_contacts = grad(exec); }

  // Each contact's wrench on its two bodies into coupling slots [first, first + count).
  void couple_bodies(const StepPass<T, Exec>& pass, int first) const {
    if (count_ > 0) pass.exec.launch(count_, BodyPairContactKernel<T>{pass.m, pass.state, first});
  }

  void adjoint_couple_bodies(const AdjointPass<T, Exec>& pass, int first) const {
    if (count_ > 0)
      pass.exec.launch(count_, BodyPairContactAdjointKernel<T>{pass.m, pass.state, pass.grad.body_contacts, first});
  }

  // Live play: each contact point of an item's point body within the reach of its shape
  // body, with the force on the point body.
  void contacts(const ModelView<T>& m, StateView<const T> s, std::vector<Contact>& out) const {
    const BodyModel<T>& bm = m.bodies;
    for (const auto& [a, b] : items_) {
      const BodyState<T> sa = load_body(s, a, bm.count), sb = load_body(s, b, bm.count);
      if (bodies_apart(m, sa, sb, a, b)) continue;
      for (int j = bm.point_start[a]; j < bm.point_start[a + 1]; ++j) {
        const Vec3<T> offset = load3(bm.point_offset, j, bm.points);
        const SphereTouch<T> touch =
            sphere_touch_body(bm.shape[b], sb, sa.x + rotate(sa.q, offset), bm.point_radius[j]);
        if (touch.depth <= -smooth_reach(m.colliders.smoothing)) continue;
        const PairWrench<T> w =
            body_pair_contact(m.colliders, bm.shape[b], sa, sb, offset, bm.point_radius[j], bm.mass[a], bm.mass[b]);
        out.push_back(make_contact(Contact::Kind::BodyBody, a, b, touch.point, w.a.force, touch.depth));
      }
    }
  }

  void zero_gradients(const Exec& exec) {
    if (count_ == 0) return;
    for (auto* a : {&g_stiffness_, &g_damping_, &g_friction_, &g_mass_point_, &g_mass_shape_}) {
      exec.resize(*a, size_t(count_));
      exec.zero(*a);
    }
    for (auto* a : {&g_size_point_, &g_size_shape_}) {
      exec.resize(*a, 3 * size_t(count_));
      exec.zero(*a);
    }
  }

  BodyContactGrad<T> grad(const Exec& exec) {
    if (count_ == 0) return {};
    return {exec.data(g_stiffness_),  exec.data(g_damping_),    exec.data(g_friction_),  exec.data(g_mass_point_),
            exec.data(g_mass_shape_), exec.data(g_size_point_), exec.data(g_size_shape_)};
  }

  // The contact parameters' shares, after the particles' and the bodies' against colliders.
  void download_gradients(ParameterSet& p, const Exec& exec) const {
    if (count_ == 0) return;
    p[ParamId::ContactStiffness].grad[0] += ordered_sum(fetch_values(exec, exec.data(g_stiffness_), size_t(count_)));
    p[contact_damping_parameter(contact_)].grad[0] +=
        ordered_sum(fetch_values(exec, exec.data(g_damping_), size_t(count_)));
    p[ParamId::ContactFriction].grad[0] += ordered_sum(fetch_values(exec, exec.data(g_friction_), size_t(count_)));
    // The masses' shares (through a restitution's damping) and the sizes', after the bodies'.
    const std::vector<double> point = fetch_values(exec, exec.data(g_mass_point_), size_t(count_));
    const std::vector<double> shape = fetch_values(exec, exec.data(g_mass_shape_), size_t(count_));
    const std::vector<double> size_point = fetch_values(exec, exec.data(g_size_point_), 3 * size_t(count_));
    const std::vector<double> size_shape = fetch_values(exec, exec.data(g_size_shape_), 3 * size_t(count_));
    const size_t n = size_t(count_);
    for (size_t i = 0; i < n; ++i) {
      const auto [a, b] = items_[i];
      add_body_mass_gradient(p, bodies_[size_t(a)], a, point[i]);
      add_body_mass_gradient(p, bodies_[size_t(b)], b, shape[i]);
      const double adj_a[3] = {size_point[i], size_point[n + i], size_point[2 * n + i]};
      const double adj_b[3] = {size_shape[i], size_shape[n + i], size_shape[2 * n + i]};
      add_shape_size_gradient(p, bodies_[size_t(a)], a, adj_a);
      add_shape_size_gradient(p, bodies_[size_t(b)], b, adj_b);
    }
  }

private:
  // Spheres meet anything through their centre: one item, the sphere's points against the
  // other's shape. Boxes, capsules and meshes meet each other both ways, corners, ends
  // and vertices against the other's sides.
  static std::vector<std::pair<int, int>> items_of(const Scene& scene) {
    std::set<std::pair<int, int>> joined;
    for (const Joint& j : scene.joints)
      if (j.parent >= 0 && !j.collide) joined.insert({std::min(j.parent, j.child), std::max(j.parent, j.child)});
    std::vector<std::pair<int, int>> items;
    for (int a = 0; a < scene.body_count(); ++a)
      for (int b = a + 1; b < scene.body_count(); ++b) {
        if (joined.contains({a, b})) continue;
        const bool sphere_a = scene.bodies[size_t(a)].shape == BodyShape::Sphere;
        const bool sphere_b = scene.bodies[size_t(b)].shape == BodyShape::Sphere;
        if (sphere_a) {
          items.emplace_back(a, b);
        } else if (sphere_b) {
          items.emplace_back(b, a);
        } else {
          items.emplace_back(a, b);
          items.emplace_back(b, a);
        }
      }
    return items;
  }

  using Array = typename Exec::template Array<T>;
  T reach_;
  ContactSettings contact_;
  std::vector<RigidBody> bodies_;
  int count_ = 0;
  std::vector<std::pair<int, int>> items_;
  typename Exec::template Array<int> point_body_, shape_body_;
  Array g_stiffness_, g_damping_, g_friction_, g_mass_point_, g_mass_shape_, g_size_point_, g_size_shape_;
};

}  // namespace nudge
