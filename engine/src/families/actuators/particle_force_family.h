// Particle forces driven by control channels (nudge/actuators.h): an element family of
// ElementFamilies (element_families.h) with one corner, its particle. One thread per
// actuator writes direction * controls[t][channel] into its corner slot; backwards, one
// thread per actuator takes direction . dL/dF of its particle, and one thread per
// channel sums those over the channel's actuators in actuator order into the control
// gradients. The force does not depend on the state, so its corners' dL/dstate is zero
// (and its Jacobian, for the implicit step, too).
#pragma once

#include <algorithm>
#include <vector>

#include "families/actuators/actuator_kernels.h"
#include "kernels/channel_sum.h"
#include "nudge/scene.h"
#include "sim/backend.h"
#include "sim/channel_lists.h"
#include "sim/soa.h"

namespace nudge {

template <class T, Backend Exec>
class ParticleForceFamily {
public:
  ParticleForceFamily(const Scene& scene, const Exec& exec) : steps_(scene.settings.steps), channels_(scene.channels) {
    std::vector<int> particle, channel;
    std::vector<double> direction;
    for (const Actuator& a : scene.actuators) {
      if (a.particle < 0) continue;
      particle.push_back(a.particle);
      channel.push_back(a.channel);
      direction.insert(direction.end(), a.direction, a.direction + 3);
    }
    count_ = static_cast<int>(particle.size());
    exec.upload(particle_, particle);
    exec.upload(channel_, channel);
    exec.upload(direction_, soa_from_triples<T>(direction, count_));
    const ChannelLists lists = group_by_channel(channels_, channel);
    exec.upload(channel_start_, lists.start);
    exec.upload(channel_item_, lists.items);
    exec.resize(adj_u_, size_t(std::max(count_, 1)));
  }

  static constexpr int kCorners = 1;
  int count() const { return count_; }

  std::vector<int> corner_particles(const Scene& scene) const {
    std::vector<int> at;
    for (const Actuator& a : scene.actuators)
      if (a.particle >= 0) at.push_back(a.particle);
    return at;
  }

  void upload(const ParameterSet&, const Exec&) {}  // no parameters of its own: it reads the controls

  // The controls table (am.controls, am.channels) is the rollout's ControlChannels', set by it.
  void put_model(ModelView<T>& m, const Exec& exec) const {
    ActuatorModel<T>& am = m.actuators;
    am.particle_count = count_;
    am.particle = exec.data(particle_);
    am.particle_channel = exec.data(channel_);
    am.particle_direction = exec.data(direction_);
  }

  void compute_forces(const Exec& exec, const ModelView<T>& m, int step, StateView<const T>, CornerOut<T> force) {
    if (count_ > 0) exec.launch(count_, ParticleForceKernel<T>{m, step, force});
  }

  void adjoint(const Exec& exec, const ModelView<T>& m, int step, StateView<const T>, const T* adj_f,
               CornerOut<T> adj_x, CornerOut<T> adj_v, const GradView<T>& grad) {
    if (count_ == 0) return;
    exec.launch(count_, ParticleForceAdjointKernel<T>{m, adj_f, adj_x, adj_v, exec.data(adj_u_)});
    exec.launch(channels_, ChannelSumKernel<T>{exec.data(channel_start_), exec.data(channel_item_), exec.data(adj_u_),
                                               nullptr, grad.actuators.controls + size_t(step) * channels_});
  }

  // A table of its own for dL/dcontrols, which the rollout replaces by ControlChannels'
  // (the implicit step's sink keeps it).
  void zero_gradients(const Exec& exec) {
    exec.resize(g_controls_, std::max<size_t>(1, size_t(steps_) * size_t(channels_)));
    exec.zero(g_controls_);
  }
  void put_grad(GradView<T>& g, const Exec& exec) { g.actuators.controls = exec.data(g_controls_); }
  void download_gradients(ParameterSet&, const Exec&) const {}

private:
  using Array = typename Exec::template Array<T>;
  using IntArray = typename Exec::template Array<int>;

  int steps_, channels_, count_ = 0;
  IntArray particle_, channel_, channel_start_, channel_item_;
  Array direction_;  // 3 x P
  Array adj_u_;      // P: this step's dL/du through each
  Array g_controls_;
};

}  // namespace nudge
