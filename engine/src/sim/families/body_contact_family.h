// Contact between rigid bodies (kernels/body_pair_contact.h), with the colliders'
// contact law and parameters. Every pair of bodies is tested (a bounding-sphere check
// first), except two bodies a joint joins unless the joint says they collide, and none
// when the scene's contact settings turn body contact off. A pair is one item or two
// (kernels/body_contact_model.h); one thread per item, writing its two coupling slots.
#pragma once

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "kernels/body_pair_kernels.h"
#include "nudge/scene.h"
#include "sim/backend.h"
#include "sim/soa.h"

namespace nudge {

// Beyond this many smoothing widths past touching, the softplus switch's force is below
// 4e-18 of its stiffness times the width: bodies (and particles) that far apart are
// skipped. A shorter reach was not exact enough: at 20 widths (2e-9) the cut moved with
// a particle's radius and central differences of a radius gradient of 3e-7 saw it.
inline constexpr double kBodyContactReachWidths = 40.0;

template <class T, Backend Exec>
class BodyContactFamily {
public:
  BodyContactFamily(const Scene& scene, const Exec& exec)
      : reach_(static_cast<T>(kBodyContactReachWidths * scene.contact.smoothing)), contact_(scene.contact) {
    for (const RigidBody& body : scene.bodies) volume_.push_back(unit_mass_properties(body).volume);
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
  const std::vector<std::pair<int, int>>& pairs() const { return items_; }

  BodyContactModel<T> model(const Exec& exec) const {
    BodyContactModel<T> bc;
    bc.count = count_;
    bc.point_body = exec.data(point_body_);
    bc.shape_body = exec.data(shape_body_);
    bc.reach = reach_;
    return bc;
  }

  void compute(const Exec& exec, const ModelView<T>& m, StateView<const T> s, int first) const {
    if (count_ > 0) exec.launch(count_, BodyPairContactKernel<T>{m, s, first});
  }

  void adjoint(const Exec& exec, const ModelView<T>& m, StateView<const T> s, const BodyContactGrad<T>& grad,
               int first) const {
    if (count_ > 0) exec.launch(count_, BodyPairContactAdjointKernel<T>{m, s, grad, first});
  }

  void zero_gradients(const Exec& exec) {
    if (count_ == 0) return;
    for (auto* a : {&g_stiffness_, &g_damping_, &g_friction_, &g_mass_point_, &g_mass_shape_}) {
      exec.resize(*a, size_t(count_));
      exec.zero(*a);
    }
  }

  BodyContactGrad<T> grad(const Exec& exec) {
    if (count_ == 0) return {};
    return {exec.data(g_stiffness_), exec.data(g_damping_), exec.data(g_friction_), exec.data(g_mass_point_),
            exec.data(g_mass_shape_)};
  }

  // The contact parameters' shares, after the particles' and the bodies' against colliders.
  void download_gradients(ParameterSet& p, const Exec& exec) const {
    if (count_ == 0) return;
    p[ParamId::ContactStiffness].grad[0] += ordered_sum(fetch_values(exec, exec.data(g_stiffness_), size_t(count_)));
    p[contact_damping_parameter(contact_)].grad[0] +=
        ordered_sum(fetch_values(exec, exec.data(g_damping_), size_t(count_)));
    p[ParamId::ContactFriction].grad[0] += ordered_sum(fetch_values(exec, exec.data(g_friction_), size_t(count_)));
    // The masses' shares (through a restitution's damping): m = rho V, after the bodies'.
    const std::vector<double> point = fetch_values(exec, exec.data(g_mass_point_), size_t(count_));
    const std::vector<double> shape = fetch_values(exec, exec.data(g_mass_shape_), size_t(count_));
    for (int i = 0; i < count_; ++i) {
      const auto [a, b] = items_[size_t(i)];
      p[ParamId::BodyDensity].grad[size_t(a)] += volume_[size_t(a)] * point[size_t(i)];
      p[ParamId::BodyDensity].grad[size_t(b)] += volume_[size_t(b)] * shape[size_t(i)];
    }
  }

private:
  // Spheres meet anything through their centre: one item, the sphere's points against the
  // other's shape. Boxes and capsules meet each other both ways, corners and ends
  // against the other's sides.
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
  std::vector<double> volume_;  // each body's mass per unit density
  int count_ = 0;
  std::vector<std::pair<int, int>> items_;
  typename Exec::template Array<int> point_body_, shape_body_;
  Array g_stiffness_, g_damping_, g_friction_, g_mass_point_, g_mass_shape_;
};

}  // namespace nudge
