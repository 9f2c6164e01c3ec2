// Springs between particles, passive or actuated by per-step controls
// (families/springs/spring_force.h). Owns the springs' topology, parameters (stiffness, damping,
// rest length, controls), scratch and gradients, and its schedule: on the CPU springs
// are laid out in runs (families/springs/spring_layout.h) and launched as span kernels, whose
// per-spring values the particle pass sums in blocks (kernels/span_kernels.h); on CUDA one
// thread per spring, gathered by the particles through the incidence lists.
//
// Springs are kept in the layout's order; parameters and gradients are permuted on
// their way in and out.
#pragma once

#include <climits>
#include <vector>

#include "kernels/span_kernels.h"
#include "kernels/step_kernels.h"
#include "nudge/assert.h"
#include "nudge/scene.h"
#include "sim/backend.h"
#include "sim/channel_lists.h"
#include "sim/step_pass.h"
#include "sim/soa.h"
#include "families/springs/spring_layout.h"

namespace nudge {

// Runs of springs shorter than this stay loose; spans of springs hold at most kMaxSpan.
inline constexpr int kMinSpringRun = 8;
inline constexpr int kMaxSpan = 64;

template <class T, Backend Exec>
class SpringFamily {
public:
  SpringFamily(const Scene& scene, const Exec& exec)
      : n_(scene.particle_count()), s_(scene.spring_count()), steps_(scene.settings.steps), channels_(scene.channels),
        length_offset_(static_cast<T>(scene.spring_length_offset)) {
    upload_topology(scene, exec);
    exec.resize(fs_, values_size());
    exec.resize(adj_d_, values_size());
    exec.resize(adj_dv_, values_size());
    exec.resize(adj_rest_eff_, size_t(s_));
  }

  int count() const { return s_; }
  const SpringLayout& layout() const { return layout_; }

  void upload(const ParameterSet& p, const Exec& exec) {
    for (ParamId id : {ParamId::Stiffness, ParamId::Damping, ParamId::RestLength})
      NUDGE_ASSERT(p[id].value.size() == size_t(s_));  // the scene's checks gave every spring its values
    exec.upload(stiffness_, converted(in_layout_order(p[ParamId::Stiffness].value)));
    exec.upload(damping_, converted(in_layout_order(p[ParamId::Damping].value)));
    exec.upload(rest_, converted(in_layout_order(p[ParamId::RestLength].value)));
  }

  // The controls table (sp.controls) is the control family's, set by it.
  void put_model(ModelView<T>& m, const Exec& exec) const {
    SpringModel<T>& sp = m.springs;
    sp.s = s_;
    sp.channels = channels_;
    sp.a = exec.data(a_);
    sp.b = exec.data(b_);
    sp.channel = exec.data(channel_);
    sp.stiffness = exec.data(stiffness_);
    sp.damping = exec.data(damping_);
    sp.rest = exec.data(rest_);
    sp.actuation = exec.data(actuation_);
    sp.length_offset = length_offset_;
    sp.inc_start = exec.data(inc_start_);
    sp.inc_spring = exec.data(inc_spring_);
    sp.inc_sign = exec.data(inc_sign_);
    sp.force = values(fs_);
    sp.blocks = layout_.blocks();
    sp.block_start = layout_.block_start.data();  // host memory: read by the CPU's block kernels only
    sp.segments = layout_.segments.data();
  }

  // Each spring's force on its end a at this step, into m.springs.force.
  void interaction_forces(const StepPass<T, Exec>& pass) {
    const SpringForceKernel<T> kernel{pass.m, pass.t, pass.state, values(fs_)};
    if (runs_spring_spans(pass.exec)) {
      if constexpr (kHasSpringSpans<Exec>)
        pass.exec.launch_blocks(spans(), SpringSpanKernel<SpringForceKernel<T>>{kernel, layout_.spans.data()});
    } else {
      pass.exec.launch(s_, kernel);
    }
  }

