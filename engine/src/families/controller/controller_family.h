// A closed-loop controller (nudge/controller.h): a multilayer perceptron that reads the
// state at each step and adds its outputs to control channels, which the actuators
// (springs, tets) read. Owns the network's description, its weights and their
// gradients, and one step's scratch, and its schedule, the same on both backends
// (families/controller/controller_kernels.h): a step's forward runs before the actuators read the
// controls; its adjoint runs after theirs, from the dL/dcontrols they left at that step,
// and adds the network's share of dL/dx_t and dL/dv_t to the observed particles.
#pragma once

#include <vector>

#include "families/controller/controller_kernels.h"
#include "nudge/scene.h"
#include "sim/backend.h"
#include "families/controls/control_channels.h"
#include "sim/soa.h"

namespace nudge {

template <class T, Backend Exec>
class ControllerFamily {
public:
  ControllerFamily(const Scene& scene, const Exec& exec)
      : enabled_(scene.controller.enabled()), reads_(controller_reads(scene)), n_(reads_.particles),
        dt_(scene.settings.dt) {
    if (enabled_) upload_description(scene, exec);
  }

  bool enabled() const { return enabled_; }

  void upload(const ParameterSet& p, const Exec& exec) {
    if (!enabled_) return;
    const std::vector<double>& w = p[ParamId::ControllerWeights].value;
    exec.upload(weights_, std::vector<T>(w.begin(), w.end()));
  }

  // Writes row `step` of the controls the actuators read: the parameter plus the outputs.
  // clock_step: the step whose time the clock inputs read (live play past the motion's
  // end writes the last row while its clock runs on); the step itself when negative.
  void compute(const Exec& exec, int step, StateView<const T> state, ControlChannels<T, Exec>& controls,
               int clock_step = -1) {
    if (!enabled_) return;
    run_forward(exec, model(exec, controls), step, state, clock_step < 0 ? step : clock_step);
  }

  // After the actuators' adjoints at `step`: from dL/dcontrols[step] to the weights'
  // gradients and the observed particles' dL/dx_step, dL/dv_step (added into adj).
  void adjoint(const Exec& exec, int step, StateView<const T> state, StateView<T> adj,
               ControlChannels<T, Exec>& controls) {
    if (!enabled_) return;
    const ControllerModel<T> m = model(exec, controls);
    run_forward(exec, m, step, state, step);  // the step's activations, recomputed from its state
    const ControllerScratch<T> s = scratch(exec);
    const ControllerGrad<T> g{exec.data(g_weights_)};
    exec.launch(sizes_.back(), ControllerOutputAdjointKernel<T>{m, step, controls.grad(exec), s});
    for (int l = int(sizes_.size()) - 1; l >= 0; --l) {
      exec.launch(sizes_[size_t(l)], ControllerWeightGradKernel<T>{m, l, s, g});
      exec.launch(inputs_[size_t(l)], ControllerInputAdjointKernel<T>{m, l, s});
    }
    exec.launch(1, ControllerCentroidAdjointKernel<T>{m, s});
    exec.launch(observed_, ControllerStateAdjointKernel<T>{m, n_, adj, s});
    if (reads_joints_) exec.launch(1, ControllerJointAdjointKernel<T>{m, adj, s});
  }

  void zero_gradients(const Exec& exec) {
    if (!enabled_) return;
    exec.resize(g_weights_, size_t(weight_count_));
    exec.zero(g_weights_);
  }

  void download_gradients(ParameterSet& p, const Exec& exec) const {
    if (!enabled_) return;
    p[ParamId::ControllerWeights].grad = fetch_values(exec, exec.data(g_weights_), size_t(weight_count_));
  }

private:
  using Array = typename Exec::template Array<T>;
  using IntArray = typename Exec::template Array<int>;

  void run_forward(const Exec& exec, const ControllerModel<T>& m, int step, StateView<const T> state, int clock_step) {
    const ControllerScratch<T> s = scratch(exec);
    exec.launch(1, ControllerCentroidKernel<T>{m, n_, state, s});
    exec.launch(features_, ControllerFeatureKernel<T>{m, n_, static_cast<T>(clock_step * dt_), state, s});
    for (int l = 0; l < int(sizes_.size()); ++l)
      exec.launch(sizes_[size_t(l)], ControllerLayerKernel<T>{m, l, step, s});
  }

  ControllerModel<T> model(const Exec& exec, ControlChannels<T, Exec>& controls) const {
    ControllerModel<T> m;
    m.features = features_;
    m.blocks = blocks_;
    m.block_kind = exec.data(block_kind_);
    m.block_first = exec.data(block_first_);
    m.block_param = exec.data(block_param_);
    m.observed = observed_;
    m.observed_particle = exec.data(observed_particle_);
    m.axis_count = axis_count_;
    for (int k = 0; k < 3; ++k) m.axis[k] = axis_[k];
    m.joint_q_count = static_cast<int>(reads_.joint_q.size());
    m.joint_q_entry = exec.data(joint_q_entry_);
    m.joint_qd_count = reads_.joint_qd;
    m.layers = static_cast<int>(sizes_.size());
    m.layer_size = exec.data(layer_size_);
    m.layer_inputs = exec.data(layer_inputs_);
    m.layer_weights = exec.data(layer_weights_);
    m.layer_activation = exec.data(layer_activation_);
    m.layer_units = exec.data(layer_units_);
    m.weights = exec.data(weights_);
    m.channels = controls.channels();
    m.output_channel = exec.data(output_channel_);
    m.base = controls.base(exec);
    m.controls = controls.driven_values(exec);
    return m;
  }

