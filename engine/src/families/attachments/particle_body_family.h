// Particles and rigid bodies acting on each other (families/attachments/particle_body.h): every
// particle against every body's shape when the scene's bodies collide, and particles
// attached to bodies. The particle's side of each force is local to the particle pass,
// the body's is summed by the body over the particles; so the step needs nothing of
// this module but the model, and the adjoint a pass over bodies after the particles'
// (each body adds what its state owes, given the particles' dL/dF). An attachment's
// offset is where the particle starts in its body's starting frame; its gradient flows
// on, on the host, to both starting positions and the body's starting orientation.
#pragma once

#include <vector>

#include "families/bodies/body_kernels.h"
#include "families/colliders/contact_report.h"
#include "nudge/scene.h"
#include "sim/backend.h"
#include "sim/step_pass.h"
#include "sim/by_body_lists.h"
#include "families/bodies/body_family.h"
#include "sim/soa.h"

namespace nudge {

template <class T, Backend Exec>
class ParticleBodyFamily {
public:
  ParticleBodyFamily(const Scene& scene, const Exec& exec)
      : n_(scene.particle_count()), bodies_(scene.body_count()), attachments_(scene.attachments),
        settings_(scene.joint_settings) {
    contact_ = scene.contact.bodies && n_ > 0 && bodies_ > 0;
    std::vector<int> attach_body(size_t(n_ > 0 ? n_ : 1), -1);
    std::vector<std::pair<int, int>> body_particle;
    for (const Attachment& a : attachments_) {
      attach_body[size_t(a.particle)] = a.body;
      body_particle.emplace_back(a.body, a.particle);
    }
    const ByBodyLists attached = group_by_body(bodies_, body_particle);
    exec.upload(attach_body_, attach_body);
    exec.upload(attached_start_, attached.start);
    exec.upload(attached_, attached.items);
  }

  bool active() const { return contact_ || !attachments_.empty(); }

  // Each attached particle's offset in its body's starting frame.
  void upload(const ParameterSet& p, const Exec& exec) {
    if (attachments_.empty()) return;
    std::vector<double> offset(3 * size_t(n_), 0.0);
    for (const Attachment& a : attachments_) {
      const Vec3<double> o = offset_of(p, a);
      for (int k = 0; k < 3; ++k) offset[size_t(k) * n_ + a.particle] = (&o.x)[k];
    }
    exec.upload(offset_, std::vector<T>(offset.begin(), offset.end()));
  }

  ParticleBodyModel<T> model(const Exec& exec) const {
    ParticleBodyModel<T> pb;
    pb.contact = contact_;
    pb.attachments = !attachments_.empty();
    pb.attach_body = exec.data(attach_body_);
    pb.attach_offset = exec.data(offset_);
    pb.attached_start = exec.data(attached_start_);
    pb.attached = exec.data(attached_);
    pb.stiffness = static_cast<T>(settings_.stiffness);
    pb.damping = static_cast<T>(settings_.damping);
    return pb;
  }

  void put_model(ModelView<T>& m, const Exec& exec) const { m.particle_bodies = model(exec); }
  void put_grad(GradView<T>& g, const Exec& exec) { g.particle_bodies = grad(exec); }

  // After the particles' adjoint: what each body's state owes to the particles.
  void gather_particle_body_adjoints(const AdjointPass<T, Exec>& pass) const {
    if (active() && bodies_ > 0)
      pass.exec.launch(bodies_,
                       BodyParticleAdjointKernel<T>{pass.m, pass.state, pass.adj_f, pass.adj, pass.grad.bodies});
  }

  // Live play: each particle within a body's reach (not the body it is attached to), with
  // the force on the particle.
  void contacts(const ModelView<T>& m, StateView<const T> s, std::vector<Contact>& out) const {
    if (!contact_) return;
    const BodyModel<T>& bm = m.bodies;
    for (int i = 0; i < n_; ++i) {
      const Vec3<T> x = load3(s.x, i, n_), v = load3(s.v, i, n_);
      const T radius = m.colliders.radius[i];
      for (int b = 0; b < bodies_; ++b) {
        const BodyState<T> sb = load_body(s, b, bodies_);
        if (particle_apart(m, i, x, sb, b)) continue;
        const SphereTouch<T> touch = sphere_touch_body(bm.shape[b], sb, x, radius);
        if (touch.depth <= -smooth_reach(m.colliders.smoothing)) continue;
        const Vec3<T> f = body_pair_contact(m.colliders, bm.shape[b], particle_as_body(x, v), sb, Vec3<T>{0, 0, 0},
                                            radius, m.particles.mass[i], bm.mass[b])
                              .a.force;
        out.push_back(make_contact(Contact::Kind::ParticleBody, i, b, touch.point, f, touch.depth));
      }
    }
  }

  void zero_gradients(const Exec& exec) {
    exec.resize(g_offset_, 3 * size_t(n_ > 0 ? n_ : 1));
    exec.zero(g_offset_);
  }

  ParticleBodyGrad<T> grad(const Exec& exec) { return {exec.data(g_offset_)}; }

  // offset = R_b0^T (x_i0 - x_b0): to the particle's and the body's starting positions and
  // the body's starting orientation (after the particle and body families wrote theirs).
  void download_gradients(ParameterSet& p, const Exec& exec) const {
    if (attachments_.empty()) return;
    const std::vector<double> g = fetch_values(exec, exec.data(g_offset_), 3 * size_t(n_));
    for (const Attachment& a : attachments_) {
      const Vec3<double> g_offset{g[size_t(a.particle)], g[size_t(n_) + a.particle], g[2 * size_t(n_) + a.particle]};
      const BodyPose body = body_start_pose(p, a.body);
      Quat<double> adj_q{0, 0, 0, 0};
      Vec3<double> adj_d{0, 0, 0};
      adj_inverse_rotate(body.q, particle_start(p, a.particle) - body.x, g_offset, adj_q, adj_d);
      for (int k = 0; k < 3; ++k) p[ParamId::InitialPosition].grad[3 * size_t(a.particle) + k] += (&adj_d.x)[k];
      add_body_start_gradient(p, a.body, -adj_d, adj_q);
    }
  }

private:
  static Vec3<double> particle_start(const ParameterSet& p, int i) {
    const double* x = &p[ParamId::InitialPosition].value[3 * size_t(i)];
    return {x[0], x[1], x[2]};
  }
  static Vec3<double> offset_of(const ParameterSet& p, const Attachment& a) {
    const BodyPose body = body_start_pose(p, a.body);
    return inverse_rotate(body.q, particle_start(p, a.particle) - body.x);
  }

  using Array = typename Exec::template Array<T>;
  int n_, bodies_;
  bool contact_ = false;
  std::vector<Attachment> attachments_;
  JointSettings settings_;
  typename Exec::template Array<int> attach_body_, attached_start_, attached_;
  Array offset_, g_offset_;
};

}  // namespace nudge
