// How objectives look: their targets, reference markers and directions, drawn from each
// kind's layout (nudge/objective_facts.h), as the objectives' layer of the scene's draw
// list (draw_layers.h).
#include <algorithm>
#include <map>
#include <utility>

#include "nudge/objective_facts.h"
#include "view/draw_layers.h"

namespace nudge::view {

namespace {

constexpr size_t kMaxErrorLines = 200;
constexpr size_t kMaxMarkerTracks = 64;  // more hide the scene

glm::vec3 centroid(const std::vector<int>& particles, const std::vector<double>& xyz, size_t offset) {
  glm::vec3 c{0, 0, 0};
  for (int p : particles) c += position(xyz, offset, p);
  return particles.empty() ? c : c / static_cast<float>(particles.size());
}

// The whole reference track of each bound marker (faint green), and the path its particle
// takes in the motion at the marker frames (faint white): where they part, the fit is off.
void add_marker_tracks(render::DrawList& list, const Objective& o, const Trajectory* traj) {
  std::map<int, std::vector<std::pair<int, glm::vec3>>> track_of;  // marker: (frame, position)
  for (const MarkerSample& sample : o.samples) track_of[sample.marker].emplace_back(sample.frame, vec(sample.position));
  int drawn = 0;
  for (const auto& [marker, particle] : o.bind) {
    const auto it = track_of.find(marker);
    if (it == track_of.end() || it->second.size() < 2 || drawn++ >= int(kMaxMarkerTracks)) continue;
    std::vector<std::pair<int, glm::vec3>> samples = it->second;
    std::sort(samples.begin(), samples.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    render::LineBatch reference;
    reference.strip = true;
    reference.width_pixels = 1.5f;
    reference.colors = {colors::kReferenceTrack};
    render::LineBatch simulated = reference;
    simulated.colors = {colors::kSimulatedTrack};
    for (const auto& [frame, where] : samples) {
      reference.points.push_back(where);
      const int step = frame * std::max(o.steps_per_frame, 1);
      if (traj && step <= traj->steps)
        simulated.points.push_back(position(traj->x, size_t(step) * size_t(traj->particles) * 3, particle));
    }
    list.lines.push_back(std::move(reference));
    if (simulated.points.size() >= 2) list.lines.push_back(std::move(simulated));
  }
}

}  // namespace

void draw_objectives(const DrawContext& context, render::DrawList& list) {
  const Scene& scene = context.scene;
  const Trajectory* traj = context.traj;
  const int step = context.step;
  const SceneDrawOptions& options = context.options;
  const std::vector<double>& xyz = context.xyz;
  const size_t offset = context.offset;
  const Bounds& bounds = options.bounds;
  const float radius = options.particle_radius;
  if (options.objectives) {
    render::LineBatch errors;
    errors.width_pixels = 1.5f;
    errors.colors = {colors::kError};
    auto target_at = [&](glm::vec3 goal, glm::vec3 from) {
      list.spheres.push_back({goal, 0.7f * radius, colors::kTarget});
      errors.points.insert(errors.points.end(), {from, goal});
    };
    // Each part of an objective's layout that has a place in the scene is drawn there:
    // its target, its reference markers, its direction (the velocity, the controls and
    // footage tracks have none; tracks are drawn over the plate, through its camera).
    const bool moving_bodies = traj && traj->bodies == scene.body_count();
    const auto body_at = [&](int b) {
      return moving_bodies ? position(traj->body_x, size_t(step) * traj->bodies * 3, b)
                           : position(scene.body_positions(), 0, b);
    };
    const int points = scene.material_points.count();
    const bool moving_points = traj && traj->points == points;
    const auto point_at = [&](int q) {
      return moving_points ? position(traj->point_x, size_t(step) * size_t(points) * 3, q)
                           : position(scene.params[ParamId::PointPosition].value, 0, q);
    };
    for (const Objective& o : scene.objectives) {
      const ObjectiveLayout& layout = objective_layout(o.type);
      if (layout.target == ObjectiveTarget::Position && o.target.size() == 3) {
        // The centroid of the term's particles and bodies, as the engine takes it.
        glm::vec3 c = centroid(o.particles, xyz, offset) * static_cast<float>(o.particles.size());
        for (int b : o.bodies) c += body_at(b);
        for (int q : o.points) c += point_at(q);
        const size_t count = o.particles.size() + o.bodies.size() + o.points.size();
        target_at(vec(o.target.data()), count ? c / static_cast<float>(count) : c);
      }
      if (layout.target == ObjectiveTarget::PerParticle)
        for (size_t k = 0; k < o.particles.size() && 3 * k + 2 < o.target.size(); ++k)
          target_at(vec(&o.target[3 * k]), position(xyz, offset, o.particles[k]));
      if (layout.target == ObjectiveTarget::Region && o.target.size() == 7) {  // the box's twelve edges
        render::LineBatch box;
        box.width_pixels = 2.0f;
        box.colors = {colors::kTarget};
        const glm::vec3 lo = vec(o.target.data()), hi = vec(&o.target[3]);
        const auto corner = [&](int c) {
          return glm::vec3(c & 1 ? hi.x : lo.x, c & 2 ? hi.y : lo.y, c & 4 ? hi.z : lo.z);
        };
        for (int c = 0; c < 8; ++c)
          for (int axis : {1, 2, 4})
            if (!(c & axis)) box.points.insert(box.points.end(), {corner(c), corner(c | axis)});
        list.lines.push_back(std::move(box));
      }
      if (layout.target == ObjectiveTarget::PointSet) {  // a small cross at each of the shape's points
        render::LineBatch crosses;
        crosses.width_pixels = 1.5f;
        crosses.colors = {colors::kTarget};
        const float arm = bounds.radius() * 0.006f;
        for (size_t q = 0; 3 * q + 2 < o.target.size(); ++q) {
          const glm::vec3 y = vec(&o.target[3 * q]);
          for (const glm::vec3 a : {glm::vec3(arm, 0, 0), glm::vec3(0, arm, 0), glm::vec3(0, 0, arm)})
            crosses.points.insert(crosses.points.end(), {y - a, y + a});
        }
        list.lines.push_back(std::move(crosses));
      }
      if (layout.binding == ObjectiveBinding::MarkerFile) {
        add_marker_tracks(list, o, traj);
        // The marker frame at or before this step.
        const int frame = step / std::max(o.steps_per_frame, 1);
        std::map<int, int> particle_of(o.bind.begin(), o.bind.end());
        for (const MarkerSample& sample : o.samples) {
          if (sample.frame != frame) continue;
          const auto it = particle_of.find(sample.marker);
          if (it != particle_of.end()) target_at(vec(sample.position), position(xyz, offset, it->second));
        }
      }
      if (layout.direction && !o.particles.empty()) {  // the way the particles should go, from their start
        render::ArrowBatch arrow;
        arrow.origins = {centroid(o.particles, xyz, 0)};
        arrow.vectors = {glm::normalize(vec(o.direction)) * bounds.radius() * 0.5f};
        arrow.colors = {colors::kTarget};
        list.arrows.push_back(std::move(arrow));
      }
      if (layout.direction && !o.bodies.empty()) {  // the way each body's axis should point, from its centre
        render::ArrowBatch arrow;
        for (int b : o.bodies) {
          arrow.origins.push_back(body_at(b));
          arrow.vectors.push_back(glm::normalize(vec(o.direction)) * bounds.radius() * 0.3f);
          arrow.colors.push_back(colors::kTarget);
        }
        list.arrows.push_back(std::move(arrow));
      }
    }
    // Past a few hundred, error lines hide the scene; the targets alone still show the goal.
    if (!errors.points.empty() && errors.points.size() <= 2 * kMaxErrorLines) list.lines.push_back(std::move(errors));
  }
}

}  // namespace nudge::view
