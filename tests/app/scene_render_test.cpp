// Every example scene drawn offscreen (lavapipe where there is no GPU) with Vulkan
// validation on, and its pixels checked: particles where the camera projects them,
// background where nothing is, muscles in the colour map's colour for their control.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "nudge/render/gpu_context.h"
#include "nudge/render/image.h"
#include "nudge/render/offscreen_target.h"
#include "nudge/simulator.h"
#include "view/scene_draw.h"

using namespace nudge;

namespace {

std::filesystem::path source_dir() {
  if (const char* dir = std::getenv("NUDGE_SOURCE_DIR")) return dir;
  return std::filesystem::path(__FILE__).parent_path().parent_path().parent_path();
}

constexpr int kWidth = 400, kHeight = 300;

struct Rendered {
  Scene scene;
  Trajectory traj;
  view::SceneDrawOptions options;
  render::Image image;
};

// Loads, simulates and draws a scene at its last step with the layers `shown` turns on.
Rendered render_scene(render::GpuContext& gpu, const std::string& name, const view::SceneDrawOptions& shown) {
  Result<Scene> scene = load_scene(source_dir() / "scenes" / (name + ".json"));
  REQUIRE_MESSAGE(scene.ok(), (scene.ok() ? "" : scene.error().message));
  SimulatorOptions sim_options;
  sim_options.device = Device::Cpu;
  Result<std::unique_ptr<Simulator>> sim = Simulator::create(*scene, sim_options);
  REQUIRE(sim.ok());
  Result<Trajectory> traj = (*sim)->trajectory(scene->params);
  REQUIRE(traj.ok());
  view::SceneDrawOptions options = view::scene_draw_options(*scene, &*traj, float(kWidth) / kHeight);
  options.particles = shown.particles;
  options.springs = shown.springs;
  options.objectives = shown.objectives;
  options.grid = shown.grid;
  options.colliders = shown.colliders;
  render::Expected<render::OffscreenTarget> target = render::OffscreenTarget::create(gpu, kWidth, kHeight);
  REQUIRE_MESSAGE(target.ok(), (target.ok() ? "" : target.error().message));
  render::Expected<render::Image> image = target->render(view::scene_draw_list(*scene, &*traj, traj->steps, options));
  REQUIRE_MESSAGE(image.ok(), (image.ok() ? "" : image.error().message));
  return {std::move(*scene), std::move(*traj), options, std::move(*image)};
}

glm::vec3 final_position(const Rendered& r, int i) {
  const size_t at = (size_t(r.traj.steps) * r.traj.particles + i) * 3;
  return {float(r.traj.x[at]), float(r.traj.x[at + 1]), float(r.traj.x[at + 2])};
}

bool near(std::array<std::uint8_t, 4> got, render::Rgba want, int tolerance) {
  const std::array<std::uint8_t, 4> w = render::to_bytes(want);
  for (int k = 0; k < 3; ++k)
    if (std::abs(int(got[k]) - int(w[k])) > tolerance) return false;
  return true;
}

}  // namespace

