// Static colliders that particles meet (families/colliders/collider_contact.h): planes, boxes,
// spheres and capsules. The contact force is local to a particle, so its kernels run
// inside the particle family's passes, like the ground's; this module places the
// shapes, owns the contact parameters (stiffness, damping, friction and each
// particle's radius) and their per-particle gradient shares.
#pragma once

#include <cmath>
#include <vector>

#include "families/colliders/collider_model.h"
#include "families/colliders/collider_placement.h"
#include "families/colliders/contact_report.h"
#include "kernels/model.h"
#include "nudge/scene.h"
#include "sim/backend.h"
#include "sim/step_pass.h"
#include "sim/soa.h"

namespace nudge {

template <class T, Backend Exec>
class ColliderFamily {
public:
  ColliderFamily(const Scene& scene, const Exec& exec)
      : particles_(scene.particle_count()), count_(static_cast<int>(scene.colliders.size())), contact_(scene.contact) {
    std::vector<Collider<T>> shapes;
    for (const ColliderShape& shape : scene.colliders) shapes.push_back(placed_collider<T>(shape));
    exec.upload(shapes_, shapes);
  }

  int count() const { return count_; }

  void upload(const ParameterSet& p, const Exec& exec) {
    const std::vector<double>& radius = p[ParamId::ParticleRadius].value;
    exec.upload(radius_, std::vector<T>(radius.begin(), radius.end()));
    stiffness_ = static_cast<T>(p[ParamId::ContactStiffness].value[0]);
    damping_ = static_cast<T>(p[ParamId::ContactDamping].value[0]);
    friction_ = static_cast<T>(p[ParamId::ContactFriction].value[0]);
    restitution_ = static_cast<T>(p[ParamId::ContactRestitution].value[0]);
  }

  ColliderModel<T> model(const Exec& exec) const {
    ColliderModel<T> cm;
    cm.count = count_;
    cm.shapes = exec.data(shapes_);
    cm.radius = exec.data(radius_);
    cm.stiffness = stiffness_;
    cm.damping = damping_;
    cm.friction = friction_;
    cm.smoothing = static_cast<T>(contact_.smoothing);
    cm.friction_smoothing = static_cast<T>(contact_.friction_smoothing);
    cm.damp_approach_only = contact_.damp_approach_only;
    cm.use_restitution = contact_.restitution;
    cm.restitution = restitution_;
    return cm;
  }

  void put_model(ModelView<T>& m, const Exec& exec) const { m.colliders = model(exec); }
  void put_grad(GradView<T>& g, const Exec& exec) { g.colliders = grad(exec); }

  // Live play: each particle within a collider's reach, with the force on it.
  void contacts(const ModelView<T>& m, StateView<const T> s, std::vector<Contact>& out) const {
    const ColliderModel<T>& cm = m.colliders;
    for (int i = 0; i < particles_; ++i) {
      const Vec3<T> x = load3(s.x, i, particles_), v = load3(s.v, i, particles_);
      for (int k = 0; k < cm.count; ++k) {
        const SphereTouch<T> touch = sphere_touch(cm.shapes[k], x, cm.radius[i]);
        if (touch.depth <= -smooth_reach(cm.smoothing)) continue;
        const Vec3<T> f = collider_contact_force(cm, cm.shapes[k], x, v, cm.radius[i], m.particles.mass[i]);
        out.push_back(make_contact(Contact::Kind::ParticleCollider, i, k, touch.point, f, touch.depth));
      }
    }
  }

  void zero_gradients(const Exec& exec) {
    for (auto* a : {&g_stiffness_, &g_damping_, &g_friction_, &g_radius_}) {
      exec.resize(*a, size_t(particles_));
      exec.zero(*a);
    }
  }

  ColliderGrad<T> grad(const Exec& exec) {
    return {exec.data(g_stiffness_), exec.data(g_damping_), exec.data(g_friction_), exec.data(g_radius_)};
  }

  void download_gradients(ParameterSet& p, const Exec& exec) const {
    p[ParamId::ParticleRadius].grad = fetch_values(exec, exec.data(g_radius_), particles_);
    p[ParamId::ContactStiffness].grad[0] = ordered_sum(fetch_values(exec, exec.data(g_stiffness_), particles_));
    p[contact_damping_parameter(contact_)].grad[0] = ordered_sum(fetch_values(exec, exec.data(g_damping_), particles_));
    p[ParamId::ContactFriction].grad[0] = ordered_sum(fetch_values(exec, exec.data(g_friction_), particles_));
  }

private:
  using Array = typename Exec::template Array<T>;

  int particles_, count_;
  ContactSettings contact_;
  T stiffness_ = 0, damping_ = 0, friction_ = 0, restitution_ = 1;
  typename Exec::template Array<Collider<T>> shapes_;
  Array radius_;
  Array g_stiffness_, g_damping_, g_friction_, g_radius_;  // gradient accumulators (ColliderGrad)
};

}  // namespace nudge
