// A rollout of one scene on one backend: runs the steps, records what the backward pass
// needs (every state, or a checkpoint every K steps that the backward pass recomputes
// from), evaluates the objectives, and runs the adjoint kernels in reverse.
//
// States and every array of 3-vectors are kept as structures of arrays (3 x n: all x,
// then all y, then all z), so that kernels read contiguous components; the public
// interface (parameters, gradients, Trajectory) uses xyz triples (n x 3) and is
// converted at the boundary.
//
// Exec is the backend: it owns memory (Exec::Array<T>), moves data to and from the host,
// and launches a kernel functor over an index range. CpuExec and CudaExec implement it.
#pragma once

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "cpu/span_kernels.h"
#include "kernels/step_kernels.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "sim/objectives.h"

namespace nudge {

// How often the forward pass looks for NaN or Inf when it stores every state.
inline constexpr int kFiniteCheckInterval = 64;
// Runs of springs shorter than this stay loose; spans of springs hold at most kMaxSpan.
inline constexpr int kMinSpringRun = 8;
inline constexpr int kMaxSpan = 64;

template <class T, class Exec>
class Rollout {
public:
  template <class U>
  using Array = typename Exec::template Array<U>;

  Rollout(const Scene& scene, Exec exec, int checkpoint_every)
      : exec_(std::move(exec)), objectives_(scene), n_(scene.particle_count()), s_(scene.spring_count()),
        steps_(scene.settings.steps), channels_(scene.channels),
        checkpoint_every_(checkpoint_every > 0 && checkpoint_every < steps_ ? checkpoint_every : 0) {
    upload_topology(scene);
    ground_ = scene.settings.ground;
    dt_ = static_cast<T>(scene.settings.dt);
    const size_t state = size_t(n_) * 3;
    const size_t stored = checkpoint_every_ ? size_t((steps_ - 1) / checkpoint_every_ + 1) : size_t(steps_ + 1);
    exec_.resize(xs_, stored * state);
    exec_.resize(vs_, stored * state);
    if (checkpoint_every_) {
      exec_.resize(seg_x_, size_t(checkpoint_every_ + 1) * state);
      exec_.resize(seg_v_, size_t(checkpoint_every_ + 1) * state);
    }
    exec_.resize(fs_, spring_values_size());
    exec_.resize(adj_x_, state);
    exec_.resize(adj_v_, state);
    exec_.resize(adj_f_, state);
    exec_.resize(adj_d_, spring_values_size());
    exec_.resize(adj_dv_, spring_values_size());
    exec_.resize(adj_rest_eff_, size_t(s_));
  }

  // Runs the rollout with these parameter values and returns the loss.
  Result<Evaluation> forward(const ParameterSet& params) {
    upload_parameters(params);
    Evaluation eval;
    eval.term_loss.assign(objectives_.term_count(), 0.0);
    observe(0, state_x(0), state_v(0), eval.term_loss);
    if (!checkpoint_every_) {
      int last_checked = 0;
      for (int t = 0; t < steps_; ++t) {
        step(t, state_x(t), state_v(t), state_x(t + 1), state_v(t + 1));
        if ((t + 1) % kFiniteCheckInterval == 0 || t + 1 == steps_) {
          if (auto error = find_non_finite(last_checked + 1, t + 1, [&](int k) { return state_x(k); },
                                           [&](int k) { return state_v(k); }))
            return *error;
          last_checked = t + 1;
        }
        observe(t + 1, state_x(t + 1), state_v(t + 1), eval.term_loss);
      }
    } else {
      for (int seg = 0, t0 = 0; t0 < steps_; ++seg, t0 += checkpoint_every_) {
        const int len = run_segment(seg, t0);
        if (auto error = find_non_finite(t0 + 1, t0 + len, [&](int k) { return seg_x(k - t0); },
                                         [&](int k) { return seg_v(k - t0); }))
          return *error;
        for (int j = 1; j <= len; ++j) observe(t0 + j, seg_x(j), seg_v(j), eval.term_loss);
        if (t0 + len < steps_) {  // the next segment starts from this state
          exec_.copy(state_x(seg + 1), seg_x(len), size_t(n_) * 3);
          exec_.copy(state_v(seg + 1), seg_v(len), size_t(n_) * 3);
        }
      }
    }
    objectives_.add_param_loss(params, eval.term_loss);
    for (double l : eval.term_loss) eval.loss += l;
    if (!std::isfinite(eval.loss)) return Error{"the loss is not finite (" + std::to_string(eval.loss) + ")"};
    return eval;
  }