TEST_CASE("scene render: every example scene shows its particles and its background") {
  render::ContextOptions context_options;
  context_options.validation = true;
  context_options.print_validation_messages = false;
  render::Expected<render::GpuContext> gpu = render::GpuContext::create(context_options);
  REQUIRE_MESSAGE(gpu.ok(), (gpu.ok() ? "" : gpu.error().message));

  for (const std::string name : {"projectile", "spring_sysid", "pendulum_length", "walker", "cloth"}) {
    CAPTURE(name);
    view::SceneDrawOptions options;
    options.grid = false;        // background must be plain where nothing is drawn
    options.objectives = false;  // targets could cover particles
    options.springs = false;     // and so could the muscles' legend panel
    const Rendered r = render_scene(*gpu, name, options);
    const render::DrawList list = view::scene_draw_list(r.scene, &r.traj, r.traj.steps, r.options);

    // Particles: at the projected centre, the sphere's colour (lit, so a bright grey for a
    // free particle, orange for a pinned one), never the background.
    int checked = 0;
    for (int i : {0, r.scene.particle_count() / 2, r.scene.particle_count() - 1}) {
      const std::optional<glm::vec2> px =
          render::project_to_pixel(r.options.camera, final_position(r, i), kWidth, kHeight);
      if (!px) continue;
      const auto c = render::pixel_at(r.image, int(px->x), int(px->y));
      CAPTURE(i);
      CAPTURE(int(c[0]));
      CAPTURE(int(c[1]));
      CAPTURE(int(c[2]));
      CHECK_FALSE(near(c, list.background, 12));
      if (r.scene.pinned[i]) {
        CHECK(c[0] > c[2] + 60);  // orange: red well above blue
      } else {
        CHECK(std::min({c[0], c[1], c[2]}) > 90);     // bright
        CHECK(std::abs(int(c[0]) - int(c[2])) < 60);  // grey, not a hue
      }
      ++checked;
    }
    CHECK(checked > 0);
    if (std::getenv("NUDGE_KEEP_RENDERS")) (void)render::write_png("/tmp/scene_render_" + name + ".png", r.image);

    // Background: a pixel far from every projected sphere and spring end is exactly the
    // background colour.
    glm::vec2 lo{1e9f, 1e9f}, hi{-1e9f, -1e9f};
    for (int i = 0; i < r.scene.particle_count(); ++i)
      if (auto px = render::project_to_pixel(r.options.camera, final_position(r, i), kWidth, kHeight)) {
        lo = glm::min(lo, *px);
        hi = glm::max(hi, *px);
      }
    const int corner_x = lo.x > kWidth / 2 ? 2 : kWidth - 3, corner_y = lo.y > kHeight / 2 ? 2 : kHeight - 3;
    CAPTURE(corner_x);
    CAPTURE(corner_y);
    CHECK(near(render::pixel_at(r.image, corner_x, corner_y), list.background, 1));
  }
  CHECK(gpu->validation_message_count() == 0);
  for (const std::string& m : gpu->validation_messages()) MESSAGE(m);
}

TEST_CASE("scene render: a walker muscle has the diverging map's colour for its control") {
  render::ContextOptions context_options;
  context_options.validation = true;
  context_options.print_validation_messages = false;
  render::Expected<render::GpuContext> gpu = render::GpuContext::create(context_options);
  REQUIRE(gpu.ok());
  view::SceneDrawOptions options;
  options.grid = options.particles = options.objectives = false;  // muscles and springs only
  const Rendered r = render_scene(*gpu, "walker", options);
  const render::DrawList list = view::scene_draw_list(r.scene, &r.traj, r.traj.steps, r.options);
  REQUIRE(list.legends.size() == 1);
  const render::Legend& legend = list.legends[0];

  // The muscle with the strongest signal at the last control step.
  const int step = r.traj.steps - 1;
  const auto& controls = r.scene.params[ParamId::Controls].value;
  int best = -1;
  float best_signal = 0;
  for (int s = 0; s < r.scene.spring_count(); ++s) {
    const int ch = r.scene.spring_channel[s];
    if (ch < 0) continue;
    const float signal = float(r.scene.actuation[s] * controls[size_t(step) * r.scene.channels + ch]);
    if (best < 0 || std::fabs(signal) > std::fabs(best_signal)) best = s, best_signal = signal;
  }
  REQUIRE(best >= 0);
  const glm::vec3 mid = 0.5f * (final_position(r, r.scene.spring_a[best]) + final_position(r, r.scene.spring_b[best]));
  const std::optional<glm::vec2> px = render::project_to_pixel(r.options.camera, mid, kWidth, kHeight);
  REQUIRE(px.has_value());
  const render::Rgba expected = render::map_value(legend.map, best_signal, legend.min, legend.max);
  const auto got = render::pixel_at(r.image, int(px->x), int(px->y));
  CAPTURE(best_signal);
  CAPTURE(int(got[0]));
  CAPTURE(int(got[1]));
  CAPTURE(int(got[2]));
  CHECK(near(got, expected, 3));
  CHECK_FALSE(near(got, view::colors::kSpring, 20));  // not drawn as a passive spring
  CHECK(gpu->validation_message_count() == 0);
}

