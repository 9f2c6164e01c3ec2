// Controls: the per-step control channels that every actuator reads (control_channels.h)
// and the controller that may add its outputs to them (controller_family.h), as one
// family. It comes last in the family list: its put_model and put_grad point the
// actuator families' models (springs, tets, particle and body actuators, joint motors)
// at its one table after they have written their own parts.
#pragma once

#include "sim/backend.h"
#include "families/controls/control_channels.h"
#include "families/controller/controller_family.h"
#include "sim/step_pass.h"

namespace nudge {

template <class T, Backend Exec>
class ControlFamily {
public:
  ControlFamily(const Scene& scene, const Exec& exec) : channels_(scene, exec), controller_(scene, exec) {}

  void upload(const ParameterSet& p, const Exec& exec) {
    channels_.upload(p, exec);
    controller_.upload(p, exec);
  }

  void put_model(ModelView<T>& m, const Exec& exec) const {
    m.springs.controls = m.tets.controls = m.actuators.controls = m.joints.controls = channels_.values(exec);
    m.actuators.channels = channels_.channels();
  }

  void put_grad(GradView<T>& g, const Exec& exec) {
    T* controls = channels_.grad(exec);
    g.springs.controls = g.tets.controls = g.actuators.controls = g.joints.controls = controls;
  }

  // Row t of the controls the actuators read: the parameter plus the controller's outputs.
  void control(const StepPass<T, Exec>& pass) {
    controller_.compute(pass.exec, pass.t, pass.state, channels_, pass.clock_step);
  }

  // After every actuator has left dL/dcontrols at step t: the controller's share of dL/dstate_t.
  void adjoint_control(const AdjointPass<T, Exec>& pass) {
    controller_.adjoint(pass.exec, pass.t, pass.state, pass.adj, channels_);
  }

  // Live play (nudge/live_simulation.h): channels held by hand at row t, and back.
  std::vector<T> hold_row(int t, const std::vector<std::optional<double>>& held, const Exec& exec) {
    return channels_.hold_row(t, held, exec);
  }
  void restore_row(int t, const std::vector<T>& saved, const Exec& exec) { channels_.restore_row(t, saved, exec); }

  void zero_gradients(const Exec& exec) {
    channels_.zero_gradients(exec);
    controller_.zero_gradients(exec);
  }

  void download_gradients(ParameterSet& p, const Exec& exec) const {
    channels_.download_gradients(p, exec);
    controller_.download_gradients(p, exec);
  }

private:
  ControlChannels<T, Exec> channels_;
  ControllerFamily<T, Exec> controller_;
};

}  // namespace nudge
