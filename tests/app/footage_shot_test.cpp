// The whole of matching footage, on a shot Nudge renders itself from a known scene and
// camera: a weight swinging on a damped spring, drawn through the camera with the
// offscreen renderer, with pixel noise and a few frames where a grey card hides it,
// written as an image sequence. Then, as a user would: the video read back (FFmpeg),
// the weight tracked from one click (OpenCV), the camera fitted to six clicked points
// of known place, and the spring's stiffness and damping fitted to the track through the
// fitted camera. Each stage is held to the bar: tracking within a pixel, the
// camera within 1 % in focal length and 2 cm in position, the physics within 2 %.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "../engine/footage_test_scenes.h"
#include "../engine/temp_dir.h"
#include "footage/camera_fit.h"
#include "footage/scene_footage.h"
#include "nudge/optimize_scene.h"
#include "nudge/render/gpu_context.h"
#include "nudge/render/image.h"
#include "nudge/render/offscreen_target.h"
#include "view/footage_plate.h"
#include "view/scene_draw.h"

using namespace nudge;

namespace {

constexpr int kFrames = 100;
constexpr int kHiddenFrom = 50, kHiddenTo = 52;  // the grey card's frames

// Where particle p is in the image at a frame: the truth the tracker is held to.
void true_image_position(const Scene& scene, const Trajectory& traj, int p, int frame, double uv[2]) {
  const int spf = *steps_per_frame(scene.footage.fps, scene.settings.dt);
  project_point(*scene.footage.camera, &traj.x[(size_t(frame) * spf * traj.particles + p) * 3], uv);
}

// Renders the shot's frames to folder/frame_0000.png ...: noise of sigma 3 (of 255) on
// every channel, and a grey card over the weight on the hidden frames.
void render_shot(const Scene& scene, const Trajectory& traj, const std::filesystem::path& folder) {
  render::Expected<render::GpuContext> gpu = render::GpuContext::create({});
  REQUIRE_MESSAGE(gpu.ok(), (gpu.ok() ? "" : gpu.error().message));
  const PinholeCamera& camera = *scene.footage.camera;
  render::Expected<render::OffscreenTarget> target = render::OffscreenTarget::create(*gpu, camera.width, camera.height);
  REQUIRE(target.ok());
  view::SceneDrawOptions options = view::scene_draw_options(scene, &traj, float(camera.width) / float(camera.height));
  options.camera = view::render_camera_of(camera);
  options.particle_radius = 0.03f;
  options.objectives = false;
  std::mt19937 random(7);
  std::normal_distribution<double> noise(0.0, 3.0);
  const int spf = *steps_per_frame(scene.footage.fps, scene.settings.dt);
  for (int frame = 0; frame <= kFrames; ++frame) {
    render::Expected<render::Image> image = target->render(view::scene_draw_list(scene, &traj, frame * spf, options));
    REQUIRE(image.ok());
    double uv[2];
    true_image_position(scene, traj, 1, frame, uv);
    for (int y = 0; y < image->height; ++y)
      for (int x = 0; x < image->width; ++x) {
        const bool hidden =
            frame >= kHiddenFrom && frame <= kHiddenTo && std::abs(x - uv[0]) < 25 && std::abs(y - uv[1]) < 25;
        for (int c = 0; c < 3; ++c) {
          std::uint8_t& value = image->rgba[(size_t(y) * image->width + x) * 4 + c];
          const double shaded = hidden ? 128.0 : value + noise(random);
          value = static_cast<std::uint8_t>(std::clamp(std::lround(shaded), 0L, 255L));
        }
      }
    char name[32];
    std::snprintf(name, sizeof name, "frame_%04d.png", frame);
    REQUIRE(render::write_png((folder / name).string(), *image).ok());
  }
}

}  // namespace

