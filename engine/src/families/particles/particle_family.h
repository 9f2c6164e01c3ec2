// Particles: their integrator (families/particles/particle_step.h), their parameters (initial
// state, mass, external force, gravity, drag) and gradients. Each step the interaction
// families (springs) compute their forces first; the particle pass then gathers them,
// adds the forces local to a particle (gravity, drag, the ground) and integrates. The
// adjoint runs the other way: the particle pass first, handing dL/dF (adj_f) to the
// interaction families' adjoints.
#pragma once

#include <vector>

#include "kernels/span_kernels.h"
#include "kernels/model.h"
#include "kernels/step_kernels.h"
#include "nudge/assert.h"
#include "nudge/scene.h"
#include "sim/backend.h"
#include "sim/step_pass.h"
#include "sim/soa.h"
#include "sim/state_layout.h"

namespace nudge {

template <class T, Backend Exec>
class ParticleFamily {
public:
  ParticleFamily(const Scene& scene, const Exec& exec) : n_(scene.particle_count()) {
    free_host_.resize(n_);
    for (int i = 0; i < n_; ++i) free_host_[i] = scene.pinned[i] ? T(0) : T(1);
    exec.upload(free_, free_host_);
  }

  int count() const { return n_; }

  void state_fields(std::vector<StateField>& out) const {
    out.push_back({StateArray::X, 3, n_, "particle", "position"});
    out.push_back({StateArray::V, 3, n_, "particle", "velocity"});
  }

  // The parameters of this forward pass, and the initial state; a pinned particle
  // starts at rest.
  void upload(const ParameterSet& p, StateView<T> initial, const Exec& exec) {
    NUDGE_ASSERT(p[ParamId::Mass].value.size() == size_t(n_) &&
                 p[ParamId::InitialPosition].value.size() == 3 * size_t(n_));
    exec.upload(mass_, std::vector<T>(p[ParamId::Mass].value.begin(), p[ParamId::Mass].value.end()));
    exec.upload(ext_force_, soa_from_triples<T>(p[ParamId::ExternalForce].value, n_));
    for (int k = 0; k < 3; ++k) gravity_[k] = static_cast<T>(p[ParamId::Gravity].value[k]);
    drag_ = static_cast<T>(p[ParamId::Drag].value[0]);
    std::vector<double> v0 = p[ParamId::InitialVelocity].value;
    for (int i = 0; i < n_; ++i)
      for (int k = 0; k < 3; ++k) v0[3 * i + k] *= static_cast<double>(free_host_[i]);
    exec.upload_to(initial.x, soa_from_triples<T>(p[ParamId::InitialPosition].value, n_));
    exec.upload_to(initial.v, soa_from_triples<T>(v0, n_));
  }

  void put_model(ModelView<T>& m, const Exec& exec) const {
    ParticleModel<T>& p = m.particles;
    p.n = n_;
    p.mass = exec.data(mass_);
    p.free = exec.data(free_);
    p.ext_force = exec.data(ext_force_);
    for (int k = 0; k < 3; ++k) p.gravity[k] = gravity_[k];
    p.drag = drag_;
  }

  // One step: gathers the interaction forces (the springs' m.springs.force, the element
  // families' corners), adds the local ones and integrates.
  void integrate_particles(const StepPass<T, Exec>& pass) const {
    const SpringModel<T>& sp = pass.m.springs;
    if (runs_spring_spans(pass.exec)) {
      if constexpr (kHasSpringSpans<Exec>)
        pass.exec.launch_blocks(sp.blocks, ParticleStepBlockKernel<T>{pass.m, pass.state, sp.force, pass.next,
                                                                      sp.block_start, sp.segments});
    } else {
      pass.exec.launch(n_, ParticleStepKernel<T>{pass.m, pass.state, sp.force, pass.next});
    }
  }