  // The backward pass for the parameters of the last forward(); writes every gradient.
  //
  // horizon W in (0, steps) truncates it: the adjoint runs through steps steps-1 down to
  // steps-W only and is then dropped, as if the state at steps-W were a constant. So the
  // initial-state gradients are 0, parameters' gradients sum over the window's steps
  // only, and objectives observed before steps-W contribute nothing through the state;
  // terms on parameters alone (control effort, add_param_grad) still count in full.
  // Inside the window every adjoint, and so every recorded dL/dx_t, is the full one.
  //
  // adjoints, when given, receives dL/dx_t and dL/dv_t for each step t the adjoint
  // reaches: the running adjoint after step t's adjoint and the objectives' injection at
  // t. Without it and without a horizon this is exactly the untruncated pass.
  void backward(ParameterSet& params, int horizon, StateAdjoints* adjoints) {
    const size_t state = size_t(n_) * 3;
    const int first = horizon > 0 && horizon < steps_ ? steps_ - horizon : 0;  // the window's first step
    exec_.zero(adj_x_);
    exec_.zero(adj_v_);
    zero_gradients();
    if (adjoints) start_recording(*adjoints);
    const GradView<T> grad = grad_view();
    // The adjoint arrives at the state of step t: add the objectives' share, record it.
    const auto arrive = [&](int t, const T* x, const T* v) {
      inject(t, x, v);
      if (adjoints) record(t, *adjoints);
    };
    if (!checkpoint_every_) {
      arrive(steps_, state_x(steps_), state_v(steps_));
      for (int t = steps_ - 1; t >= first; --t) {
        adjoint_step(t, state_x(t), state_v(t), state_v(t + 1), grad);
        arrive(t, state_x(t), state_v(t));
      }
    } else {
      const int segments = (steps_ - 1) / checkpoint_every_ + 1;
      for (int seg = segments - 1; seg >= first / checkpoint_every_; --seg) {  // segments the window reaches
        const int t0 = seg * checkpoint_every_;
        const int len = run_segment(seg, t0);  // recompute: same kernels, same inputs, same bits
        if (seg == segments - 1) arrive(steps_, seg_x(len), seg_v(len));
        for (int j = len - 1; j >= std::max(0, first - t0); --j) {
          adjoint_step(t0 + j, seg_x(j), seg_v(j), seg_v(j + 1), grad);
          arrive(t0 + j, seg_x(j), seg_v(j));
        }
      }
    }
    if (first > 0) {  // truncated: the state adjoint stops at the window's first state
      exec_.zero(adj_x_);
      exec_.zero(adj_v_);
    }
    download_gradients(params, state);
    objectives_.add_param_grad(params);
  }

