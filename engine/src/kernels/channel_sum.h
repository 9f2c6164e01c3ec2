// Sums per-actuator dL/dcontrol values into a step's row of the control gradients, one
// thread per channel over the channel's actuators in a fixed order (a CSR list): no two
// threads add to one address, and the sum does not depend on the thread count.
#pragma once

#include "nudge/config.h"

namespace nudge {

template <class T>
struct ChannelSumKernel {  // over channels
  const int* start;        // C + 1: channel c's items are item[start[c] .. start[c + 1])
  const int* item;
  const T* value;  // per item index: this step's dL/du through it
  const T* gain;   // per item index, or nullptr for 1
  T* grad_row;     // C: the step's row of dL/dcontrols
  NUDGE_HD void operator()(int c) const {
    T sum = 0;
    for (int k = start[c]; k < start[c + 1]; ++k) sum += (gain ? gain[item[k]] : T(1)) * value[item[k]];
    grad_row[c] += sum;
  }
};

}  // namespace nudge