  // The particle half of a step's adjoint: adj holds dL/dstate_{t+1} on entry and the
  // local part of dL/dstate_t on return; adj_f receives dL/dF per particle.
  void adjoint_integrate_particles(const AdjointPass<T, Exec>& pass) const {
    // The velocities the forces gave: the stored ones, or before the time-of-impact ground.
    const T* v1 = pass.next.v_pre ? pass.next.v_pre : pass.next.v;
    if (has_local_contact(pass.m))
      adjoint<true>(pass.exec, pass.m, pass.state, v1, pass.adj, pass.adj_f, pass.grad);
    else
      adjoint<false>(pass.exec, pass.m, pass.state, v1, pass.adj, pass.adj_f, pass.grad);
  }

  void zero_gradients(const Exec& exec) {
    for (auto* a : {&g_mass_, &g_drag_}) exec.resize(*a, size_t(n_));
    exec.resize(g_ext_force_, 3 * size_t(n_));
    for (auto* a : {&g_mass_, &g_drag_, &g_ext_force_}) exec.zero(*a);
  }

  void put_grad(GradView<T>& g, const Exec& exec) {
    g.particles = {exec.data(g_mass_), exec.data(g_ext_force_), exec.data(g_drag_)};
  }

  // adj0: dL/dstate_0 (the initial state's adjoint), on the backend.
  void download_gradients(ParameterSet& p, StateView<const T> adj0, const Exec& exec) const {
    const size_t values = 3 * size_t(n_);
    p[ParamId::InitialPosition].grad = triples_from_soa(fetch_values(exec, adj0.x, values), n_);
    std::vector<double> av = triples_from_soa(fetch_values(exec, adj0.v, values), n_);
    for (int i = 0; i < n_; ++i)
      for (int k = 0; k < 3; ++k) av[3 * i + k] *= static_cast<double>(free_host_[i]);
    p[ParamId::InitialVelocity].grad = av;
    p[ParamId::Mass].grad = fetch_values(exec, exec.data(g_mass_), n_);
    p[ParamId::ExternalForce].grad = triples_from_soa(fetch_values(exec, exec.data(g_ext_force_), values), n_);
    // dL/dg = sum_i m_i dL/df_ext,i (see ParticleGrad)
    const std::vector<double>& ext = p[ParamId::ExternalForce].grad;  // n x 3
    const std::vector<double>& mass = p[ParamId::Mass].value;
    for (int k = 0; k < 3; ++k)
      for (int i = 0; i < n_; ++i) p[ParamId::Gravity].grad[k] += mass[i] * ext[3 * size_t(i) + k];
    p[ParamId::Drag].grad[0] = ordered_sum(fetch_values(exec, exec.data(g_drag_), n_));
  }

private:
  using Array = typename Exec::template Array<T>;

  template <bool kContact>
  void adjoint(const Exec& exec, const ModelView<T>& m, StateView<const T> state, const T* v1, StateView<T> adj,
               T* adj_f, const GradView<T>& grad) const {
    if (runs_spring_spans(exec)) {
      // Fixed blocks of one SIMD chunk, so where a vector loop starts never depends on the
      // thread count.
      const int blocks = (n_ + kChunkLanes<T> - 1) / kChunkLanes<T>;
      if constexpr (kHasSpringSpans<Exec>)
        exec.launch_blocks(blocks, ParticleAdjointBlockKernel<T, kContact>{m, state, v1, adj, adj_f, grad});
    } else {
      exec.launch(n_, ParticleAdjointKernel<T, kContact>{m, state, v1, adj, adj_f, grad});
    }
  }

  int n_;
  T gravity_[3] = {0, 0, 0};
  T drag_ = 0;
  std::vector<T> free_host_;  // the pinned mask (0 pinned, 1 free), kept on the host too
  Array free_, mass_, ext_force_;
  Array g_mass_, g_ext_force_, g_drag_;  // gradient accumulators (ParticleGrad)
};

}  // namespace nudge
