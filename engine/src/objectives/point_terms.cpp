// Positions and Markers: w / #points * sum |x - target|^2 over points, each a particle (or
// a body's centre of mass) compared with a position at a step. Positions: each listed
// particle with its own target at the objective's step. Markers: each sample of a
// marker bound to a particle or a body, at its frame's step.
#include <map>
#include <memory>

#include "objectives/objective_registry.h"

namespace nudge {

namespace {

// One particle (or body, when body >= 0) compared with one target position.
struct Point {
  int particle;
  double target[3];
  int body = -1;
};

class PointsTerm final : public PointsAtSteps<PointsTerm, Point> {
public:
  PointsTerm(const ObjectiveSource& source, std::map<int, std::vector<Point>> points, int count)
      : PointsAtSteps(source.objective.weight, std::move(points), count > 0 ? 1.0 / count : 0.0), sizes_(source.sizes) {
  }

  template <class T>
  void add_point_loss(const Point& p, StateView<const T> s, double& loss) const {
    for (int k = 0; k < 3; ++k) {
      const double e = static_cast<double>(position(p, s, k)) - p.target[k];
      loss += e * e;
    }
  }

  template <class T>
  void add_point_grad(const Point& p, StateView<const T> s, double scale, StateView<T> adj) const {
    for (int k = 0; k < 3; ++k) {
      const T g = static_cast<T>(scale * (static_cast<double>(position(p, s, k)) - p.target[k]));
      if (p.body >= 0)
        adj.body_x[sizes_.body(p.body, k)] += g;
      else
        adj.x[sizes_.particle(p.particle, k)] += g;
    }
  }

private:
  // Component k of a point's position: its particle's or its body's centre of mass.
  template <class T>
  T position(const Point& p, StateView<const T> s, int k) const {
    return p.body >= 0 ? s.body_x[sizes_.body(p.body, k)] : s.x[sizes_.particle(p.particle, k)];
  }

  StateSizes sizes_;
};

}  // namespace

std::unique_ptr<ObjectiveTerm> make_positions_term(const ObjectiveSource& source) {
  const Objective& o = source.objective;
  std::map<int, std::vector<Point>> points;
  std::vector<Point>& at_step = points[source.step];
  for (size_t i = 0; i < o.particles.size(); ++i)
    at_step.push_back({o.particles[i], {o.target[3 * i], o.target[3 * i + 1], o.target[3 * i + 2]}});
  const int count = static_cast<int>(at_step.size());
  return std::make_unique<PointsTerm>(source, std::move(points), count);
}

std::unique_ptr<ObjectiveTerm> make_markers_term(const ObjectiveSource& source) {
  const Objective& o = source.objective;
  std::map<int, int> particle_of, body_of;
  for (auto [marker, particle] : o.bind) particle_of[marker] = particle;
  for (auto [marker, body] : o.bind_bodies) body_of[marker] = body;
  std::map<int, std::vector<Point>> points;
  int count = 0;
  for (const MarkerSample& s : o.samples) {
    const auto particle = particle_of.find(s.marker);
    const auto body = body_of.find(s.marker);
    if (particle == particle_of.end() && body == body_of.end()) continue;
    const int step = s.frame * o.steps_per_frame;
    if (particle != particle_of.end())
      points[step].push_back({particle->second, {s.position[0], s.position[1], s.position[2]}});
    else
      points[step].push_back({-1, {s.position[0], s.position[1], s.position[2]}, body->second});
    ++count;
  }
  return std::make_unique<PointsTerm>(source, std::move(points), count);
}

}  // namespace nudge
