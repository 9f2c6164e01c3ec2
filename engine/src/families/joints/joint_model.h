// The joint family's part of the model, and its gradient accumulators. Frames are local
// to each side (families/joints/joint_wrench.h), 3 x J arrays; a side that is the world has
// body index -1 and its frame in world coordinates.
#pragma once

namespace nudge {

template <class T>
struct JointModel {
  int count = 0;                 // J
  const int* kind = nullptr;     // J, JointKind
  const int* parent = nullptr;   // J, -1: the world
  const int* child = nullptr;    // J
  const T* frame = nullptr;      // 18 x J: anchor_p, anchor_c, axis_p, axis_c, ref_p, ref_c (3 x J each)
  const T* damping = nullptr;    // J, on the free direction
  const int* limited = nullptr;  // J
  const T* lower = nullptr;      // J
  const T* upper = nullptr;      // J
  const T* control = nullptr;    // T x J: the motor at step t is control[t * J + j]
  // plus gain[j] * controls[t * channels + channel[j]] for a joint on a channel (>= 0)
  const int* channel = nullptr;  // J
  const T* gain = nullptr;       // J
  const T* controls = nullptr;   // steps x channels (ControlChannels)
  int channels = 0;
  T stiffness = 0, linear_damping = 0, angular_stiffness = 0, angular_damping = 0, limit_stiffness = 0;
};

template <class T>
struct JointGrad {
  T* frame = nullptr;     // 18 x J, summed over steps
  T* damping = nullptr;   // J
  T* control = nullptr;   // T x J: dL/dmotor, which the joints on channels also pass on to
  T* controls = nullptr;  // steps x channels (ControlChannels)
};

}  // namespace nudge
