// Edits of the articulations: a link added onto another (or a new tree's welded base),
// and links deleted with everything below them. Links are kept in the scene's order
// (each tree's links together, parents first), so an added link goes at the end of its
// parent's tree and every later index moves: the links' parents, the actuators, the
// objectives' links and the links' parameter rows follow.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>
#include <string>

#include "nudge/controller.h"
#include "nudge/link_poses.h"
#include "nudge/mat33.h"
#include "nudge/objective_facts.h"
#include "nudge/quat.h"
#include "studio/scene_edits.h"
#include "studio/scene_edits_support.h"

namespace nudge::studio::edits {

using namespace support;

namespace {

constexpr double kDensity = 1000;                        // kg/m^3, as a new body's
constexpr double kLimbLength = 0.3, kLimbRadius = 0.03;  // m

// Points and directions in a link's frame, as nudge/vec3.h's (the edits' own Vec3 is an array).
using V = nudge::Vec3<double>;

V of(const double* v) { return {v[0], v[1], v[2]}; }

// A unit quaternion (x, y, z, w) that turns z onto the unit vector d.
std::array<double, 4> z_onto(const V& d) {
  if (d.z < -1 + 1e-12) return {1, 0, 0, 0};  // half a turn about x
  const double w = std::sqrt(0.5 * (1 + d.z)), k = 0.5 / w;
  return {-d.y * k, d.x * k, 0, w};  // axis z x d = (-d_y, d_x, 0)
}

// A quaternion (x, y, z, w) as nudge/quat.h's, normalised.
Quat<double> unit_quat(const double* q) { return normalize(Quat<double>{q[0], q[1], q[2], q[3]}); }

// A shape's axis in its link's frame: its own z turned by its quat.
V shape_axis(const LinkShape& shape) { return rotate(unit_quat(shape.quat), V{0, 0, 1}); }

// The way link k extends, in its frame (unit): its length_axis, else its first capsule's
// or cylinder's axis away from its joint's anchor, else onward from its parent (its
// placement, turned into its frame), else down.
V extension(const Scene& scene, int k) {
  const ArticulationLink& link = scene.articulations.links[size_t(k)];
  const V along = of(link.length_axis);
  if (length_squared(along) > 0) return normalize(along);
  for (const LinkShape& shape : link.shapes) {
    if (shape.kind != LinkShape::Kind::Capsule && shape.kind != LinkShape::Kind::Cylinder) continue;
    const V axis = shape_axis(shape);
    return dot(of(shape.pos) - of(link.anchor), axis) < 0 ? -1.0 * axis : axis;
  }
  const V from_parent = of(&scene.params[ParamId::LinkPosition].value[3 * size_t(k)]);
  if (link.parent >= 0 && length_squared(from_parent) > 1e-18)
    return normalize(inverse_rotate(unit_quat(link.quat), from_parent));
  return {0, -1, 0};
}

// How far a shape reaches from its centre along the unit direction d.
double reach(const LinkShape& shape, const V& d) {
  switch (shape.kind) {
    case LinkShape::Kind::Sphere: return shape.size[0];
    case LinkShape::Kind::Capsule:
    case LinkShape::Kind::Cylinder: return std::fabs(dot(shape_axis(shape), d)) * shape.size[1] + shape.size[0];
    case LinkShape::Kind::Box:
    case LinkShape::Kind::Mesh: {
      // The box's half extents along d, in the shape's axes (its quat turns them).
      const V local = inverse_rotate(unit_quat(shape.quat), d);
      return std::fabs(local.x) * shape.size[0] + std::fabs(local.y) * shape.size[1] +
             std::fabs(local.z) * shape.size[2];
    }
  }
  return 0;
}

// Where a new child of `link` goes, in the link's frame: the far end of its first shape
// along d, else kLimbLength along d from its origin.
V tip(const ArticulationLink& link, const V& d) {
  if (link.shapes.empty()) return kLimbLength * d;
  const LinkShape& shape = link.shapes.front();
  return of(shape.pos) + reach(shape, d) * d;
}

// A name no link has: `stem`, else `stem` and the first free number from 1.
std::string free_name(const Articulations& a, const std::string& stem, bool bare_first) {
  std::set<std::string> taken;
  for (const ArticulationLink& l : a.links) taken.insert(l.name);
  if (bare_first && !taken.contains(stem)) return stem;
  for (int n = 1;; ++n)
    if (!taken.contains(stem + std::to_string(n))) return stem + std::to_string(n);
}

// The link's rows: mass, centre of mass and inertia (xx, yy, zz, xy, xz, yz).
struct LinkBody {
  double mass = 0;
  V com{0, 0, 0};
  std::array<double, 6> inertia{};
};

// A capsule of radius r from the origin along the unit d, 2h between its end centres.
LinkBody capsule_body(const V& d, double r, double h) {
  const double pi = std::numbers::pi;
  const double cylinder = kDensity * pi * r * r * 2 * h, caps = kDensity * 4.0 / 3.0 * pi * r * r * r;
  const double along = cylinder * r * r / 2 + caps * 2 * r * r / 5;
  const double across = cylinder * (r * r / 4 + h * h / 3) + caps * (2 * r * r / 5 + h * h + 3 * h * r / 4);
  LinkBody b;
  b.mass = cylinder + caps;
  b.com = h * d;
  // I = across (1 - d d^T) + along d d^T
  const double diff = along - across;
  b.inertia = {across + diff * d.x * d.x, across + diff * d.y * d.y, across + diff * d.z * d.z,
               diff * d.x * d.y,          diff * d.x * d.z,          diff * d.y * d.z};
  return b;
}

// What a controller's joints input and a weights objective read of the joints: an edit
// that changes either is refused (their weights and targets are sized by it).
std::optional<Error> check_readers(std::string_view action, const Scene& before, const Scene& after) {
  if (before.controller.enabled() && controller_reads(before).joint_q != controller_reads(after).joint_q)
    return fail(action,
                "the controller reads the joints (a joints input), and this would change what it reads and so its "
                "weights; remove that input first");
  for (const Objective& o : before.objectives)
    if (o.type == ObjectiveType::Weights && weights_per_step(before, true) != weights_per_step(after, true))
      return fail(action,
                  "a weights objective weighs every joint coordinate at every step, and this would change how many "
                  "there are; remove it first");
  return std::nullopt;
}

// Inserts `link` (its parent already an index of the scene before) at `at`, with its rows.
Scene with_link_at(const Scene& scene, int at, ArticulationLink link, const V& pos, const LinkBody& body) {
  Scene edited = scene;
  Articulations& a = edited.articulations;
  for (ArticulationLink& l : a.links)
    if (l.parent >= at) ++l.parent;
  for (ArticulationActuator& act : a.actuators)
    if (act.link >= at) ++act.link;
  for (Objective& o : edited.objectives)
    for (int& k : o.links)
      if (k >= at) ++k;
  a.links.insert(a.links.begin() + at, std::move(link));
  insert_rows(edited.params, ParamElement::Link, at, 1);
  const auto set = [&](ParamId id, std::initializer_list<double> values) {
    std::copy(values.begin(), values.end(),
              edited.params[id].value.begin() + std::ptrdiff_t(size_t(at) * values.size()));
  };
  set(ParamId::LinkPosition, {pos.x, pos.y, pos.z});
  set(ParamId::LinkMass, {body.mass});
  set(ParamId::LinkCom, {body.com.x, body.com.y, body.com.z});
  const auto& i = body.inertia;
  set(ParamId::LinkInertia, {i[0], i[1], i[2], i[3], i[4], i[5]});
  return edited;
}

}  // namespace

Result<Scene> add_link(const Scene& scene, int parent, ArticulationJoint joint, const Vec3& axis) {
  constexpr std::string_view action = "add link";
  if (auto error = check_input(scene, action)) return *error;
  const Articulations& a = scene.articulations;
  if (auto error = check_indices(action, "link", {parent}, a.link_count())) return *error;
  if (joint == ArticulationJoint::Free)
    return fail(action, "a free joint only joins a tree's root to the world; expected a hinge, slide, ball or weld");
  Vec3 unit = axis;
  if (joint_velocity_count(joint) == 1 && !normalise_direction(unit.data()))
    return fail(action, "the axis " + vec3_text(axis) + " is not a direction; expected a non-zero, finite axis");
  const ArticulationLink& up = a.links[size_t(parent)];
  const V d = extension(scene, parent);
  ArticulationLink link;
  link.name = free_name(a, "link", false);
  link.parent = parent;
  link.joint = joint;
  std::copy(unit.begin(), unit.end(), link.axis);
  link.length_axis[0] = d.x, link.length_axis[1] = d.y, link.length_axis[2] = d.z;
  LinkShape limb;
  limb.kind = LinkShape::Kind::Capsule;
  limb.size[0] = kLimbRadius, limb.size[1] = kLimbLength / 2;
  const V centre = (kLimbLength / 2) * d;
  limb.pos[0] = centre.x, limb.pos[1] = centre.y, limb.pos[2] = centre.z;
  const std::array<double, 4> turn = z_onto(d);
  std::copy(turn.begin(), turn.end(), limb.quat);
  link.shapes = {limb};
  // The end of the parent's tree: the next root after it, or the end.
  int at = parent + 1;
  while (at < a.link_count() && a.links[size_t(at)].parent >= 0) ++at;
  Scene edited = with_link_at(scene, at, std::move(link), tip(up, d), capsule_body(d, kLimbRadius, kLimbLength / 2));
  if (auto error = check_readers(action, scene, edited)) return *error;
  return finish(std::move(edited), action);
}

Result<Scene> add_link_base(const Scene& scene, const Vec3& position) {
  constexpr std::string_view action = "add link base";
  if (auto error = check_input(scene, action)) return *error;
  if (!finite(position)) return fail(action, "the position " + vec3_text(position) + " is not finite");
  ArticulationLink base;
  base.name = free_name(scene.articulations, "base", true);
  base.joint = ArticulationJoint::Weld;
  LinkShape box;
  box.kind = LinkShape::Kind::Box;
  box.size[0] = 0.1, box.size[1] = 0.05, box.size[2] = 0.1;
  base.shapes = {box};
  LinkBody body;
  body.mass = kDensity * 8 * box.size[0] * box.size[1] * box.size[2];
  const double x2 = box.size[0] * box.size[0], y2 = box.size[1] * box.size[1], z2 = box.size[2] * box.size[2];
  body.inertia = {body.mass / 3 * (y2 + z2), body.mass / 3 * (x2 + z2), body.mass / 3 * (x2 + y2), 0, 0, 0};
  Scene edited = with_link_at(scene, scene.articulations.link_count(), std::move(base),
                              {position[0], position[1], position[2]}, body);
  return finish(std::move(edited), action);
}

Result<Scene> move_link(const Scene& scene, int link, const Vec3& offset) {
  constexpr std::string_view action = "move link";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_indices(action, "link", {link}, scene.articulations.link_count())) return *error;
  if (!finite(offset)) return fail(action, "the offset " + vec3_text(offset) + " is not finite");
  // The link's origin at the start is affine in its placement (the parent's pose, turned
  // and resized by its link_scale and link_length): A's columns by moving each entry once.
  const auto origin = [&](const Scene& s) { return of(link_poses(s)[size_t(link)].pos); };
  const V start = origin(scene);
  Mat33<double> a{};
  Scene probe = scene;
  std::vector<double>& pos = probe.params[ParamId::LinkPosition].value;
  for (int c = 0; c < 3; ++c) {
    const double kept = pos[3 * size_t(link) + size_t(c)];
    pos[3 * size_t(link) + size_t(c)] = kept + 1;
    const V column = origin(probe) - start;
    pos[3 * size_t(link) + size_t(c)] = kept;
    a(0, c) = column.x, a(1, c) = column.y, a(2, c) = column.z;
  }
  if (!(std::fabs(determinant(a)) > 1e-12))
    return fail(action, "link " + std::to_string(link) + "'s placement does not move it (a parent of size 0?)");
  const V change = inverse(a) * V{offset[0], offset[1], offset[2]};
  Scene edited = scene;
  double* row = &edited.params[ParamId::LinkPosition].value[3 * size_t(link)];
  row[0] += change.x, row[1] += change.y, row[2] += change.z;
  return finish(std::move(edited), action);
}