  // Every state of the last forward(), in double.
  Trajectory trajectory() {
    Trajectory traj;
    traj.steps = steps_;
    traj.particles = n_;
    traj.dt = static_cast<double>(dt_);
    const size_t state = size_t(n_) * 3;
    traj.x.resize((steps_ + 1) * state);
    traj.v.resize((steps_ + 1) * state);
    std::vector<T> hx(state), hv(state);
    auto append = [&](int t, const T* x, const T* v) {
      exec_.download(x, state, hx.data());
      exec_.download(v, state, hv.data());
      const std::vector<double> x_aos = to_triples(hx), v_aos = to_triples(hv);
      std::copy(x_aos.begin(), x_aos.end(), traj.x.begin() + t * state);
      std::copy(v_aos.begin(), v_aos.end(), traj.v.begin() + t * state);
    };
    if (!checkpoint_every_) {
      for (int t = 0; t <= steps_; ++t) append(t, state_x(t), state_v(t));
    } else {
      for (int seg = 0, t0 = 0; t0 < steps_; ++seg, t0 += checkpoint_every_) {
        const int len = run_segment(seg, t0);
        for (int j = (seg == 0 ? 0 : 1); j <= len; ++j) append(t0 + j, seg_x(j), seg_v(j));
      }
    }
    return traj;
  }

private:
  T* state_x(int slot) { return exec_.data(xs_) + size_t(slot) * n_ * 3; }
  T* state_v(int slot) { return exec_.data(vs_) + size_t(slot) * n_ * 3; }
  T* seg_x(int j) { return exec_.data(seg_x_) + size_t(j) * n_ * 3; }
  T* seg_v(int j) { return exec_.data(seg_v_) + size_t(j) * n_ * 3; }

  // Sizes the recording for this rollout; steps the adjoint does not reach stay zero.
  void start_recording(StateAdjoints& out) const {
    const size_t values = size_t(steps_ + 1) * n_ * 3;
    out.steps = steps_;
    out.particles = n_;
    out.x.assign(values, 0.0);
    out.v.assign(values, 0.0);
  }

  // Copies the running adjoint, dL/dx_t and dL/dv_t, into the recording as xyz triples.
  // On a GPU this is a download per step.
  void record(int t, StateAdjoints& out) {
    const size_t state = size_t(n_) * 3;
    const T* ax = exec_.host_view(exec_.data(adj_x_), state, host_adj_x_);
    const T* av = exec_.host_view(exec_.data(adj_v_), state, host_adj_v_);
    double* x = out.x.data() + size_t(t) * state;
    double* v = out.v.data() + size_t(t) * state;
    for (int i = 0; i < n_; ++i)
      for (int k = 0; k < 3; ++k) {
        x[3 * size_t(i) + k] = static_cast<double>(ax[size_t(k) * n_ + i]);
        v[3 * size_t(i) + k] = static_cast<double>(av[size_t(k) * n_ + i]);
      }
  }

  // Recomputes segment `seg` (starting at step t0) from its checkpoint into the segment
  // buffer; returns its length in steps.
  int run_segment(int seg, int t0) {
    const int len = std::min(checkpoint_every_, steps_ - t0);
    exec_.copy(seg_x(0), state_x(seg), size_t(n_) * 3);
    exec_.copy(seg_v(0), state_v(seg), size_t(n_) * 3);
    for (int j = 0; j < len; ++j) step(t0 + j, seg_x(j), seg_v(j), seg_x(j + 1), seg_v(j + 1));
    return len;
  }

  void step(int t, const T* x, const T* v, T* x1, T* v1) {
    const ModelView<T> m = model_view();
    T* fs = spring_values(fs_);
    const SpringForceKernel<T> forces{m, t, x, v, fs};
    if constexpr (Exec::kSpringRuns) {
      exec_.launch_blocks(spans(), SpringSpanKernel<SpringForceKernel<T>>{forces, layout_.spans.data()});
      exec_.launch_blocks(layout_.blocks(), ParticleStepBlockKernel<T>{m, x, v, fs, x1, v1, layout_.block_start.data(),
                                                                        layout_.segments.data()});
    } else {
      if (s_ > 0) exec_.launch(s_, forces);
      exec_.launch(n_, ParticleStepKernel<T>{m, x, v, fs, x1, v1});
    }
  }

  int spans() const { return static_cast<int>(layout_.spans.size()); }

  size_t spring_values_size() const { return 2 * size_t(kChunkLanes<T>) + size_t(s_) * 3; }
  T* spring_values(Array<T>& a) { return exec_.data(a) + kChunkLanes<T>; }

