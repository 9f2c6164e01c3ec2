// What the Edit menu's items and the studio's keys do to the selection, as commands:
// delete, pin, copy, paste, duplicate, a spring between two particles, objectives for
// the selection, joints between selected bodies, attachments to the nearest body. Each
// returns nothing when it does not apply (the menu then greys its item). Edits apply to
// the scene shown: the optimiser's iterate while it has one, else the document's.
#include "gui/panels/selection_edits.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "nudge/parameter_facts.h"
#include "studio/scene_edits.h"

namespace nudge::gui {

namespace {

namespace edits = studio::edits;
using edits::Vec3;
using K = Selection::Kind;

// "particle 3" or "4 particles".
std::string counted(const std::vector<int>& members, const char* one, const char* many) {
  return members.size() == 1 ? std::string(one) + " " + std::to_string(members.front())
                             : std::to_string(members.size()) + " " + many;
}

// Particles' or bodies' initial positions (m).
const double* initial_position(const Scene& scene, K kind, int i) {
  const Parameter& p = scene.params[kind == K::Particle ? ParamId::InitialPosition : ParamId::BodyPosition];
  return &p.value[3 * size_t(i)];
}

// How far along x the particles and bodies reach (m): from the lowest to the highest x,
// a body's reach included; 0 for nothing.
double width_along_x(const Scene& scene, const std::vector<int>& particles, const std::vector<int>& bodies) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (int i : particles) {
    const double x = initial_position(scene, K::Particle, i)[0];
    lo = std::min(lo, x), hi = std::max(hi, x);
  }
  const double reach = bodies.empty() ? 0.0 : double(view::largest_body_reach(scene));
  for (int b : bodies) {
    const double x = initial_position(scene, K::Body, b)[0];
    lo = std::min(lo, x - reach), hi = std::max(hi, x + reach);
  }
  return hi >= lo ? hi - lo : 0.0;
}

// A round step a tenth of the order of what is shown (10 cm for a scene of metres).
double round_step(const StudioState& state) {
  const glm::vec3 size = state.shown.draw_options.bounds.hi - state.shown.draw_options.bounds.lo;
  const double shown = std::max({double(size.x), double(size.y), double(size.z), 0.01});
  return std::pow(10.0, std::floor(std::log10(shown))) / 10;
}

// Where copies of something `width` wide go: beside it along +x, a tenth of what is
// shown (and two drawn particles) further on, so that they do not land on it; a whole
// number of round steps, so that what was on the grid stays on it.
Vec3 beside(const StudioState& state, double width) {
  const glm::vec3 size = state.shown.draw_options.bounds.hi - state.shown.draw_options.bounds.lo;
  const double shown = std::max({double(size.x), double(size.y), double(size.z)});
  const double gap = std::max({0.1 * shown, 4.0 * double(state.shown.draw_options.particle_radius), 0.05});
  const double step = round_step(state);
  return {std::ceil((width + gap) / step) * step, 0.0, 0.0};
}

}  // namespace

std::array<double, 3> drop_point(const StudioState& state) {
  const glm::vec3 c = state.shown.draw_options.bounds.center();
  // On a round step, so that the dialogs offer numbers one can read.
  const double step = round_step(state);
  const auto round = [step](double v) { return std::round(v / step) * step + 0.0; };
  return {round(c.x), round(c.y + 0.5), round(c.z)};
}

std::optional<command::EditScene> delete_selection(const StudioState& state) {
  const Selection sel = state.editor.selection;
  if (!selection_exists(edited_scene(state), sel)) return std::nullopt;
  const std::vector<int> all = sel.members();
  const studio::ElementKindFacts& kind = studio::element_kind_facts(sel.kind);
  if (!kind.remove) return std::nullopt;
  std::string label = "delete " + counted(all, std::string(kind.singular).c_str(), std::string(kind.plural).c_str());
  // A link goes with every link below it: the history says so.
  if (sel.kind == K::Link)
    for (const ArticulationLink& link : edited_scene(state).articulations.links)
      if (std::find(all.begin(), all.end(), link.parent) != all.end()) {
        label += " with the links below";
        break;
      }
  return command::EditScene{label, [all, remove = kind.remove](const Scene& s) { return remove(s, all); }, {}};
}

std::optional<command::EditScene> toggle_pin_selection(const StudioState& state) {
  const Selection sel = state.editor.selection;
  const Scene& scene = edited_scene(state);
  if (sel.kind != K::Particle || !selection_exists(scene, sel)) return std::nullopt;
  const std::vector<int> all = sel.members();
  // Pin them all unless all are pinned already: one press leaves them alike.
  const bool pin = std::any_of(all.begin(), all.end(), [&](int i) { return !scene.pinned[size_t(i)]; });
  return command::EditScene{(pin ? "pin " : "free ") + counted(all, "particle", "particles"),
                            [all, pin](const Scene& s) { return edits::set_pinned(s, all, pin); },
                            {}};
}

