// The controller's forward pass and its adjoint, as launchable kernels
// (families/controller/controller_model.h; nudge/controller.h says what it computes).
//
// Forward at step t: the observed particles' centroid (one thread, in a fixed order),
// the features (a thread each), then each layer (a thread per unit); the last layer adds
// its outputs to the controls table's row t. The adjoint at step t recomputes these from
// the state (no per-step storage, so checkpointed rollouts need nothing more) and runs
// back: dL/dcontrols[t] -> dL/dz of the last layer, then per layer the weights' gradient
// (a thread per unit owns its row of W and its bias) and dL/dz of the layer below (a
// thread per unit below), then dL/dfeatures -> dL/dcentroid (one thread) -> dL/dx_t and
// dL/dv_t of the observed particles (a thread each, each its own particle), and through
// the joints inputs dL/dq_t and dL/dqd_t (one thread). No two threads add to one address.
#pragma once

#include <cmath>

#include "families/controller/controller_model.h"
#include "kernels/state.h"
#include "nudge/config.h"

namespace nudge {

// Activation ids are nudge::Activation's: tanh, relu, sigmoid, linear.
template <class T>
NUDGE_HD T controller_activate(int kind, T z) {
  switch (kind) {
    case 0: return std::tanh(z);
    case 1: return z > T(0) ? z : T(0);
    case 2: return T(1) / (T(1) + std::exp(-z));
    default: return z;
  }
}

// da/dz from the activation's output a.
template <class T>
NUDGE_HD T controller_activation_slope(int kind, T a) {
  switch (kind) {
    case 0: return T(1) - a * a;
    case 1: return a > T(0) ? T(1) : T(0);
    case 2: return a * (T(1) - a);
    default: return T(1);
  }
}

// A contact input's smooth flag for a particle at height y: sigmoid((height - y) / width),
// about 1 below the plane and 0 above; its slope in y is -s (1 - s) / width.
template <class T>
NUDGE_HD T controller_contact_flag(T y, T height, T width) {
  return T(1) / (T(1) + std::exp((y - height) / width));
}

// The input block holding feature f.
template <class T>
NUDGE_HD int controller_block_of(const ControllerModel<T>& m, int f) {
  int k = 0;
  while (k + 1 < m.blocks && f >= m.block_first[k + 1]) ++k;
  return k;
}

template <class T>
struct ControllerCentroidKernel {  // one thread
  ControllerModel<T> m;
  int n;  // particles in the state
  StateView<const T> state;
  ControllerScratch<T> scratch;
  NUDGE_HD void operator()(int) const {
    for (int k = 0; k < 3; ++k) {
      T sum = 0;
      for (int p = 0; p < m.observed; ++p) sum += state.x[k * n + m.observed_particle[p]];
      scratch.centroid[k] = m.observed > 0 ? sum / T(m.observed) : T(0);
    }
  }
};

template <class T>
struct ControllerFeatureKernel {  // over features
  ControllerModel<T> m;
  int n;
  T time;  // t dt
  StateView<const T> state;
  ControllerScratch<T> scratch;
  NUDGE_HD void operator()(int f) const {
    const int k = controller_block_of(m, f), r = f - m.block_first[k];
    const T* param = m.block_param + 5 * k;
    T value = 0;
    if (m.block_kind[k] == kBlockSine) {
      const T two_pi = T(6.283185307179586);
      value = std::sin(param[0] * time + two_pi * T(r) / param[1]);
    } else if (m.block_kind[k] == kBlockState) {
      const int na = m.axis_count, p = r / (2 * na), c = r % (2 * na), i = m.observed_particle[p];
      if (c < na) {
        const int a = m.axis[c];
        value = (state.x[a * n + i] - scratch.centroid[a]) * param[0];
      } else {
        value = state.v[m.axis[c - na] * n + i] * param[1];
      }
    } else if (m.block_kind[k] == kBlockContact) {
      value = controller_contact_flag(state.x[n + m.observed_particle[r]], param[0], param[1]);
    } else if (m.block_kind[k] == kBlockKeyframes) {
      value = keyframe_weight(time, param[0], static_cast<int>(param[1]), r);
    } else if (m.block_kind[k] == kBlockJoints) {
      value = r < m.joint_q_count ? state.joint_q[m.joint_q_entry[r]] * param[0]
                                  : state.joint_qd[r - m.joint_q_count] * param[1];
    } else {
      const int a = m.axis[r];
      value = param[a] - scratch.centroid[a];
    }
    scratch.features[f] = value;
  }
};

template <class T>
struct ControllerLayerKernel {  // over the layer's units
  ControllerModel<T> m;
  int layer, step;
  ControllerScratch<T> scratch;
  NUDGE_HD void operator()(int i) const {
    const int in = m.layer_inputs[layer];
    const T* input = layer == 0 ? scratch.features : scratch.units + m.layer_units[layer - 1];
    const T* w = m.weights + m.layer_weights[layer] + i * in;
    T z = m.weights[m.layer_weights[layer] + m.layer_size[layer] * in + i];  // the bias
    for (int j = 0; j < in; ++j) z += w[j] * input[j];
    const T a = controller_activate(m.layer_activation[layer], z);
    scratch.units[m.layer_units[layer] + i] = a;
    if (layer + 1 == m.layers) {
      const int at = step * m.channels + m.output_channel[i];
      m.controls[at] = m.base[at] + a;
    }
  }
};

// dL/dz of the last layer from dL/dcontrols at this step (what the actuators' adjoints
// left in adj_controls, which is also the controls parameter's gradient).
template <class T>
struct ControllerOutputAdjointKernel {  // over the last layer's units
  ControllerModel<T> m;
  int step;
  const T* adj_controls;
  ControllerScratch<T> scratch;
  NUDGE_HD void operator()(int k) const {
    const int last = m.layers - 1, u = m.layer_units[last] + k;
    const T adj_a = adj_controls[step * m.channels + m.output_channel[k]];
    scratch.unit_adj[u] = adj_a * controller_activation_slope(m.layer_activation[last], scratch.units[u]);
  }
};

template <class T>
struct ControllerWeightGradKernel {  // over the layer's units
  ControllerModel<T> m;
  int layer;
  ControllerScratch<T> scratch;
  ControllerGrad<T> grad;
  NUDGE_HD void operator()(int i) const {
    const int in = m.layer_inputs[layer];
    const T* input = layer == 0 ? scratch.features : scratch.units + m.layer_units[layer - 1];
    const T dz = scratch.unit_adj[m.layer_units[layer] + i];
    T* gw = grad.weights + m.layer_weights[layer] + i * in;
    for (int j = 0; j < in; ++j) gw[j] += dz * input[j];
    grad.weights[m.layer_weights[layer] + m.layer_size[layer] * in + i] += dz;
  }
};

// dL/d(input j of `layer`): into dL/dz of the layer below, or dL/dfeature for layer 0.
template <class T>
struct ControllerInputAdjointKernel {  // over the layer's inputs
  ControllerModel<T> m;
  int layer;
  ControllerScratch<T> scratch;
  NUDGE_HD void operator()(int j) const {
    const int in = m.layer_inputs[layer], size = m.layer_size[layer];
    const T* w = m.weights + m.layer_weights[layer];
    const T* dz = scratch.unit_adj + m.layer_units[layer];
    T sum = 0;
    for (int i = 0; i < size; ++i) sum += w[i * in + j] * dz[i];
    if (layer == 0) {
      scratch.feature_adj[j] = sum;
    } else {
      const int u = m.layer_units[layer - 1] + j;
      scratch.unit_adj[u] = sum * controller_activation_slope(m.layer_activation[layer - 1], scratch.units[u]);
    }
  }
};

// dL/dcentroid: every relative position and target offset moves against it.
template <class T>
struct ControllerCentroidAdjointKernel {  // one thread
  ControllerModel<T> m;
  ControllerScratch<T> scratch;
  NUDGE_HD void operator()(int) const {
    T dc[3] = {0, 0, 0};
    const int na = m.axis_count;
    for (int k = 0; k < m.blocks; ++k) {
      const T* param = m.block_param + 5 * k;
      for (int f = m.block_first[k]; f < m.block_first[k + 1]; ++f) {
        const int r = f - m.block_first[k];
        if (m.block_kind[k] == kBlockState && r % (2 * na) < na)
          dc[m.axis[r % (2 * na)]] -= param[0] * scratch.feature_adj[f];
        if (m.block_kind[k] == kBlockTarget) dc[m.axis[r]] -= scratch.feature_adj[f];
      }
    }
    for (int a = 0; a < 3; ++a) scratch.centroid_adj[a] = dc[a];
  }
};

// Adds the controller's dL/dx_t and dL/dv_t to each observed particle's adjoint.
template <class T>
struct ControllerStateAdjointKernel {  // over observed particles
  ControllerModel<T> m;
  int n;
  StateView<T> adj;
  ControllerScratch<T> scratch;
  NUDGE_HD void operator()(int p) const {
    const int i = m.observed_particle[p], na = m.axis_count;
    for (int c = 0; c < na; ++c) {
      const int a = m.axis[c];
      T ax = scratch.centroid_adj[a] / T(m.observed), av = 0;
      for (int k = 0; k < m.blocks; ++k) {
        if (m.block_kind[k] != kBlockState) continue;
        const T* param = m.block_param + 5 * k;
        const int f = m.block_first[k] + p * 2 * na;
        ax += param[0] * scratch.feature_adj[f + c];
        av += param[1] * scratch.feature_adj[f + na + c];
      }
      adj.x[a * n + i] += ax;
      adj.v[a * n + i] += av;
    }
    // A contact flag s (controller_contact_flag): ds/dy = -s (1 - s) / width.
    for (int k = 0; k < m.blocks; ++k) {
      if (m.block_kind[k] != kBlockContact) continue;
      const int f = m.block_first[k] + p;
      const T s = scratch.features[f];
      adj.x[n + i] -= scratch.feature_adj[f] * s * (T(1) - s) / m.block_param[5 * k + 1];
    }
  }
};

// Adds the controller's dL/dq_t and dL/dqd_t through its joints inputs. One thread: two
// joints blocks read the same entries.
template <class T>
struct ControllerJointAdjointKernel {  // one thread
  ControllerModel<T> m;
  StateView<T> adj;
  ControllerScratch<T> scratch;
  NUDGE_HD void operator()(int) const {
    for (int k = 0; k < m.blocks; ++k) {
      if (m.block_kind[k] != kBlockJoints) continue;
      const T* param = m.block_param + 5 * k;
      const T* feature_adj = scratch.feature_adj + m.block_first[k];
      for (int r = 0; r < m.joint_q_count; ++r) adj.joint_q[m.joint_q_entry[r]] += param[0] * feature_adj[r];
      for (int r = 0; r < m.joint_qd_count; ++r) adj.joint_qd[r] += param[1] * feature_adj[m.joint_q_count + r];
    }
  }
};

}  // namespace nudge