  // One step's adjoint: from dL/dx_{t+1}, dL/dv_{t+1} in adj_x_, adj_v_ to dL/dx_t, dL/dv_t.
  // x, v: the state at t; v1: the velocity at t + 1.
  void adjoint_step(int t, const T* x, const T* v, const T* v1, const GradView<T>& grad) {
    if (ground_.enabled) adjoint_step<true>(t, x, v, v1, grad);
    else adjoint_step<false>(t, x, v, v1, grad);
  }

  template <bool kContact>
  void adjoint_step(int t, const T* x, const T* v, const T* v1, const GradView<T>& grad) {
    const ModelView<T> m = model_view();
    T *adj_x = exec_.data(adj_x_), *adj_v = exec_.data(adj_v_), *adj_f = exec_.data(adj_f_);
    if constexpr (Exec::kSpringRuns)
      exec_.launch_blocks(layout_.blocks(), ParticleAdjointBlockKernel<T, kContact>{m, x, v, v1, adj_x, adj_v, adj_f, grad});
    else
      exec_.launch(n_, ParticleAdjointKernel<T, kContact>{m, x, v, v1, adj_x, adj_v, adj_f, grad});
    if (s_ == 0) return;
    T *adj_d = spring_values(adj_d_), *adj_dv = spring_values(adj_dv_);
    T* adj_rest_eff = exec_.data(adj_rest_eff_);
    const SpringAdjointKernel<T> springs{m, t, x, v, adj_f, adj_d, adj_dv, adj_rest_eff, grad};
    if constexpr (Exec::kSpringRuns) {
      exec_.launch_blocks(spans(), SpringSpanKernel<SpringAdjointKernel<T>>{springs, layout_.spans.data()});
      exec_.launch_blocks(layout_.blocks(), ParticleGatherBlockKernel<T>{m, adj_d, adj_dv, adj_x, adj_v,
                                                                          layout_.block_start.data(),
                                                                          layout_.segments.data()});
    } else {
      exec_.launch(s_, springs);
      exec_.launch(n_, ParticleGatherKernel<T>{m, adj_d, adj_dv, adj_x, adj_v});
    }
    if (channels_ > 0)
      exec_.launch(channels_, ControlAdjointKernel<T>{m, t, exec_.data(channel_start_), exec_.data(channel_spring_),
                                                      exec_.data(adj_rest_eff_), grad.controls});
  }

  bool observed(int t) const {
    const auto& steps = objectives_.observed_steps();
    return std::binary_search(steps.begin(), steps.end(), t);
  }

  void observe(int t, const T* x, const T* v, std::vector<double>& term_loss) {
    if (!observed(t)) return;
    const size_t state = size_t(n_) * 3;
    const T* hx = exec_.host_view(x, state, host_x_);
    const T* hv = exec_.host_view(v, state, host_v_);
    objectives_.add_state_loss(t, hx, hv, term_loss);
  }

  // Adds the objectives' dL/dx_t and dL/dv_t to the running adjoint.
  void inject(int t, const T* x, const T* v) {
    if (!observed(t)) return;
    const size_t state = size_t(n_) * 3;
    const T* hx = exec_.host_view(x, state, host_x_);
    const T* hv = exec_.host_view(v, state, host_v_);
    exec_.host_modify(exec_.data(adj_x_), exec_.data(adj_v_), state, host_adj_x_, host_adj_v_,
                      [&](T* ax, T* av) { objectives_.add_state_grad(t, hx, hv, ax, av); });
  }

  // Looks for NaN or Inf in states first..last; names the first bad step and particle.
  template <class XAt, class VAt>
  std::optional<Error> find_non_finite(int first, int last, XAt x_at, VAt v_at) {
    const size_t state = size_t(n_) * 3;
    if (first > last) return std::nullopt;
    if (exec_.first_non_finite(x_at(last), state) < 0 && exec_.first_non_finite(v_at(last), state) < 0)
      return std::nullopt;  // NaN and Inf never heal within a rollout, so the last state tells
    for (int t = first; t <= last; ++t) {
      const long bad_x = exec_.first_non_finite(x_at(t), state);
      const long bad_v = exec_.first_non_finite(v_at(t), state);
      if (bad_x < 0 && bad_v < 0) continue;
      const bool in_x = bad_x >= 0 && (bad_v < 0 || bad_x <= bad_v);
      const long at = in_x ? bad_x : bad_v;
      return Error{"the rollout produced a non-finite " + std::string(in_x ? "position" : "velocity") +
                   " at step " + std::to_string(t) + " (t = " + std::to_string(t * static_cast<double>(dt_)) +
                   " s), particle " + std::to_string(at % n_) +
                   "; the time step may be too large for the stiffness, or a parameter is extreme"};
    }
    return std::nullopt;
  }

