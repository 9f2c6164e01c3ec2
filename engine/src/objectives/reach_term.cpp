// Reach: w * |p_t - target|^2, a point on one link of the articulations (its `point`, in
// the link's frame) at the objective's step: a robot's hand brought to a place. The point
// follows from the joint coordinates by forward kinematics, with the links' placements as
// the parameters give them, so its gradient reaches both: along each joint above the link,
// the joint's motion at the point, dp/dq_j = w_j x p + v_j (a ball's or free joint's
// rotation by the turn its four numbers make, articulation_dynamics.h); and each
// placement above it (link_position) moves the point with it, in its parent's axes. The
// point is resized with its link (link_scale, link_length), as the link's shapes are.
#include <algorithm>
#include <memory>
#include <vector>

#include "objectives/link_kinematics.h"
#include "objectives/objective_registry.h"

namespace nudge {

namespace {

class ReachTerm final : public StateTerm<ReachTerm> {
public:
  explicit ReachTerm(const ObjectiveSource& source)
      : weight_(source.objective.weight),
        step_(source.step), point_{source.objective.point[0], source.objective.point[1], source.objective.point[2]},
        target_{source.objective.target[0], source.objective.target[1], source.objective.target[2]},
        kinematics_(source.scene.articulations, source.objective.links.at(0)) {
    prepare(source.scene.params);
  }

  void prepare(const ParameterSet& params) override {
    kinematics_.prepare(params);
    size_ = link_resize(kinematics_.articulations(), params, size_t(kinematics_.link()));
    resized_ = size_.point(point_);
    adj_pos_.assign(kinematics_.links().size(), Vec3<double>{0, 0, 0});
    adj_scale_ = adj_length_ = 0;
  }

  void observe(std::set<int>& steps) const override { steps.insert(step_); }

  template <class T>
  void state_loss(int t, StateView<const T> s, double& loss) const {
    if (t != step_) return;
    const Vec3<double> d = point_at(s) - target_;
    loss += weight_ * dot(d, d);
  }

  template <class T>
  void state_grad(int t, StateView<const T> s, StateView<T> adj) const {
    if (t != step_) return;
    const Vec3<double> p = point_at(s);
    const Vec3<double> g = 2 * weight_ * (p - target_);
    const std::vector<LinkModel<double>>& links = kinematics_.links();
    const std::vector<LinkFrame<double>>& frames = kinematics_.frames();
    for (int k = kinematics_.link(); k >= 0; k = links[size_t(k)].parent) {
      const LinkModel<double>& l = links[size_t(k)];
      const LinkFrame<double>& f = frames[size_t(k)];
      if (l.joint == int(LinkJoint::Hinge) || l.joint == int(LinkJoint::Slide))
        adj.joint_q[l.position] += static_cast<T>(dot(g, cross(f.motion[0].ang, p) + f.motion[0].lin));
      else  // the point as a wrench: dL per twist of the link
        kinematics_.add_joint_wrench(k, Spatial<double>{cross(p, g), g}, adj.joint_q);
      const Mat33<double> parent = l.parent >= 0 ? frames[size_t(l.parent)].rot : identity33<double>();
      adj_pos_[size_t(k)] += mul_transpose(parent, g);
    }
    // p = origin + R (c + A (point - c)), A = s (1 + (l - 1) u u^T)
    const Mat33<double>& rot = frames[size_t(kinematics_.link())].rot;
    const Vec3<double> d = point_ - size_.centre;
    adj_scale_ += dot(g, rot * size_.stretch(d));
    adj_length_ += size_.length_grad(d, mul_transpose(rot, g));
  }

  void add_param_grad(ParameterSet& params) const override {
    const Articulations& a = kinematics_.articulations();
    for (size_t k = 0; k < adj_pos_.size(); ++k) add_placement_grad(a, params, k, adj_pos_[k]);
    std::vector<double>& scale = params[ParamId::LinkScale].grad;
    if (scale.size() == adj_pos_.size()) scale[size_t(kinematics_.link())] += adj_scale_;
    std::vector<double>& length = params[ParamId::LinkLength].grad;
    if (length.size() == adj_pos_.size()) length[size_t(kinematics_.link())] += adj_length_;
  }

private:
  // The point in the world at the state's joint positions.
  template <class T>
  Vec3<double> point_at(StateView<const T> s) const {
    const LinkFrame<double>& f = kinematics_.frame_at(s);
    return f.origin + f.rot * resized_;
  }

  double weight_;
  int step_;
  Vec3<double> point_, target_;
  LinkResize size_;       // the link's, at the evaluation's parameters
  Vec3<double> resized_;  // the point, resized
  LinkKinematics kinematics_;
  // dL/d(each link's placement, link_placement) and dL/d(the link's scale) through the
  // point, summed over the backward pass.
  mutable std::vector<Vec3<double>> adj_pos_;
  mutable double adj_scale_ = 0, adj_length_ = 0;
};

}  // namespace

std::unique_ptr<ObjectiveTerm> make_reach_term(const ObjectiveSource& source) {
  return std::make_unique<ReachTerm>(source);
}

}  // namespace nudge
