// Properties of the selected element, at the frame the timeline shows. Parameter values
// can be typed in (Enter applies): while optimising, the edit goes to the optimiser's
// iterate (the run pauses there and resumes from it); otherwise to the document.
#include <imgui.h>
#include <imgui_internal.h>  // the dock node's tab bar: scroll a brought panel's tab into view

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gui/panels/inspector_rows.h"
#include "gui/theme.h"
#include "studio/scene_edits.h"

namespace nudge::gui {

namespace {

using namespace inspector;

// Which state the rows below it read: the motion's frame, or live play's.
void frame_row(const StudioState& state, int t) {
  if (state.live.play)
    row("state", "live, t = " + number(state.live.play->time()) + " s");
  else
    row("frame", std::to_string(t) + " (t = " + number(t * state.scene().settings.dt) + " s)");
}

// The ground plane y = height: a checkbox switches it on or off, Enter applies a height.
void ground_row(const Page& page, const Ground& ground) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextDisabled("ground");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("the plane y = height that particles and bodies stand on; Enter applies");
  ImGui::TableNextColumn();
  bool enabled = ground.enabled;
  double height = ground.height;
  bool changed = ImGui::Checkbox("##ground", &enabled);
  ImGui::SameLine();
  ImGui::TextDisabled("y =");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-ImGui::CalcTextSize("m").x - ImGui::GetStyle().ItemSpacing.x - 1);
  if (!enabled) ImGui::BeginDisabled();
  changed |= ImGui::InputDouble("##height", &height, 0, 0, "%.6g", ImGuiInputTextFlags_EnterReturnsTrue);
  if (!enabled) ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::TextDisabled("m");
  if (changed)
    queue_edit(
        page.commands,
        enabled ? (ground.enabled ? "set the ground's height" : "switch the ground on") : "switch the ground off",
        [enabled, height](const Scene& sc) { return studio::edits::set_ground(sc, enabled, height); });
}

void settings(const Page& page) {
  const StudioState& state = page.state;
  const Scene& scene = page.scene;
  const Settings& s = scene.settings;
  if (!scene.name.empty()) row("name", scene.name);
  if (!scene.description.empty()) row("description", scene.description);
  const studio::Document& document = state.document;
  row("file", document.has_path()          ? document.path().string()
              : document.copy_of().empty() ? "not saved"
                                           : "a copy of " + document.copy_of().string() + ", not saved yet");
  double time[2] = {double(s.steps), s.dt};
  if (number_row("steps, dt", time, 2, "s", "the number of steps and the time step (s)")) {
    const int steps = std::isfinite(time[0]) && std::fabs(time[0]) < 1e9 ? int(std::lround(time[0])) : -1;
    const double dt = time[1];
    queue_edit(page.commands, "set steps and dt",
               [steps, dt](const Scene& sc) { return studio::edits::set_time(sc, dt, steps); });
  }
  row("duration", number(s.steps * s.dt) + " s");
  row("particles", std::to_string(scene.particle_count()));
  row("springs", std::to_string(scene.spring_count()));
  if (scene.triangle_count() > 0) row("triangles", std::to_string(scene.triangle_count()));
  if (scene.bending_count() > 0) row("bending edges", std::to_string(scene.bending_count()));
  if (scene.tet_count() > 0) row("tets", std::to_string(scene.tet_count()));
  if (scene.body_count() > 0) row("bodies", std::to_string(scene.body_count()));
  if (!scene.colliders.empty()) row("colliders", std::to_string(scene.colliders.size()));
  if (scene.joint_count() > 0) row("joints", std::to_string(scene.joint_count()));
  if (!scene.attachments.empty()) row("attachments", std::to_string(scene.attachments.size()));
  if (!scene.articulations.empty()) row("links", std::to_string(scene.articulations.link_count()));
  double channels = scene.channels;
  if (number_row("muscle channels", &channels, 1, "",
                 "how many control channels drive muscles (springs); one in use cannot be removed"))
    queue_edit(page.commands, "set the muscle channels to " + number(channels),
               [channels](const Scene& sc) -> Result<Scene> {
                 if (!(channels >= 0 && channels <= 1e9 && channels == std::floor(channels)))
                   return Error{"set channels: found " + number(channels) + "; expected a whole number of channels"};
                 return studio::edits::set_channels(sc, int(channels));
               });
  edit_section_rows(page, "simulation");  // gravity, drag, wind
  ground_row(page, s.ground);
  if (s.ground.enabled) edit_section_rows(page, "simulation.ground");
  if (s.integrator == Integrator::ImplicitEuler) {
    const ImplicitSettings& im = s.implicit;
    row("integrator", "implicit (backward) Euler on springs and elements: Newton to " + number(im.newton_tolerance) +
                          " m/s (at most " + std::to_string(im.newton_iterations) + " iterations), GMRES (at most " +
                          std::to_string(im.linear_iterations) + "); gradients by implicit differentiation");
  } else if (s.integrator == Integrator::RungeKutta4) {
    row("integrator",
        "classic Runge-Kutta (fourth order) on the articulations, as MuJoCo's RK4: four explicit "
        "stages a step, gradients through each");
  } else if (scene.articulations.empty()) {
    row("integrator", "semi-implicit (symplectic) Euler: v += dt F/m, then x += dt v (fixed dt, first order)");
  } else {  // the joints' step is MuJoCo's Euler
    row("integrator",
        "semi-implicit Euler: v += dt F/m, then x += dt v; articulations as MuJoCo's Euler, damping, "
        "joint friction and contacts implicit in the joints' velocities");
  }
  row("checkpoints", s.checkpoint_every == 0 ? "every state stored" : "every " + std::to_string(s.checkpoint_every));
  if (const studio::RolloutResult* motion = state.shown.current(); motion && motion->ok()) {
    row("loss", number(motion->evaluation.loss));
    row("rollout", number(motion->seconds * 1000) + " ms");
  }
}