TEST_CASE("scene draw: a marker objective draws its whole reference track and the bound particle's path") {
  Result<Scene> scene = load_scene(source_dir() / "scenes" / "spring_sysid.json");
  REQUIRE(scene.ok());
  auto sim = Simulator::create(*scene, SimulatorOptions{Device::Cpu, Precision::Float64, 1, -1});
  REQUIRE(sim.ok());
  Result<Trajectory> traj = (*sim)->trajectory(scene->params);
  REQUIRE(traj.ok());
  const Objective& markers = scene->objectives[0];
  REQUIRE(markers.type == ObjectiveType::Markers);
  int frames = 0;
  for (const MarkerSample& s : markers.samples) frames = std::max(frames, s.frame + 1);
  const view::SceneDrawOptions options = view::scene_draw_options(*scene, &*traj, 16.0f / 9.0f);
  const render::DrawList list = view::scene_draw_list(*scene, &*traj, 0, options);
  const render::LineBatch* reference = nullptr;
  const render::LineBatch* simulated = nullptr;
  for (const render::LineBatch& batch : list.lines) {
    if (!batch.strip || batch.colors.size() != 1) continue;
    if (batch.colors[0].a == view::colors::kReferenceTrack.a && batch.colors[0].g == view::colors::kReferenceTrack.g)
      reference = &batch;
    if (batch.colors[0].a == view::colors::kSimulatedTrack.a && batch.colors[0].r == view::colors::kSimulatedTrack.r)
      simulated = &batch;
  }
  REQUIRE(reference != nullptr);
  REQUIRE(simulated != nullptr);
  CHECK(reference->points.size() == size_t(frames));  // every frame of the track, in order
  CHECK(simulated->points.size() == size_t(frames));
  // The first sample is where the marker starts; the path starts at the bound particle.
  const int particle = markers.bind.begin()->second;
  CHECK(simulated->points[0].y ==
        doctest::Approx(scene->params[ParamId::InitialPosition].value[size_t(3 * particle + 1)]));
  // Without objectives drawn, no tracks.
  view::SceneDrawOptions bare = options;
  bare.objectives = false;
  for (const render::LineBatch& batch : view::scene_draw_list(*scene, &*traj, 0, bare).lines) CHECK(!batch.strip);
}

// F frames the objectives' targets with the motion (issue 25: the projectile's target,
// 4 m beyond where the guess lands, was outside the framed view).
TEST_CASE("scene draw: the framing bounds hold the objectives' targets and marker samples") {
  for (const char* name : {"projectile.json", "spring_sysid.json"}) {
    CAPTURE(name);
    Result<Scene> scene = load_scene(source_dir() / "scenes" / name);
    REQUIRE(scene.ok());
    auto sim = Simulator::create(*scene, SimulatorOptions{Device::Cpu, Precision::Float64, 1, -1});
    REQUIRE(sim.ok());
    Result<Trajectory> traj = (*sim)->trajectory(scene->params);
    REQUIRE(traj.ok());
    const view::Bounds bounds = view::scene_bounds(*scene, &*traj);
    const auto inside = [&](double x, double y, double z) {
      const float slack = 1e-4f * (1.0f + bounds.radius());
      return x >= bounds.lo.x - slack && y >= bounds.lo.y - slack && z >= bounds.lo.z - slack &&
             x <= bounds.hi.x + slack && y <= bounds.hi.y + slack && z <= bounds.hi.z + slack;
    };
    int points = 0;
    for (const Objective& o : scene->objectives) {
      for (size_t k = 0; k + 2 < o.target.size(); k += 3, ++points)
        CHECK(inside(o.target[k], o.target[k + 1], o.target[k + 2]));
      for (const MarkerSample& m : o.samples) {
        ++points;
        CHECK(inside(m.position[0], m.position[1], m.position[2]));
      }
    }
    CHECK(points > 0);
  }
}

TEST_CASE("scene render: colliders are drawn where they stand, particles at their contact radius") {
  render::ContextOptions context_options;
  context_options.validation = true;
  context_options.print_validation_messages = false;
  render::Expected<render::GpuContext> gpu = render::GpuContext::create(context_options);
  REQUIRE_MESSAGE(gpu.ok(), (gpu.ok() ? "" : gpu.error().message));
  for (bool shown : {true, false}) {
    CAPTURE(shown);
    view::SceneDrawOptions options;
    options.grid = options.objectives = options.particles = false;
    options.colliders = shown;
    const Rendered r = render_scene(*gpu, "bounce", options);
    const render::DrawList list = view::scene_draw_list(r.scene, &r.traj, r.traj.steps, r.options);
    REQUIRE(list.meshes.size() == (shown ? 2u : 0u));
    if (shown) {
      CHECK(list.meshes[1].positions.size() == 24);  // the box: 6 faces, 4 corners each
      CHECK(list.meshes[1].indices.size() == 36);
    }
    // The centre of the wall's face towards the camera (+z, at z = 1).
    const std::optional<glm::vec2> px = render::project_to_pixel(r.options.camera, {2.0f, 1.0f, 1.0f}, kWidth, kHeight);
    REQUIRE(px.has_value());
    const auto c = render::pixel_at(r.image, int(px->x), int(px->y));
    CHECK(near(c, list.background, 1) == !shown);
  }
  // The particle's sphere has its contact radius (0.1 m), not the default size.
  view::SceneDrawOptions options;
  const Rendered r = render_scene(*gpu, "bounce", options);
  const render::DrawList list = view::scene_draw_list(r.scene, &r.traj, 0, r.options);
  REQUIRE_FALSE(list.spheres.empty());
  CHECK(list.spheres[0].radius == doctest::Approx(0.1f));
}

