// Joints (families/joints/joint_wrench.h): ball, hinge, prismatic and fixed, between two bodies
// or a body and the world. Owns the joints' kinds, limits, frames, damping and motor
// controls and their gradients. A joint is described at the start, by a world anchor
// (a parameter) and axis; each side's frame is that anchor and axis seen from the
// side's initial pose, so the frames' gradients flow on, on the host, to the anchor and
// to both bodies' initial positions and orientations. One thread per joint, writing its
// two coupling slots. A joint on a control channel adds gain * controls[t][channel] to
// its motor; its dL/dmotor at step t, gain times, goes on to that channel, summed by one
// thread per channel over its joints in joint order.
#pragma once

#include <cmath>
#include <utility>
#include <vector>

#include "kernels/body_pair_kernels.h"
#include "kernels/channel_sum.h"
#include "nudge/scene.h"
#include "sim/backend.h"
#include "sim/step_pass.h"
#include "sim/channel_lists.h"
#include "families/bodies/body_family.h"
#include "sim/soa.h"

namespace nudge {

template <class T, Backend Exec>
class JointFamily {
public:
  JointFamily(const Scene& scene, const Exec& exec)
      : count_(scene.joint_count()), steps_(scene.settings.steps), channels_(scene.channels), joints_(scene.joints),
        settings_(scene.joint_settings) {
    std::vector<int> kind, parent, child, limited, channel;
    std::vector<T> lower, upper, gain;
    for (const Joint& j : joints_) {
      channel.push_back(j.channel);
      gain.push_back(static_cast<T>(j.gain));
      kind.push_back(static_cast<int>(kernel_kind(j.type)));
      parent.push_back(j.parent);
      child.push_back(j.child);
      limited.push_back(j.limited ? 1 : 0);
      lower.push_back(static_cast<T>(j.lower));
      upper.push_back(static_cast<T>(j.upper));
    }
    exec.upload(kind_, kind);
    exec.upload(parent_, parent);
    exec.upload(child_, child);
    exec.upload(limited_, limited);
    exec.upload(lower_, lower);
    exec.upload(upper_, upper);
    exec.upload(channel_, channel);
    exec.upload(gain_, gain);
    const ChannelLists lists = group_by_channel(channels_, channel);
    on_channels_ = !lists.empty();
    exec.upload(channel_start_, lists.start);
    exec.upload(channel_joint_, lists.items);
  }

  int count() const { return count_; }

  // The bodies of each joint: (parent, child), the parent -1 for the world.
  std::vector<std::pair<int, int>> coupling_pairs() const {
    std::vector<std::pair<int, int>> out;
    for (const Joint& j : joints_) out.emplace_back(j.parent, j.child);
    return out;
  }

  void upload(const ParameterSet& p, const Exec& exec) {
    if (count_ == 0) return;
    std::vector<double> frame(18 * size_t(count_));
    for (int j = 0; j < count_; ++j) {
      const Frame f = frame_of(p, j);
      const Vec3<double> parts[6] = {f.local.anchor_p, f.local.anchor_c, f.local.axis_p,
                                     f.local.axis_c,   f.local.ref_p,    f.local.ref_c};
      for (int part = 0; part < 6; ++part)
        for (int k = 0; k < 3; ++k) frame[size_t(3 * part + k) * count_ + j] = (&parts[part].x)[k];
    }
    exec.upload(frame_, std::vector<T>(frame.begin(), frame.end()));
    const std::vector<double>& damping = p[ParamId::JointDamping].value;
    exec.upload(damping_, std::vector<T>(damping.begin(), damping.end()));
    const std::vector<double>& control = p[ParamId::JointControl].value;
    exec.upload(control_, std::vector<T>(control.begin(), control.end()));
  }

  JointModel<T> model(const Exec& exec) const {
    JointModel<T> jm;
    jm.count = count_;
    if (count_ == 0) return jm;
    jm.kind = exec.data(kind_);
    jm.parent = exec.data(parent_);
    jm.child = exec.data(child_);
    jm.frame = exec.data(frame_);
    jm.damping = exec.data(damping_);
    jm.limited = exec.data(limited_);
    jm.lower = exec.data(lower_);
    jm.upper = exec.data(upper_);
    jm.control = exec.data(control_);
    jm.channel = exec.data(channel_);
    jm.gain = exec.data(gain_);
    jm.channels = channels_;  // jm.controls is the rollout's ControlChannels', set by it
    jm.stiffness = static_cast<T>(settings_.stiffness);
    jm.linear_damping = static_cast<T>(settings_.damping);
    jm.angular_stiffness = static_cast<T>(settings_.angular_stiffness);
    jm.angular_damping = static_cast<T>(settings_.angular_damping);
    jm.limit_stiffness = static_cast<T>(settings_.limit_stiffness);
    return jm;
  }

  void put_model(ModelView<T>& m, const Exec& exec) const { m.joints = model(exec); }
  void put_grad(GradView<T>& g, const Exec& exec) { g.joints = grad(exec); }

  // Each joint's wrench on its two bodies into coupling slots [first, first + count).
  void couple_bodies(const StepPass<T, Exec>& pass, int first) const {
    if (count_ > 0) pass.exec.launch(count_, JointForceKernel<T>{pass.m, pass.state, pass.t, first});
  }