  ControllerScratch<T> scratch(const Exec& exec) {
    T* base = exec.data(scratch_);
    ControllerScratch<T> s;
    s.centroid = base;
    s.centroid_adj = base + 3;
    s.features = base + 6;
    s.feature_adj = s.features + features_;
    s.units = s.feature_adj + features_;
    s.unit_adj = s.units + units_;
    return s;
  }

  void upload_description(const Scene& scene, const Exec& exec) {
    const Controller& c = scene.controller;
    std::vector<int> kind, first{0};
    std::vector<T> param;
    const int na = c.axis_count();
    const std::vector<int> observed = c.observed(n_);
    observed_ = static_cast<int>(observed.size());
    for (const ControllerInput& in : c.inputs) {
      kind.push_back(static_cast<int>(in.type));
      int count = 0;
      T p[5] = {0, 0, 0, 0, 0};
      switch (in.type) {
        case ControllerInputType::Sine:
          count = in.count;
          p[0] = static_cast<T>(in.omega);
          p[1] = static_cast<T>(in.count);
          break;
        case ControllerInputType::State:
          count = 2 * na * observed_;
          p[0] = static_cast<T>(in.position_scale);
          p[1] = static_cast<T>(in.velocity_scale);
          break;
        case ControllerInputType::Target:
          count = na;
          for (int k = 0; k < 3; ++k) p[k] = static_cast<T>(in.point[k]);
          break;
        case ControllerInputType::Contact:
          count = observed_;
          p[0] = static_cast<T>(in.height);
          p[1] = static_cast<T>(in.width);
          break;
        case ControllerInputType::Keyframes:
          count = in.count;
          p[0] = static_cast<T>(in.duration);
          p[1] = static_cast<T>(in.count);
          break;
        case ControllerInputType::Joints:
          count = int(reads_.joint_q.size()) + reads_.joint_qd;
          p[0] = static_cast<T>(in.position_scale);
          p[1] = static_cast<T>(in.velocity_scale);
          reads_joints_ = true;
          break;
      }
      first.push_back(first.back() + count);
      param.insert(param.end(), p, p + 5);
    }
    blocks_ = static_cast<int>(kind.size());
    features_ = first.back();
    axis_count_ = 0;
    for (int k = 0; k < 3; ++k)
      if (c.axes[k]) axis_[axis_count_++] = k;

    std::vector<int> size, inputs, weights, activation, units{0};
    for (int l = 0; l < int(c.layers.size()); ++l) {
      size.push_back(c.layers[size_t(l)].size);
      inputs.push_back(c.layer_inputs(l, reads_));
      weights.push_back(c.layer_offset(l, reads_));
      activation.push_back(static_cast<int>(c.layers[size_t(l)].activation));
      units.push_back(units.back() + c.layers[size_t(l)].size);
    }
    sizes_ = size;
    inputs_ = inputs;
    units_ = units.back();
    weight_count_ = c.weight_count(reads_);

    exec.upload(block_kind_, kind);
    exec.upload(block_first_, first);
    exec.upload(block_param_, param);
    exec.upload(observed_particle_, observed);
    exec.upload(joint_q_entry_, reads_.joint_q.empty() ? std::vector<int>{0} : reads_.joint_q);
    exec.upload(layer_size_, size);
    exec.upload(layer_inputs_, inputs);
    exec.upload(layer_weights_, weights);
    exec.upload(layer_activation_, activation);
    exec.upload(layer_units_, units);
    exec.upload(output_channel_, c.channels);
    exec.resize(scratch_, size_t(6 + 2 * features_ + 2 * units_));
    exec.zero(scratch_);
  }

  bool enabled_;
  ControllerReads reads_;  // what its inputs read: the particles, the joints' entries
  int n_;                  // reads_.particles, the kernels' particle count
  bool reads_joints_ = false;
  double dt_;
  int features_ = 0, blocks_ = 0, observed_ = 0, axis_count_ = 0, units_ = 0, weight_count_ = 0;
  int axis_[3] = {0, 0, 0};
  std::vector<int> sizes_, inputs_;  // per layer, on the host for the launches
  IntArray block_kind_, block_first_, observed_particle_, layer_size_, layer_inputs_, layer_weights_, layer_activation_,
      layer_units_, output_channel_, joint_q_entry_;
  Array block_param_, weights_, g_weights_;
  Array scratch_;  // centroid, its adjoint, features, their adjoints, units, their adjoints
};

}  // namespace nudge
