// The "actuators" section (per-step forces and torques on particles and bodies, each on
// a control channel, nudge/actuators.h): how it is read from a scene file, written back
// and checked.
#include <cmath>
#include <cstddef>
#include <string>

#include "io/scene_section.h"
#include "io/scene_sections.h"

namespace nudge::scene_io {

namespace {

constexpr int kMaxActuators = 1'000'000;

bool all_finite(const double v[3]) { return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]); }

}  // namespace

// ---- Reading ----------------------------------------------------------------------

void SceneReader::read_actuators(const Node& node, Scene& scene) const {
  expect_array(node, "an array of actuators ({\"particle\" or \"body\", \"channel\", \"force\" or \"torque\"})");
  if (node.size() > std::size_t(kMaxActuators))
    fail_found(node, "at most " + std::to_string(kMaxActuators) + " actuators");
  const int n = scene.particle_count(), b = scene.body_count();
  for (std::size_t k = 0; k < node.size(); ++k) {
    const Node item = node.element(k);
    if (!item.json.is_object()) fail_found(item, "an actuator object with a \"particle\" or a \"body\"");
    Actuator a;
    const std::optional<Node> particle = optional(item, "particle"), body = optional(item, "body");
    if (particle.has_value() == body.has_value())
      fail(item.path,
           std::string(particle ? "found both \"particle\" and \"body\"" : "found neither \"particle\" nor \"body\"") +
               "; expected one of them, the element the actuator pushes");
    if (particle) {
      expect_object(item, {"particle", "channel", "force"}, context_of(item) + " (a particle's actuator)");
      if (n == 0) fail(particle->path, "found a particle actuator in a scene with no particles");
      a.particle = int_in(*particle, 0, n - 1, "a particle index");
    } else {
      expect_object(item, {"body", "channel", "force", "torque", "point", "frame"},
                    context_of(item) + " (a body's actuator)");
      if (b == 0) fail(body->path, "found a body actuator in a scene with no bodies");
      a.body = int_in(*body, 0, b - 1, "a body index");
    }
    const Node channel = required(item, "channel", "the control channel that drives it");
    if (scene.channels == 0)
      fail(channel.path, "found a channel but the scene has no control channels (controls.channels)");
    a.channel = int_in(channel, 0, scene.channels - 1, "a control channel");
    const std::optional<Node> force = optional(item, "force"), torque = optional(item, "torque");
    if (force.has_value() == torque.has_value())
      fail(item.path,
           std::string(force ? "found both \"force\" and \"torque\"" : "found neither \"force\" nor \"torque\"") +
               "; expected one: the force (N) or torque (N m) per unit of control, [x, y, z]");
    a.type = force ? ActuatorType::Force : ActuatorType::Torque;
    const std::array<double, 3> d =
        vec3(force ? *force : *torque,
             force ? "a force per unit of control [x, y, z] (N)" : "a torque per unit of control [x, y, z] (N m)");
    std::copy(d.begin(), d.end(), a.direction);
    if (auto point = optional(item, "point")) {
      if (!force) fail(point->path, "a torque has no point; expected \"point\" only with a \"force\"");
      const std::array<double, 3> p = vec3(*point, "a point in the body's frame from its centre of mass [x, y, z] (m)");
      std::copy(p.begin(), p.end(), a.point);
    }
    if (auto frame = optional(item, "frame")) {
      const std::optional<ActuatorFrame> f = actuator_frame_from_name(string(*frame, "world or body"));
      if (!f) fail_found(*frame, "world or body");
      a.frame = *f;
    }
    scene.actuators.push_back(a);
  }
}

// ---- Writing ----------------------------------------------------------------------

static OrderedJson actuators_json(const Scene& scene) {
  OrderedJson out = OrderedJson::array();
  for (const Actuator& a : scene.actuators) {
    OrderedJson j;
    if (a.particle >= 0)
      j["particle"] = a.particle;
    else
      j["body"] = a.body;
    j["channel"] = a.channel;
    j[std::string(actuator_type_name(a.type))] = vec3_json(a.direction);
    if (a.body >= 0 && a.type == ActuatorType::Force) j["point"] = vec3_json(a.point);
    if (a.body >= 0) j["frame"] = std::string(actuator_frame_name(a.frame));
    out.push_back(j);
  }
  return out;
}

// ---- Checking ---------------------------------------------------------------------

static Problem check_actuators(const Scene& scene) {
  const int n = scene.particle_count(), b = scene.body_count();
  for (std::size_t k = 0; k < scene.actuators.size(); ++k) {
    const Actuator& a = scene.actuators[k];
    const std::string at = index_path("actuators", long(k));
    if ((a.particle >= 0) == (a.body >= 0))
      return at + ": found " + (a.particle >= 0 ? "both a particle and a body" : "neither a particle nor a body") +
             "; expected one of them";
    if (a.particle >= n)
      return found(at + ".particle", a.particle, "a particle index in [0, " + std::to_string(n) + ")");
    if (a.body >= b) return found(at + ".body", a.body, "a body index in [0, " + std::to_string(b) + ")");
    if (a.channel < 0 || a.channel >= scene.channels)
      return found(at + ".channel", a.channel, "a control channel in [0, " + std::to_string(scene.channels) + ")");
    if (!all_finite(a.direction))
      return at + "." + std::string(actuator_type_name(a.type)) + ": found a non-finite value";
    if (!all_finite(a.point)) return at + ".point: found a non-finite value";
    if (a.particle >= 0 && a.type == ActuatorType::Torque)
      return at + ": found a torque on a particle; expected a force (a particle does not turn)";
    if (a.particle >= 0 && a.frame == ActuatorFrame::Body)
      return at + ".frame: found body on a particle; expected world (a particle has no frame)";
  }
  return std::nullopt;
}

// ---- Its rows in the list of sections (scene_section.h) ---------------------------

extern const SceneSection kActuatorsSection{
    "actuators",
    ReadStage::Links,
    [](const SectionInput& in, Scene& scene) -> AfterShaping {
      if (in.node) in.reader.read_actuators(*in.node, scene);
      return {};
    },
    [](const Scene& scene) { return scene.actuators.empty() ? OrderedJson() : actuators_json(scene); },
    CheckStage::Counts,
    check_actuators};

}  // namespace nudge::scene_io