  void upload_topology(const Scene& scene) {
    free_host_.resize(n_);
    for (int i = 0; i < n_; ++i) free_host_[i] = scene.pinned[i] ? T(0) : T(1);
    exec_.upload(free_, free_host_);
    // Springs in the layout's order from here on; parameters and gradients are permuted
    // on their way in and out (upload_parameters, download_gradients).
    layout_ = make_spring_layout(scene.spring_a, scene.spring_b, scene.spring_channel, n_,
                                 Exec::kSpringRuns ? kMinSpringRun : INT_MAX, kMaxSpan, kChunkLanes<T>);
    exec_.upload(a_, layout_.a);
    exec_.upload(b_, layout_.b);
    const std::vector<int> channel = in_layout_order(scene.spring_channel);
    exec_.upload(channel_, channel);
    // Passive springs get actuation 0, which keeps the spring kernels branch-free.
    const std::vector<double> actuation_scene = in_layout_order(scene.actuation);
    std::vector<T> actuation(s_);
    for (int s = 0; s < s_; ++s) actuation[s] = channel[s] < 0 ? T(0) : static_cast<T>(actuation_scene[s]);
    exec_.upload(actuation_, actuation);
    exec_.upload(inc_start_, layout_.inc_start);
    exec_.upload(inc_spring_, layout_.inc_spring);
    exec_.upload(inc_sign_, std::vector<T>(layout_.inc_sign.begin(), layout_.inc_sign.end()));
    // Springs by actuation channel, for the control gradients.
    std::vector<int> cstart(channels_ + 1, 0), cspring;
    for (int s = 0; s < s_; ++s)
      if (channel[s] >= 0) ++cstart[channel[s] + 1];
    for (int c = 0; c < channels_; ++c) cstart[c + 1] += cstart[c];
    cspring.resize(cstart[channels_]);
    std::vector<int> cfill(cstart.begin(), cstart.end() - 1);
    for (int s = 0; s < s_; ++s)
      if (channel[s] >= 0) cspring[cfill[channel[s]]++] = s;
    exec_.upload(channel_start_, cstart);
    exec_.upload(channel_spring_, cspring);
  }

  static std::vector<T> convert(const std::vector<double>& v) { return std::vector<T>(v.begin(), v.end()); }

  // xyz triples (n x 3) to a structure of arrays (3 x n), converting to T.
  std::vector<T> to_components(const std::vector<double>& triples) const {
    std::vector<T> out(triples.size());
    for (int i = 0; i < n_; ++i)
      for (int k = 0; k < 3; ++k) out[size_t(k) * n_ + i] = static_cast<T>(triples[3 * size_t(i) + k]);
    return out;
  }

  // A structure of arrays (3 x n) to xyz triples (n x 3) in double.
  template <class U>
  std::vector<double> to_triples(const std::vector<U>& components) const {
    std::vector<double> out(components.size());
    for (int i = 0; i < n_; ++i)
      for (int k = 0; k < 3; ++k) out[3 * size_t(i) + k] = static_cast<double>(components[size_t(k) * n_ + i]);
    return out;
  }

  // A per-spring array from the scene's order into the layout's.
  template <class U>
  std::vector<U> in_layout_order(const std::vector<U>& scene_order) const {
    std::vector<U> out(s_);
    for (int s = 0; s < s_; ++s) out[s] = scene_order[layout_.order[s]];
    return out;
  }