namespace {

// Two capsule links laid along +x from a pivot at (0, 1, 0): a hinge to the world at the
// pivot and one between the links, both about z. They fall and swing.
Scene two_link_arm() {
  Scene scene;
  scene.name = "two-link arm";
  scene.settings.dt = 1e-3;
  scene.settings.steps = 300;
  RigidBody link;
  link.shape = BodyShape::Capsule;
  scene.bodies = {link, link};
  scene.joints.push_back({"shoulder", JointType::Hinge, -1, 0, {0, 0, 1}, false, 0, 0, false});
  scene.joints.push_back({"elbow", JointType::Hinge, 0, 1, {0, 0, 1}, false, 0, 0, false});
  shape_parameters(scene);
  scene.params[ParamId::BodyRadius].value = {0.04, 0.04};
  scene.params[ParamId::BodyHalfLength].value = {0.21, 0.21};
  for (int b = 0; b < 2; ++b) {
    const double along_x[4] = {0, 0, -std::sqrt(0.5), std::sqrt(0.5)};  // the capsule's axis (y) turned onto x
    std::copy(along_x, along_x + 4, scene.params[ParamId::BodyOrientation].value.begin() + 4 * b);
    const double center[3] = {0.25 + 0.5 * b, 1, 0}, anchor[3] = {0.5 * b, 1, 0};
    std::copy(center, center + 3, scene.params[ParamId::BodyPosition].value.begin() + 3 * b);
    std::copy(anchor, anchor + 3, scene.params[ParamId::JointAnchor].value.begin() + 3 * b);
    scene.params[ParamId::BodyDensity].value[size_t(b)] = 1000;
  }
  scene.params[ParamId::Gravity].value = {0, -9.81, 0};
  return scene;
}

}  // namespace