bool copy_selection(const StudioState& state, EditorState& editor, std::string& banner) {
  const Selection sel = state.editor.selection;
  const Scene& scene = edited_scene(state);
  if ((sel.kind != K::Particle && sel.kind != K::Body) || !selection_exists(scene, sel)) return false;
  const std::vector<int> all = sel.members();
  const bool particles = sel.kind == K::Particle;
  Result<Scene> fragment =
      edits::extract(scene, particles ? all : std::vector<int>{}, particles ? std::vector<int>{} : all);
  if (!fragment) {
    banner = fragment.error().message;
    state.log.error(banner);
    return false;
  }
  editor.clipboard = std::move(*fragment);
  const Scene& copied = *editor.clipboard;
  std::string what = counted(all, particles ? "particle" : "body", particles ? "particles" : "bodies");
  if (copied.spring_count() > 0) what += ", " + std::to_string(copied.spring_count()) + " springs";
  if (copied.joint_count() > 0) what += ", " + std::to_string(copied.joint_count()) + " joints";
  if (!copied.attachments.empty()) what += ", " + std::to_string(copied.attachments.size()) + " attachments";
  state.log.info("copied " + what + " (Ctrl+V pastes them, also into another scene)");
  return true;
}

std::optional<command::EditScene> paste_clipboard(const StudioState& state) {
  if (!state.editor.clipboard) return std::nullopt;
  auto fragment = std::make_shared<const Scene>(*state.editor.clipboard);
  std::vector<int> particles(size_t(fragment->particle_count())), bodies(size_t(fragment->body_count()));
  for (size_t i = 0; i < particles.size(); ++i) particles[i] = int(i);
  for (size_t b = 0; b < bodies.size(); ++b) bodies[b] = int(b);
  const Vec3 offset = beside(state, width_along_x(*fragment, particles, bodies));
  std::string what = particles.empty() ? "" : std::to_string(particles.size()) + " particles";
  if (!bodies.empty()) what += (what.empty() ? "" : " and ") + std::to_string(bodies.size()) + " bodies";
  return command::EditScene{"paste " + what,
                            [fragment, offset](const Scene& s) { return edits::merge(s, *fragment, offset); },
                            [](const Scene& before, const Scene& after) {
                              // One kind is selected: the particles when there are any, else the bodies.
                              return after.particle_count() > before.particle_count()
                                         ? appended(K::Particle, before.particle_count(), after.particle_count())
                                         : appended(K::Body, before.body_count(), after.body_count());
                            }};
}

std::optional<command::EditScene> duplicate_selection(const StudioState& state) {
  const Selection sel = state.editor.selection;
  const Scene& scene = edited_scene(state);
  if ((sel.kind != K::Particle && sel.kind != K::Body) || !selection_exists(scene, sel)) return std::nullopt;
  const bool is_particles = sel.kind == K::Particle;
  const std::vector<int> particles = is_particles ? sel.members() : std::vector<int>{};
  const std::vector<int> bodies = is_particles ? std::vector<int>{} : sel.members();
  const Vec3 offset = beside(state, width_along_x(scene, particles, bodies));
  const K kind = sel.kind;
  return command::EditScene{
      "duplicate " + counted(sel.members(), is_particles ? "particle" : "body", is_particles ? "particles" : "bodies"),
      [particles, bodies, offset](const Scene& s) { return edits::duplicate(s, particles, bodies, offset); },
      [kind](const Scene& before, const Scene& after) {
        return kind == K::Particle ? appended(K::Particle, before.particle_count(), after.particle_count())
                                   : appended(K::Body, before.body_count(), after.body_count());
      }};
}

std::optional<command::EditScene> connect_with_spring(const StudioState& state) {
  const Selection sel = state.editor.selection;
  const Scene& scene = edited_scene(state);
  if (sel.kind != K::Particle || !selection_exists(scene, sel)) return std::nullopt;
  const std::vector<int> two = sel.members();
  if (two.size() != 2) return std::nullopt;
  // The scene's median spring, so that the new one is like the others.
  const auto median = [](std::vector<double> v, double otherwise) {
    if (v.empty()) return otherwise;
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
    return v[v.size() / 2];
  };
  const double stiffness = median(scene.params[ParamId::Stiffness].value, 500.0);
  const double damping = median(scene.params[ParamId::Damping].value, 0.1);
  const int a = two[0], b = two[1];
  return command::EditScene{
      "add a spring between particles " + std::to_string(a) + " and " + std::to_string(b),
      [a, b, stiffness, damping](const Scene& s) { return edits::add_spring(s, a, b, stiffness, damping); },
      [](const Scene& before, const Scene& after) {
        return appended(K::Spring, before.spring_count(), after.spring_count());
      }};
}