  void adjoint_couple_bodies(const AdjointPass<T, Exec>& pass, int first) const {
    if (count_ == 0) return;
    const Exec& exec = pass.exec;
    const int t = pass.t;
    const JointGrad<T>& grad = pass.grad.joints;
    exec.launch(count_, JointAdjointKernel<T>{pass.m, pass.state, grad, t, first});
    if (on_channels_)
      exec.launch(channels_, ChannelSumKernel<T>{exec.data(channel_start_), exec.data(channel_joint_),
                                                 grad.control + size_t(t) * count_, exec.data(gain_),
                                                 grad.controls + size_t(t) * channels_});
  }

  void zero_gradients(const Exec& exec) {
    if (count_ == 0) return;
    exec.resize(g_frame_, 18 * size_t(count_));
    exec.resize(g_damping_, size_t(count_));
    exec.resize(g_control_, size_t(steps_) * count_);
    for (auto* a : {&g_frame_, &g_damping_, &g_control_}) exec.zero(*a);
  }

  JointGrad<T> grad(const Exec& exec) {
    if (count_ == 0) return {};
    return {exec.data(g_frame_), exec.data(g_damping_), exec.data(g_control_), nullptr};  // controls: the rollout's
  }

  // The damping's and controls' gradients, and the frames' carried to the anchors and to
  // the bodies' initial poses (after the body family has written its own).
  void download_gradients(ParameterSet& p, const Exec& exec) const {
    if (count_ == 0) return;
    p[ParamId::JointDamping].grad = fetch_values(exec, exec.data(g_damping_), size_t(count_));
    p[ParamId::JointControl].grad = fetch_values(exec, exec.data(g_control_), size_t(steps_) * count_);
    const std::vector<double> g = fetch_values(exec, exec.data(g_frame_), 18 * size_t(count_));
    for (int j = 0; j < count_; ++j) {
      const auto part = [&](int which) {
        return Vec3<double>{g[size_t(3 * which) * count_ + j], g[size_t(3 * which + 1) * count_ + j],
                            g[size_t(3 * which + 2) * count_ + j]};
      };
      const Frame f = frame_of(p, j);
      const Joint& joint = joints_[size_t(j)];
      Vec3<double> adj_anchor{0, 0, 0};
      add_side_gradient(p, joint.parent, f.parent, f.anchor, f.axis, f.ref, part(0), part(2), part(4), adj_anchor);
      add_side_gradient(p, joint.child, f.child, f.anchor, f.axis, f.ref, part(1), part(3), part(5), adj_anchor);
      for (int k = 0; k < 3; ++k) p[ParamId::JointAnchor].grad[3 * size_t(j) + k] += (&adj_anchor.x)[k];
    }
  }

private:
  using Array = typename Exec::template Array<T>;
  using V = Vec3<double>;
  using Q = Quat<double>;

  struct Frame {
    V anchor, axis, ref;  // world, at the start
    BodyPose parent, child;
    JointFrame<double> local;
  };

  static JointKind kernel_kind(JointType type) {
    switch (type) {
      case JointType::Ball: return JointKind::Ball;
      case JointType::Hinge: return JointKind::Hinge;
      case JointType::Prismatic: return JointKind::Prismatic;
      case JointType::Fixed: break;
    }
    return JointKind::Fixed;
  }

  // A unit vector perpendicular to the axis: the turn about it is measured from here.
  static V reference_for(V axis) {
    const V other = std::fabs(axis.x) < 0.9 ? V{1, 0, 0} : V{0, 1, 0};
    return normalize(cross(axis, other));
  }

  Frame frame_of(const ParameterSet& p, int j) const {
    const Joint& joint = joints_[size_t(j)];
    Frame f;
    const double* a = &p[ParamId::JointAnchor].value[3 * size_t(j)];
    f.anchor = {a[0], a[1], a[2]};
    f.axis = normalize(V{joint.axis[0], joint.axis[1], joint.axis[2]});
    f.ref = reference_for(f.axis);
    f.parent = body_start_pose(p, joint.parent);
    f.child = body_start_pose(p, joint.child);
    f.local = {inverse_rotate(f.parent.q, f.anchor - f.parent.x),
               inverse_rotate(f.child.q, f.anchor - f.child.x),
               inverse_rotate(f.parent.q, f.axis),
               inverse_rotate(f.child.q, f.axis),
               inverse_rotate(f.parent.q, f.ref),
               inverse_rotate(f.child.q, f.ref)};
    return f;
  }

  // One side's frame, anchor_s = R^T (A - x), axis_s = R^T axis, ref_s = R^T ref, given
  // their gradients: adds to the anchor's and, for a body, to its initial pose's.
  static void add_side_gradient(ParameterSet& p, int body, const BodyPose& pose, V anchor, V axis, V ref, V g_anchor,
                                V g_axis, V g_ref, V& adj_anchor) {
    Q adj_q{0, 0, 0, 0};
    V adj_d{0, 0, 0}, unused{0, 0, 0};
    adj_inverse_rotate(pose.q, anchor - pose.x, g_anchor, adj_q, adj_d);
    adj_anchor += adj_d;
    if (body < 0) return;  // the world does not move
    adj_inverse_rotate(pose.q, axis, g_axis, adj_q, unused);
    adj_inverse_rotate(pose.q, ref, g_ref, adj_q, unused);
    add_body_start_gradient(p, body, -adj_d, adj_q);
  }

  int count_, steps_, channels_;
  bool on_channels_ = false;  // some joint's motor is on a control channel
  std::vector<Joint> joints_;
  JointSettings settings_;
  typename Exec::template Array<int> kind_, parent_, child_, limited_, channel_, channel_start_, channel_joint_;
  Array lower_, upper_, frame_, damping_, control_, gain_;
  Array g_frame_, g_damping_, g_control_;
};

}  // namespace nudge
