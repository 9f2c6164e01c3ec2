// Thousands of random edits (studio/scene_edits.h) on a scene with every kind of
// element: each result must pass check_scene and save, load and save again to the same
// text; a refused edit must name its action and leave the input as it was; and each
// deletion must leave what an oracle that knows elements by identity, not by index,
// works out.
#include <doctest/doctest.h>

#include <algorithm>
#include <charconv>
#include <deque>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "nudge/parameter_facts.h"
#include "scene_edits_test_scenes.h"
#include "studio/document.h"
#include "studio/scene_edits.h"
#include "studio_test_scenes.h"

using namespace nudge;
using namespace nudge::scene_edits_test;
namespace edits = nudge::studio::edits;
using edits::Vec3;
using nudge::studio_test::source_dir;

namespace {

// A scene described without indices, to check renumbering against: a particle is known
// by its initial position, a body or joint by its name (the random test names each one
// apart), a spring by its ends; every reference is written as what it refers to.
struct ObjectiveId {
  std::string head;                            // type, weight, step, target, directions, file
  std::vector<std::string> particles, bodies;  // a positions objective's particles with their targets
  std::vector<std::pair<int, std::string>> bind, bind_bodies;
  std::map<int, int> samples;  // per marker
  bool operator==(const ObjectiveId&) const = default;
};

struct SceneId {
  std::vector<std::string> particle_keys, particles;  // key: the position; the rest: every value
  std::vector<std::pair<std::string, std::string>> spring_ends, joint_ends;
  std::vector<std::string> springs, bodies, joints;  // joints: name, ends, values, motor column
  std::vector<std::string> body_names, joint_names;
  std::vector<std::pair<std::string, std::string>> attachments;
  std::vector<ObjectiveId> objectives;
  std::map<std::string, std::pair<bool, std::vector<std::string>>> optimized;  // per-element parameters' rows
  bool operator==(const SceneId&) const = default;
};

std::string text(double x) {  // the shortest text that reads back as x
  char buffer[32];
  return std::string(buffer, std::to_chars(buffer, buffer + sizeof buffer, x).ptr);
}

std::string row_text(const Scene& scene, ParamId id, int row) {
  const Parameter& p = scene.params[id];
  std::string out;
  for (int c = 0; c < p.cols; ++c) out += text(p.value[size_t(row * p.cols + c)]) + ",";
  return out;
}

SceneId describe(const Scene& scene) {
  SceneId d;
  for (int i = 0; i < scene.particle_count(); ++i) {
    d.particle_keys.push_back(row_text(scene, ParamId::InitialPosition, i));
    std::string all = d.particle_keys.back() + (scene.pinned[size_t(i)] ? "pinned;" : ";");
    for (ParamId id : {ParamId::InitialVelocity, ParamId::Mass, ParamId::ExternalForce, ParamId::ParticleRadius})
      all += row_text(scene, id, i) + ";";
    d.particles.push_back(all);
  }
  const auto particle = [&](int i) { return d.particle_keys[size_t(i)]; };
  for (int s = 0; s < scene.spring_count(); ++s) {
    d.spring_ends.emplace_back(particle(scene.spring_a[size_t(s)]), particle(scene.spring_b[size_t(s)]));
    std::string all = d.spring_ends.back().first + "-" + d.spring_ends.back().second + ";" +
                      std::to_string(scene.spring_channel[size_t(s)]) + ";" + text(scene.actuation[size_t(s)]) + ";";
    for (ParamId id : {ParamId::Stiffness, ParamId::Damping, ParamId::RestLength}) all += row_text(scene, id, s) + ";";
    d.springs.push_back(all);
  }
  for (int b = 0; b < scene.body_count(); ++b) {
    d.body_names.push_back(scene.bodies[size_t(b)].name);
    std::string all = d.body_names.back() + ";" + std::string(body_shape_name(scene.bodies[size_t(b)].shape)) + ";";
    for (int i = 0; i < kParamCount; ++i)
      if (param_facts(static_cast<ParamId>(i)).element == ParamElement::Body)
        all += row_text(scene, static_cast<ParamId>(i), b) + ";";
    d.bodies.push_back(all);
  }
  const auto body = [&](int b) { return b < 0 ? std::string("world") : d.body_names[size_t(b)]; };
  const Parameter& u = scene.params[ParamId::JointControl];
  for (int j = 0; j < scene.joint_count(); ++j) {
    const Joint& joint = scene.joints[size_t(j)];
    d.joint_names.push_back(joint.name);
    d.joint_ends.emplace_back(body(joint.parent), body(joint.child));
    std::string all = joint.name + ";" + body(joint.parent) + "-" + body(joint.child) + ";" +
                      row_text(scene, ParamId::JointAnchor, j) + row_text(scene, ParamId::JointDamping, j) + ";";
    for (int t = 0; t < scene.settings.steps; ++t) all += text(u.value[size_t(t * u.cols + j)]) + ",";
    d.joints.push_back(all);
  }
  for (const Attachment& a : scene.attachments) d.attachments.emplace_back(particle(a.particle), body(a.body));
  for (const Objective& o : scene.objectives) {
    ObjectiveId id;
    id.head = std::string(objective_type_name(o.type)) + ";" + text(o.weight) + ";" + std::to_string(o.step) + ";" +
              o.marker_file.string() + ";" + std::to_string(o.steps_per_frame) + ";" + text(o.direction[0]) +
              text(o.axis[1]);
    if (o.type != ObjectiveType::Positions)
      for (double x : o.target) id.head += text(x) + ",";
    for (size_t k = 0; k < o.particles.size(); ++k) {
      id.particles.push_back(particle(o.particles[k]));
      if (o.type == ObjectiveType::Positions)
        id.particles.back() +=
            "->" + text(o.target[3 * k]) + "," + text(o.target[3 * k + 1]) + "," + text(o.target[3 * k + 2]);
    }
    for (int b : o.bodies) id.bodies.push_back(body(b));
    for (const auto& [marker, i] : o.bind) id.bind.emplace_back(marker, particle(i));
    for (const auto& [marker, b] : o.bind_bodies) id.bind_bodies.emplace_back(marker, body(b));
    for (const MarkerSample& s : o.samples) ++id.samples[s.marker];
    d.objectives.push_back(std::move(id));
  }
  for (const Parameter& p : scene.params.items) {
    const ParamElement element = param_facts(p.id).element;
    std::vector<std::string> rows;
    for (int row : p.optimize_rows) {
      if (element == ParamElement::Particle)
        rows.push_back(particle(row));
      else if (element == ParamElement::Spring)
        rows.push_back(d.springs[size_t(row)]);
      else if (element == ParamElement::Body)
        rows.push_back(body(row));
      else if (element == ParamElement::Joint)
        rows.push_back(d.joint_names[size_t(row)]);
      else
        rows.push_back(std::to_string(row));
    }
    d.optimized[std::string(param_name(p.id))] = {p.optimize, rows};
  }
  return d;
}

// What a deletion should leave, worked out on identities: the particles, bodies, joints
// and springs named, and everything that refers only to them.
SceneId expected_after_deleting(const SceneId& d, const std::set<std::string>& particles,
                                const std::set<std::string>& bodies, std::set<std::string> joints,
                                std::set<std::string> springs) {
  SceneId e = d;
  const auto keep = [](auto& list, auto&& gone) { std::erase_if(list, gone); };
  e.particle_keys.clear(), e.particles.clear();
  for (size_t i = 0; i < d.particles.size(); ++i)
    if (!particles.contains(d.particle_keys[i]))
      e.particle_keys.push_back(d.particle_keys[i]), e.particles.push_back(d.particles[i]);
  e.spring_ends.clear(), e.springs.clear();
  for (size_t s = 0; s < d.springs.size(); ++s) {
    if (particles.contains(d.spring_ends[s].first) || particles.contains(d.spring_ends[s].second))
      springs.insert(d.springs[s]);
    if (!springs.contains(d.springs[s])) e.spring_ends.push_back(d.spring_ends[s]), e.springs.push_back(d.springs[s]);
  }
  e.body_names.clear(), e.bodies.clear();
  for (size_t b = 0; b < d.bodies.size(); ++b)
    if (!bodies.contains(d.body_names[b])) e.body_names.push_back(d.body_names[b]), e.bodies.push_back(d.bodies[b]);
  e.joint_names.clear(), e.joint_ends.clear(), e.joints.clear();
  for (size_t j = 0; j < d.joints.size(); ++j) {
    if (bodies.contains(d.joint_ends[j].first) || bodies.contains(d.joint_ends[j].second))
      joints.insert(d.joint_names[j]);
    if (joints.contains(d.joint_names[j])) continue;
    e.joint_names.push_back(d.joint_names[j]), e.joint_ends.push_back(d.joint_ends[j]), e.joints.push_back(d.joints[j]);
  }
  keep(e.attachments, [&](const auto& a) { return particles.contains(a.first) || bodies.contains(a.second); });
  for (ObjectiveId& o : e.objectives) {
    keep(o.particles, [&](const std::string& p) { return particles.contains(p.substr(0, p.find("->"))); });
    keep(o.bodies, [&](const std::string& b) { return bodies.contains(b); });
    keep(o.bind, [&](const auto& pair) { return particles.contains(pair.second); });
    keep(o.bind_bodies, [&](const auto& pair) { return bodies.contains(pair.second); });
    std::erase_if(o.samples, [&](const auto& entry) {
      const auto bound = [&](const auto& pair) { return pair.first == entry.first; };
      return std::none_of(o.bind.begin(), o.bind.end(), bound) &&
             std::none_of(o.bind_bodies.begin(), o.bind_bodies.end(), bound);
    });
  }
  keep(e.objectives, [](const ObjectiveId& o) {
    const std::string type = o.head.substr(0, o.head.find(';'));
    if (type == "effort") return false;
    if (type == "markers") return o.bind.empty() && o.bind_bodies.empty();
    if (type == "orientation") return o.bodies.empty();
    return o.particles.empty() && (o.bodies.empty() || type == "positions" || type == "travel");
  });
  for (auto& [name, entry] : e.optimized) {
    const ParamElement element = param_facts(*param_from_name(name)).element;
    const std::set<std::string>* gone = element == ParamElement::Particle ? &particles
                                        : element == ParamElement::Spring ? &springs
                                        : element == ParamElement::Body   ? &bodies
                                        : element == ParamElement::Joint  ? &joints
                                                                          : nullptr;
    if (!gone || entry.second.empty()) continue;
    keep(entry.second, [&](const std::string& row) { return gone->contains(row); });
    if (entry.second.empty()) entry.first = false;  // every optimised row deleted: nothing is
  }
  return e;
}

// Whether `before`'s elements are the first of `after`'s: an addition changes nothing
// that was there.
void check_appended(const SceneId& before, const SceneId& after) {
  const auto prefix = [](const auto& a, const auto& b) {
    return a.size() <= b.size() && std::equal(a.begin(), a.end(), b.begin());
  };
  CHECK(prefix(before.particles, after.particles));
  CHECK(prefix(before.springs, after.springs));
  CHECK(prefix(before.bodies, after.bodies));
  CHECK(prefix(before.joints, after.joints));
  CHECK(prefix(before.attachments, after.attachments));
  CHECK(prefix(before.objectives, after.objectives));
}

}  // namespace