namespace {

// Element i (a particle or a body) at the end of the motion shown, which is when an
// objective at the final step reads it; at the start before a motion has come.
Vec3 final_position(const StudioState& state, const Scene& scene, K kind, int i) {
  const Trajectory* traj = state.trajectory();
  const bool particles = kind == K::Particle;
  const bool moved = traj && traj->steps == scene.settings.steps &&
                     (particles ? traj->particles == scene.particle_count() : traj->bodies == scene.body_count());
  const double* x = !moved      ? initial_position(scene, kind, i)
                    : particles ? &traj->x[(size_t(traj->steps) * size_t(traj->particles) + size_t(i)) * 3]
                                : &traj->body_x[(size_t(traj->steps) * size_t(traj->bodies) + size_t(i)) * 3];
  return {x[0], x[1], x[2]};
}

std::optional<command::EditScene> add_objective_step(const std::string& label, const Objective& objective) {
  return command::EditScene{label, [objective](const Scene& s) { return edits::add_objective(s, objective); },
                            [](const Scene& before, const Scene& after) {
                              return appended(K::Objective, int(before.objectives.size()),
                                              int(after.objectives.size()));
                            }};
}

}  // namespace

std::optional<command::EditScene> add_target_for_selection(const StudioState& state) {
  const Selection sel = state.editor.selection;
  const Scene& scene = edited_scene(state);
  if ((sel.kind != K::Particle && sel.kind != K::Body) || !selection_exists(scene, sel)) return std::nullopt;
  const std::vector<int> all = sel.members();
  const bool particles = sel.kind == K::Particle;
  Vec3 centroid{0, 0, 0};
  for (int i : all) {
    const Vec3 x = final_position(state, scene, sel.kind, i);
    for (size_t d = 0; d < 3; ++d) centroid[d] += x[d] / double(all.size());
  }
  Objective target;
  target.type = ObjectiveType::Target;
  target.weight = 1.0;
  target.step = -1;
  (particles ? target.particles : target.bodies) = all;
  target.target = {centroid[0], centroid[1], centroid[2]};
  return add_objective_step(
      "add a target for " + counted(all, particles ? "particle" : "body", particles ? "particles" : "bodies"), target);
}

std::optional<command::EditScene> add_objective_for_selection(const StudioState& state, ObjectiveType type) {
  const Selection sel = state.editor.selection;
  const Scene& scene = edited_scene(state);
  Objective o;
  o.type = type;
  o.weight = 1.0;
  o.step = -1;
  if (type == ObjectiveType::Effort || type == ObjectiveType::Smoothness) {
    // The terms read the per-step control tables (channels, joint motors): none, nothing to do.
    bool controls = false;
    for (ParamId id : per_step_params()) controls |= !scene.params[id].value.empty();
    if (!controls) return std::nullopt;
    return add_objective_step(
        type == ObjectiveType::Effort ? "add a control effort term" : "add a control smoothness term", o);
  }
  if (type == ObjectiveType::Rest) {  // every material point
    if (!scene.material_points.enabled()) return std::nullopt;
    for (int q = 0; q < scene.material_points.count(); ++q) o.points.push_back(q);
    return add_objective_step("add a rest term for the material points", o);
  }
  if (!selection_exists(scene, sel)) return std::nullopt;
  const std::vector<int> all = sel.members();
  const bool particles = sel.kind == K::Particle, bodies = sel.kind == K::Body;
  switch (type) {
    case ObjectiveType::Velocity:  // to rest at the end
      if (!particles && !bodies) return std::nullopt;
      (particles ? o.particles : o.bodies) = all;
      o.target = {0, 0, 0};
      return add_objective_step("add a come-to-rest term for " +
                                    counted(all, particles ? "particle" : "body", particles ? "particles" : "bodies"),
                                o);
    case ObjectiveType::Travel:  // as far along +x as it goes
      if (!particles) return std::nullopt;
      o.particles = all;
      return add_objective_step("add a travel term for " + counted(all, "particle", "particles"), o);
    case ObjectiveType::Positions:  // each particle where it ends now: hold that shape
      if (!particles) return std::nullopt;
      o.particles = all;
      for (int i : all) {
        const Vec3 x = final_position(state, scene, sel.kind, i);
        o.target.insert(o.target.end(), x.begin(), x.end());
      }
      return add_objective_step("add a positions term for " + counted(all, "particle", "particles"), o);
    case ObjectiveType::Orientation:  // each body's y axis pointing up
      if (!bodies) return std::nullopt;
      o.bodies = all;
      o.direction[0] = 0, o.direction[1] = 1, o.direction[2] = 0;
      return add_objective_step("add an orientation term for " + counted(all, "body", "bodies"), o);
    default: return std::nullopt;
  }
}

