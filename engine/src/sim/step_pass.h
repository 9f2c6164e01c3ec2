// What the rollout hands each family at every phase of a step (sim/family_list.h
// names the phases and their order). One struct for the forward phases and one for
// the adjoint's, so that every family's phase members have the same shape and a new
// family needs nothing from the rollout that another family does not get.
#pragma once

#include "kernels/model.h"
#include "kernels/state.h"

namespace nudge {

template <class T, class Exec>
struct StepPass {
  const Exec& exec;
  const ModelView<T>& m;
  int t;                     // the step
  StateView<const T> state;  // the state at step t
  StateView<T> next;         // the state at t + 1, which the integrating phases write
  // The step whose time a clock reads (a controller's sine inputs): t, except in live play
  // past the motion's end, where the per-step tables' last row t serves later steps.
  int clock_step = -1;
};

template <class T, class Exec>
struct AdjointPass {
  const Exec& exec;
  const ModelView<T>& m;
  int t;
  StateView<const T> state;  // the state at step t
  StateView<const T> next;   // the state at t + 1
  // dL/dstate: dL/dstate_{t+1} on entry to the step's adjoint, dL/dstate_t when it ends.
  StateView<T> adj;
  T* adj_f;                 // dL/dF per particle (3 x n): written by the particles' phase, read after
  const GradView<T>& grad;  // the parameters' gradient accumulators
};

}  // namespace nudge