// The sanitizer build runs some 25 times slower (each edit saves, loads and saves the
// scene): a fifth of the edits keep it near 20 s.
#if defined(__SANITIZE_ADDRESS__)
constexpr int kEdits = 600;
#else
constexpr int kEdits = 3000;
#endif

TEST_CASE("scene edits: thousands of random edits keep a scene valid and stable through save and load") {
  TempDir temp;
  const Scene chain = chain_scene(temp.path);
  // One scene with every kind of element: the body scene plus the chain's objectives.
  Scene scene = body_scene(temp.path);
  const fs::path rock = source_dir() / "assets" / "meshes" / "rock.obj";
  const double half[3] = {0.5, 0.5, 0.5};
  Result<std::shared_ptr<const BodyMesh>> mesh = load_body_mesh(rock, rock, half);
  REQUIRE(mesh.ok());

  // What a paste brings: the chain's muscles (channels the scene may lack), or two bodies
  // with a joint, an attachment and a joint to the world.
  const std::vector<Scene> clipboards = {ok(edits::extract(chain, {1, 2, 3}, {})),
                                         ok(edits::extract(body_scene(temp.path), {1, 2, 3}, {0, 2}))};

  std::mt19937 random(12);
  const auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(random); };
  // An index among `count`, now and then one past the end (an error to check).
  const auto pick = [&](int count) {
    return std::uniform_int_distribution<int>(0, std::max(count, 1) - (random() % 25 == 0 ? 0 : 1))(random);
  };
  std::vector<int> listed;  // the last list of indices picked: what a deletion deletes
  int prune = 0;            // > 0: pick this many, to shrink the scene
  const auto picks = [&](int count) {
    listed.clear();
    const auto roll = random() % 10;
    const int k = prune > 0 ? prune : roll < 7 ? 1 : roll < 9 ? 2 : 3;
    for (int i = 0; i < k; ++i) listed.push_back(pick(count));
    return listed;
  };
  edits::WalkerShape walker;  // the last add_walker's shape, for its checks
  int named = 0;              // bodies and joints are named apart: the oracle knows them by name
  const auto point = [&] { return Vec3{uniform(-1, 1), uniform(0, 2), uniform(-1, 1)}; };
  const std::vector<BodyShape> shapes = {BodyShape::Sphere, BodyShape::Box, BodyShape::Capsule, BodyShape::Mesh};

  // Mostly an objective of these types (an error to check otherwise, or when there is none).
  const auto pick_objective = [&](const Scene& s, std::set<ObjectiveType> types) {
    std::vector<int> fitting;
    for (int k = 0; k < int(s.objectives.size()); ++k)
      if (types.contains(s.objectives[size_t(k)].type)) fitting.push_back(k);
    if (fitting.empty() || random() % 8 == 0) return pick(int(s.objectives.size()));
    return fitting[random() % fitting.size()];
  };
  // One of the objective's bound markers, now and then another.
  const auto pick_marker = [&](const Scene& s, int k) {
    if (k >= int(s.objectives.size()) || random() % 8 == 0) return int(random() % 4);
    std::vector<int> bound;
    for (const auto& pair : s.objectives[size_t(k)].bind) bound.push_back(pair.first);
    for (const auto& pair : s.objectives[size_t(k)].bind_bodies) bound.push_back(pair.first);
    return bound.empty() ? int(random() % 4) : bound[random() % bound.size()];
  };

  using Edit = std::function<Result<Scene>(const Scene&)>;
  const std::vector<std::pair<std::string, Edit>> kinds = {
      {"add particle", [&](const Scene& s) { return edits::add_particle(s, point(), uniform(0.01, 1)); }},
      {"delete particles", [&](const Scene& s) { return edits::delete_particles(s, picks(s.particle_count())); }},
      {"set pinned",
       [&](const Scene& s) { return edits::set_pinned(s, picks(s.particle_count()), random() % 2 == 0); }},
      {"move particles", [&](const Scene& s) { return edits::move_particles(s, picks(s.particle_count()), point()); }},
      {"add spring",
       [&](const Scene& s) {
         return edits::add_spring(s, pick(s.particle_count()), pick(s.particle_count()), uniform(0, 100),
                                  uniform(0, 1));
       }},
      {"delete springs", [&](const Scene& s) { return edits::delete_springs(s, picks(s.spring_count())); }},
      {"set spring actuation",
       [&](const Scene& s) {
         return edits::set_spring_actuation(s, picks(s.spring_count()), int(random() % unsigned(s.channels + 1)) - 1,
                                            uniform(-0.5, 0.5));
       }},
      {"set channels", [&](const Scene& s) { return edits::set_channels(s, int(random() % 4)); }},
      {"add chain",
       [&](const Scene& s) {
         return edits::add_chain(s, point(), point(), 1 + int(random() % 4), {}, random() % 2 == 0);
       }},
      {"add cloth",
       [&](const Scene& s) {
         return edits::add_cloth(s, point(), uniform(0.1, 1), uniform(0.1, 1), 2 + int(random() % 2),
                                 2 + int(random() % 2), {}, random() % 2 == 0);
       }},
      {"add lattice",
       [&](const Scene& s) {
         return edits::add_lattice(s, point(), {0.1, 0.2, 0.1}, 2, 2, 2, {});
       }},
      {"add walker",
       [&](const Scene& s) {
         // Now and then more legs than the body has room for (an error to check).
         edits::WalkerShape& shape = walker;
         shape = {};
         shape.body_cols = 1 + int(random() % 3);
         shape.body_rows = 1 + int(random() % 2);
         const int most_legs = (shape.body_cols + 1) / 2 + (random() % 8 == 0 ? 1 : 0);
         shape.legs = 1 + int(random() % unsigned(most_legs));
         shape.leg_rows = 1 + int(random() % 2);
         shape.cell_size = uniform(0.05, 0.2);
         shape.actuation = uniform(-0.5, 0.5);
         return edits::add_walker(s, point(), shape, {});
       }},
      {"add body",
       [&](const Scene& s) {
         RigidBody body = body_of(shapes[random() % shapes.size()], "b" + std::to_string(named++));
         if (body.shape == BodyShape::Mesh) body.mesh = *mesh;
         return edits::add_body(s, body, {uniform(0.05, 0.2), uniform(0.05, 0.2), uniform(0.05, 0.2)}, point(),
                                uniform(100, 3000));
       }},
      {"delete bodies", [&](const Scene& s) { return edits::delete_bodies(s, picks(s.body_count())); }},
      {"add joint",
       [&](const Scene& s) {
         Joint joint;
         joint.name = "j" + std::to_string(named++);
         joint.type = static_cast<JointType>(random() % 4);
         joint.parent = pick(s.body_count() + 1) - 1;  // -1: the world
         joint.child = pick(s.body_count());
         joint.axis[0] = uniform(-1, 1), joint.axis[1] = uniform(-1, 1);
         if ((joint.type == JointType::Hinge || joint.type == JointType::Prismatic) && random() % 2 == 0)
           joint.limited = true, joint.lower = -0.3, joint.upper = 0.4;
         return edits::add_joint(s, joint, point());
       }},
      {"delete joints", [&](const Scene& s) { return edits::delete_joints(s, picks(s.joint_count())); }},
      {"add attachment",
       [&](const Scene& s) { return edits::add_attachment(s, pick(s.particle_count()), pick(s.body_count())); }},
      {"delete attachments",
       [&](const Scene& s) { return edits::delete_attachments(s, picks(int(s.attachments.size()))); }},
      {"add collider",
       [&](const Scene& s) {
         ColliderShape c;
         c.type = static_cast<ColliderType>(random() % 4);
         c.normal[0] = uniform(-1, 1);
         c.position_from(point());
         return edits::add_collider(s, c);
       }},
      {"delete colliders", [&](const Scene& s) { return edits::delete_colliders(s, picks(int(s.colliders.size()))); }},
      {"move bodies",
       [&](const Scene& s) {
         return edits::move_bodies(s, picks(s.body_count()), {uniform(-0.2, 0.2), 0, 0.1});
       }},
      {"move colliders",
       [&](const Scene& s) { return edits::move_colliders(s, picks(int(s.colliders.size())), point()); }},
      {"duplicate",
       [&](const Scene& s) {
         const auto kind = random() % 3;  // particles, bodies or both
         const std::vector<int> particles = kind == 1 ? std::vector<int>{} : picks(s.particle_count());
         const std::vector<int> bodies = kind == 0 ? std::vector<int>{} : picks(s.body_count());
         return edits::duplicate(s, particles, bodies, point());
       }},
      {"merge", [&](const Scene& s) { return edits::merge(s, clipboards[random() % clipboards.size()], point()); }},
      {"add objective",
       [&](const Scene& s) {
         // The chain's objectives (its markers bound to particles 2 and 4) or one on bodies.
         Objective o = chain.objectives[random() % chain.objectives.size()];
         if (random() % 3 == 0) {
           o = objective(random() % 2 ? ObjectiveType::Orientation : ObjectiveType::Velocity);
           o.bodies = {pick(s.body_count())};
           if (o.type == ObjectiveType::Velocity) o.target = {1, 0, 0};
         }
         return edits::add_objective(s, o);
       }},
      {"set objective target",
       [&](const Scene& s) {
         return edits::set_objective_target(s, pick_objective(s, {ObjectiveType::Target, ObjectiveType::Positions}),
                                            int(random() % 3), point());
       }},
      {"add markers objective",
       [&](const Scene& s) {
         return edits::add_markers_objective(s, random() % 2 ? "bodies.csv" : "track.csv", int(random() % 4),
                                             pick(s.particle_count()), 1 + int(random() % 10));
       }},
      {"bind marker",
       [&](const Scene& s) {
         const int k = pick_objective(s, {ObjectiveType::Markers});
         return edits::bind_marker(s, k, random() % 2 ? pick_marker(s, k) : int(random() % 4),
                                   pick(s.particle_count()));
       }},
      {"unbind marker",
       [&](const Scene& s) {
         const int k = pick_objective(s, {ObjectiveType::Markers});
         return edits::unbind_marker(s, k, pick_marker(s, k));
       }},
      {"delete objectives",
       [&](const Scene& s) { return edits::delete_objectives(s, picks(int(s.objectives.size()))); }},
      {"set objective weight",
       [&](const Scene& s) { return edits::set_objective_weight(s, pick(int(s.objectives.size())), uniform(0, 2)); }},
      {"set time", [&](const Scene& s) { return edits::set_time(s, uniform(1e-4, 2e-3), 20 + int(random() % 60)); }},
      {"set ground", [&](const Scene& s) { return edits::set_ground(s, random() % 2 == 0, uniform(-1, 0)); }},
      {"set gravity",
       [&](const Scene& s) {
         return edits::set_gravity(s, {0, uniform(-10, 0), 0});
       }},
      {"set optimized",
       [&](const Scene& s) {
         const double lower = random() % 2 ? -std::numeric_limits<double>::infinity() : uniform(-1, 0);
         return edits::set_optimized(s, static_cast<ParamId>(random() % kParamCount), random() % 2 == 0, lower,
                                     uniform(0, 1));
       }},
      {"set optimized rows",
       [&](const Scene& s) {
         const auto id = static_cast<ParamId>(random() % kParamCount);
         return edits::set_optimized_rows(s, id, picks(s.params[id].rows));
       }},
  };

  // Additions of what deletions take away in bulk (a body's joints, a particle's
  // attachments and objectives) come more often, so that the scene keeps some of each.
  const std::map<std::string, double> more = {
      {"add body", 2}, {"add joint", 4}, {"add attachment", 4}, {"add objective", 4}};
  std::vector<double> weights;
  for (const auto& kind : kinds) weights.push_back(more.contains(kind.first) ? more.at(kind.first) : 1.0);
  std::discrete_distribution<size_t> choose(weights.begin(), weights.end());
  const auto kind_named = [&](std::string_view name) {
    return size_t(std::find_if(kinds.begin(), kinds.end(), [&](const auto& kind) { return kind.first == name; }) -
                  kinds.begin());
  };

  std::string text = check_stable(scene, temp.path);
  // The same edits as steps of a document's history: undoing and redoing any of them
  // gives back each step's file byte for byte (texts[k]: the file of history step k).
  studio::Document document(scene, "start");
  std::deque<std::string> texts = {text};
  const auto check_history = [&] {
    const std::size_t back = std::min<std::size_t>(document.position(), 1 + random() % 6);
    for (std::size_t k = 0; k < back; ++k) {
      REQUIRE(document.undo());
      CHECK(saved_text(document.scene(), temp.path / "history.json") == texts[document.position()]);
    }
    for (std::size_t k = 0; k < back; ++k) {
      REQUIRE(document.redo());
      CHECK(saved_text(document.scene(), temp.path / "history.json") == texts[document.position()]);
    }
    CHECK_FALSE(document.can_redo());
  };
  int applied = 0, refused = 0;
  double joints = 0, objectives = 0, attachments = 0;  // summed over the steps: how much there was to renumber
  for (int step = 0; step < kEdits; ++step) {
    joints += scene.joint_count(), objectives += double(scene.objectives.size()),
        attachments += double(scene.attachments.size());
    size_t kind = choose(random);
    // Keep the scene small: past 40 particles or 6 bodies, delete rather than add.
    prune = 0;
    if (scene.particle_count() > 40) kind = kind_named("delete particles"), prune = 10;
    if (scene.body_count() > 6) kind = kind_named("delete bodies");
    const auto& [name, edit] = kinds[kind];
    CAPTURE(step);
    CAPTURE(name);
    Result<Scene> result = edit(scene);
    if (!result.ok()) {
      ++refused;
      CAPTURE(result.error().message);
      CHECK(result.error().message.starts_with(name + ": "));
      if (step % 10 == 0) CHECK(saved_text(scene, temp.path / "first.json") == text);  // the input as it was
      continue;
    }
    ++applied;
    // Deletions leave what the oracle works out on identities; additions append.
    const SceneId before = describe(scene), after = describe(*result);
    const auto names_of = [&](const std::vector<std::string>& all) {
      std::set<std::string> names;
      for (int i : listed) names.insert(all[size_t(i)]);
      return names;
    };
    if (name == "delete particles")
      CHECK(after == expected_after_deleting(before, names_of(before.particle_keys), {}, {}, {}));
    if (name == "delete bodies")
      CHECK(after == expected_after_deleting(before, {}, names_of(before.body_names), {}, {}));
    if (name == "delete joints")
      CHECK(after == expected_after_deleting(before, {}, {}, names_of(before.joint_names), {}));
    if (name == "delete springs") CHECK(after == expected_after_deleting(before, {}, {}, {}, names_of(before.springs)));
    if (name.starts_with("add ") || name == "duplicate" || name == "merge") check_appended(before, after);
    if (name == "add walker") {
      // Two new channels per leg, each driving leg_rows muscles (one side of one leg); the
      // channels there were keep their controls, the new ones start at zero.
      const Parameter &u = scene.params[ParamId::Controls], &v = result->params[ParamId::Controls];
      REQUIRE(result->channels == scene.channels + 2 * walker.legs);
      REQUIRE(v.cols == u.cols + 2 * walker.legs);
      for (int t = 0; t < scene.settings.steps; ++t)
        for (int c = 0; c < v.cols; ++c)
          CHECK(v.value[size_t(t * v.cols + c)] == (c < u.cols ? u.value[size_t(t * u.cols + c)] : 0.0));
      std::vector<int> muscles(size_t(2 * walker.legs), 0);
      for (int s = scene.spring_count(); s < result->spring_count(); ++s) {
        const int channel = result->spring_channel[size_t(s)];
        if (channel < 0) continue;
        REQUIRE(channel >= scene.channels);
        REQUIRE(channel < result->channels);
        CHECK(result->actuation[size_t(s)] == walker.actuation);
        ++muscles[size_t(channel - scene.channels)];
      }
      for (int m : muscles) CHECK(m == walker.leg_rows);
    }
    scene = std::move(*result);
    // Copies keep their names: name them apart again, for the oracle.
    for (size_t b = before.bodies.size(); b < scene.bodies.size(); ++b)
      scene.bodies[b].name = "b" + std::to_string(named++);
    for (size_t j = before.joints.size(); j < scene.joints.size(); ++j)
      scene.joints[j].name = "j" + std::to_string(named++);
    text = check_stable(scene, temp.path);
    document.replace_scene(scene, name);
    texts.push_back(text);
    if (texts.size() > document.history().size()) texts.pop_front();  // the oldest steps are forgotten
    if (applied % 40 == 0) check_history();
  }
  check_history();
  MESSAGE("random edits: " << applied << " applied, " << refused << " refused; on average " << joints / kEdits
                           << " joints, " << objectives / kEdits << " objectives, " << attachments / kEdits
                           << " attachments");
  CHECK(applied > kEdits * 2 / 3);
  CHECK(refused > kEdits / 30);
  CHECK(joints / kEdits > 1);
  CHECK(objectives / kEdits > 3);
  CHECK(attachments / kEdits > 1);
}
