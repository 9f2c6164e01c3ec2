// The per-step control channels (ParamId::Controls, steps x C) that actuators read: the
// springs' and tets' actuation today. One table for every actuator family, and one
// gradient table that their adjoints add into (each family's per-channel kernel owns a
// channel's entry at a step, and the families run one after the other, so no two
// threads add to one address).
//
// With a controller (controller_family.h) the table the actuators read is the controls
// parameter plus the network's outputs, written row by row as the rollout reaches each
// step; without one it is the parameter itself. Either way dL/dcontrols[t][c] is the
// gradient of what channel c carried at step t, which the controller's adjoint reads.
#pragma once

#include <algorithm>
#include <optional>
#include <vector>

#include "nudge/scene.h"
#include "sim/backend.h"
#include "sim/soa.h"

namespace nudge {

template <class T, Backend Exec>
class ControlChannels {
public:
  ControlChannels(const Scene& scene, const Exec&)
      : steps_(scene.settings.steps), channels_(scene.channels), driven_(scene.controller.enabled()) {}

  int channels() const { return channels_; }

  void upload(const ParameterSet& p, const Exec& exec) {
    const std::vector<double>& controls = p[ParamId::Controls].value;
    std::vector<T> base(controls.begin(), controls.end());
    if (base.empty()) base.push_back(T(0));  // a valid slot for passive actuators to read
    exec.upload(base_, base);
    if (driven_) exec.upload(driven_values_, base);  // the controller overwrites its channels per step
  }

  // The parameter as uploaded, and the table the actuators read.
  const T* base(const Exec& exec) const { return exec.data(base_); }
  const T* values(const Exec& exec) const { return exec.data(driven_ ? driven_values_ : base_); }
  T* driven_values(const Exec& exec) { return exec.data(driven_values_); }

  // Live play: channel c of row t carries held[c] where it is set. Returns the row as it
  // was, for restore_row once the step has read it.
  std::vector<T> hold_row(int t, const std::vector<std::optional<double>>& held, const Exec& exec) {
    std::vector<T> saved, scratch;
    const bool any =
        std::any_of(held.begin(), held.end(), [](const std::optional<double>& h) { return h.has_value(); });
    if (channels_ == 0 || !any) return saved;  // nothing held: the row as it is
    exec.host_modify(row_of(t, exec), size_t(channels_), scratch, [&](T* values) {
      saved.assign(values, values + channels_);
      for (size_t c = 0; c < held.size() && c < size_t(channels_); ++c)
        if (held[c]) values[c] = static_cast<T>(*held[c]);
    });
    return saved;
  }
  void restore_row(int t, const std::vector<T>& saved, const Exec& exec) {
    if (saved.empty()) return;
    std::vector<T> scratch;
    exec.host_modify(row_of(t, exec), saved.size(), scratch,
                     [&](T* values) { std::copy(saved.begin(), saved.end(), values); });
  }

  void zero_gradients(const Exec& exec) {
    exec.resize(g_controls_, std::max<size_t>(1, size_t(steps_) * size_t(channels_)));
    exec.zero(g_controls_);
  }
  T* grad(const Exec& exec) { return exec.data(g_controls_); }

  void download_gradients(ParameterSet& p, const Exec& exec) const {
    p[ParamId::Controls].grad = fetch_values(exec, exec.data(g_controls_), size_t(steps_) * size_t(channels_));
  }

private:
  // Row t of the table the actuators read.
  T* row_of(int t, const Exec& exec) {
    return exec.data(driven_ ? driven_values_ : base_) + size_t(t) * size_t(channels_);
  }

  using Array = typename Exec::template Array<T>;
  int steps_, channels_;
  bool driven_;  // a controller adds to some channels
  Array base_, driven_values_, g_controls_;
};

}  // namespace nudge
