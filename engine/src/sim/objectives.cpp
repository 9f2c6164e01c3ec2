#include "sim/objectives.h"

#include <algorithm>
#include <set>

#include "nudge/quat.h"

namespace nudge {

namespace {

// The mean of the listed particles' entries of a (3 x n) and bodies' entries of b
// (3 x B): positions or velocities.
template <class T>
void centroid(const std::vector<int>& particles, const T* a, int n, const std::vector<int>& bodies, const T* b, int nb,
              double c[3]) {
  c[0] = c[1] = c[2] = 0.0;
  for (int p : particles)
    for (int k = 0; k < 3; ++k) c[k] += static_cast<double>(a[size_t(k) * n + p]);
  for (int i : bodies)
    for (int k = 0; k < 3; ++k) c[k] += static_cast<double>(b[size_t(k) * nb + i]);
  for (int k = 0; k < 3; ++k) c[k] /= static_cast<double>(particles.size() + bodies.size());
}

template <class T>
void centroid(const std::vector<int>& particles, const T* a, int n, double c[3]) {
  centroid(particles, a, n, {}, static_cast<const T*>(nullptr), 0, c);
}

// Body i's orientation in a state (4 x B), in double.
template <class T>
Quat<double> body_orientation(const T* q, int i, int nb) {
  return {static_cast<double>(q[i]), static_cast<double>(q[size_t(nb) + i]), static_cast<double>(q[2 * size_t(nb) + i]),
          static_cast<double>(q[3 * size_t(nb) + i])};
}

}  // namespace

Objectives::Objectives(const Scene& scene)
    : n_(scene.particle_count()), bodies_(scene.body_count()), channels_(scene.channels), steps_(scene.settings.steps) {
  std::set<int> observed;
  const auto resolve = [&](int step) { return step < 0 ? steps_ : step; };
  for (const Objective& o : scene.objectives) {
    Term term{o.type,
              o.weight,
              o.particles,
              o.bodies,
              {0, 0, 0},
              {o.direction[0], o.direction[1], o.direction[2]},
              {o.axis[0], o.axis[1], o.axis[2]},
              resolve(o.step),
              {},
              1.0,
              {}};
    switch (o.type) {
      case ObjectiveType::Orientation: observed.insert(term.step); break;
      case ObjectiveType::Target:
      case ObjectiveType::Velocity:
        std::copy_n(o.target.begin(), 3, term.target);
        observed.insert(term.step);
        break;
      case ObjectiveType::Travel:
        observed.insert(0);
        observed.insert(term.step);
        break;
      case ObjectiveType::Positions: {
        auto& points = term.points[term.step];
        for (size_t i = 0; i < o.particles.size(); ++i)
          points.push_back({o.particles[i], {o.target[3 * i], o.target[3 * i + 1], o.target[3 * i + 2]}});
        term.point_scale = 1.0 / static_cast<double>(points.size());
        observed.insert(term.step);
        break;
      }
      case ObjectiveType::Markers: {
        std::map<int, int> particle_of, body_of;
        for (auto [marker, particle] : o.bind) particle_of[marker] = particle;
        for (auto [marker, body] : o.bind_bodies) body_of[marker] = body;
        int count = 0;
        for (const MarkerSample& s : o.samples) {
          const auto particle = particle_of.find(s.marker);
          const auto body = body_of.find(s.marker);
          if (particle == particle_of.end() && body == body_of.end()) continue;
          const int step = s.frame * o.steps_per_frame;
          if (particle != particle_of.end())
            term.points[step].push_back({particle->second, {s.position[0], s.position[1], s.position[2]}});
          else
            term.points[step].push_back({-1, {s.position[0], s.position[1], s.position[2]}, body->second});
          observed.insert(step);
          ++count;
        }
        term.point_scale = count > 0 ? 1.0 / count : 0.0;
        break;
      }
      case ObjectiveType::Tracks: {
        const Footage& footage = scene.footage;
        camera_ = *footage.camera;
        const int spf = *steps_per_frame(footage.fps, scene.settings.dt);
        double total = 0.0;
        const auto add_track = [&](int id, int particle, int body) {
          const Track& track = *footage.track(id);
          for (const TrackSample& s : track.samples) {
            const long long step = step_of_frame(footage, spf, s.frame);
            const double w = track.weight * s.confidence;
            if (step < 0 || step > steps_ || w <= 0) continue;  // the clip may run longer than the scene
            term.image_points[int(step)].push_back({particle, body, {s.uv[0], s.uv[1]}, w});
            observed.insert(int(step));
            total += w;
          }
        };
        for (auto [id, particle] : o.bind) add_track(id, particle, -1);
        for (auto [id, body] : o.bind_bodies) add_track(id, -1, body);
        term.point_scale = total > 0 ? 1.0 / total : 0.0;
        break;
      }
      case ObjectiveType::Effort:
      case ObjectiveType::Smoothness: break;
    }
    terms_.push_back(std::move(term));
  }
  observed_.assign(observed.begin(), observed.end());
}

template <class T>
void Objectives::add_state_loss(int t, StateView<const T> s, std::vector<double>& term_loss) const {
  const T *x = s.x, *v = s.v;
  for (size_t i = 0; i < terms_.size(); ++i) {
    const Term& term = terms_[i];
    double c[3];
    double loss = 0.0;
    switch (term.type) {
      case ObjectiveType::Target:
      case ObjectiveType::Velocity:
        if (t != term.step) continue;
        if (term.type == ObjectiveType::Target)
          centroid(term.particles, x, n_, term.bodies, s.body_x, bodies_, c);
        else
          centroid(term.particles, v, n_, term.bodies, s.body_v, bodies_, c);
        for (int k = 0; k < 3; ++k) loss += (c[k] - term.target[k]) * (c[k] - term.target[k]);
        loss *= term.weight;
        break;
      case ObjectiveType::Travel: {
        if (t != 0 && t != term.step) continue;
        if (t == term.step && t == 0) continue;  // travelled nowhere: contributes 0
        centroid(term.particles, x, n_, c);
        const double sign = t == 0 ? 1.0 : -1.0;  // L = -w dir . (c_t - c_0)
        for (int k = 0; k < 3; ++k) loss += sign * term.weight * term.direction[k] * c[k];
        break;
      }
      case ObjectiveType::Positions:
      case ObjectiveType::Markers: {
        auto it = term.points.find(t);
        if (it == term.points.end()) continue;
        for (const Point& p : it->second)
          for (int k = 0; k < 3; ++k) {
            const double e = static_cast<double>(point_position(p, s, k)) - p.target[k];
            loss += e * e;
          }
        loss *= term.weight * term.point_scale;
        break;
      }
      case ObjectiveType::Orientation: {
        if (t != term.step) continue;
        for (int b : term.bodies) {
          const Vec3<double> e =
              rotate(body_orientation(s.body_q, b, bodies_), Vec3<double>{term.axis[0], term.axis[1], term.axis[2]}) -
              Vec3<double>{term.direction[0], term.direction[1], term.direction[2]};
          loss += dot(e, e);
        }
        loss *= term.weight / static_cast<double>(term.bodies.size());
        break;
      }
      case ObjectiveType::Tracks: {
        auto it = term.image_points.find(t);
        if (it == term.image_points.end()) continue;
        for (const ImagePoint& p : it->second) loss += image_point_loss<T>(p, s, 0.0, nullptr);
        loss *= term.weight * term.point_scale;
        break;
      }
      case ObjectiveType::Effort:
      case ObjectiveType::Smoothness: continue;
    }
    term_loss[i] += loss;
  }
}

template <class T>
void Objectives::add_state_grad(int t, StateView<const T> s, StateView<T> adj) const {
  const T *x = s.x, *v = s.v;
  T *adj_x = adj.x, *adj_v = adj.v;
  for (const Term& term : terms_) {
    double c[3];
    const double share = 1.0 / static_cast<double>(std::max<size_t>(1, term.particles.size() + term.bodies.size()));
    switch (term.type) {
      case ObjectiveType::Target:
      case ObjectiveType::Velocity: {
        if (t != term.step) continue;
        const bool on_x = term.type == ObjectiveType::Target;
        centroid(term.particles, on_x ? x : v, n_, term.bodies, on_x ? s.body_x : s.body_v, bodies_, c);
        T* a = on_x ? adj_x : adj_v;
        T* b = on_x ? adj.body_x : adj.body_v;
        for (int k = 0; k < 3; ++k) {
          const T g = static_cast<T>(2.0 * term.weight * (c[k] - term.target[k]) * share);
          for (int p : term.particles) a[at(p, k)] += g;
          for (int i : term.bodies) b[size_t(k) * bodies_ + i] += g;
        }
        break;
      }
      case ObjectiveType::Travel: {
        if ((t != 0 && t != term.step) || (t == 0 && term.step == 0)) continue;
        const double sign = t == 0 ? 1.0 : -1.0;
        for (int p : term.particles)
          for (int k = 0; k < 3; ++k) adj_x[at(p, k)] += static_cast<T>(sign * term.weight * term.direction[k] * share);
        break;
      }
      case ObjectiveType::Positions:
      case ObjectiveType::Markers: {
        auto it = term.points.find(t);
        if (it == term.points.end()) continue;
        const double scale = 2.0 * term.weight * term.point_scale;
        for (const Point& p : it->second)
          for (int k = 0; k < 3; ++k) {
            const T g = static_cast<T>(scale * (static_cast<double>(point_position(p, s, k)) - p.target[k]));
            if (p.body >= 0)
              adj.body_x[size_t(k) * bodies_ + p.body] += g;
            else
              adj_x[at(p.particle, k)] += g;
          }
        break;
      }
      case ObjectiveType::Orientation: {
        if (t != term.step) continue;
        const Vec3<double> axis{term.axis[0], term.axis[1], term.axis[2]};
        for (int b : term.bodies) {
          const Quat<double> q = body_orientation(s.body_q, b, bodies_);
          const Vec3<double> e =
              rotate(q, axis) - Vec3<double>{term.direction[0], term.direction[1], term.direction[2]};
          Quat<double> adj_q{0, 0, 0, 0};
          Vec3<double> unused{0, 0, 0};
          adj_rotate(q, axis, (2.0 * term.weight / static_cast<double>(term.bodies.size())) * e, adj_q, unused);
          const double parts[4] = {adj_q.x, adj_q.y, adj_q.z, adj_q.w};
          for (int k = 0; k < 4; ++k) adj.body_q[size_t(k) * bodies_ + b] += static_cast<T>(parts[k]);
        }
        break;
      }
      case ObjectiveType::Tracks: {
        auto it = term.image_points.find(t);
        if (it == term.image_points.end()) continue;
        for (const ImagePoint& p : it->second) image_point_loss<T>(p, s, 2.0 * term.weight * term.point_scale, &adj);
        break;
      }
      case ObjectiveType::Effort:
      case ObjectiveType::Smoothness: break;
    }
  }
}

// A tracked point's squared distance in the image, w |project(x) - uv|^2 (px^2), and its
// gradient w J^T (project(x) - uv) through the projection's Jacobian J. A point at or
// behind the camera has no image, and adds nothing.
template <class T>
double Objectives::image_point_loss(const ImagePoint& p, StateView<const T> s, double scale, StateView<T>* adj) const {
  double x[3], uv[2], jacobian[2][3];
  for (int k = 0; k < 3; ++k)
    x[k] = static_cast<double>(p.body >= 0 ? s.body_x[size_t(k) * bodies_ + p.body] : s.x[at(p.particle, k)]);
  if (project_point(camera_, x, uv, adj ? jacobian : nullptr) < kMinProjectionDepth) return 0.0;
  const double e[2] = {uv[0] - p.uv[0], uv[1] - p.uv[1]};
  if (adj)
    for (int k = 0; k < 3; ++k) {
      const T g = static_cast<T>(scale * p.weight * (jacobian[0][k] * e[0] + jacobian[1][k] * e[1]));
      if (p.body >= 0)
        adj->body_x[size_t(k) * bodies_ + p.body] += g;
      else
        adj->x[at(p.particle, k)] += g;
    }
  return p.weight * (e[0] * e[0] + e[1] * e[1]);
}

// Effort: the weight times the mean square of the spring controls, plus that of the
// joints' motor controls (each mean over its own values; a scene usually has one kind).
// Smoothness (a rate penalty): the weight times the mean square of each control's change
// from one step to the next, u[t+1][c] - u[t][c], over the same two tables.
constexpr ParamId kEffortControls[] = {ParamId::Controls, ParamId::JointControl};

namespace {

// The number of (step, column) changes in a steps x cols table.
size_t change_count(const Parameter& p) {
  return p.cols > 0 && p.value.size() > size_t(p.cols) ? p.value.size() - size_t(p.cols) : 0;
}

}  // namespace

void Objectives::add_param_loss(const ParameterSet& params, std::vector<double>& term_loss) const {
  for (size_t i = 0; i < terms_.size(); ++i) {
    const ObjectiveType type = terms_[i].type;
    if (type != ObjectiveType::Effort && type != ObjectiveType::Smoothness) continue;
    for (ParamId id : kEffortControls) {
      const Parameter& controls = params[id];
      const std::vector<double>& u = controls.value;
      double sum = 0.0;
      if (type == ObjectiveType::Effort) {
        if (u.empty()) continue;
        for (double x : u) sum += x * x;
        term_loss[i] += terms_[i].weight * sum / static_cast<double>(u.size());
      } else {
        const size_t changes = change_count(controls), cols = size_t(controls.cols);
        if (changes == 0) continue;
        for (size_t j = 0; j < changes; ++j) sum += (u[j + cols] - u[j]) * (u[j + cols] - u[j]);
        term_loss[i] += terms_[i].weight * sum / static_cast<double>(changes);
      }
    }
  }
}

void Objectives::add_param_grad(ParameterSet& params) const {
  for (const Term& term : terms_) {
    if (term.type != ObjectiveType::Effort && term.type != ObjectiveType::Smoothness) continue;
    for (ParamId id : kEffortControls) {
      Parameter& controls = params[id];
      const std::vector<double>& u = controls.value;
      if (term.type == ObjectiveType::Effort) {
        if (u.empty()) continue;
        const double scale = 2.0 * term.weight / static_cast<double>(u.size());
        for (size_t j = 0; j < u.size(); ++j) controls.grad[j] += scale * u[j];
      } else {
        const size_t changes = change_count(controls), cols = size_t(controls.cols);
        if (changes == 0) continue;
        const double scale = 2.0 * term.weight / static_cast<double>(changes);
        for (size_t j = 0; j < changes; ++j) {
          const double d = scale * (u[j + cols] - u[j]);
          controls.grad[j + cols] += d;
          controls.grad[j] -= d;
        }
      }
    }
  }
}

template void Objectives::add_state_loss<float>(int, StateView<const float>, std::vector<double>&) const;
template void Objectives::add_state_loss<double>(int, StateView<const double>, std::vector<double>&) const;
template void Objectives::add_state_grad<float>(int, StateView<const float>, StateView<float>) const;
template void Objectives::add_state_grad<double>(int, StateView<const double>, StateView<double>) const;

}  // namespace nudge