void particle(const Page& page) {
  const StudioState& state = page.state;
  const Scene& scene = page.scene;
  const int i = page.index;
  row("index", std::to_string(i));
  // The radius matters only where there is something to touch.
  const bool touches = !scene.colliders.empty() || scene.body_count() > 0;
  edit_element_rows(page, ParamElement::Particle, i,
                    [&](ParamId id) { return id == ParamId::ParticleRadius && !touches; });
  bool pinned = scene.pinned[size_t(i)] != 0;
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextDisabled("pinned");
  ImGui::TableNextColumn();
  if (ImGui::Checkbox("##pinned", &pinned))
    queue_edit(page.commands, (pinned ? "pin particle " : "free particle ") + std::to_string(i),
               [i, pinned](const Scene& sc) { return studio::edits::set_pinned(sc, {i}, pinned); });
  // Which cloth triangles and tets it is a corner of (their values are per element, in
  // the Parameters rows).
  const auto corners = [i](const std::vector<int>& indices) { return std::count(indices.begin(), indices.end(), i); };
  if (const auto n = corners(scene.triangles)) row("in triangles", std::to_string(n));
  if (const auto n = corners(scene.tets)) row("in tets", std::to_string(n));
  if (const StudioState::Frame shown = state.shown_frame(); shown.traj) {
    const Trajectory* traj = shown.traj;
    const int t = shown.step;
    const size_t at = (size_t(t) * size_t(traj->particles) + size_t(i)) * 3;
    frame_row(state, t);
    row("position", vec3(traj->x.data() + at) + " m");
    row("velocity", vec3(traj->v.data() + at) + " m/s");
  }
}

// "spring 3" or "4 springs".
std::string springs_text(const std::vector<int>& springs) {
  return springs.size() == 1 ? "spring " + std::to_string(springs[0]) : std::to_string(springs.size()) + " springs";
}

// The springs driven by `channel` (-1: passive), in one step of set_spring_actuation per
// actuation among them: each keeps its own actuation, and one that has none (a passive
// spring's 0) takes 0.2, so that driving it shows.
Result<Scene> drive_springs(const Scene& scene, const std::vector<int>& springs, int channel) {
  std::map<double, std::vector<int>> by_actuation;
  for (int s : springs) {
    const double a = s >= 0 && s < scene.spring_count() ? scene.actuation[size_t(s)] : 0.0;
    by_actuation[channel >= 0 && a == 0 ? 0.2 : a].push_back(s);
  }
  Result<Scene> edited = scene;
  for (const auto& [actuation, members] : by_actuation) {
    edited = studio::edits::set_spring_actuation(*edited, members, channel, actuation);
    if (!edited) break;
  }
  return edited;
}

