// Link orientation: w * |R_t axis - direction|^2, one link of the articulations turned so
// that its own `axis` points along a direction of the world at the objective's step (a
// robot's torso kept upright, a tool held level): the bodies' orientation objective for a
// link. R follows from the joint positions by forward kinematics (link_kinematics.h); a
// turn ω of the link changes R axis by ω x (R axis), so the loss's gradient is the turn
// (R axis) x g, g = 2 w (R axis - direction), for every joint above the link.
#include <memory>

#include "objectives/link_kinematics.h"
#include "objectives/objective_registry.h"

namespace nudge {

namespace {

class LinkOrientationTerm final : public StateTerm<LinkOrientationTerm> {
public:
  explicit LinkOrientationTerm(const ObjectiveSource& source)
      : weight_(source.objective.weight),
        step_(source.step), axis_{source.objective.axis[0], source.objective.axis[1], source.objective.axis[2]},
        direction_{source.objective.direction[0], source.objective.direction[1], source.objective.direction[2]},
        kinematics_(source.scene.articulations, source.objective.links.at(0)) {
    prepare(source.scene.params);
  }

  void prepare(const ParameterSet& params) override { kinematics_.prepare(params); }

  void observe(std::set<int>& steps) const override { steps.insert(step_); }

  template <class T>
  void state_loss(int t, StateView<const T> s, double& loss) const {
    if (t != step_) return;
    const Vec3<double> e = kinematics_.frame_at(s).rot * axis_ - direction_;
    loss += weight_ * dot(e, e);
  }

  template <class T>
  void state_grad(int t, StateView<const T> s, StateView<T> adj) const {
    if (t != step_) return;
    const Vec3<double> turned = kinematics_.frame_at(s).rot * axis_;
    const Vec3<double> g = 2 * weight_ * (turned - direction_);
    kinematics_.add_wrench(Spatial<double>{cross(turned, g), {0, 0, 0}}, adj.joint_q);
  }

private:
  double weight_;
  int step_;
  Vec3<double> axis_, direction_;
  LinkKinematics kinematics_;
};

}  // namespace

std::unique_ptr<ObjectiveTerm> make_link_orientation_term(const ObjectiveSource& source) {
  return std::make_unique<LinkOrientationTerm>(source);
}

}  // namespace nudge
