// The "simulation" section (time step, step count, checkpoints, gravity, drag and its
// "ground") and the "camera": how each is read from a scene file, written back and
// checked.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "io/scene_section.h"
#include "io/scene_sections.h"

namespace nudge::scene_io {

// ---- Reading ----------------------------------------------------------------------

void SceneReader::read_simulation(const Node& node, Scene& scene) const {
  expect_object(node,
                section_keys("simulation", {"dt", "steps", "checkpoint_every", "integrator", "implicit", "ground"}));
  Settings& s = scene.settings;
  s.dt = number(required(node, "dt", "a time step in (0, 1] (s)"), "a time step in (0, 1] (s)", time_step);
  s.steps = int_in(required(node, "steps", "a step count, an integer in " + range_text(1, kMaxSteps)), 1, kMaxSteps,
                   "a step count, an integer");
  if (auto every = optional(node, "checkpoint_every"))
    s.checkpoint_every = int_in(*every, 0, kIntMax, "an integer (0: store every state)");
  read_param_columns(node, scene, "simulation", 1);
  if (auto ground = optional(node, "ground")) read_ground(*ground, scene);
  const std::string integrators = "\"semi_implicit_euler\", \"implicit_euler\" or \"rk4\"";
  if (auto integrator = optional(node, "integrator")) {
    const std::optional<Integrator> chosen = integrator_from_name(string(*integrator, integrators));
    if (!chosen) fail_found(*integrator, integrators);
    s.integrator = *chosen;
  }
  if (auto implicit = optional(node, "implicit")) {
    // Settings that nothing would read (nor write back) are a mistake, not a no-op.
    if (s.integrator != Integrator::ImplicitEuler)
      fail_found(*implicit, "no \"implicit\" settings unless \"integrator\" is \"implicit_euler\"");
    read_implicit(*implicit, s.implicit);
  }
}

void SceneReader::read_implicit(const Node& node, ImplicitSettings& implicit) const {
  expect_object(node, {"newton_iterations", "newton_tolerance", "linear_iterations", "linear_tolerance"});
  if (auto n = optional(node, "newton_iterations"))
    implicit.newton_iterations = int_in(*n, 1, kMaxSolverIterations, "a count of Newton iterations per step");
  if (auto tol = optional(node, "newton_tolerance"))
    implicit.newton_tolerance = number(*tol, "a velocity tolerance > 0 (m/s)", positive);
  if (auto n = optional(node, "linear_iterations"))
    implicit.linear_iterations = int_in(*n, 1, kMaxSolverIterations, "a count of Krylov iterations per solve");
  if (auto tol = optional(node, "linear_tolerance"))
    implicit.linear_tolerance = number(*tol, "a relative tolerance in (0, 1)", open_unit_interval);
}

void SceneReader::read_ground(const Node& node, Scene& scene) const {
  expect_object(node, section_keys("simulation.ground",
                                   {"model", "height", "damping", "contact_smoothing", "friction_smoothing"}));
  Ground& g = scene.settings.ground;
  g.enabled = true;
  if (auto model = optional(node, "model")) {
    const std::optional<GroundContact> contact =
        ground_contact_from_name(string(*model, "penalty, projection or time_of_impact"));
    if (!contact) fail_found(*model, "one of: penalty, projection, time_of_impact");
    g.contact = *contact;
  }
  if (auto height = optional(node, "height")) g.height = number(*height, "a finite height (m)");
  read_param_columns(node, scene, "simulation.ground", 1);
  if (auto damping = optional(node, "damping")) g.damping = number(*damping, "a damping >= 0 (N s/m)", non_negative);
  if (auto smoothing = optional(node, "contact_smoothing"))
    g.contact_smoothing = number(*smoothing, "a width > 0 (m)", positive);
  if (auto smoothing = optional(node, "friction_smoothing"))
    g.friction_smoothing = number(*smoothing, "a speed > 0 (m/s)", positive);
}

void SceneReader::read_camera(const Node& node, SceneCamera& camera) const {
  expect_object(node, {"eye", "target", "fov_degrees"});
  const std::array<double, 3> eye =
      vec3(required(node, "eye", "the camera position [x, y, z] (m)"), "the camera position [x, y, z] (m)");
  const Node target_node = required(node, "target", "the point looked at [x, y, z] (m)");
  const std::array<double, 3> target = vec3(target_node, "the point looked at [x, y, z] (m)");
  if (eye == target) fail_found(target_node, "a point other than the camera position");
  if (auto fov = optional(node, "fov_degrees"))
    camera.fov_degrees =
        number(*fov, "a vertical field of view in degrees, in (0, 180)", [](double v) { return v > 0 && v < 180; });
  std::copy(eye.begin(), eye.end(), camera.eye);
  std::copy(target.begin(), target.end(), camera.target);
  camera.set = true;
}

// ---- Writing ----------------------------------------------------------------------

// "simulation", with its "ground" when the ground is on.
static OrderedJson simulation_json(const Scene& scene) {
  OrderedJson sim;
  sim["dt"] = scene.settings.dt;
  sim["steps"] = scene.settings.steps;
  sim["checkpoint_every"] = scene.settings.checkpoint_every;
  // Only when not the default, so that scenes written before it existed save unchanged.
  if (scene.settings.integrator != Integrator::SemiImplicitEuler)
    sim["integrator"] = std::string(integrator_name(scene.settings.integrator));
  if (scene.settings.integrator == Integrator::ImplicitEuler) {
    const ImplicitSettings& im = scene.settings.implicit;
    sim["implicit"] = {{"newton_iterations", im.newton_iterations},
                       {"newton_tolerance", im.newton_tolerance},
                       {"linear_iterations", im.linear_iterations},
                       {"linear_tolerance", im.linear_tolerance}};
  }
  write_param_columns(sim, scene, "simulation");
  if (const Ground& g = scene.settings.ground; g.enabled) {
    OrderedJson& ground = sim["ground"];
    // Only when not the default, so that scenes written before it existed save unchanged.
    if (g.contact != GroundContact::Penalty) ground["model"] = std::string(ground_contact_name(g.contact));
    ground["height"] = g.height;
    write_param_columns(ground, scene, "simulation.ground");
    ground["damping"] = g.damping;
    ground["contact_smoothing"] = g.contact_smoothing;
    ground["friction_smoothing"] = g.friction_smoothing;
  }
  return sim;
}

static OrderedJson camera_json(const SceneCamera& camera) {
  return {{"eye", vec3_json(camera.eye)}, {"target", vec3_json(camera.target)}, {"fov_degrees", camera.fov_degrees}};
}

// ---- Checking ---------------------------------------------------------------------

static Problem check_settings(const Scene& scene) {
  const Settings& s = scene.settings;
  if (!(finite(s.dt) && s.dt > 0 && s.dt <= 1)) return found("simulation.dt", s.dt, "a time step in (0, 1] (s)");
  if (s.steps < 1 || s.steps > kMaxSteps)
    return found("simulation.steps", s.steps, "a step count in [1, " + std::to_string(kMaxSteps) + "]");
  if (s.checkpoint_every < 0)
    return found("simulation.checkpoint_every", s.checkpoint_every, "an interval >= 0 (0 stores every state)");
  const ImplicitSettings& im = s.implicit;
  if (im.newton_iterations < 1 || im.newton_iterations > kMaxSolverIterations)
    return found("simulation.implicit.newton_iterations", im.newton_iterations,
                 "a count of Newton iterations in [1, " + std::to_string(kMaxSolverIterations) + "]");
  if (!positive(im.newton_tolerance))
    return found("simulation.implicit.newton_tolerance", im.newton_tolerance, "a velocity tolerance > 0 (m/s)");
  if (im.linear_iterations < 1 || im.linear_iterations > kMaxSolverIterations)
    return found("simulation.implicit.linear_iterations", im.linear_iterations,
                 "a count of Krylov iterations in [1, " + std::to_string(kMaxSolverIterations) + "]");
  if (!open_unit_interval(im.linear_tolerance))
    return found("simulation.implicit.linear_tolerance", im.linear_tolerance, "a relative tolerance in (0, 1)");
  const Ground& g = s.ground;
  if (!finite(g.height)) return found("simulation.ground.height", g.height, "a finite height (m)");
  if (!non_negative(g.damping)) return found("simulation.ground.damping", g.damping, "a damping >= 0 (N s/m)");
  if (!positive(g.contact_smoothing))
    return found("simulation.ground.contact_smoothing", g.contact_smoothing, "a width > 0 (m)");
  if (!positive(g.friction_smoothing))
    return found("simulation.ground.friction_smoothing", g.friction_smoothing, "a speed > 0 (m/s)");
  if (g.enabled && g.contact != GroundContact::Penalty && s.integrator == Integrator::ImplicitEuler)
    return "simulation.ground.model: found " + std::string(ground_contact_name(g.contact)) +
           " with the implicit_euler integrator; expected the penalty ground (the implicit step's Newton solve needs "
           "a smooth ground force)";
  // The implicit step covers particles and the forces between them; bodies and their
  // joints would go on semi-implicitly beside it, which is refused rather than done
  // silently.
  if (s.integrator == Integrator::ImplicitEuler && scene.body_count() > 0)
    return "simulation.integrator: found implicit_euler in a scene with " + std::to_string(scene.body_count()) +
           (scene.body_count() == 1 ? " rigid body" : " rigid bodies") +
           "; expected semi_implicit_euler (the implicit step covers particles, springs, triangles and tets, and "
           "would leave bodies and joints semi-implicit)";
  if (s.integrator == Integrator::ImplicitEuler && !scene.articulations.empty())
    return "simulation.integrator: found implicit_euler in a scene with articulations; expected semi_implicit_euler "
           "(the articulations take MuJoCo's Euler step, with their joints' damping implicit, whatever the "
           "particles' integrator)";
  // RK4 steps the articulations' smooth motion; the other families' forces and contacts
  // have semi-implicit steps of their own, which would silently run beside it.
  if (s.integrator == Integrator::RungeKutta4) {
    const auto refuse = [](const std::string& what) -> Problem {
      return "simulation.integrator: found rk4 in a scene with " + what +
             "; expected semi_implicit_euler (rk4 steps articulations only)";
    };
    if (scene.articulations.empty()) return refuse("no articulations");
    if (scene.particle_count() > 0) return refuse(std::to_string(scene.particle_count()) + " particles");
    if (scene.body_count() > 0) return refuse(std::to_string(scene.body_count()) + " rigid bodies");
    if (scene.material_points.count() > 0)
      return refuse(std::to_string(scene.material_points.count()) + " material points");
    if (scene.articulations.self_contact)
      return refuse("articulations.self_contact (the links' contact with each other is a semi-implicit step's)");
  }
  return std::nullopt;
}

static Problem check_camera(const Scene& scene) {
  const SceneCamera& c = scene.camera;
  if (!c.set) return std::nullopt;
  for (int k = 0; k < 3; ++k) {
    if (!std::isfinite(c.eye[k])) return found("camera.eye[" + std::to_string(k) + "]", c.eye[k], "a finite number");
    if (!std::isfinite(c.target[k]))
      return found("camera.target[" + std::to_string(k) + "]", c.target[k], "a finite number");
  }
  if (c.eye[0] == c.target[0] && c.eye[1] == c.target[1] && c.eye[2] == c.target[2])
    return std::string("camera.target: the same point as camera.eye; expected a point other than the camera position");
  if (!(c.fov_degrees > 0 && c.fov_degrees < 180))
    return found("camera.fov_degrees", c.fov_degrees, "a vertical field of view in degrees, in (0, 180)");
  return std::nullopt;
}

// ---- Its rows in the list of sections (scene_section.h) ---------------------------

extern const SceneSection kSimulationSection{
    "simulation",
    ReadStage::Settings,
    [](const SectionInput& in, Scene& scene) -> AfterShaping {
      in.reader.read_simulation(in.reader.required(in.top, "simulation", "an object with the simulation settings"),
                                scene);
      return {};
    },
    simulation_json,
    CheckStage::Counts,
    check_settings};

extern const SceneSection kCameraSection{
    "camera",
    ReadStage::Values,
    [](const SectionInput& in, Scene& scene) -> AfterShaping {
      if (in.node) in.reader.read_camera(*in.node, scene.camera);
      return {};
    },
    [](const Scene& scene) { return scene.camera.set ? camera_json(scene.camera) : OrderedJson(); },
    CheckStage::Elements,
    check_camera};

}  // namespace nudge::scene_io
