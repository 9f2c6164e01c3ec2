#include "studio/element_kinds.h"

#include <iterator>

#include "nudge/articulations.h"
#include "nudge/assert.h"
#include "nudge/bodies.h"
#include "nudge/colliders.h"
#include "nudge/joints.h"
#include "studio/scene_edits.h"

namespace nudge::studio {

namespace {

using K = ElementKind;
using L = OutlinerList;

// A triangle, bending edge or tet by its corners: "tet 3: 0 1 2 5".
std::string corners_label(std::string_view noun, const std::vector<int>& corners, int per, int e) {
  std::string label = std::string(noun) + " " + std::to_string(e) + ":";
  for (int c = 0; c < per; ++c) label += " " + std::to_string(corners[size_t(e) * size_t(per) + size_t(c)]);
  return label;
}

std::string particle_label(const Scene& scene, int i) {
  return "particle " + std::to_string(i) + (scene.pinned[size_t(i)] ? "  (pinned)" : "");
}

std::string spring_label(const Scene& scene, int j) {
  std::string label = "spring " + std::to_string(j) + ": " + std::to_string(scene.spring_a[size_t(j)]) + " - " +
                      std::to_string(scene.spring_b[size_t(j)]);
  if (scene.spring_channel[size_t(j)] >= 0)
    label += "  (muscle " + std::to_string(scene.spring_channel[size_t(j)]) + ")";
  return label;
}

std::string body_label(const Scene& scene, int i) {
  const RigidBody& body = scene.bodies[size_t(i)];
  return std::to_string(i) + ": " + (body.name.empty() ? "" : body.name + ", ") +
         std::string(body_shape_name(body.shape));
}

std::string collider_label(const Scene& scene, int i) {
  return std::to_string(i) + ": " + std::string(collider_type_name(scene.colliders[size_t(i)].type));
}

std::string joint_label(const Scene& scene, int i) {
  const Joint& joint = scene.joints[size_t(i)];
  return (joint.name.empty() ? "joint " + std::to_string(i) : joint.name) + ", " +
         std::string(joint_type_name(joint.type)) + ": " +
         (joint.parent < 0 ? std::string("world") : std::to_string(joint.parent)) + " -> " +
         std::to_string(joint.child);
}

std::string attachment_label(const Scene& scene, int i) {
  const Attachment& attachment = scene.attachments[size_t(i)];
  const std::string& name = scene.bodies[size_t(attachment.body)].name;
  return "particle " + std::to_string(attachment.particle) + " -> body " + std::to_string(attachment.body) +
         (name.empty() ? "" : " (" + name + ")");
}

std::string objective_label(const Scene& scene, int i) {
  return std::to_string(i) + ": " + std::string(objective_type_name(scene.objectives[size_t(i)].type));
}

// "thigh, hinge on torso" or "torso, free".
std::string link_label(const Scene& scene, int k) {
  const Articulations& a = scene.articulations;
  const ArticulationLink& link = a.links[size_t(k)];
  std::string label = link.name + ", " + std::string(articulation_joint_name(link.joint));
  if (link.parent >= 0) label += " on " + a.links[size_t(link.parent)].name;
  return label;
}

std::string parameter_label(const Scene&, int p) { return std::string(param_name(static_cast<ParamId>(p))); }

template <class List>
int size_of(const List& list) {
  return static_cast<int>(list.size());
}

constexpr ElementKindFacts kKinds[] = {
    {K::Settings, "settings", "settings", "Settings", false, L::Never, false, [](const Scene&) { return 1; },
     [](const Scene&, int) { return std::string("Settings"); }, nullptr},
    {K::Particle, "particle", "particles", "Particles", true, L::Always, false,
     [](const Scene& s) { return s.particle_count(); }, particle_label, edits::delete_particles},
    {K::Spring, "spring", "springs", "Springs", true, L::Always, false, [](const Scene& s) { return s.spring_count(); },
     spring_label, edits::delete_springs},
    {K::Triangle, "triangle", "triangles", "Triangles", true, L::WhenPresent, false,
     [](const Scene& s) { return s.triangle_count(); },
     [](const Scene& s, int e) { return corners_label("triangle", s.triangles, 3, e); }, edits::delete_triangles},
    {K::BendingEdge, "bending edge", "bending edges", "Bending edges", true, L::WhenPresent, false,
     [](const Scene& s) { return s.bending_count(); },
     [](const Scene& s, int e) { return corners_label("edge", s.bending, 4, e); }, edits::delete_bending_edges},
    {K::Tet, "tet", "tets", "Tets", true, L::WhenPresent, false, [](const Scene& s) { return s.tet_count(); },
     [](const Scene& s, int e) { return corners_label("tet", s.tets, 4, e); }, edits::delete_tets},
    {K::Body, "body", "bodies", "Bodies", true, L::WhenPresent, true, [](const Scene& s) { return s.body_count(); },
     body_label, edits::delete_bodies},
    {K::Collider, "collider", "colliders", "Colliders", true, L::WhenPresent, true,
     [](const Scene& s) { return size_of(s.colliders); }, collider_label, edits::delete_colliders},
    {K::Joint, "joint", "joints", "Joints", true, L::WhenPresent, true, [](const Scene& s) { return s.joint_count(); },
     joint_label, edits::delete_joints},
    {K::Attachment, "attachment", "attachments", "Attachments", true, L::WhenPresent, true,
     [](const Scene& s) { return size_of(s.attachments); }, attachment_label, edits::delete_attachments},
    {K::Link, "link", "links", "Links", true, L::WhenPresent, true,
     [](const Scene& s) { return s.articulations.link_count(); }, link_label, edits::delete_links},
    {K::Objective, "objective", "objectives", "Objectives", true, L::Always, true,
     [](const Scene& s) { return size_of(s.objectives); }, objective_label, edits::delete_objectives},
    {K::Parameter, "parameter", "parameters", "Parameters", false, L::Never, false,
     [](const Scene&) { return kParamCount; }, parameter_label, nullptr},
};

// Every kind but None has its row.
constexpr bool every_kind_listed() {
  for (int k = static_cast<int>(K::Settings); k <= static_cast<int>(kLastElementKind); ++k) {
    int rows = 0;
    for (const ElementKindFacts& facts : kKinds) rows += static_cast<int>(facts.kind) == k;
    if (rows != 1) return false;
  }
  return std::size(kKinds) == static_cast<std::size_t>(kLastElementKind);
}
static_assert(every_kind_listed(), "kKinds must have one row for every ElementKind but None");

}  // namespace

std::span<const ElementKindFacts> element_kinds() { return kKinds; }

const ElementKindFacts& element_kind_facts(ElementKind kind) {
  for (const ElementKindFacts& facts : kKinds)
    if (facts.kind == kind) return facts;
  NUDGE_ASSERT(false && "ElementKind::None has no row");
  return kKinds[0];
}

}  // namespace nudge::studio