// A spring's muscle: which control channel drives it (passive: none; a new channel adds
// one to the scene in the same step) and its actuation (its rest length scales by
// 1 + actuation x control). Both apply to every selected spring.
void muscle_rows(const Page& page, const Scene& scene, int j) {
  const std::vector<int> springs =
      page.state.editor.selection.kind == Selection::Kind::Spring && page.state.editor.selection.contains(j)
          ? page.state.editor.selection.members()
          : std::vector<int>{j};
  const int channel = scene.spring_channel[size_t(j)];
  const double actuation = scene.actuation[size_t(j)];
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextDisabled("muscle");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("the control channel that drives the spring's rest length, or passive%s",
                      springs.size() > 1 ? " (sets every selected spring)" : "");
  ImGui::TableNextColumn();
  ImGui::SetNextItemWidth(-FLT_MIN);
  const std::string shown = channel < 0 ? "passive" : "channel " + std::to_string(channel);
  if (ImGui::BeginCombo("##muscle", shown.c_str())) {
    const std::string what = springs_text(springs);
    // Whether every selected spring is driven by `c` already (-1: passive): then choosing
    // it changes nothing and makes no step.
    const auto all_on = [&](int c) {
      return std::all_of(springs.begin(), springs.end(), [&](int s) { return scene.spring_channel[size_t(s)] == c; });
    };
    if (ImGui::Selectable("passive", channel < 0) && !all_on(-1))
      queue_edit(page.commands, "make " + what + " passive",
                 [springs](const Scene& sc) { return drive_springs(sc, springs, -1); });
    for (int c = 0; c < scene.channels; ++c) {
      const std::string label = "channel " + std::to_string(c);
      if (ImGui::Selectable(label.c_str(), c == channel) && !all_on(c))
        queue_edit(page.commands, "drive " + what + " by channel " + std::to_string(c),
                   [springs, c](const Scene& sc) { return drive_springs(sc, springs, c); });
    }
    if (ImGui::Selectable("new channel"))
      queue_edit(page.commands, "drive " + what + " by a new channel " + std::to_string(scene.channels),
                 [springs](const Scene& sc) -> Result<Scene> {
                   // One step: the channel is added and driven, or neither.
                   Result<Scene> more = studio::edits::set_channels(sc, sc.channels + 1);
                   if (!more) return more;
                   return drive_springs(*more, springs, sc.channels);
                 });
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("adds control channel %d (its controls start at zero) and drives the %s by it", scene.channels,
                        springs.size() > 1 ? "selected springs" : "spring");
    ImGui::EndCombo();
  }
  if (channel < 0) return;
  double value = actuation;
  if (number_row("actuation", &value, 1, "",
                 "the rest length scales by 1 + actuation x control (dimensionless)" +
                     std::string(springs.size() > 1 ? "; sets every selected driven spring" : "")))
    queue_edit(page.commands, "set the actuation of " + springs_text(springs),
               [springs, value](const Scene& sc) -> Result<Scene> {
                 // Each keeps its own channel; passive ones among them stay passive.
                 Scene edited = sc;
                 std::map<int, std::vector<int>> by_channel;
                 for (int s : springs)
                   if (s >= 0 && s < sc.spring_count() && sc.spring_channel[size_t(s)] >= 0)
                     by_channel[sc.spring_channel[size_t(s)]].push_back(s);
                 if (by_channel.empty())
                   return Error{"set spring actuation: the springs are passive; choose a channel first"};
                 for (const auto& [c, members] : by_channel) {
                   Result<Scene> next = studio::edits::set_spring_actuation(edited, members, c, value);
                   if (!next) return next;
                   edited = std::move(*next);
                 }
                 return edited;
               });
}