TEST_CASE("scene render: joints are drawn in their colour where the bodies carry them, only when shown") {
  render::ContextOptions context_options;
  context_options.validation = true;
  context_options.print_validation_messages = false;
  render::Expected<render::GpuContext> gpu = render::GpuContext::create(context_options);
  REQUIRE_MESSAGE(gpu.ok(), (gpu.ok() ? "" : gpu.error().message));
  const Scene scene = two_link_arm();
  const Status checked = check_scene(scene);
  REQUIRE_MESSAGE(checked.ok(), (checked.ok() ? "" : checked.error().message));
  auto sim = Simulator::create(scene, SimulatorOptions{Device::Cpu, Precision::Float64, 1, -1});
  REQUIRE(sim.ok());
  Result<Trajectory> traj = (*sim)->trajectory(scene.params);
  REQUIRE(traj.ok());

  // Where the joints are: at the start each side's anchor is the anchor itself; once the
  // links have swung, the sides still meet (the locks hold) though the elbow has moved.
  for (int j = 0; j < 2; ++j) {
    const view::JointPlace start = view::joint_place(scene, &*traj, 0, j);
    CHECK(start.gap() < 1e-12);
    CHECK(start.child_anchor.x == doctest::Approx(0.5 * j));
    const view::JointPlace end = view::joint_place(scene, &*traj, traj->steps, j);
    CHECK(end.gap() < 0.01);
    CHECK(end.axis.z == doctest::Approx(1).epsilon(1e-3));  // turning about z keeps the axis
  }
  CHECK(view::joint_place(scene, &*traj, traj->steps, 1).child_anchor.y < 0.9);  // the elbow fell

  const int step = traj->steps;
  for (bool shown : {true, false}) {
    CAPTURE(shown);
    view::SceneDrawOptions options = view::scene_draw_options(scene, &*traj, float(kWidth) / kHeight);
    options.grid = options.objectives = false;
    options.joints = shown;
    const render::DrawList list = view::scene_draw_list(scene, &*traj, step, options);
    CHECK(list.meshes.size() == 2);  // the links, either way
    render::Expected<render::OffscreenTarget> target = render::OffscreenTarget::create(*gpu, kWidth, kHeight);
    REQUIRE(target.ok());
    render::Expected<render::Image> image = target->render(list);
    REQUIRE(image.ok());
    if (std::getenv("NUDGE_KEEP_RENDERS"))
      (void)render::write_png(std::string("/tmp/scene_render_joints_") + (shown ? "on" : "off") + ".png", *image);
    // The lines are unlit: exactly the joint colour. The markers are lit spheres: violet.
    int joint_pixels = 0;
    for (int y = 0; y < kHeight; ++y)
      for (int x = 0; x < kWidth; ++x) joint_pixels += near(render::pixel_at(*image, x, y), view::colors::kJoint, 4);
    MESSAGE("pixels of the joint colour: " << joint_pixels);
    if (shown)
      CHECK(joint_pixels > 20);
    else
      CHECK(joint_pixels == 0);
    const view::JointPlace elbow = view::joint_place(scene, &*traj, step, 1);
    const std::optional<glm::vec2> px = render::project_to_pixel(
        options.camera, {float(elbow.child_anchor.x), float(elbow.child_anchor.y), float(elbow.child_anchor.z)}, kWidth,
        kHeight);
    REQUIRE(px.has_value());
    const auto c = render::pixel_at(*image, int(px->x), int(px->y));
    CAPTURE(int(c[0]));
    CAPTURE(int(c[1]));
    CAPTURE(int(c[2]));
    const bool violet = c[0] > c[1] + 40 && c[2] > c[1] + 40;
    CHECK(violet == shown);  // else the links' tan, whose blue is below its green
  }
  CHECK(gpu->validation_message_count() == 0);
}

namespace {

// A sphere at (0, 1, 0) thrown upwards, with particle 0 tied to the point of its surface
// on +x (an attachment) and particle 1 further out on +x, free, a spring from particle 0.
Scene tied_ball() {
  Scene scene;
  scene.name = "tied ball";
  scene.settings.dt = 1e-3;
  scene.settings.steps = 300;
  RigidBody ball;
  ball.name = "ball";
  ball.shape = BodyShape::Sphere;
  scene.bodies = {ball};
  scene.pinned = {0, 0};
  scene.spring_a = {0};
  scene.spring_b = {1};
  scene.attachments.push_back({0, 0});
  scene.params[ParamId::InitialPosition].value = {0.1, 1, 0, 0.4, 1, 0};
  shape_parameters(scene);
  scene.params[ParamId::BodyRadius].value = {0.1};
  scene.params[ParamId::Mass].value = {0.05, 0.05};
  scene.params[ParamId::Stiffness].value = {2000};
  scene.params[ParamId::Damping].value = {1};
  const double center[3] = {0, 1, 0}, up[3] = {0, 1, 0};
  std::copy(center, center + 3, scene.params[ParamId::BodyPosition].value.begin());
  std::copy(up, up + 3, scene.params[ParamId::BodyVelocity].value.begin());
  scene.params[ParamId::BodyDensity].value = {1000};
  scene.params[ParamId::Gravity].value = {0, -9.81, 0};
  return scene;
}

// Pixels within `half` of (x, y) whose red and blue stand well above their green: the
// joints' violet, lit or not (particles are grey, springs blue-grey, bodies tan).
int violet_pixels_near(const render::Image& image, glm::vec2 at, int half) {
  int count = 0;
  for (int y = int(at.y) - half; y <= int(at.y) + half; ++y)
    for (int x = int(at.x) - half; x <= int(at.x) + half; ++x) {
      if (x < 0 || y < 0 || x >= kWidth || y >= kHeight) continue;
      const auto c = render::pixel_at(image, x, y);
      count += c[0] > c[1] + 40 && c[2] > c[1] + 40;
    }
  return count;
}

glm::vec3 vec(Vec3<double> v) { return {float(v.x), float(v.y), float(v.z)}; }

}  // namespace

