// The controller's outputs along a recorded trajectory, on the host in double, and the
// sizes of its layers' weights: what the studio shows of a controller.
#include <cmath>
#include <numbers>

#include "families/controller/controller_kernels.h"
#include "nudge/controller.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"

namespace nudge {

namespace {

// One step's outputs, with what the scene's inputs read worked out once by the caller.
std::vector<double> outputs_at(const Scene& scene, const ControllerReads& reads, const Trajectory& traj, int t) {
  const Controller& c = scene.controller;
  const double dt = scene.settings.dt;
  const std::vector<double>& w = scene.params[ParamId::ControllerWeights].value;
  const int n = traj.particles;
  if (!c.enabled() || w.size() != size_t(c.weight_count(reads)) || t < 0 || t >= traj.steps) return {};
  if (n != reads.particles || traj.coordinates != reads.joint_qd ||
      traj.positions != articulation_position_count(scene.articulations))
    return {};
  const std::vector<int> observed = c.observed(n);
  const size_t values = 3 * size_t(n);
  const double* x = traj.x.data() + size_t(t) * values;
  const double* v = traj.v.data() + size_t(t) * values;
  const double* q = traj.joint_q.data() + size_t(t) * size_t(traj.positions);
  const double* qd = traj.joint_qd.data() + size_t(t) * size_t(traj.coordinates);
  double centroid[3] = {0, 0, 0};
  for (int i : observed)
    for (int k = 0; k < 3; ++k) centroid[k] += x[3 * i + k];
  for (double& ck : centroid) ck /= observed.empty() ? 1.0 : double(observed.size());
  std::vector<double> in, next;
  for (const ControllerInput& input : c.inputs) {
    switch (input.type) {
      case ControllerInputType::Sine:
        for (int j = 0; j < input.count; ++j)
          in.push_back(std::sin(input.omega * (t * dt) + 2 * std::numbers::pi * j / input.count));
        break;
      case ControllerInputType::State:
        for (int i : observed) {
          for (int k = 0; k < 3; ++k)
            if (c.axes[k]) in.push_back((x[3 * i + k] - centroid[k]) * input.position_scale);
          for (int k = 0; k < 3; ++k)
            if (c.axes[k]) in.push_back(v[3 * i + k] * input.velocity_scale);
        }
        break;
      case ControllerInputType::Target:
        for (int k = 0; k < 3; ++k)
          if (c.axes[k]) in.push_back(input.point[k] - centroid[k]);
        break;
      case ControllerInputType::Contact:
        for (int i : observed) in.push_back(controller_contact_flag(x[3 * i + 1], input.height, input.width));
        break;
      case ControllerInputType::Keyframes:
        for (int j = 0; j < input.count; ++j) in.push_back(keyframe_weight(t * dt, input.duration, input.count, j));
        break;
      case ControllerInputType::Joints:
        for (int e : reads.joint_q) in.push_back(q[e] * input.position_scale);
        for (int e = 0; e < reads.joint_qd; ++e) in.push_back(qd[e] * input.velocity_scale);
        break;
    }
  }
  for (int l = 0; l < int(c.layers.size()); ++l) {
    const int size = c.layers[size_t(l)].size, inputs = int(in.size());
    const size_t at = size_t(c.layer_offset(l, reads));
    next.assign(size_t(size), 0.0);
    for (int i = 0; i < size; ++i) {
      double z = w[at + size_t(size) * size_t(inputs) + size_t(i)];
      for (int j = 0; j < inputs; ++j) z += w[at + size_t(i) * size_t(inputs) + size_t(j)] * in[size_t(j)];
      next[size_t(i)] = controller_activate(static_cast<int>(c.layers[size_t(l)].activation), z);
    }
    in.swap(next);
  }
  return in;
}

}  // namespace

std::vector<double> controller_outputs_at(const Scene& scene, const Trajectory& traj, int t) {
  return outputs_at(scene, controller_reads(scene), traj, t);
}

std::vector<double> controller_outputs(const Scene& scene, const Trajectory& traj) {
  const ControllerReads reads = controller_reads(scene);
  std::vector<double> out;
  for (int t = 0; t < traj.steps; ++t) {
    const std::vector<double> at = outputs_at(scene, reads, traj, t);
    if (at.empty()) return {};
    out.insert(out.end(), at.begin(), at.end());
  }
  return out;
}

std::vector<double> controller_layer_norms(const Controller& c, const ControllerReads& reads,
                                           const std::vector<double>& flat) {
  std::vector<double> norms;
  if (flat.size() != size_t(c.weight_count(reads))) return norms;
  for (int l = 0; l < int(c.layers.size()); ++l) {
    double sum = 0;
    for (int k = c.layer_offset(l, reads); k < c.layer_offset(l + 1, reads); ++k)
      sum += flat[size_t(k)] * flat[size_t(k)];
    norms.push_back(std::sqrt(sum));
  }
  return norms;
}

}  // namespace nudge