void spring(const Page& page) {
  const StudioState& state = page.state;
  const Scene& scene = page.scene;
  const int j = page.index;
  const ParameterSet& p = state.point_scene().params;
  const int a = scene.spring_a[size_t(j)], b = scene.spring_b[size_t(j)];
  row("index", std::to_string(j));
  row("particles", std::to_string(a) + " - " + std::to_string(b));
  edit_element_rows(page, ParamElement::Spring, j, [](ParamId) { return false; });
  const int channel = scene.spring_channel[size_t(j)];
  muscle_rows(page, scene, j);
  if (const StudioState::Frame shown = state.shown_frame(); shown.traj) {
    const Trajectory* traj = shown.traj;
    const int t = shown.step;
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
void body(const Page& page) {
  const StudioState& state = page.state;
  const Scene& scene = page.scene;
  const int b = page.index;
  const RigidBody& body = scene.bodies[size_t(b)];
  if (!body.name.empty()) row("name", body.name);
  row("shape", std::string(body_shape_name(body.shape)));
  if (body.shape == BodyShape::Mesh) {
    row("mesh", body.mesh->file.generic_string());
    row("hull", std::to_string(body.mesh->hull.vertices.size()) + " vertices, " +
                    std::to_string(body.mesh->hull.planes.size()) + " faces");
    if (const double* s = body.mesh->scale; s[0] != 1 || s[1] != 1 || s[2] != 1) row("scale", vec3(s));
  }
  // The sizes its shape has, then every other body parameter in the table's order; the
  // orientation (four numbers) is shown, not typed in.
  edit_element_rows(page, ParamElement::Body, b, [&](ParamId id) { return !shape_uses_size(body.shape, id); });
  const ParameterSet& p = state.point_scene().params;
  const UnitMassProperties unit = unit_mass_properties(body, body_shape_size(body, p, b));
  row("mass", number(p[ParamId::BodyDensity].value[size_t(b)] * unit.volume) + " kg");
  edit_element_rows(page, ParamElement::Body, b,
                    [](ParamId id) { return is_body_size(id) || param_facts(id).cols > 3; });
  const double* q = &p[ParamId::BodyOrientation].value[4 * size_t(b)];
  row("initial orientation", vec3(q) + ", " + number(q[3]) + " (x, y, z, w)");
  if (const StudioState::Frame shown = state.shown_frame(); shown.traj && shown.traj->bodies == scene.body_count()) {
    const Trajectory* traj = shown.traj;
    const int t = shown.step;
    frame_row(state, t);
    row("position", vec3(&traj->body_x[(size_t(t) * traj->bodies + b) * 3]) + " m");
    const double* qt = &traj->body_q[(size_t(t) * traj->bodies + b) * 4];
    row("orientation", vec3(qt) + ", " + number(qt[3]));
  }
}

// A collider's shape and placement (fixed), and the contact parameters it shares with
// the others (editable).
void collider(const Page& page) {
  const Scene& scene = page.scene;
  const int k = page.index;
  const ColliderShape& c = scene.colliders[size_t(k)];
  row("type", std::string(collider_type_name(c.type)));
  // Moves go through move_colliders by the difference from where the collider is when the
  // edit applies (a plane moves along its normal only).
  if (c.type == ColliderType::Plane) {
    row("normal", vec3(c.normal));
    double offset = c.offset;
    if (number_row("offset", &offset, 1, "m", "how far the plane lies along its normal from the origin"))
      queue_edit(page.commands, "move collider " + std::to_string(k), [k, offset](const Scene& sc) -> Result<Scene> {
        if (size_t(k) >= sc.colliders.size()) return Error{"move collider: collider " + std::to_string(k) + " is gone"};
        const ColliderShape& now = sc.colliders[size_t(k)];
        const double d = offset - now.offset;
        return studio::edits::move_colliders(sc, {k}, {d * now.normal[0], d * now.normal[1], d * now.normal[2]});
      });
  } else {
    double position[3] = {c.position[0], c.position[1], c.position[2]};
    if (number_row("position", position, 3, "m", "the collider's centre"))
      queue_edit(page.commands, "move collider " + std::to_string(k), [k, position](const Scene& sc) -> Result<Scene> {
        if (size_t(k) >= sc.colliders.size()) return Error{"move collider: collider " + std::to_string(k) + " is gone"};
        const double* now = sc.colliders[size_t(k)].position;
        return studio::edits::move_colliders(sc, {k},
                                             {position[0] - now[0], position[1] - now[1], position[2] - now[2]});
      });
    if (c.type != ColliderType::Sphere)
      row("orientation", vec3(c.orientation) + ", " + number(c.orientation[3]) + " (x, y, z, w)");
  }
  if (c.type == ColliderType::Box) row("half extents", vec3(c.half_extents) + " m");
  if (c.type == ColliderType::Sphere || c.type == ColliderType::Capsule) row("radius", number(c.radius) + " m");
  if (c.type == ColliderType::Capsule) row("half length", number(c.half_length) + " m");
  edit_section_rows(page, "contact");  // stiffness, damping, friction
  row("damping", scene.contact.damp_approach_only ? "on approach only" : "both ways");
  row("switch",
      scene.contact.smoothing > 0 ? "softplus over " + number(scene.contact.smoothing) + " m" : "at the surface");
}

// A body by index and name, or the world (-1).
// A joint's kind, bodies, axis and limits (fixed), its anchor and damping (editable), and
// at the frame shown how far its two sides' anchors have come apart.
void joint(const Page& page) {
  const StudioState& state = page.state;
  const Scene& scene = page.scene;
  const int j = page.index;
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
  // Its parameters in the table's order; a fixed joint has nothing free to damp, and a
  // hinge's damping is angular where a slider's is linear.
  for (int i = 0; i < kParamCount; ++i) {
    const auto id = static_cast<ParamId>(i);
    if (param_facts(id).element != ParamElement::Joint) continue;
    if (id != ParamId::JointDamping)
      edit_param_row(page, id, j);
    else if (joint.type != JointType::Fixed)
      edit_param_row(page, id, j, turns ? "N m s/rad" : "N s/m");
  }
  if (const StudioState::Frame shown = state.shown_frame(); shown.traj && shown.traj->bodies == scene.body_count()) {
    const Trajectory* traj = shown.traj;
    const int t = shown.step;
    frame_row(state, t);
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
void attachment(const Page& page) {
  const StudioState& state = page.state;
  const Scene& scene = page.scene;
  const int a = page.index;
  const Attachment& attachment = scene.attachments[size_t(a)];
  row("particle", std::to_string(attachment.particle));
  row("body", body_label(scene, attachment.body));
  const view::AttachmentPlace start = view::attachment_place(scene, nullptr, 0, a);
  const double offset[3] = {start.offset.x, start.offset.y, start.offset.z};
  row("offset", vec3(offset) + " m (body frame, from its centre)");
  row("spring", number(scene.joint_settings.stiffness) + " N/m, " + number(scene.joint_settings.damping) +
                    " N s/m (the joints')");
  if (const StudioState::Frame shown = state.shown_frame(); shown.traj) {
    const Trajectory* traj = shown.traj;
    const int t = shown.step;
    frame_row(state, t);
    // Zero while the spring holds; it stretches under load.
    const view::AttachmentPlace now = view::attachment_place(scene, traj, t, a);
    const double point[3] = {now.point.x, now.point.y, now.point.z};
    row("point", vec3(point) + " m");
    row("distance", number(now.gap()) + " m from the particle to its point");
  }
}

// A link's joint, parent, axis, limits and shapes (fixed); its parameters (editable), its
// actuators' gains and biases (editable), and at the frame shown its joint's coordinates
// and where its frame is.
void link(const Page& page) {
  const StudioState& state = page.state;
  const Scene& scene = page.scene;
  const Articulations& a = scene.articulations;
  const int k = page.index;
  const ArticulationLink& link = a.links[size_t(k)];
  const ArticulationJoint joint = link.joint;
  const bool hinge = joint == ArticulationJoint::Hinge, axial = joint_velocity_count(joint) == 1;
  row("name", link.name);
  row("joint", std::string(articulation_joint_name(joint)) + (link.joint_name.empty() ? "" : " " + link.joint_name));
  row("parent", link.parent < 0 ? std::string("world") : a.links[size_t(link.parent)].name);
  if (joint != ArticulationJoint::Weld) row("anchor", vec3(link.anchor) + " m (link frame)");
  if (axial) row("axis", vec3(link.axis) + " (link frame)");
  if (link.limited && joint == ArticulationJoint::Ball)
    row("cone limit", number(link.range[1]) + " rad, stiffness " + number(link.limit_stiffness) + ", damping " +
                          number(link.limit_damping));
  else if (link.limited)
    row("limits", "[" + number(link.range[0]) + ", " + number(link.range[1]) + "] " + (hinge ? "rad" : "m") +
                      ", stiffness " + number(link.limit_stiffness) + ", damping " + number(link.limit_damping));
  if (scene.params[ParamId::LinkFrictionLoss].value[size_t(k)] != 0)  // the rate its friction grows over
    row("friction velocity", number(link.friction_velocity) + (joint == ArticulationJoint::Slide  ? " m/s"
                                                               : joint == ArticulationJoint::Free ? " m/s or rad/s"
                                                                                                  : " rad/s"));
  const int drawn = drawn_shape_count(link), shapes = static_cast<int>(link.shapes.size());
  row("shapes", std::to_string(shapes) +
                    (drawn < shapes ? " (" + std::to_string(shapes - drawn) + " felt, not drawn)" : std::string()));
  // Its parameters in the table's order, but those its joint has no use for; the
  // inertia (six numbers) and a rotation (four) are shown, not typed in.
  const bool free = joint == ArticulationJoint::Free, turns = free || joint == ArticulationJoint::Ball;
  const bool stretches = link.length_axis[0] != 0 || link.length_axis[1] != 0 || link.length_axis[2] != 0;
  const auto unused = [&](ParamId id) {
    switch (id) {
      case ParamId::LinkDamping:
      case ParamId::LinkArmature:
      case ParamId::LinkFrictionLoss: return joint == ArticulationJoint::Weld;
      case ParamId::LinkStiffness: return !axial && joint != ArticulationJoint::Ball;  // a ball's: toward no turn
      case ParamId::LinkJointPosition:
      case ParamId::LinkJointVelocity:
      case ParamId::LinkSpringRef: return !axial;
      case ParamId::LinkAngularVelocity: return !turns;
      case ParamId::LinkTranslation:
      case ParamId::LinkLinearVelocity: return !free;
      case ParamId::LinkLength: return !stretches;
      default: return param_facts(id).cols > 3;
    }
  };
  const char* angular = hinge || turns ? "rad" : "m";
  for (int i = 0; i < kParamCount; ++i) {
    const auto id = static_cast<ParamId>(i);
    if (param_facts(id).element != ParamElement::Link || unused(id)) continue;
    if (id == ParamId::LinkDamping)
      edit_param_row(page, id, k, hinge || turns ? "N m s/rad" : "N s/m");
    else if (id == ParamId::LinkArmature)
      edit_param_row(page, id, k, hinge || turns ? "kg m^2" : "kg");
    else if (id == ParamId::LinkJointPosition || id == ParamId::LinkSpringRef)
      edit_param_row(page, id, k, angular);
    else if (id == ParamId::LinkFrictionLoss)
      edit_param_row(page, id, k, hinge || turns ? "N m" : "N");
    else if (id == ParamId::LinkStiffness)
      edit_param_row(page, id, k, hinge || turns ? "N m/rad" : "N/m");
    else if (id == ParamId::LinkJointVelocity)
      edit_param_row(page, id, k, hinge ? "rad/s" : "m/s");
    else
      edit_param_row(page, id, k);
  }
  const ParameterSet& p = state.point_scene().params;
  const double* inertia = &p[ParamId::LinkInertia].value[6 * size_t(k)];
  row("inertia", vec3(inertia) + " kg m^2 (xx, yy, zz); " + vec3(inertia + 3) + " (xy, xz, yz)");
  if (turns) {
    const double* r = &p[ParamId::LinkRotation].value[4 * size_t(k)];
    row("initial rotation", vec3(r) + ", " + number(r[3]) + " (x, y, z, w)");
  }
  for (size_t n = 0; n < a.actuators.size(); ++n) {
    const ArticulationActuator& act = a.actuators[n];
    if (act.link != k) continue;
    std::string what = (act.name.empty() ? "actuator " + std::to_string(n) : act.name) + ": channel " +
                       std::to_string(act.channel) + ", gear " + number(act.gear);
    if (act.ctrl_limited) what += ", control in [" + number(act.ctrl_range[0]) + ", " + number(act.ctrl_range[1]) + "]";
    if (act.force_limited)
      what += ", force in [" + number(act.force_range[0]) + ", " + number(act.force_range[1]) + "]";
    row("actuator", what);
    ImGui::PushID(static_cast<int>(n));
    edit_element_rows(page, ParamElement::LinkActuator, static_cast<int>(n), [](ParamId) { return false; });
    if (button_row("", "", "Delete actuator", "Delete this actuator and its gain and biases (its channel stays)"))
      queue_edit(page.commands, "delete actuator " + std::to_string(n),
                 [n](const Scene& sc) { return studio::edits::delete_link_actuators(sc, {static_cast<int>(n)}); });
    ImGui::PopID();
  }
  // A new actuator on a hinge or slide, on a channel of its own (Controls edits its
  // values; a position servo's are target angles, a velocity servo's target rates).
  if (axial) {
    using studio::edits::LinkActuatorKind;
    const auto add = [&](const char* button, LinkActuatorKind kind, double gain, const char* tooltip) {
      if (ImGui::SmallButton(button))
        queue_edit(page.commands,
                   "add a " + std::string(studio::edits::link_actuator_kind_name(kind)) + " to " + link.name,
                   [k, kind, gain](const Scene& sc) { return studio::edits::add_link_actuator(sc, k, kind, gain); });
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tooltip);
    };
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextDisabled("add actuator");
    ImGui::TableNextColumn();
    add("Motor", LinkActuatorKind::Motor, 1.0, "force = gain u (gain 1), u on a new control channel");
    add("Position servo", LinkActuatorKind::PositionServo, 10.0,
        "force = kp (u - q) (kp 10): u, on a new channel, is the target");
    add("Velocity servo", LinkActuatorKind::VelocityServo, 1.0,
        "force = kv (u - qd) (kv 1): u, on a new channel, is the target rate");
  }
  const StudioState::Frame shown = state.shown_frame();
  const Trajectory* traj = shown.traj;
  const int positions = articulation_position_count(a);
  if (!traj || traj->positions != positions || positions == 0) return;
  const int t = shown.step;
  frame_row(state, t);
  const int at_q = articulation_positions(a)[size_t(k)], at_qd = articulation_coordinates(a)[size_t(k)];
  if (at_q >= 0) {
    const double* q = &traj->joint_q[size_t(t) * size_t(positions) + size_t(at_q)];
    const double* qd = &traj->joint_qd[size_t(t) * size_t(traj->coordinates) + size_t(at_qd)];
    if (axial) {
      row("q", number(q[0]) + (hinge ? " rad" : " m"));
      row("qd", number(qd[0]) + (hinge ? " rad/s" : " m/s"));
    } else {
      const int rotation = free ? 3 : 0;
      if (free) row("translation", vec3(q) + " m");
      row("rotation", vec3(q + rotation) + ", " + number(q[rotation + 3]) + " (x, y, z, w)");
      if (free) row("velocity", vec3(qd) + " m/s");
      row("angular velocity", vec3(qd + rotation) + " rad/s (link frame)");
    }
  }
  const std::vector<LinkPose> poses = view::link_poses_at(scene, traj, t);
  row("position", vec3(poses[size_t(k)].pos) + " m (its frame's origin)");
}

void parameter(const Page& page) {
  const Scene& scene = page.scene;
  const int id = page.index;
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
    queue_edit(page.commands, (optimize ? "optimise " : "stop optimising ") + name,
               [pid, optimize, lower, upper](const Scene& sc) {
                 return studio::edits::set_optimized(sc, pid, optimize, lower, upper);
               });
  if (!p.optimize_rows.empty()) row("rows", std::to_string(p.optimize_rows.size()) + " of " + std::to_string(p.rows));
  double range[2] = {p.lower, p.upper};
  if (number_row("bounds", range, 2, "", "lower and upper bound while optimising (inf: none)"))
    queue_edit(page.commands, "bound " + name, [pid, optimize = p.optimize, range](const Scene& sc) {
      return studio::edits::set_optimized(sc, pid, optimize, range[0], range[1]);
    });
  double lo = INFINITY, hi = -INFINITY;
  for (double v : p.value) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  if (!p.value.empty()) row("values", p.value.size() == 1 ? number(lo) : "from " + number(lo) + " to " + number(hi));
}

// A triangle, bending edge or tet: its corners, then its parameters' rows from the
// facts table (a new per-element parameter of the family shows up here by itself).
void corner_element(const Page& page, const char* corners_label, const std::vector<int>& corners, int per,
                    ParamElement element) {
  const int e = page.index;
  std::string text;
  for (int c = 0; c < per; ++c) text += (c ? ", " : "") + std::to_string(corners[size_t(e) * size_t(per) + size_t(c)]);
  row("index", std::to_string(e));
  row(corners_label, text);
  edit_element_rows(page, element, e, [](ParamId) { return false; });
}

void triangle(const Page& page) { corner_element(page, "particles", page.scene.triangles, 3, ParamElement::Triangle); }

void bending_edge(const Page& page) {
  corner_element(page, "opposite, edge", page.scene.bending, 4, ParamElement::BendingEdge);
}

void tet(const Page& page) {
  corner_element(page, "particles", page.scene.tets, 4, ParamElement::Tet);
  const size_t e = size_t(page.index);
  const int channel = page.scene.tet_channel[e];
  row("channel",
      channel < 0 ? "passive" : std::to_string(channel) + " (actuation " + number(page.scene.tet_actuation[e]) + ")");
}

// Each kind's page.
struct PageRow {
  Selection::Kind kind;
  void (*draw)(const Page& page);
};
constexpr PageRow kPages[] = {
    {Selection::Kind::Settings, settings},
    {Selection::Kind::Particle, particle},
    {Selection::Kind::Spring, spring},
    {Selection::Kind::Triangle, triangle},
    {Selection::Kind::BendingEdge, bending_edge},
    {Selection::Kind::Tet, tet},
    {Selection::Kind::Link, link},
    {Selection::Kind::Body, body},
    {Selection::Kind::Collider, collider},
    {Selection::Kind::Joint, joint},
    {Selection::Kind::Attachment, attachment},
    {Selection::Kind::Objective, objective},
    {Selection::Kind::Parameter, parameter},
};

constexpr bool every_kind_has_a_page() {
  for (int k = static_cast<int>(ElementKind::Settings); k <= static_cast<int>(kLastElementKind); ++k) {
    int rows = 0;
    for (const PageRow& page : kPages) rows += static_cast<int>(page.kind) == k;
    if (rows != 1) return false;
  }
  return true;
}
static_assert(every_kind_has_a_page(), "kPages must have one page for every ElementKind but None");

}  // namespace

namespace {

// The selected element's page; the state is read only, and what the page changes goes
// through `commands` (edits) and `editor` (the marker waiting to be bound).
void inspector_contents(const StudioState& state, EditorState& editor, CommandQueue& commands) {
  const Scene& scene = state.scene();
  const Selection sel = editor.selection;
  if (editor.binding_marker) {
    ImGui::PushStyleColor(ImGuiCol_Text, theme::kAccent);
    ImGui::TextWrapped("Click a particle in the viewport to bind marker %d (Esc cancels).",
                       editor.binding_marker->marker);
    ImGui::PopStyleColor();
    if (ImGui::SmallButton("Cancel binding")) editor.binding_marker.reset();
    ImGui::Separator();
  }
  if (!selection_exists(scene, sel)) {
    ImGui::TextDisabled("Select an element in the Scene panel or the viewport.");
    return;
  }
  if (const std::vector<int> members = sel.members(); members.size() > 1) {
    const studio::ElementKindFacts& kind = studio::element_kind_facts(sel.kind);
    ImGui::Text("%zu %s selected", members.size(), std::string(kind.plural).c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped(
        "The rows below show %s %d; a value typed applies to all %zu (positions move together by the "
        "change). Shift+click adds or takes away.",
        std::string(kind.singular).c_str(), sel.index, members.size());
    ImGui::PopStyleColor();
    ImGui::Separator();
  }
  draw_transform_section(state, sel, commands);
  if (ImGui::BeginTable("properties", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("property", ImGuiTableColumnFlags_WidthStretch, 0.4f);
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 0.6f);
    const Page page{state, commands, editor.binding_marker, scene, sel.index};
    for (const PageRow& p : kPages)
      if (p.kind == sel.kind) p.draw(page);
    ImGui::EndTable();
  }
}

}  // namespace

namespace {

// The current dock window's tab selected and scrolled into view: focus selects it, but a
// tab bar that scrolls (more tabs than fit) does not show it without this.
void scroll_to_own_tab() {
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  ImGuiDockNode* node = window->DockNode;
  if (!node || !node->TabBar) return;
  if (ImGuiTabItem* tab = ImGui::TabBarFindTabByID(node->TabBar, window->TabId))
    ImGui::TabBarQueueFocus(node->TabBar, tab);
}

}  // namespace

void draw_side_panels(StudioState& state) {
  ViewFlags& v = state.ui.view;
  // The panel asked to the front (an optimiser run started, footage opened, a lesson's
  // step): shown, and its tab selected wherever the user docked it.
  const char* bring = std::exchange(state.ui.bring_panel, nullptr);
  const auto side_panel = [bring](const char* name, bool* open) {
    const bool brought = bring && std::string_view(bring) == name;
    if (brought) {
      *open = true;
      ImGui::SetNextWindowFocus();
    }
    if (!*open) return false;
    const bool visible = begin_panel(name, open);
    if (brought) scroll_to_own_tab();
    if (visible) return true;
    end_panel();
    return false;
  };
  if (side_panel(panel_name::kInspector, &v.inspector)) {
    inspector_contents(state, state.editor, state.commands);
    end_panel();
  }
  if (side_panel(panel_name::kOptimise, &v.optimise)) {
    draw_optimizer_contents(state.document, state.optimise, state.ui.popups, state.commands);
    end_panel();
  }
  if (side_panel(panel_name::kLandscape, &v.landscape)) {
    draw_landscape_contents(state, state.commands);
    end_panel();
  }
  if (side_panel(panel_name::kCheck, &v.check)) {
    draw_gradient_check_contents(state, state.commands);
    end_panel();
  }
  if (side_panel(panel_name::kFootage, &v.footage)) {
    draw_footage_contents(state, state.shot, state.ui, state.commands);
    end_panel();
  }
  if (side_panel(panel_name::kLive, &v.live)) {
    draw_live_contents(state, state.live, v, state.commands);
    end_panel();
  }
  if (side_panel(panel_name::kSweep, &v.sweep)) {
    draw_sweep_contents(state, state.sweep, state.commands);
    end_panel();
  }
  if (!v.pose_offered && !state.document.scene().articulations.empty()) v.pose = v.pose_offered = true;
  if (side_panel(panel_name::kPose, &v.pose)) {
    draw_pose_contents(state, state.commands);
    end_panel();
  }
}

}  // namespace nudge::gui