TEST_CASE("scene render: attachments are drawn in the joints' colour at the body's point, only when shown") {
  render::ContextOptions context_options;
  context_options.validation = true;
  context_options.print_validation_messages = false;
  render::Expected<render::GpuContext> gpu = render::GpuContext::create(context_options);
  REQUIRE_MESSAGE(gpu.ok(), (gpu.ok() ? "" : gpu.error().message));
  const Scene scene = tied_ball();
  const Status checked = check_scene(scene);
  REQUIRE_MESSAGE(checked.ok(), (checked.ok() ? "" : checked.error().message));
  auto sim = Simulator::create(scene, SimulatorOptions{Device::Cpu, Precision::Float64, 1, -1});
  REQUIRE(sim.ok());
  Result<Trajectory> traj = (*sim)->trajectory(scene.params);
  REQUIRE(traj.ok());

  // The point is where the particle started, in the ball's frame; the ball carries it and
  // the spring keeps the particle there.
  const view::AttachmentPlace start = view::attachment_place(scene, &*traj, 0, 0);
  CHECK(start.gap() < 1e-12);
  CHECK(start.offset.x == doctest::Approx(0.1));
  CHECK(std::abs(start.offset.y) + std::abs(start.offset.z) < 1e-12);
  const int step = traj->steps;
  const view::AttachmentPlace end = view::attachment_place(scene, &*traj, step, 0);
  CHECK(end.offset.x == doctest::Approx(0.1));
  CHECK(length(end.point - start.point) > 0.05);  // the ball has moved
  CHECK(end.gap() < 0.01);
  const double* ball = &traj->body_x[3 * size_t(step)];
  CHECK(length(end.point - Vec3<double>{ball[0], ball[1], ball[2]}) == doctest::Approx(0.1).epsilon(1e-9));

  // The same motion with the particle pulled 0.15 m off its point at the last step: the
  // line between them then shows.
  Trajectory stretched = *traj;
  stretched.x[(size_t(step) * size_t(stretched.particles)) * 3 + 1] += 0.15;

  for (bool shown : {true, false})
    for (const Trajectory* motion : {&*traj, &stretched}) {
      const bool pulled = motion == &stretched;
      CAPTURE(shown);
      CAPTURE(pulled);
      view::SceneDrawOptions options = view::scene_draw_options(scene, &*traj, float(kWidth) / kHeight);
      options.grid = options.objectives = false;
      options.attachments = shown;
      const render::DrawList list = view::scene_draw_list(scene, motion, step, options);
      CHECK(list.spheres.size() == (shown ? 3u : 2u));  // the particles, then the marker
      render::Expected<render::OffscreenTarget> target = render::OffscreenTarget::create(*gpu, kWidth, kHeight);
      REQUIRE(target.ok());
      render::Expected<render::Image> image = target->render(list);
      REQUIRE(image.ok());
      if (std::getenv("NUDGE_KEEP_RENDERS"))
        (void)render::write_png(
            std::string("/tmp/scene_render_attachment_") + (shown ? "on" : "off") + (pulled ? "_pulled" : "") + ".png",
            *image);
      // The marker: a lit violet sphere at the ball's point, over the particle.
      const view::AttachmentPlace place = view::attachment_place(scene, motion, step, 0);
      const std::optional<glm::vec2> px = render::project_to_pixel(options.camera, vec(place.point), kWidth, kHeight);
      REQUIRE(px.has_value());
      const int violet = violet_pixels_near(*image, *px, 4);
      MESSAGE("violet pixels by the point: " << violet);
      if (shown)
        CHECK(violet >= 20);
      else
        CHECK(violet == 0);
      // The line is unlit, exactly the joint colour; it shows where the particle is off
      // its point (while the spring holds, the marker hides it).
      int line_pixels = 0;
      for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x) line_pixels += near(render::pixel_at(*image, x, y), view::colors::kJoint, 4);
      MESSAGE("pixels of the joint colour: " << line_pixels);
      if (shown && pulled) {
        CHECK(line_pixels > 20);
        // Halfway along, between the point and the particle pulled off it.
        const std::optional<glm::vec2> mid =
            render::project_to_pixel(options.camera, vec(0.5 * (place.point + place.particle)), kWidth, kHeight);
        REQUIRE(mid.has_value());
        CHECK(violet_pixels_near(*image, *mid, 2) > 0);
      }
      if (!shown) CHECK(line_pixels == 0);
    }
  CHECK(gpu->validation_message_count() == 0);
}