Result<Scene> delete_links(const Scene& scene, const std::vector<int>& links) {
  constexpr std::string_view action = "delete links";
  if (auto error = check_input(scene, action)) return *error;
  const Articulations& a = scene.articulations;
  if (auto error = check_indices(action, "link", links, a.link_count())) return *error;
  // The links and everything below them: parents come first, so one pass finds them.
  std::vector<bool> gone(size_t(a.link_count()), false);
  for (int k : links) gone[size_t(k)] = true;
  std::vector<int> removed;
  for (int k = 0; k < a.link_count(); ++k) {
    const int parent = a.links[size_t(k)].parent;
    if (parent >= 0 && gone[size_t(parent)]) gone[size_t(k)] = true;
    if (gone[size_t(k)]) removed.push_back(k);
  }
  const IndexMap map = index_map(a.link_count(), removed);
  Scene edited = scene;
  Articulations& out = edited.articulations;
  out.links.clear();
  for (int k = 0; k < a.link_count(); ++k) {
    if (map[size_t(k)] < 0) continue;
    ArticulationLink l = a.links[size_t(k)];
    if (l.parent >= 0) l.parent = map[size_t(l.parent)];
    out.links.push_back(std::move(l));
  }
  remove_rows(edited.params, ParamElement::Link, map);
  // The actuators on their joints, with their rows.
  std::vector<int> actuators;
  for (size_t n = 0; n < a.actuators.size(); ++n)
    if (map[size_t(a.actuators[n].link)] < 0) actuators.push_back(int(n));
  const IndexMap actuator_map = index_map(int(a.actuators.size()), actuators);
  out.actuators.clear();
  for (size_t n = 0; n < a.actuators.size(); ++n) {
    if (actuator_map[n] < 0) continue;
    ArticulationActuator act = a.actuators[n];
    act.link = map[size_t(act.link)];
    out.actuators.push_back(act);
  }
  remove_rows(edited.params, ParamElement::LinkActuator, actuator_map);
  // The objectives' links (a joints objective's target per link with them); one left
  // reading no link goes.
  std::vector<Objective> kept;
  for (Objective o : edited.objectives) {
    if (o.links.empty()) {
      kept.push_back(std::move(o));
      continue;
    }
    const bool per_link = objective_layout(o.type).target == ObjectiveTarget::PerLink;
    std::vector<int> list;
    std::vector<double> targets;
    for (size_t i = 0; i < o.links.size(); ++i) {
      if (map[size_t(o.links[i])] < 0) continue;
      list.push_back(map[size_t(o.links[i])]);
      if (per_link && i < o.target.size()) targets.push_back(o.target[i]);
    }
    if (list.empty()) continue;
    o.links = std::move(list);
    if (per_link) o.target = std::move(targets);
    kept.push_back(std::move(o));
  }
  edited.objectives = std::move(kept);
  if (out.links.empty()) out.source.clear();  // nothing left of the robot it came from
  if (auto error = check_readers(action, scene, edited)) return *error;
  return finish(std::move(edited), action);
}

}  // namespace nudge::studio::edits