  // A per-spring gradient from the layout's order back into the scene's.
  std::vector<double> in_scene_order(const std::vector<double>& layout_order) const {
    std::vector<double> out(s_);
    for (int s = 0; s < s_; ++s) out[layout_.order[s]] = layout_order[s];
    return out;
  }

  void upload_parameters(const ParameterSet& p) {
    exec_.upload(mass_, convert(p[ParamId::Mass].value));
    exec_.upload(ext_force_, to_components(p[ParamId::ExternalForce].value));
    exec_.upload(stiffness_, convert(in_layout_order(p[ParamId::Stiffness].value)));
    exec_.upload(damping_, convert(in_layout_order(p[ParamId::Damping].value)));
    exec_.upload(rest_, convert(in_layout_order(p[ParamId::RestLength].value)));
    std::vector<T> controls = convert(p[ParamId::Controls].value);
    if (controls.empty()) controls.push_back(T(0));  // a valid slot for passive springs to read
    exec_.upload(controls_, controls);
    for (int k = 0; k < 3; ++k) gravity_[k] = static_cast<T>(p[ParamId::Gravity].value[k]);
    drag_ = static_cast<T>(p[ParamId::Drag].value[0]);
    ground_stiffness_ = static_cast<T>(p[ParamId::GroundStiffness].value[0]);
    friction_ = static_cast<T>(p[ParamId::Friction].value[0]);
    // The initial state; a pinned particle starts at rest.
    std::vector<double> v0 = p[ParamId::InitialVelocity].value;
    for (int i = 0; i < n_; ++i)
      for (int k = 0; k < 3; ++k) v0[3 * i + k] *= static_cast<double>(free_host_[i]);
    exec_.upload_to(state_x(0), to_components(p[ParamId::InitialPosition].value));
    exec_.upload_to(state_v(0), to_components(v0));
  }

  ModelView<T> model_view() {
    ModelView<T> m;
    m.n = n_;
    m.s = s_;
    m.channels = channels_;
    m.dt = dt_;
    m.mass = exec_.data(mass_);
    m.free = exec_.data(free_);
    m.ext_force = exec_.data(ext_force_);
    m.a = exec_.data(a_);
    m.b = exec_.data(b_);
    m.channel = exec_.data(channel_);
    m.stiffness = exec_.data(stiffness_);
    m.damping = exec_.data(damping_);
    m.rest = exec_.data(rest_);
    m.actuation = exec_.data(actuation_);
    m.inc_start = exec_.data(inc_start_);
    m.inc_spring = exec_.data(inc_spring_);
    m.inc_sign = exec_.data(inc_sign_);
    for (int k = 0; k < 3; ++k) m.gravity[k] = gravity_[k];
    m.drag = drag_;
    m.ground = ground_.enabled;
    m.ground_height = static_cast<T>(ground_.height);
    m.ground_stiffness = ground_stiffness_;
    m.ground_damping = static_cast<T>(ground_.damping);
    m.friction = friction_;
    m.contact_smoothing = static_cast<T>(ground_.contact_smoothing);
    m.friction_smoothing = static_cast<T>(ground_.friction_smoothing);
    m.controls = exec_.data(controls_);
    return m;
  }

  GradView<T> grad_view() {
    return {exec_.data(g_mass_),     exec_.data(g_ext_force_), exec_.data(g_drag_),
            exec_.data(g_ground_k_), exec_.data(g_friction_),  exec_.data(g_stiffness_),
            exec_.data(g_damping_),  exec_.data(g_rest_),      exec_.data(g_controls_)};
  }

  void zero_gradients() {
    const size_t n = n_, s = s_;
    for (auto* a : {&g_mass_, &g_drag_, &g_ground_k_, &g_friction_}) exec_.resize(*a, n);
    exec_.resize(g_ext_force_, 3 * n);
    for (auto* a : {&g_stiffness_, &g_damping_, &g_rest_}) exec_.resize(*a, s);
    exec_.resize(g_controls_, size_t(steps_) * channels_);
    for (auto* a : {&g_mass_, &g_drag_, &g_ground_k_, &g_friction_, &g_ext_force_, &g_stiffness_,
                    &g_damping_, &g_rest_, &g_controls_})
      exec_.zero(*a);
  }