TEST_CASE("footage: a shot rendered by Nudge, tracked, its camera and the spring fitted to it") {
  Scene truth = test::make_spring_shot(60.0, 0.25, kFrames);
  const Trajectory traj = test::simulate_on_cpu(truth);
  test::TempDir dir("footage-shot");
  render_shot(truth, traj, dir.path);

  // The video, read back.
  Scene scene = test::make_spring_shot(80.0, 0.6, kFrames);  // the physics not yet known
  scene.source = dir.path / "shot.json";
  scene.footage.video = ".";  // the folder of frames, beside the scene
  scene.footage.camera.reset();
  Result<footage::VideoReader> video = footage::open_scene_video(scene);
  REQUIRE_MESSAGE(video.ok(), (video.ok() ? "" : video.error().message));
  REQUIRE(video->frame_count() == kFrames + 1);
  CHECK(video->width() == 640);
  CHECK(video->height() == 480);

  // Tracking from one click on the weight's centre at frame 0 (placed zoomed in: the
  // tracker follows the point clicked, so an offset in the click stays in the track).
  double click[2];
  true_image_position(truth, traj, 1, 0, click);
  Track weight;
  weight.id = 0;
  weight.name = "weight";
  weight.samples = {{0, {click[0], click[1]}, 1.0, true}};
  Result<Track> tracked = footage::retrack(*video, weight, 0, kFrames);
  REQUIRE_MESSAGE(tracked.ok(), (tracked.ok() ? "" : tracked.error().message));
  double worst = 0, sum = 0;
  int seen = 0;
  for (const TrackSample& s : tracked->samples) {
    CAPTURE(s.frame);
    CHECK_FALSE((s.frame >= kHiddenFrom && s.frame <= kHiddenTo));  // the card hides it
    double uv[2];
    true_image_position(truth, traj, 1, s.frame, uv);
    const double error = std::hypot(s.uv[0] - uv[0], s.uv[1] - uv[1]);
    worst = std::max(worst, error), sum += error, ++seen;
  }
  MESSAGE("tracking: " << seen << " frames, mean error " << sum / seen << " px, worst " << worst << " px");
  CHECK(seen == kFrames + 1 - (kHiddenTo - kHiddenFrom + 1));
  CHECK(worst < 1.0);

  // The camera from six points of known place, clicked to 0.3 px: four ground corners,
  // the anchor, and the top of a 0.5 m post.
  const double places[][3] = {{-0.5, 0, -0.5}, {0.5, 0, -0.5}, {0.5, 0, 0.5},
                              {-0.5, 0, 0.5},  {0, 1, 0},      {0.5, 0.5, -0.5}};
  std::mt19937 random(11);
  std::normal_distribution<double> click_noise(0.0, 0.3);
  for (const auto& place : places) {
    CameraCorrespondence c;
    std::copy(place, place + 3, c.world);
    project_point(*truth.footage.camera, c.world, c.image);
    c.image[0] += click_noise(random), c.image[1] += click_noise(random);
    scene.footage.correspondences.push_back(c);
  }
  Result<footage::CameraFit> fit = footage::fit_camera(scene.footage.correspondences, video->width(), video->height());
  REQUIRE_MESSAGE(fit.ok(), (fit.ok() ? "" : fit.error().message));
  const PinholeCamera& known = *truth.footage.camera;
  const double moved =
      std::hypot(fit->camera.position[0] - known.position[0], fit->camera.position[1] - known.position[1],
                 fit->camera.position[2] - known.position[2]);
  MESSAGE("camera: focal " << fit->camera.focal << " px (" << known.focal << "), " << moved * 100
                           << " cm from the true position, rms " << fit->rms_error << " px");
  CHECK(fit->camera.focal == doctest::Approx(known.focal).epsilon(0.01));
  CHECK(moved < 0.02);
  CHECK(fit->rms_error < 0.5);

  // The spring fitted to the track through the fitted camera.
  scene.footage.camera = fit->camera;
  scene.footage.tracks = {*tracked};
  Objective o;
  o.type = ObjectiveType::Tracks;
  o.bind = {{0, 1}};
  scene.objectives = {o};
  for (ParamId id : {ParamId::Stiffness, ParamId::Damping}) {
    scene.params[id].optimize = true;
    scene.params[id].lower = 0;
  }
  scene.optimizer.method = OptimizerMethod::LBFGS;
  scene.optimizer.iterations = 80;
  REQUIRE(check_scene(scene).ok());
  SimulatorOptions options;
  options.device = Device::Cpu;
  auto sim = Simulator::create(scene, options);
  REQUIRE(sim.ok());
  ParameterSet params = scene.params;
  Result<OptimizeResult> result = optimize_parameters(**sim, params, scene.optimizer);
  REQUIRE(result.ok());
  const double k = params[ParamId::Stiffness].value[0], c = params[ParamId::Damping].value[0];
  MESSAGE("physics: stiffness " << k << " N/m (60), damping " << c << " N s/m (0.25), loss " << result->loss
                                << " px^2");
  CHECK(k == doctest::Approx(60.0).epsilon(0.02));
  CHECK(c == doctest::Approx(0.25).epsilon(0.02));
}
