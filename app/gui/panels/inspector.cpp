// Properties of the selected element, at the frame the timeline shows. Parameter values
// can be typed in (Enter applies): while optimising, the edit goes to the optimiser's
// iterate (the run pauses there and resumes from it); otherwise to the document.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "gui/panels/panels.h"
#include "studio/scene_edits.h"

namespace nudge::gui {

namespace {

void row(const char* label, const std::string& value) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextDisabled("%s", label);
  ImGui::TableNextColumn();
  ImGui::TextWrapped("%s", value.c_str());
}

std::string number(double v) {
  char text[48];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

std::string vec3(const double* v) {
  char text[96];
  std::snprintf(text, sizeof text, "%.4g, %.4g, %.4g", v[0], v[1], v[2]);
  return text;
}



// A row of `count` numbers typed in (at most 3); true, with the new values, when Enter
// applies them.
bool number_row(const char* label, double* values, int count, const char* unit, const std::string& tooltip) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextDisabled("%s", label);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s; Enter applies", tooltip.c_str());
  ImGui::TableNextColumn();
  ImGui::PushID(label);
  ImGui::SetNextItemWidth(-ImGui::CalcTextSize(unit).x - ImGui::GetStyle().ItemSpacing.x - 1);
  const bool entered = ImGui::InputScalarN("##value", ImGuiDataType_Double, values, count, nullptr, nullptr, "%.6g",
                                           ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  ImGui::TextDisabled("%s", unit);
  ImGui::PopID();
  return entered;
}

// A row whose value is `count` entries of a parameter from `first`, typed in; Enter
// queues the edit (checked and applied by the studio after the panels are drawn).
void edit_row(StudioState& state, const char* label, ParamId id, int first, int count, const char* unit) {
  const Parameter& p = state.point_scene().params[id];
  if (size_t(first + count) > p.value.size()) return;
  double values[3] = {0, 0, 0};
  for (int k = 0; k < count; ++k) values[k] = p.value[size_t(first + k)];
  if (number_row(label, values, count, unit, std::string(param_name(id)) + (p.optimize ? " (optimised)" : "")))
    state.queue(command::EditParameter{id, first, std::vector<double>(values, values + count)});
}

void settings(StudioState& state, const Scene& scene) {
  const Settings& s = scene.settings;
  if (!scene.name.empty()) row("name", scene.name);
  if (!scene.description.empty()) row("description", scene.description);
  row("file", state.document.has_path() ? state.document.path().string() : "not saved");
  double time[2] = {double(s.steps), s.dt};
  if (number_row("steps, dt", time, 2, "s", "the number of steps and the time step (s)")) {
    const int steps = std::isfinite(time[0]) && std::fabs(time[0]) < 1e9 ? int(std::lround(time[0])) : -1;
    const double dt = time[1];
    queue_edit(state, "set steps and dt", [steps, dt](const Scene& sc) { return studio::edits::set_time(sc, dt, steps); });
  }
  row("duration", number(s.steps * s.dt) + " s");
  row("particles", std::to_string(scene.particle_count()));
  row("springs", std::to_string(scene.spring_count()));
  if (scene.body_count() > 0) row("bodies", std::to_string(scene.body_count()));
  if (!scene.colliders.empty()) row("colliders", std::to_string(scene.colliders.size()));
  if (scene.joint_count() > 0) row("joints", std::to_string(scene.joint_count()));
  if (!scene.attachments.empty()) row("attachments", std::to_string(scene.attachments.size()));
  row("muscle channels", std::to_string(scene.channels));
  edit_row(state, "gravity", ParamId::Gravity, 0, 3, "m/s^2");
  edit_row(state, "drag", ParamId::Drag, 0, 1, "N s/m");
  row("ground", s.ground.enabled ? "y = " + number(s.ground.height) : "none");
  if (s.ground.enabled) {
    edit_row(state, "ground stiffness", ParamId::GroundStiffness, 0, 1, "N/m");
    edit_row(state, "friction", ParamId::Friction, 0, 1, "");
  }
  row("checkpoints", s.checkpoint_every == 0 ? "every state stored" : "every " + std::to_string(s.checkpoint_every));
  if (state.motion && state.motion->ok() && state.motion->generation == state.motion_request) {
    row("loss", number(state.motion->evaluation.loss));
    row("rollout", number(state.motion->seconds * 1000) + " ms");
  }
}

void particle(StudioState& state, const Scene& scene, int i) {
  row("index", std::to_string(i));
  edit_row(state, "mass", ParamId::Mass, i, 1, "kg");
  bool pinned = scene.pinned[size_t(i)] != 0;
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextDisabled("pinned");
  ImGui::TableNextColumn();
  if (ImGui::Checkbox("##pinned", &pinned))
    queue_edit(state, (pinned ? "pin particle " : "free particle ") + std::to_string(i),
               [i, pinned](const Scene& sc) { return studio::edits::set_pinned(sc, {i}, pinned); });
  edit_row(state, "initial position", ParamId::InitialPosition, 3 * i, 3, "m");
  edit_row(state, "initial velocity", ParamId::InitialVelocity, 3 * i, 3, "m/s");
  edit_row(state, "external force", ParamId::ExternalForce, 3 * i, 3, "N");
  if (!scene.colliders.empty() || scene.body_count() > 0) edit_row(state, "radius", ParamId::ParticleRadius, i, 1, "m");
  if (const Trajectory* traj = state.trajectory()) {
    const int t = state.playback.frame();
    const size_t at = (size_t(t) * size_t(traj->particles) + size_t(i)) * 3;
    row("frame", std::to_string(t) + " (t = " + number(t * traj->dt) + " s)");
    row("position", vec3(traj->x.data() + at) + " m");
    row("velocity", vec3(traj->v.data() + at) + " m/s");
  }
}

void spring(StudioState& state, const Scene& scene, int j) {
  const ParameterSet& p = state.point_scene().params;
  const int a = scene.spring_a[size_t(j)], b = scene.spring_b[size_t(j)];
  row("index", std::to_string(j));
  row("particles", std::to_string(a) + " - " + std::to_string(b));
  edit_row(state, "stiffness", ParamId::Stiffness, j, 1, "N/m");
  edit_row(state, "damping", ParamId::Damping, j, 1, "N s/m");
  edit_row(state, "rest length", ParamId::RestLength, j, 1, "m");
  const int channel = scene.spring_channel[size_t(j)];
  row("muscle", channel < 0 ? "passive" : "channel " + std::to_string(channel) + ", actuation " +
                                              number(scene.actuation[size_t(j)]));
  if (const Trajectory* traj = state.trajectory()) {
    const int t = state.playback.frame();
    const double* xa = traj->x.data() + (size_t(t) * size_t(traj->particles) + size_t(a)) * 3;
    const double* xb = traj->x.data() + (size_t(t) * size_t(traj->particles) + size_t(b)) * 3;
    const double length = std::sqrt((xa[0] - xb[0]) * (xa[0] - xb[0]) + (xa[1] - xb[1]) * (xa[1] - xb[1]) +
                                    (xa[2] - xb[2]) * (xa[2] - xb[2]));
    row("length now", number(length) + " m");
    if (channel >= 0 && t < scene.settings.steps) {
      const Parameter& controls = p[ParamId::Controls];
      row("control now", number(controls.value[size_t(t) * size_t(controls.cols) + size_t(channel)]));
    }
  }
}

// A rigid body's shape (fixed), sizes, density and initial state (editable), and its pose at
// the frame shown.
void body(StudioState& state, const Scene& scene, int b) {
  const RigidBody& body = scene.bodies[size_t(b)];
  if (!body.name.empty()) row("name", body.name);
  row("shape", std::string(body_shape_name(body.shape)));
  switch (body.shape) {
    case BodyShape::Sphere: edit_row(state, "radius", ParamId::BodyRadius, b, 1, "m"); break;
    case BodyShape::Capsule:
      edit_row(state, "radius", ParamId::BodyRadius, b, 1, "m");
      edit_row(state, "half length", ParamId::BodyHalfLength, b, 1, "m");
      break;
    case BodyShape::Box: edit_row(state, "half extents", ParamId::BodyHalfExtents, 3 * b, 3, "m"); break;
    case BodyShape::Mesh:
      row("mesh", body.mesh->file.generic_string());
      row("hull", std::to_string(body.mesh->hull.vertices.size()) + " vertices, " +
                      std::to_string(body.mesh->hull.planes.size()) + " faces");
      if (const double* s = body.mesh->scale; s[0] != 1 || s[1] != 1 || s[2] != 1) row("scale", vec3(s));
      break;
  }
  const UnitMassProperties unit = unit_mass_properties(body, body_shape_size(body, state.point_scene().params, b));
  const double density = state.point_scene().params[ParamId::BodyDensity].value[size_t(b)];
  edit_row(state, "density", ParamId::BodyDensity, b, 1, "kg/m^3");
  row("mass", number(density * unit.volume) + " kg");
  edit_row(state, "initial position", ParamId::BodyPosition, 3 * b, 3, "m");
  const double* q = &state.point_scene().params[ParamId::BodyOrientation].value[4 * size_t(b)];
  row("initial orientation", vec3(q) + ", " + number(q[3]) + " (x, y, z, w)");
  edit_row(state, "initial velocity", ParamId::BodyVelocity, 3 * b, 3, "m/s");
  edit_row(state, "initial spin", ParamId::BodyAngularVelocity, 3 * b, 3, "rad/s");
  if (const Trajectory* traj = state.trajectory(); traj && traj->bodies == scene.body_count()) {
    const int t = state.playback.frame();
    row("frame", std::to_string(t) + " (t = " + number(t * traj->dt) + " s)");
    row("position", vec3(&traj->body_x[(size_t(t) * traj->bodies + b) * 3]) + " m");
    const double* qt = &traj->body_q[(size_t(t) * traj->bodies + b) * 4];
    row("orientation", vec3(qt) + ", " + number(qt[3]));
  }
}

// A collider's shape and placement (fixed), and the contact parameters it shares with
// the others (editable).
void collider(StudioState& state, const Scene& scene, int k) {
  const ColliderShape& c = scene.colliders[size_t(k)];
  row("type", std::string(collider_type_name(c.type)));
  if (c.type == ColliderType::Plane) {
    row("normal", vec3(c.normal));
    row("offset", number(c.offset) + " m");
  } else {
    row("position", vec3(c.position) + " m");
    if (c.type != ColliderType::Sphere)
      row("orientation", vec3(c.orientation) + ", " + number(c.orientation[3]) + " (x, y, z, w)");
  }
  if (c.type == ColliderType::Box) row("half extents", vec3(c.half_extents) + " m");
  if (c.type == ColliderType::Sphere || c.type == ColliderType::Capsule) row("radius", number(c.radius) + " m");
  if (c.type == ColliderType::Capsule) row("half length", number(c.half_length) + " m");
  edit_row(state, "contact stiffness", ParamId::ContactStiffness, 0, 1, "N/m");
  edit_row(state, "contact damping", ParamId::ContactDamping, 0, 1, "N s/m");
  edit_row(state, "contact friction", ParamId::ContactFriction, 0, 1, "");
  row("damping", scene.contact.damp_approach_only ? "on approach only" : "both ways");
  row("switch", scene.contact.smoothing > 0 ? "softplus over " + number(scene.contact.smoothing) + " m"
                                            : "at the surface");
}

// A body by index and name, or the world (-1).
std::string body_label(const Scene& scene, int b) {
  if (b < 0) return "world";
  const std::string& name = scene.bodies[size_t(b)].name;
  return "body " + std::to_string(b) + (name.empty() ? "" : " (" + name + ")");
}

// A joint's kind, bodies, axis and limits (fixed), its anchor and damping (editable), and
// at the frame shown how far its two sides' anchors have come apart.
void joint(StudioState& state, const Scene& scene, int j) {
  const Joint& joint = scene.joints[size_t(j)];
  const bool has_axis = joint.type == JointType::Hinge || joint.type == JointType::Prismatic;
  const bool turns = joint.type != JointType::Prismatic;  // its free direction, damping and motor are angular
  if (!joint.name.empty()) row("name", joint.name);
  row("type", std::string(joint_type_name(joint.type)));
  row("parent", body_label(scene, joint.parent));
  row("child", body_label(scene, joint.child));
  if (has_axis) row("axis", vec3(joint.axis) + " (world, at the start)");
  if (joint.limited)
    row("limits", "[" + number(joint.lower) + ", " + number(joint.upper) + "] " + (turns ? "rad" : "m"));
  row("collide", joint.collide ? "yes, the two bodies also collide" : "no");
  edit_row(state, "initial anchor", ParamId::JointAnchor, 3 * j, 3, "m");
  if (joint.type != JointType::Fixed)  // nothing is free to damp
    edit_row(state, "damping", ParamId::JointDamping, j, 1, turns ? "N m s/rad" : "N s/m");
  if (const Trajectory* traj = state.trajectory(); traj && traj->bodies == scene.body_count()) {
    const int t = std::clamp(state.playback.frame(), 0, traj->steps);
    row("frame", std::to_string(t) + " (t = " + number(t * traj->dt) + " s)");
    // Zero while the joint holds; the locks are springs, so it opens under load. A
    // prismatic joint's anchors part along the axis by design: the slide.
    const view::JointPlace place = view::joint_place(scene, traj, t, j);
    row("gap", number(place.gap()) + " m");
    if (joint.type == JointType::Prismatic) {
      const double slide = dot(place.child_anchor - place.parent_anchor, place.axis);
      row("slide", number(slide) + " m along the axis, " +
                       number(std::sqrt(std::max(0.0, place.gap() * place.gap() - slide * slide))) + " m off it");
    }
    const Parameter& control = scene.params[ParamId::JointControl];
    const size_t at = size_t(t) * size_t(control.cols) + size_t(j);
    if (has_axis && t < scene.settings.steps && at < control.value.size())
      row("motor now", number(control.value[at]) + (turns ? " N m" : " N"));
  }
}

// An attachment's particle and body, the point of the body that holds the particle (where
// the particle started, in the body's starting frame), and at the frame shown how far the
// particle is from it.
void attachment(const StudioState& state, const Scene& scene, int a) {
  const Attachment& attachment = scene.attachments[size_t(a)];
  row("particle", std::to_string(attachment.particle));
  row("body", body_label(scene, attachment.body));
  const view::AttachmentPlace start = view::attachment_place(scene, nullptr, 0, a);
  const double offset[3] = {start.offset.x, start.offset.y, start.offset.z};
  row("offset", vec3(offset) + " m (body frame, from its centre)");
  row("spring", number(scene.joint_settings.stiffness) + " N/m, " + number(scene.joint_settings.damping) +
                    " N s/m (the joints')");
  if (const Trajectory* traj = state.trajectory()) {
    const int t = std::clamp(state.playback.frame(), 0, traj->steps);
    row("frame", std::to_string(t) + " (t = " + number(t * traj->dt) + " s)");
    // Zero while the spring holds; it stretches under load.
    const view::AttachmentPlace now = view::attachment_place(scene, traj, t, a);
    const double point[3] = {now.point.x, now.point.y, now.point.z};
    row("point", vec3(point) + " m");
    row("distance", number(now.gap()) + " m from the particle to its point");
  }
}

void objective(StudioState& state, const Scene& scene, int k) {
  const Objective& o = scene.objectives[size_t(k)];
  row("type", std::string(objective_type_name(o.type)));
  double weight = o.weight;
  if (number_row("weight", &weight, 1, "", "the term's weight in the loss"))
    queue_edit(state, "set objective " + std::to_string(k) + "'s weight",
               [k, weight](const Scene& sc) { return studio::edits::set_objective_weight(sc, k, weight); });
  row("step", o.step < 0 ? "final (" + std::to_string(scene.settings.steps) + ")" : std::to_string(o.step));
  if (!o.particles.empty()) {
    std::string list;
    for (size_t i = 0; i < o.particles.size() && i < 12; ++i) list += (i ? ", " : "") + std::to_string(o.particles[i]);
    if (o.particles.size() > 12) list += ", ... (" + std::to_string(o.particles.size()) + ")";
    row("particles", list);
  }
  if ((o.type == ObjectiveType::Target || o.type == ObjectiveType::Velocity) && o.target.size() == 3)
    row("target", vec3(o.target.data()));
  if (o.type == ObjectiveType::Travel) row("direction", vec3(o.direction));
  if (o.type == ObjectiveType::Markers) {
    row("marker file", o.marker_file.string());
    row("markers bound", std::to_string(o.bind.size()));
    row("samples", std::to_string(o.samples.size()));
    row("steps per frame", std::to_string(o.steps_per_frame));
  }
  if (state.motion && state.motion->ok() && state.motion->generation == state.motion_request &&
      size_t(k) < state.motion->evaluation.term_loss.size())
    row("loss term", number(state.motion->evaluation.term_loss[size_t(k)]));
}

void parameter(StudioState& state, const Scene& scene, int id) {
  const Parameter& p = scene.params.items[size_t(id)];
  row("name", std::string(param_name(p.id)));
  row("shape", std::to_string(p.rows) + " x " + std::to_string(p.cols));
  const ParamId pid = p.id;
  const std::string name(param_name(pid));
  bool optimize = p.optimize;
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextDisabled("optimised");
  ImGui::TableNextColumn();
  const double lower = p.lower, upper = p.upper;
  if (ImGui::Checkbox("##optimise", &optimize))
    queue_edit(state, (optimize ? "optimise " : "stop optimising ") + name, [pid, optimize, lower, upper](const Scene& sc) {
      return studio::edits::set_optimized(sc, pid, optimize, lower, upper);
    });
  if (!p.optimize_rows.empty()) row("rows", std::to_string(p.optimize_rows.size()) + " of " + std::to_string(p.rows));
  double range[2] = {p.lower, p.upper};
  if (number_row("bounds", range, 2, "", "lower and upper bound while optimising (inf: none)"))
    queue_edit(state, "bound " + name, [pid, optimize = p.optimize, range](const Scene& sc) {
      return studio::edits::set_optimized(sc, pid, optimize, range[0], range[1]);
    });
  double lo = INFINITY, hi = -INFINITY;
  for (double v : p.value) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  if (!p.value.empty()) row("values", p.value.size() == 1 ? number(lo) : "from " + number(lo) + " to " + number(hi));
}

}  // namespace

namespace {

void inspector_contents(StudioState& state) {
  const Scene& scene = state.scene();
  const Selection sel = state.selection;
  if (!selection_exists(scene, sel)) {
    ImGui::TextDisabled("Select an element in the Scene panel.");
    return;
  }
  if (ImGui::BeginTable("properties", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("property", ImGuiTableColumnFlags_WidthStretch, 0.4f);
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 0.6f);
    switch (sel.kind) {
      case Selection::Kind::Settings: settings(state, scene); break;
      case Selection::Kind::Particle: particle(state, scene, sel.index); break;
      case Selection::Kind::Spring: spring(state, scene, sel.index); break;
      case Selection::Kind::Body: body(state, scene, sel.index); break;
      case Selection::Kind::Collider: collider(state, scene, sel.index); break;
      case Selection::Kind::Joint: joint(state, scene, sel.index); break;
      case Selection::Kind::Attachment: attachment(state, scene, sel.index); break;
      case Selection::Kind::Objective: objective(state, scene, sel.index); break;
      case Selection::Kind::Parameter: parameter(state, scene, sel.index); break;
      case Selection::Kind::None: break;
    }
    ImGui::EndTable();
  }
}

}  // namespace

void draw_inspector(StudioState& state, const studio::Rect& area) {
  begin_panel("##side", area, false);
  if (ImGui::BeginTabBar("side tabs")) {
    if (ImGui::BeginTabItem("Inspector")) {
      inspector_contents(state);
      ImGui::EndTabItem();
    }
    const ImGuiTabItemFlags optimise_flags = state.select_optimizer_tab ? ImGuiTabItemFlags_SetSelected : 0;
    state.select_optimizer_tab = false;
    if (ImGui::BeginTabItem("Optimise", nullptr, optimise_flags)) {
      draw_optimizer_contents(state);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Landscape")) {
      draw_landscape_contents(state);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Check")) {
      draw_gradient_check_contents(state);
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  end_panel();
}

}  // namespace nudge::gui
