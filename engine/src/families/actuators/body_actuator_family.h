// Body forces and torques driven by control channels (nudge/actuators.h,
// families/actuators/actuator_wrench.h). They reach the bodies the way joints do: through coupling
// slots (sim/body_coupling.h), one interaction per actuator between its body and the
// world. One thread per actuator writes its wrench; backwards, one thread per actuator
// turns its body's dL/dwrench into dL/du and, for directions or points fixed in the
// body, dL/dq into its slot; one thread per channel then sums dL/du over the channel's
// actuators in actuator order into the control gradients.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

#include "families/actuators/actuator_kernels.h"
#include "kernels/channel_sum.h"
#include "nudge/scene.h"
#include "sim/backend.h"
#include "sim/step_pass.h"
#include "sim/channel_lists.h"
#include "sim/soa.h"

namespace nudge {

template <class T, Backend Exec>
class BodyActuatorFamily {
public:
  BodyActuatorFamily(const Scene& scene, const Exec& exec) : channels_(scene.channels) {
    std::vector<int> body, channel, kind;
    std::vector<double> direction, point;
    for (const Actuator& a : scene.actuators) {
      if (a.body < 0) continue;
      body.push_back(a.body);
      channel.push_back(a.channel);
      kind.push_back((a.type == ActuatorType::Torque ? kActuatorTorque : 0) |
                     (a.frame == ActuatorFrame::Body ? kActuatorBodyFrame : 0));
      direction.insert(direction.end(), a.direction, a.direction + 3);
      point.insert(point.end(), a.point, a.point + 3);
    }
    count_ = static_cast<int>(body.size());
    bodies_ = body;
    exec.upload(body_, body);
    exec.upload(channel_, channel);
    exec.upload(kind_, kind);
    exec.upload(direction_, soa_from_triples<T>(direction, count_));
    exec.upload(point_, soa_from_triples<T>(point, count_));
    const ChannelLists lists = group_by_channel(channels_, channel);
    exec.upload(channel_start_, lists.start);
    exec.upload(channel_item_, lists.items);
    exec.resize(adj_u_, size_t(std::max(count_, 1)));
  }

  int count() const { return count_; }

  // Each actuator's interaction: its body and the world.
  std::vector<std::pair<int, int>> coupling_pairs() const {
    std::vector<std::pair<int, int>> out;
    for (int b : bodies_) out.emplace_back(b, -1);
    return out;
  }

  // The controls table (am.controls, am.channels) is the control family's, set by it.
  void put_model(ModelView<T>& m, const Exec& exec) const {
    ActuatorModel<T>& am = m.actuators;
    am.body_count = count_;
    am.body = exec.data(body_);
    am.body_channel = exec.data(channel_);
    am.body_kind = exec.data(kind_);
    am.body_direction = exec.data(direction_);
    am.body_point = exec.data(point_);
  }

  // Each actuator's wrench on its body into coupling slots [first, first + count).
  void couple_bodies(const StepPass<T, Exec>& pass, int first) const {
    if (count_ > 0) pass.exec.launch(count_, BodyActuatorKernel<T>{pass.m, pass.state, pass.t, first});
  }

  void adjoint_couple_bodies(const AdjointPass<T, Exec>& pass, int first) {
    if (count_ == 0) return;
    const Exec& exec = pass.exec;
    const ModelView<T>& m = pass.m;
    const StateView<const T> s = pass.state;
    const int t = pass.t;
    const GradView<T>& grad = pass.grad;
    exec.launch(count_, BodyActuatorAdjointKernel<T>{m, s, t, first, exec.data(adj_u_)});
    exec.launch(channels_, ChannelSumKernel<T>{exec.data(channel_start_), exec.data(channel_item_), exec.data(adj_u_),
                                               nullptr, grad.actuators.controls + size_t(t) * channels_});
  }

private:
  using Array = typename Exec::template Array<T>;
  using IntArray = typename Exec::template Array<int>;

  int channels_, count_ = 0;
  std::vector<int> bodies_;
  IntArray body_, channel_, kind_, channel_start_, channel_item_;
  Array direction_, point_;  // 3 x B
  Array adj_u_;              // B: this step's dL/du through each
};

}  // namespace nudge