TEST_CASE(
    "scene draw: a cloth is one lit mesh over its particles, after the colliders and bodies, its particles small") {
  // Two triangles of a 0.2 m square and a particle off the cloth.
  Scene scene;
  scene.settings.steps = 5;
  scene.pinned = {0, 0, 0, 0, 0};
  scene.triangles = {0, 1, 2, 0, 2, 3};
  scene.params[ParamId::InitialPosition].value = {0, 1, 0, 0.2, 1, 0, 0.2, 1.2, 0, 0, 1.2, 0, 1, 1, 0};
  shape_parameters(scene);
  REQUIRE(check_scene(scene).ok());
  view::SceneDrawOptions options = view::scene_draw_options(scene, nullptr, 1.5f);
  render::DrawList list = view::scene_draw_list(scene, nullptr, 0, options);
  REQUIRE(list.meshes.size() == 1);
  const render::Mesh& cloth = list.meshes.back();
  CHECK(cloth.indices == std::vector<std::uint32_t>{0, 1, 2, 0, 2, 3});
  REQUIRE(cloth.positions.size() == 5);
  CHECK(cloth.positions[2] == glm::vec3(0.2f, 1.2f, 0.0f));
  // Spaced by the triangles' edges (there are no springs), a cloth's particles smaller
  // than a free one, so the cloth shows between them.
  REQUIRE(list.spheres.size() == 5);
  CHECK(list.spheres[0].radius < 0.5f * list.spheres[4].radius);
  CHECK(list.spheres[4].radius <= 0.22f * 0.2f + 1e-6f);
  options.triangles = false;
  CHECK(view::scene_draw_list(scene, nullptr, 0, options).meshes.empty());
}

TEST_CASE("scene draw: a link's cylinder is drawn as a cylinder, its ends flat, not as the capsule around it") {
  // One link at (0, 1, 0) with a cylinder of radius 0.05 and half length 0.2 along its z
  // (MJCF's axis), which is the world's z at q = 0.
  Scene scene;
  scene.settings.steps = 5;
  scene.articulations.links.resize(1);
  ArticulationLink& link = scene.articulations.links[0];
  link.name = "rod";
  link.joint = ArticulationJoint::Hinge;
  link.shapes.resize(1);
  link.shapes[0].kind = LinkShape::Kind::Cylinder;
  link.shapes[0].size[0] = 0.05, link.shapes[0].size[1] = 0.2;
  shape_parameters(scene);
  scene.params[ParamId::LinkPosition].value = {0, 1, 0};
  REQUIRE(check_scene(scene).ok());
  const view::SceneDrawOptions options = view::scene_draw_options(scene, nullptr, 1.5f);
  const render::DrawList list = view::scene_draw_list(scene, nullptr, 0, options);
  REQUIRE(list.meshes.size() == 1);
  const render::Mesh& rod = list.meshes[0];
  REQUIRE(rod.positions.size() == rod.normals.size());
  float reach = 0;
  int on_caps = 0;
  for (size_t k = 0; k < rod.positions.size(); ++k) {
    const glm::vec3 p = rod.positions[k];
    CHECK(std::hypot(p.x, p.y - 1.0f) <= 0.05f + 1e-5f);
    reach = std::max(reach, std::fabs(p.z));
    if (std::fabs(rod.normals[k].z) > 0.999f) {  // a cap's: on an end's plane
      CHECK(std::fabs(std::fabs(p.z) - 0.2f) < 1e-5f);
      ++on_caps;
    }
  }
  CHECK(reach == doctest::Approx(0.2f).epsilon(1e-5));  // a capsule's would be 0.25
  CHECK(on_caps >= 2 * 24);
  // Every triangle faces out: its normal points away from the rod's centre.
  for (size_t t = 0; t + 2 < rod.indices.size(); t += 3) {
    const glm::vec3 a = rod.positions[rod.indices[t]], b = rod.positions[rod.indices[t + 1]],
                    c = rod.positions[rod.indices[t + 2]];
    const glm::vec3 n = glm::cross(b - a, c - a), centre = (a + b + c) / 3.0f - glm::vec3(0, 1, 0);
    if (glm::length(n) < 1e-9f) continue;
    CHECK(glm::dot(n, centre) > 0);
  }
}
