// One objective of a scene, ready to evaluate on rollout states: the steps whose state it
// reads, its loss and its gradient with respect to those states (on the host, in double,
// whatever precision the rollout runs in), or its loss and gradient on the parameters
// alone. One class per kind of objective, each in its own file of this folder; the
// registry (objective_registry.h) makes them from the scene's objectives.
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "kernels/state.h"
#include "nudge/parameters.h"
#include "nudge/quat.h"

namespace nudge {

class ObjectiveTerm {
public:
  virtual ~ObjectiveTerm() = default;
  // Adds the steps whose state it reads.
  virtual void observe(std::set<int>& steps) const = 0;
  // Adds its loss from the state at step t to `loss`, where it reads that step.
  virtual void add_state_loss(int t, StateView<const float> s, double& loss) const = 0;
  virtual void add_state_loss(int t, StateView<const double> s, double& loss) const = 0;
  // Adds dL/dstate_t into adj (host memory, the state's layout).
  virtual void add_state_grad(int t, StateView<const float> s, StateView<float> adj) const = 0;
  virtual void add_state_grad(int t, StateView<const double> s, StateView<double> adj) const = 0;
  // Before each forward pass: the parameters it runs with, for a term whose loss depends on
  // some of them as well as on the state (a reach term's link placements).
  virtual void prepare(const ParameterSet&) {}
  // A term on the parameters alone (control effort) adds its loss, and its gradient to
  // params; a term of both adds its parameters' share of the gradient here.
  virtual void add_param_loss(const ParameterSet&, double&) const {}
  virtual void add_param_grad(ParameterSet&) const {}
};

// The float and double members from one template each: Derived defines
//   template <class T> void state_loss(int t, StateView<const T> s, double& loss) const;
//   template <class T> void state_grad(int t, StateView<const T> s, StateView<T> adj) const;
template <class Derived>
class StateTerm : public ObjectiveTerm {
public:
  void add_state_loss(int t, StateView<const float> s, double& loss) const final { self().state_loss(t, s, loss); }
  void add_state_loss(int t, StateView<const double> s, double& loss) const final { self().state_loss(t, s, loss); }
  void add_state_grad(int t, StateView<const float> s, StateView<float> adj) const final {
    self().state_grad(t, s, adj);
  }
  void add_state_grad(int t, StateView<const double> s, StateView<double> adj) const final {
    self().state_grad(t, s, adj);
  }

private:
  const Derived& self() const { return static_cast<const Derived&>(*this); }
};

// A term over points compared at their steps (positions, markers, tracks): at step t, the weight
// times point_scale times the sum of the points' losses there. Derived defines
//   template <class T> void add_point_loss(const Point& p, StateView<const T> s, double& loss) const;
//   template <class T> void add_point_grad(const Point& p, StateView<const T> s, double scale,
//                                          StateView<T> adj) const;
// (the gradient of the point's loss times scale).
template <class Derived, class Point>
class PointsAtSteps : public StateTerm<Derived> {
public:
  PointsAtSteps(double weight, std::map<int, std::vector<Point>> points, double point_scale)
      : weight_(weight), points_(std::move(points)), point_scale_(point_scale) {}

  void observe(std::set<int>& steps) const override {
    for (const auto& [step, points] : points_) steps.insert(step);
  }

  template <class T>
  void state_loss(int t, StateView<const T> s, double& loss) const {
    const auto it = points_.find(t);
    if (it == points_.end()) return;
    double l = 0.0;
    for (const Point& p : it->second) self().add_point_loss(p, s, l);
    l *= weight_ * point_scale_;
    loss += l;
  }

  template <class T>
  void state_grad(int t, StateView<const T> s, StateView<T> adj) const {
    const auto it = points_.find(t);
    if (it == points_.end()) return;
    const double scale = 2.0 * weight_ * point_scale_;
    for (const Point& p : it->second) self().add_point_grad(p, s, scale, adj);
  }

private:
  const Derived& self() const { return static_cast<const Derived&>(*this); }

  double weight_;
  std::map<int, std::vector<Point>> points_;  // by step
  double point_scale_;
};

// A term that reads no state.
class ParamTerm : public ObjectiveTerm {
public:
  void observe(std::set<int>&) const final {}
  void add_state_loss(int, StateView<const float>, double&) const final {}
  void add_state_loss(int, StateView<const double>, double&) const final {}
  void add_state_grad(int, StateView<const float>, StateView<float>) const final {}
  void add_state_grad(int, StateView<const double>, StateView<double>) const final {}
};

// Where the state's arrays keep particles and bodies (structure of arrays).
struct StateSizes {
  int particles = 0, bodies = 0, points = 0;
  int coordinates = 0;  // the articulations' joint rates (joint_qd) and positions (joint_q)
  int positions = 0;
  // Component k of particle p in a 3 x n array, of body b in a 3 x B (or 4 x B) array, of
  // material point q in a 3 x P array.
  std::size_t particle(int p, int k) const { return std::size_t(k) * std::size_t(particles) + std::size_t(p); }
  std::size_t body(int b, int k) const { return std::size_t(k) * std::size_t(bodies) + std::size_t(b); }
  std::size_t point(int q, int k) const { return std::size_t(k) * std::size_t(points) + std::size_t(q); }
};

// The mean of the listed particles' entries of a (3 x n) and bodies' entries of b
// (3 x B): positions or velocities.
template <class T>
void centroid(const std::vector<int>& particles, const T* a, const std::vector<int>& bodies, const T* b,
              StateSizes sizes, double c[3]) {
  c[0] = c[1] = c[2] = 0.0;
  for (int p : particles)
    for (int k = 0; k < 3; ++k) c[k] += static_cast<double>(a[sizes.particle(p, k)]);
  for (int i : bodies)
    for (int k = 0; k < 3; ++k) c[k] += static_cast<double>(b[sizes.body(i, k)]);
  for (int k = 0; k < 3; ++k) c[k] /= static_cast<double>(particles.size() + bodies.size());
}

// Body i's orientation in a state (4 x B), in double.
template <class T>
Quat<double> body_orientation(const T* q, int i, StateSizes sizes) {
  return {static_cast<double>(q[sizes.body(i, 0)]), static_cast<double>(q[sizes.body(i, 1)]),
          static_cast<double>(q[sizes.body(i, 2)]), static_cast<double>(q[sizes.body(i, 3)])};
}

}  // namespace nudge
