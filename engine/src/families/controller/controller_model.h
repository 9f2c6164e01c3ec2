// The controller's part of the model (nudge/controller.h: a multilayer perceptron from
// state features to control channels), its per-step scratch and its gradient
// accumulators, as kernels see them.
#pragma once

#include "nudge/config.h"

namespace nudge {

// How an input block of the feature vector is computed (ControllerInputType's order).
enum ControllerBlockKind : int {
  kBlockSine = 0,
  kBlockState = 1,
  kBlockTarget = 2,
  kBlockContact = 3,
  kBlockKeyframes = 4,
  kBlockJoints = 5
};

// Key r's hat function of time: 1 at key r, falling to 0 at its neighbours; time held at
// the last key after it.
template <class T>
NUDGE_HD T keyframe_weight(T time, T duration, int count, int r) {
  const T span = duration / T(count - 1);
  const T at = (time < duration ? time : duration) / span - T(r);
  const T hat = T(1) - (at < T(0) ? -at : at);
  return hat > T(0) ? hat : T(0);
}

template <class T>
struct ControllerModel {
  int features = 0;                  // F, the input vector's length
  int blocks = 0;                    // input blocks (Controller::inputs)
  const int* block_kind = nullptr;   // blocks
  const int* block_first = nullptr;  // blocks + 1: block k is features [first[k], first[k + 1])
  // blocks x 5: sine (omega, count), state and joints (position, velocity scale), target
  // (point), contact (height, width)
  const T* block_param = nullptr;

  int observed = 0;                        // particles observed; their centroid is the state's origin
  const int* observed_particle = nullptr;  // observed
  int axis_count = 0;
  int axis[3] = {0, 0, 0};  // the components read, ascending

  // A joints block: these entries of q, then every entry of qd (nudge/controller.h).
  int joint_q_count = 0;
  const int* joint_q_entry = nullptr;  // joint_q_count
  int joint_qd_count = 0;

  int layers = 0;
  const int* layer_size = nullptr;        // layers
  const int* layer_inputs = nullptr;      // layers
  const int* layer_weights = nullptr;     // layers: where W starts in `weights`; b follows W
  const int* layer_activation = nullptr;  // layers (Activation)
  const int* layer_units = nullptr;       // layers + 1: layer l's units in the unit scratch
  const T* weights = nullptr;             // P

  // Outputs: unit k of the last layer adds to controls[t][channel[k]].
  int channels = 0;  // C, the controls table's width
  const int* output_channel = nullptr;
  const T* base = nullptr;  // steps x C: the controls parameter
  T* controls = nullptr;    // steps x C: base plus the network's outputs, what actuators read
};

// One step's values, recomputed by the adjoint from the state (no per-step storage).
template <class T>
struct ControllerScratch {
  T* centroid = nullptr;      // 3
  T* features = nullptr;      // F
  T* units = nullptr;         // every layer's activations, at layer_units[l]
  T* unit_adj = nullptr;      // dL/dz per unit (before the activation), same layout
  T* feature_adj = nullptr;   // dL/dfeature, F
  T* centroid_adj = nullptr;  // 3
};

template <class T>
struct ControllerGrad {
  T* weights = nullptr;  // P, each row of W (and its bias) written by one thread
};

}  // namespace nudge
