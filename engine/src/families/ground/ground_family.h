// The ground plane: smooth penalty contact and regularised Coulomb friction on every
// particle (families/ground/ground_contact.h). Its force is local to a particle, so its kernels
// run inside the particle family's passes; this module owns its settings, its two
// parameters (ground_stiffness, friction) and their per-particle gradient shares.
#pragma once

#include <vector>

#include "families/colliders/contact_report.h"
#include "families/ground/ground_contact.h"
#include "families/ground/ground_projection.h"
#include "kernels/model.h"
#include "nudge/scene.h"
#include "sim/backend.h"
#include "sim/step_pass.h"
#include "sim/soa.h"
#include "sim/state_layout.h"

namespace nudge {

template <class T, Backend Exec>
class GroundFamily {
public:
  GroundFamily(const Scene& scene, const Exec&) : ground_(scene.settings.ground), particles_(scene.particle_count()) {}

  bool enabled() const { return ground_.enabled; }

  // The time-of-impact ground keeps each particle's velocity before it, for the adjoint.
  void state_fields(std::vector<StateField>& out) const {
    if (ground_.enabled && ground_.contact == GroundContact::TimeOfImpact)
      out.push_back({StateArray::VPre, 3, particles_, "particle", "velocity before the ground"});
  }

  void upload(const ParameterSet& p, const Exec&) {
    stiffness_ = static_cast<T>(p[ParamId::GroundStiffness].value[0]);
    friction_ = static_cast<T>(p[ParamId::Friction].value[0]);
  }

  void put_model(ModelView<T>& m, const Exec&) const {
    GroundModel<T>& g = m.ground;
    g.enabled = ground_.enabled;
    g.projection = ground_.contact == GroundContact::Projection;
    g.time_of_impact = ground_.contact == GroundContact::TimeOfImpact;
    g.height = static_cast<T>(ground_.height);
    g.stiffness = stiffness_;
    g.damping = static_cast<T>(ground_.damping);
    g.friction = friction_;
    g.contact_smoothing = static_cast<T>(ground_.contact_smoothing);
    g.friction_smoothing = static_cast<T>(ground_.friction_smoothing);
  }

  // Live play: each particle within the contact's reach of the ground, with the penalty
  // force on it (none where the ground projects or stops particles: a constraint there).
  void contacts(const ModelView<T>& m, StateView<const T> s, std::vector<Contact>& out) const {
    if (!ground_.enabled) return;
    const T reach = ground_penalty(m.ground) ? smooth_reach(m.ground.contact_smoothing) : T(0);
    for (int i = 0; i < particles_; ++i) {
      const Vec3<T> x = load3(s.x, i, particles_), v = load3(s.v, i, particles_);
      const T depth = m.ground.height - x.y;
      if (depth < -reach) continue;
      const Vec3<T> f = ground_penalty(m.ground) ? contact_force(m.ground, x, v) : Vec3<T>{0, 0, 0};
      out.push_back(make_contact(Contact::Kind::ParticleGround, i, -1, Vec3<T>{x.x, m.ground.height, x.z}, f, depth));
    }
  }

  void zero_gradients(const Exec& exec) {
    for (auto* a : {&g_stiffness_, &g_friction_}) {
      exec.resize(*a, size_t(particles_));
      exec.zero(*a);
    }
  }

  void put_grad(GradView<T>& g, const Exec& exec) { g.ground = {exec.data(g_stiffness_), exec.data(g_friction_)}; }

  // The per-particle shares summed in particle order.
  void download_gradients(ParameterSet& p, const Exec& exec) const {
    p[ParamId::GroundStiffness].grad[0] = ordered_sum(fetch_values(exec, exec.data(g_stiffness_), particles_));
    p[ParamId::Friction].grad[0] = ordered_sum(fetch_values(exec, exec.data(g_friction_), particles_));
  }

private:
  using Array = typename Exec::template Array<T>;
  Ground ground_;
  int particles_;
  T stiffness_ = 0, friction_ = 0;
  Array g_stiffness_, g_friction_;  // n: per-particle shares
};

}  // namespace nudge
