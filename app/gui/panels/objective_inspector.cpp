// The inspector's section for an objective term: its weight, step and target typed in,
// what it reads, a markers objective's file and bindings (Bind... then a click on a
// particle), its loss, and Remove.
#include <imgui.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gui/panels/inspector_rows.h"
#include "gui/theme.h"
#include "nudge/marker_csv.h"
#include "nudge/objective_facts.h"
#include "studio/scene_edits.h"

namespace nudge::gui::inspector {

namespace {

// The scene with objective k changed by `change`, checked as a whole (the fields no
// edit of studio/scene_edits.h sets: an objective's step, a markers objective's steps
// per frame).
template <class Change>
Result<Scene> with_objective(const Scene& scene, int k, const std::string& action, Change change) {
  if (k < 0 || size_t(k) >= scene.objectives.size())
    return Error{action + ": objective " + std::to_string(k) + " does not exist"};
  Scene edited = scene;
  change(edited.objectives[size_t(k)]);
  if (Status ok = check_scene(edited); !ok) return Error{action + ": " + ok.error().message};
  return edited;
}

// The marker ids a marker file holds, in the order they first occur, read once per
// change of the file (the inspector asks every frame); or why it cannot be read.
struct MarkerIds {
  std::vector<int> ids;
  std::string error;
};
const MarkerIds& marker_ids(const std::filesystem::path& path) {
  struct Entry {
    std::filesystem::file_time_type written;
    MarkerIds ids;
  };
  static std::map<std::filesystem::path, Entry> cache;
  std::error_code ec;
  const auto written = std::filesystem::last_write_time(path, ec);
  const auto found = cache.find(path);
  if (found != cache.end() && found->second.written == written) return found->second.ids;
  Entry entry{written, {}};
  if (Result<MarkerTrack> track = read_marker_csv(path)) {
    std::set<int> seen;
    for (const MarkerSample& sample : track->samples)
      if (seen.insert(sample.marker).second) entry.ids.ids.push_back(sample.marker);
  } else {
    entry.ids.error = track.error().message;
  }
  return (cache[path] = std::move(entry)).ids;
}

// A markers objective's file, its bound markers (each can be unbound) and the file's
// other markers (each can be bound to the next particle clicked).
void markers(const Page& page, const Scene& scene, int k) {
  const Objective& o = scene.objectives[size_t(k)];
  row("marker file", o.marker_file.string());
  double spf = o.steps_per_frame;
  if (number_row("steps per frame", &spf, 1, "steps", "simulation steps between two frames of the file"))
    queue_edit(page.commands, "set objective " + std::to_string(k) + "'s steps per frame",
               [k, spf](const Scene& sc) -> Result<Scene> {
                 if (!(spf >= 1 && spf <= 1e9 && spf == std::floor(spf)))
                   return Error{"set steps per frame: found " + number(spf) + "; expected an integer >= 1"};
                 return with_objective(sc, k, "set steps per frame",
                                       [&](Objective& e) { e.steps_per_frame = int(spf); });
               });
  row("samples", std::to_string(o.samples.size()) + " (of the bound markers)");
  std::set<int> bound;
  const auto unbind_row = [&](int marker, const std::string& to) {
    bound.insert(marker);
    ImGui::PushID(marker);
    const std::string label = "marker " + std::to_string(marker);
    if (button_row(label.c_str(), "-> " + to, "Unbind", "stop comparing this marker (the only one cannot be unbound)"))
      queue_edit(page.commands, "unbind marker " + std::to_string(marker),
                 [k, marker](const Scene& sc) { return studio::edits::unbind_marker(sc, k, marker); });
    ImGui::PopID();
  };
  for (const auto& [marker, particle] : o.bind) unbind_row(marker, "particle " + std::to_string(particle));
  for (const auto& [marker, body] : o.bind_bodies) unbind_row(marker, body_label(scene, body));
  const std::filesystem::path resolved =
      o.marker_file.is_absolute() || scene.source.empty() ? o.marker_file : scene.source.parent_path() / o.marker_file;
  const MarkerIds& file = marker_ids(resolved);
  if (!file.error.empty()) row("file", file.error);
  for (int marker : file.ids) {
    if (bound.contains(marker)) continue;
    ImGui::PushID(1 << 20 | marker);
    const std::string label = "marker " + std::to_string(marker);
    if (button_row(label.c_str(), "not bound", "Bind...", "then click the particle that should follow it"))
      page.binding_marker = EditorState::MarkerBinding{k, marker};
    ImGui::PopID();
  }
}

}  // namespace

void objective(const Page& page) {
  const StudioState& state = page.state;
  const Scene& scene = page.scene;
  const int k = page.index;
  const Objective& o = scene.objectives[size_t(k)];
  row("type", std::string(objective_type_name(o.type)));
  double weight = o.weight;
  if (number_row("weight", &weight, 1, "", "the term's weight in the loss"))
    queue_edit(page.commands, "set objective " + std::to_string(k) + "'s weight",
               [k, weight](const Scene& sc) { return studio::edits::set_objective_weight(sc, k, weight); });
  if (objective_has_step(o.type)) {
    double step = o.step;
    if (number_row("step", &step, 1, "-1: final", "the step it is evaluated at: -1 for the final one, else 0 to steps"))
      queue_edit(page.commands, "set objective " + std::to_string(k) + "'s step",
                 [k, step](const Scene& sc) -> Result<Scene> {
                   if (!(step >= -1 && step <= sc.settings.steps && step == std::floor(step)))
                     return Error{"set objective step: found " + number(step) +
                                  "; expected -1 (the final step) or a step in [0, " +
                                  std::to_string(sc.settings.steps) + "]"};
                   return with_objective(sc, k, "set objective step", [&](Objective& e) { e.step = int(step); });
                 });
    const int last = o.step < 0 ? scene.settings.steps : o.step;
    double from = o.from_step;
    if (number_row("from step", &from, 1, "-1: at step alone",
                   "a running cost: the mean of the term over the steps from here to its step; -1 for its step alone"))
      queue_edit(page.commands, "set objective " + std::to_string(k) + "'s window",
                 [k, from](const Scene& sc) -> Result<Scene> {
                   const Objective& e = sc.objectives[size_t(k)];
                   const int end = e.step < 0 ? sc.settings.steps : e.step;
                   if (!(from >= -1 && from <= end && from == std::floor(from)))
                     return Error{"set objective window: found " + number(from) +
                                  "; expected -1 (its step alone) or a first step in [0, " + std::to_string(end) + "]"};
                   return with_objective(sc, k, "set objective window", [&](Objective& w) { w.from_step = int(from); });
                 });
    if (o.from_step >= 0) {
      double every = o.every;
      if (number_row("every", &every, 1, "", "the stride between the steps of its window"))
        queue_edit(page.commands, "set objective " + std::to_string(k) + "'s stride",
                   [k, every](const Scene& sc) -> Result<Scene> {
                     if (!(every >= 1 && every == std::floor(every)))
                       return Error{"set objective stride: found " + number(every) + "; expected 1 or more steps"};
                     return with_objective(sc, k, "set objective stride", [&](Objective& w) { w.every = int(every); });
                   });
    }
    if (o.from_step < 0)
      row("evaluated at",
          (o.step < 0 ? "the final step, " + std::to_string(scene.settings.steps) : "step " + std::to_string(o.step)) +
              " (t = " + number(last * scene.settings.dt) + " s)");
    else
      row("evaluated over", "steps " + std::to_string(o.from_step) + " to " + std::to_string(last) + " every " +
                                std::to_string(o.every) + " (t = " + number(o.from_step * scene.settings.dt) + " to " +
                                number(last * scene.settings.dt) + " s), their mean");
  }
  if (!o.particles.empty()) {
    std::string list;
    for (size_t i = 0; i < o.particles.size() && i < 12; ++i) list += (i ? ", " : "") + std::to_string(o.particles[i]);
    if (o.particles.size() > 12) list += ", ... (" + std::to_string(o.particles.size()) + ")";
    row("particles", list);
  }
  if (!o.bodies.empty()) {
    std::string list;
    for (size_t i = 0; i < o.bodies.size() && i < 12; ++i) list += (i ? ", " : "") + std::to_string(o.bodies[i]);
    if (o.bodies.size() > 12) list += ", ... (" + std::to_string(o.bodies.size()) + ")";
    row("bodies", list);
  }
  // Where it pulls to: typed in here or dragged with the viewport's gizmo.
  const auto target_row = [&](const char* label, int r, const std::string& what) {
    double t[3] = {o.target[3 * size_t(r)], o.target[3 * size_t(r) + 1], o.target[3 * size_t(r) + 2]};
    if (number_row(label, t, 3, "m", what))
      queue_edit(page.commands, "move objective " + std::to_string(k) + "'s target", [k, r, t](const Scene& sc) {
        return studio::edits::set_objective_target(sc, k, r, {t[0], t[1], t[2]});
      });
  };
  const ObjectiveLayout& layout = objective_layout(o.type);
  if (layout.target == ObjectiveTarget::Position && o.target.size() == 3)
    target_row("target", 0, "where the centroid should be");
  if (layout.target == ObjectiveTarget::PerParticle) {
    constexpr size_t kShown = 64;
    for (size_t r = 0; r < o.particles.size() && r < kShown && 3 * r + 2 < o.target.size(); ++r) {
      ImGui::PushID(int(r));
      const std::string label = "particle " + std::to_string(o.particles[r]);
      target_row(label.c_str(), int(r), "where this particle should be");
      ImGui::PopID();
    }
    if (o.particles.size() > kShown) row("", "... " + std::to_string(o.particles.size() - kShown) + " more targets");
  }
  if (layout.target == ObjectiveTarget::Velocity && o.target.size() == 3)
    row("target velocity", vec3(o.target.data()) + " m/s");
  if (layout.target == ObjectiveTarget::Region && o.target.size() == 7) {
    row("material points", std::to_string(o.points.size()) + " counted");
    row("region from", vec3(o.target.data()) + " m");
    row("region to", vec3(&o.target[3]) + " m");
    row("softness", number(o.target[6]) + " m (the indicator's width at the faces)");
  }
  if (layout.target == ObjectiveTarget::PointSet) {
    row("material points", std::to_string(o.points.size()) + " matched");
    row("shape", std::to_string(o.target.size() / 3) + " target points (Chamfer distance, both ways)");
  }
  if (o.type == ObjectiveType::Weights)
    row("weights", std::to_string(o.target.size()) + " (every step's positions, weighed: a trajectory's cotangent)");
  if (o.type == ObjectiveType::Rest)
    row("material points", std::to_string(o.points.size()) + " whose mean |v|^2 / 2 is brought to 0");
  if (layout.axis) row("axis", vec3(o.axis) + " (body frame)");
  if (layout.direction) row("direction", vec3(o.direction) + (layout.axis ? " (world)" : ""));
  if (layout.binding == ObjectiveBinding::MarkerFile) markers(page, scene, k);
  if (const studio::RolloutResult* motion = state.shown.current();
      motion && motion->ok() && size_t(k) < motion->evaluation.term_loss.size())
    row("loss term", number(motion->evaluation.term_loss[size_t(k)]));
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TableNextColumn();
  if (ImGui::Button("Remove Objective"))
    queue_edit(page.commands, "remove objective " + std::to_string(k),
               [k](const Scene& sc) { return studio::edits::delete_objectives(sc, {k}); });
}

}  // namespace nudge::gui::inspector
