// Tracks: w * sum c |project(x_step(frame)) - uv|^2 / sum c over the samples of the 2D
// tracks of the footage bound to particles or bodies, c = the track's weight x the
// sample's confidence, projected through the footage's camera.
#include <map>
#include <memory>
#include <vector>

#include "nudge/footage.h"
#include "nudge/pinhole_camera.h"
#include "objectives/objective_registry.h"

namespace nudge {

namespace {

// One particle (or body, when body >= 0) compared with one tracked image position.
struct ImagePoint {
  int particle;
  int body;
  double uv[2];
  double weight;  // the track's weight times the sample's confidence
};

// The image points of the bound tracks' samples within the scene, by step, and the sum of
// their weights.
std::map<int, std::vector<ImagePoint>> image_points(const ObjectiveSource& source, double& total) {
  const Footage& footage = source.scene.footage;
  const int spf = *steps_per_frame(footage.fps, source.scene.settings.dt);
  const int steps = source.scene.settings.steps;
  std::map<int, std::vector<ImagePoint>> points;
  total = 0.0;
  const auto add_track = [&](int id, int particle, int body) {
    const Track& track = *footage.track(id);
    for (const TrackSample& s : track.samples) {
      const long long step = step_of_frame(footage, spf, s.frame);
      const double w = track.weight * s.confidence;
      if (step < 0 || step > steps || w <= 0) continue;  // the clip may run longer than the scene
      points[int(step)].push_back({particle, body, {s.uv[0], s.uv[1]}, w});
      total += w;
    }
  };
  for (auto [id, particle] : source.objective.bind) add_track(id, particle, -1);
  for (auto [id, body] : source.objective.bind_bodies) add_track(id, -1, body);
  return points;
}

class TracksTerm final : public PointsAtSteps<TracksTerm, ImagePoint> {
public:
  TracksTerm(const ObjectiveSource& source, std::map<int, std::vector<ImagePoint>> points, double total)
      : PointsAtSteps(source.objective.weight, std::move(points), total > 0 ? 1.0 / total : 0.0),
        camera_(*source.scene.footage.camera), sizes_(source.sizes) {}

  template <class T>
  void add_point_loss(const ImagePoint& p, StateView<const T> s, double& loss) const {
    loss += image_point_loss<T>(p, s, 0.0, nullptr);
  }

  template <class T>
  void add_point_grad(const ImagePoint& p, StateView<const T> s, double scale, StateView<T> adj) const {
    image_point_loss<T>(p, s, scale, &adj);
  }

private:
  // A tracked point's squared distance in the image, w |project(x) - uv|^2 (px^2), and
  // (when adj is given) its gradient w J^T (project(x) - uv) through the projection's
  // Jacobian J, times `scale`, added to adj. A point at or behind the camera has no
  // image, and adds nothing.
  template <class T>
  double image_point_loss(const ImagePoint& p, StateView<const T> s, double scale, StateView<T>* adj) const {
    double x[3], uv[2], jacobian[2][3];
    for (int k = 0; k < 3; ++k)
      x[k] = static_cast<double>(p.body >= 0 ? s.body_x[sizes_.body(p.body, k)] : s.x[sizes_.particle(p.particle, k)]);
    if (project_point(camera_, x, uv, adj ? jacobian : nullptr) < kMinProjectionDepth) return 0.0;
    const double e[2] = {uv[0] - p.uv[0], uv[1] - p.uv[1]};
    if (adj)
      for (int k = 0; k < 3; ++k) {
        const T g = static_cast<T>(scale * p.weight * (jacobian[0][k] * e[0] + jacobian[1][k] * e[1]));
        if (p.body >= 0)
          adj->body_x[sizes_.body(p.body, k)] += g;
        else
          adj->x[sizes_.particle(p.particle, k)] += g;
      }
    return p.weight * (e[0] * e[0] + e[1] * e[1]);
  }

  PinholeCamera camera_;
  StateSizes sizes_;
};

}  // namespace

std::unique_ptr<ObjectiveTerm> make_tracks_term(const ObjectiveSource& source) {
  double total = 0.0;
  std::map<int, std::vector<ImagePoint>> points = image_points(source, total);
  return std::make_unique<TracksTerm>(source, std::move(points), total);
}

}  // namespace nudge