std::optional<command::EditScene> joint_for_selection(const StudioState& state, JointType type,
                                                      const std::array<double, 3>& axis) {
  const Selection sel = state.editor.selection;
  const Scene& scene = edited_scene(state);
  if (sel.kind != K::Body || !selection_exists(scene, sel)) return std::nullopt;
  const std::vector<int> bodies = sel.members();
  if (bodies.size() != 1 && bodies.size() != 2) return std::nullopt;
  Joint joint;
  joint.type = type;
  std::copy(axis.begin(), axis.end(), joint.axis);
  const double* first = initial_position(scene, K::Body, bodies[0]);
  Vec3 anchor{first[0], first[1], first[2]};
  std::string label = "add a " + std::string(joint_type_name(type)) + " joint ";
  if (bodies.size() == 2) {
    joint.parent = bodies[0];
    joint.child = bodies[1];
    const double* second = initial_position(scene, K::Body, bodies[1]);
    for (int d = 0; d < 3; ++d) anchor[size_t(d)] = 0.5 * (first[d] + second[d]);
    label += "between bodies " + std::to_string(bodies[0]) + " and " + std::to_string(bodies[1]);
  } else {
    // Above the body by its reach, against gravity, so that it hangs from the anchor.
    joint.parent = -1;
    joint.child = bodies[0];
    const RigidBody& body = scene.bodies[size_t(bodies[0])];
    const double reach = body_reach(body, body_shape_size(body, scene.params, bodies[0]));
    const std::vector<double>& g = scene.params[ParamId::Gravity].value;
    const double norm = g.size() == 3 ? std::sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]) : 0.0;
    const Vec3 up = norm > 0 && std::isfinite(norm) ? Vec3{-g[0] / norm, -g[1] / norm, -g[2] / norm} : Vec3{0, 1, 0};
    for (int d = 0; d < 3; ++d) anchor[size_t(d)] += reach * up[size_t(d)];
    label += "from the world to body " + std::to_string(bodies[0]);
  }
  return command::EditScene{label, [joint, anchor](const Scene& s) { return edits::add_joint(s, joint, anchor); },
                            [](const Scene& before, const Scene& after) {
                              return appended(K::Joint, before.joint_count(), after.joint_count());
                            }};
}

std::optional<command::EditScene> attach_to_nearest_body(const StudioState& state) {
  const Selection sel = state.editor.selection;
  const Scene& scene = edited_scene(state);
  if (sel.kind != K::Particle || !selection_exists(scene, sel) || scene.body_count() == 0) return std::nullopt;
  const std::vector<int> particles = sel.members();
  const std::string label = particles.size() == 1
                                ? "attach particle " + std::to_string(particles[0]) + " to the nearest body"
                                : "attach " + std::to_string(particles.size()) + " particles to the nearest bodies";
  return command::EditScene{
      label,
      [particles](const Scene& s) -> Result<Scene> {
        // Each to the body nearest it where the edit applies, one attachment after
        // another: the first refusal (a pinned or attached particle) refuses the step.
        Scene edited = s;
        for (int i : particles) {
          const double* x = initial_position(s, K::Particle, i);
          int nearest = -1;
          double best = std::numeric_limits<double>::infinity();
          for (int b = 0; b < s.body_count(); ++b) {
            const double* c = initial_position(s, K::Body, b);
            const double d2 =
                (x[0] - c[0]) * (x[0] - c[0]) + (x[1] - c[1]) * (x[1] - c[1]) + (x[2] - c[2]) * (x[2] - c[2]);
            if (nearest < 0 || d2 < best) nearest = b, best = d2;
          }
          Result<Scene> next = edits::add_attachment(edited, i, nearest < 0 ? 0 : nearest);
          if (!next) return next;
          edited = std::move(*next);
        }
        return edited;
      },
      [](const Scene& before, const Scene& after) {
        return appended(K::Attachment, int(before.attachments.size()), int(after.attachments.size()));
      }};
}

}  // namespace nudge::gui
