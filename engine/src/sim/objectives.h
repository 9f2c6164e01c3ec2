// The scene's objective terms evaluated on rollout states. Each term reads the state at
// a few steps ("observed steps"); its loss and its gradient with respect to those states
// are computed on the host in double, whatever precision the rollout runs in.
#pragma once

#include <map>
#include <vector>

#include "kernels/state.h"
#include "nudge/scene.h"

namespace nudge {

class Objectives {
public:
  explicit Objectives(const Scene& scene);  // the scene must pass check_scene

  int term_count() const { return static_cast<int>(terms_.size()); }
  // Steps at which some term reads the state, ascending and unique.
  const std::vector<int>& observed_steps() const { return observed_; }

  // Adds each term's loss from the state at step t (in host memory) to term_loss.
  template <class T>
  void add_state_loss(int t, StateView<const T> s, std::vector<double>& term_loss) const;
  // Adds dL/dstate_t into adj (host memory, the state's layout).
  template <class T>
  void add_state_grad(int t, StateView<const T> s, StateView<T> adj) const;
  // Terms on parameters alone (control effort): their loss, and gradients added to params.
  void add_param_loss(const ParameterSet& params, std::vector<double>& term_loss) const;
  void add_param_grad(ParameterSet& params) const;

private:
  struct Point {  // one particle (or body, when body >= 0) compared with one target position
    int particle;
    double target[3];
    int body = -1;
  };
  struct ImagePoint {  // one particle (or body, when body >= 0) compared with one tracked image position
    int particle;
    int body;
    double uv[2];
    double weight;  // the track's weight times the sample's confidence
  };
  struct Term {
    ObjectiveType type;
    double weight;
    std::vector<int> particles;
    std::vector<int> bodies;  // Target, Velocity, Orientation
    double target[3] = {0, 0, 0};
    double direction[3] = {1, 0, 0};
    double axis[3] = {0, 1, 0};                           // Orientation, in the body's frame
    int step = 0;                                         // resolved: -1 became the final step
    std::map<int, std::vector<Point>> points;             // Positions and Markers, by step
    double point_scale = 1.0;                             // 1 / number of compared points (Tracks: 1 / sum of weights)
    std::map<int, std::vector<ImagePoint>> image_points;  // Tracks, by step
  };
  // Component k of particle p in a state array (3 x n, structure of arrays).
  size_t at(int p, int k) const { return size_t(k) * n_ + p; }
  // Component k of a point's position: its particle's or its body's centre of mass.
  template <class T>
  T point_position(const Point& p, StateView<const T> s, int k) const {
    return p.body >= 0 ? s.body_x[size_t(k) * bodies_ + p.body] : s.x[at(p.particle, k)];
  }

  // The squared image distance of one tracked point, and (when adj is given) its gradient
  // scaled by `scale` added to adj.
  template <class T>
  double image_point_loss(const ImagePoint& p, StateView<const T> s, double scale, StateView<T>* adj) const;

  std::vector<Term> terms_;
  PinholeCamera camera_;  // the footage's, for Tracks terms
  std::vector<int> observed_;
  int n_ = 0, bodies_ = 0, channels_ = 0, steps_ = 0;
};

}  // namespace nudge