  std::vector<double> fetch(const Array<T>& a, size_t count) {
    std::vector<T> host(count);
    exec_.download(exec_.data(a), count, host.data());
    return std::vector<double>(host.begin(), host.end());
  }

  // Copies the accumulators into the parameters' gradients; sums per-particle shares of
  // global parameters in a fixed order, so the result does not depend on threads.
  void download_gradients(ParameterSet& p, size_t state) {
    p.zero_grad();
    std::vector<double> ax = to_triples(fetch(adj_x_, state)), av = to_triples(fetch(adj_v_, state));
    p[ParamId::InitialPosition].grad = ax;
    for (int i = 0; i < n_; ++i)
      for (int k = 0; k < 3; ++k) av[3 * i + k] *= static_cast<double>(free_host_[i]);
    p[ParamId::InitialVelocity].grad = av;
    p[ParamId::Mass].grad = fetch(g_mass_, n_);
    p[ParamId::ExternalForce].grad = to_triples(fetch(g_ext_force_, state));
    p[ParamId::Stiffness].grad = in_scene_order(fetch(g_stiffness_, s_));
    p[ParamId::Damping].grad = in_scene_order(fetch(g_damping_, s_));
    p[ParamId::RestLength].grad = in_scene_order(fetch(g_rest_, s_));
    p[ParamId::Controls].grad = fetch(g_controls_, size_t(steps_) * channels_);
    // dL/dg = sum_i m_i dL/df_ext,i (see GradView)
    const std::vector<double>& ext = p[ParamId::ExternalForce].grad;  // n x 3
    const std::vector<double>& mass = p[ParamId::Mass].value;
    for (int k = 0; k < 3; ++k)
      for (int i = 0; i < n_; ++i) p[ParamId::Gravity].grad[k] += mass[i] * ext[3 * size_t(i) + k];
    const auto sum = [](const std::vector<double>& v) {
      double total = 0.0;
      for (double x : v) total += x;
      return total;
    };
    p[ParamId::Drag].grad[0] = sum(fetch(g_drag_, n_));
    p[ParamId::GroundStiffness].grad[0] = sum(fetch(g_ground_k_, n_));
    p[ParamId::Friction].grad[0] = sum(fetch(g_friction_, n_));
  }

  Exec exec_;
  Objectives objectives_;
  int n_, s_, steps_, channels_, checkpoint_every_;
  T dt_;
  Ground ground_;
  T gravity_[3] = {0, 0, 0};
  T drag_ = 0, ground_stiffness_ = 0, friction_ = 0;
  SpringLayout layout_;  // host side; the span and block kernels read it directly on the CPU

  // Topology (constant for the scene) and parameters (uploaded each forward).
  Array<T> free_, actuation_, inc_sign_, mass_, ext_force_, stiffness_, damping_, rest_, controls_;
  Array<int> a_, b_, channel_, inc_start_, inc_spring_, channel_start_, channel_spring_;
  // States: every step, or checkpoints plus one recomputed segment.
  Array<T> xs_, vs_, seg_x_, seg_v_;
  // Scratch for one step and its adjoint. The per-spring 3-vectors (fs_, adj_d_,
  // adj_dv_) have one chunk of spare elements before and after them: ChunkSums loads
  // whole chunks around a segment's springs. spring_values() is where they start.
  Array<T> fs_, adj_x_, adj_v_, adj_f_, adj_d_, adj_dv_, adj_rest_eff_;
  // Gradient accumulators (see GradView).
  Array<T> g_mass_, g_ext_force_, g_drag_, g_ground_k_, g_friction_, g_stiffness_, g_damping_, g_rest_,
      g_controls_;
  std::vector<T> free_host_;  // the pinned mask (0 pinned, 1 free), kept on the host too
  // Host copies used when the backend's memory is not host memory.
  std::vector<T> host_x_, host_v_, host_adj_x_, host_adj_v_;
};

}  // namespace nudge