  // The springs' half of a step's adjoint: from dL/dF per particle (adj_f) to the
  // springs' parameter gradients and their share of dL/dstate_t, gathered into adj.
  void adjoint_interaction_forces(const AdjointPass<T, Exec>& pass) {
    if (s_ == 0) return;
    const Exec& exec = pass.exec;
    const ModelView<T>& m = pass.m;
    T *adj_d = values(adj_d_), *adj_dv = values(adj_dv_);
    const SpringAdjointKernel<T> springs{
        m, pass.t, pass.state, pass.adj_f, adj_d, adj_dv, exec.data(adj_rest_eff_), pass.grad.springs};
    if (runs_spring_spans(exec)) {
      if constexpr (kHasSpringSpans<Exec>) {
        exec.launch_blocks(spans(), SpringSpanKernel<SpringAdjointKernel<T>>{springs, layout_.spans.data()});
        exec.launch_blocks(layout_.blocks(),
                           ParticleGatherBlockKernel<T>{m, adj_d, adj_dv, pass.adj, layout_.block_start.data(),
                                                        layout_.segments.data()});
      }
    } else {
      exec.launch(s_, springs);
      exec.launch(n_, ParticleGatherKernel<T>{m, adj_d, adj_dv, pass.adj});
    }
    if (channels_ > 0)
      exec.launch(channels_,
                  ControlAdjointKernel<T>{m.springs, pass.t, exec.data(channel_start_), exec.data(channel_spring_),
                                          exec.data(adj_rest_eff_), pass.grad.springs.controls});
  }

  void zero_gradients(const Exec& exec) {
    for (auto* a : {&g_stiffness_, &g_damping_, &g_rest_}) exec.resize(*a, size_t(s_));
    for (auto* a : {&g_stiffness_, &g_damping_, &g_rest_}) exec.zero(*a);
  }

  // dL/dcontrols (g.springs.controls) is the control family's table, set by it.
  void put_grad(GradView<T>& g, const Exec& exec) {
    g.springs.stiffness = exec.data(g_stiffness_);
    g.springs.damping = exec.data(g_damping_);
    g.springs.rest = exec.data(g_rest_);
  }

  void download_gradients(ParameterSet& p, const Exec& exec) const {
    p[ParamId::Stiffness].grad = in_scene_order(fetch_values(exec, exec.data(g_stiffness_), s_));
    p[ParamId::Damping].grad = in_scene_order(fetch_values(exec, exec.data(g_damping_), s_));
    p[ParamId::RestLength].grad = in_scene_order(fetch_values(exec, exec.data(g_rest_), s_));
  }

private:
  using Array = typename Exec::template Array<T>;
  using IntArray = typename Exec::template Array<int>;

  int spans() const { return static_cast<int>(layout_.spans.size()); }

  // Per-spring 3-vectors (fs_, adj_d_, adj_dv_) have one chunk of spare elements before
  // and after them: ChunkSums loads whole chunks around a segment's springs. values()
  // is where they start.
  size_t values_size() const { return 2 * size_t(kChunkLanes<T>) + size_t(s_) * 3; }
  static T* values(Array& a) { return a.data() + kChunkLanes<T>; }
  static const T* values(const Array& a) { return a.data() + kChunkLanes<T>; }

  static std::vector<T> converted(const std::vector<double>& v) { return std::vector<T>(v.begin(), v.end()); }

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

  void upload_topology(const Scene& scene, const Exec& exec) {
    layout_ = make_spring_layout(scene.spring_a, scene.spring_b, scene.spring_channel, n_,
                                 runs_spring_spans(exec) ? kMinSpringRun : INT_MAX, kMaxSpan, kChunkLanes<T>);
    exec.upload(a_, layout_.a);
    exec.upload(b_, layout_.b);
    const std::vector<int> channel = in_layout_order(scene.spring_channel);
    exec.upload(channel_, channel);
    // Passive springs get actuation 0, which keeps the spring kernels branch-free.
    const std::vector<double> actuation_scene = in_layout_order(scene.actuation);
    std::vector<T> actuation(s_);
    for (int s = 0; s < s_; ++s) actuation[s] = channel[s] < 0 ? T(0) : static_cast<T>(actuation_scene[s]);
    exec.upload(actuation_, actuation);
    exec.upload(inc_start_, layout_.inc_start);
    exec.upload(inc_spring_, layout_.inc_spring);
    exec.upload(inc_sign_, std::vector<T>(layout_.inc_sign.begin(), layout_.inc_sign.end()));
    // Springs by actuation channel, for the control gradients.
    const ChannelLists lists = group_by_channel(channels_, channel);
    exec.upload(channel_start_, lists.start);
    exec.upload(channel_spring_, lists.items);
  }

  int n_, s_, steps_, channels_;
  T length_offset_;
  SpringLayout layout_;  // host side; the span and block kernels read it directly on the CPU
  // Topology (constant for the scene) and parameters (uploaded each forward).
  Array actuation_, inc_sign_, stiffness_, damping_, rest_;
  IntArray a_, b_, channel_, inc_start_, inc_spring_, channel_start_, channel_spring_;
  // Scratch for one step and its adjoint.
  Array fs_, adj_d_, adj_dv_, adj_rest_eff_;
  Array g_stiffness_, g_damping_, g_rest_;  // gradient accumulators (SpringGrad, but for the controls')
};

}  // namespace nudge
