// Screen-space objectives: the pinhole projection and its Jacobian against central
// differences; the tracks loss against the weighted image distance written out; its
// gradients (particles and bodies) against central differences in double; stiffness and
// damping fitted to tracks through the camera; the footage section of scene files.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "central_difference.h"
#include "footage_test_scenes.h"
#include "gradient_outcome.h"
#include "nudge/optimize_scene.h"
#include "nudge/quat.h"
#include "temp_dir.h"
#include "test_scenes.h"

using namespace nudge;

namespace {

double loss_of(const Scene& scene) { return test::run_cpu_gradient(scene, 1).loss; }

}  // namespace

TEST_CASE("tracks: the pinhole projection, its Jacobian against central differences, and look-at") {
  const PinholeCamera camera = test::make_shot_camera();
  // The point looked at lands on the principal point; one to its right, to the right.
  const double target[3] = {0.0, 0.55, 0.0};
  double uv[2];
  CHECK(project_point(camera, target, uv) > 0);
  CHECK(uv[0] == doctest::Approx(camera.principal[0]).epsilon(1e-12));
  CHECK(uv[1] == doctest::Approx(camera.principal[1]).epsilon(1e-12));
  // Level with the camera's eye line the image is above the centre (v smaller): the camera
  // looks down. A point 1 m along the camera's right axis at the target's depth moves u by
  // focal / depth, and straight up moves v the other way.
  const double depth = project_point(camera, target, uv);
  double right[3] = {target[0], target[1], target[2]}, up[3];
  {
    double q[4];
    std::copy(camera.orientation, camera.orientation + 4, q);
    const Vec3<double> r = rotate(Quat<double>{q[0], q[1], q[2], q[3]}, Vec3<double>{1, 0, 0});
    right[0] += 0.01 * r.x, right[1] += 0.01 * r.y, right[2] += 0.01 * r.z;
    const Vec3<double> u = rotate(Quat<double>{q[0], q[1], q[2], q[3]}, Vec3<double>{0, 1, 0});
    up[0] = target[0] + 0.01 * u.x, up[1] = target[1] + 0.01 * u.y, up[2] = target[2] + 0.01 * u.z;
  }
  double uv_right[2], uv_up[2];
  project_point(camera, right, uv_right);
  project_point(camera, up, uv_up);
  CHECK(uv_right[0] - uv[0] == doctest::Approx(0.01 * camera.focal / depth).epsilon(1e-9));
  CHECK(uv_right[1] == doctest::Approx(uv[1]).epsilon(1e-12));
  CHECK(uv[1] - uv_up[1] == doctest::Approx(0.01 * camera.focal / depth).epsilon(1e-9));
  CHECK(vertical_fov_degrees(camera) == doctest::Approx(2 * std::atan(240.0 / 700.0) * 180 / M_PI));

  // The Jacobian at scattered points, including off-centre and near ones.
  const double points[][3] = {{0.3, 0.2, -0.4}, {-0.5, 1.2, 0.8}, {0.1, 0.6, 1.9}, {1.5, -0.2, -1.0}};
  for (const auto& p0 : points) {
    double p[3] = {p0[0], p0[1], p0[2]}, jacobian[2][3];
    REQUIRE(project_point(camera, p, uv, jacobian) > kMinProjectionDepth);
    for (int row = 0; row < 2; ++row)
      for (int k = 0; k < 3; ++k) {
        const double fd = test::central_difference(p[k], [&] {
          double out[2];
          project_point(camera, p, out);
          return out[row];
        });
        CHECK(jacobian[row][k] == doctest::Approx(fd).epsilon(1e-7));
      }
  }
  // Behind the camera: a negative depth, and no image.
  const double behind[3] = {0.8, 1.3, 5.0};
  CHECK(project_point(camera, behind, uv) < 0);
}

TEST_CASE("tracks: the loss is the confidence-weighted squared image distance") {
  Scene scene = test::make_spring_shot();
  const Trajectory traj = test::simulate_on_cpu(scene);
  Track weight = test::projected_track(scene, traj, 4, 1), anchor = test::projected_track(scene, traj, 9, 0);
  scene.footage.tracks = {weight, anchor};
  scene.objectives = {test::tracks_objective({{4, 1}, {9, 0}}, 2.0)};
  REQUIRE(check_scene(scene).ok());
  CHECK(loss_of(scene) < 1e-18);  // the tracks are the motion's own image

  // Every sample of the weight's track 3 px right and 4 px down, at confidence 0.5; the
  // anchor's 1 px up at confidence 1 with track weight 3: the mean squared distance over
  // weights 0.5 and 3 per frame.
  for (TrackSample& s : scene.footage.tracks[0].samples) s.uv[0] += 3, s.uv[1] += 4, s.confidence = 0.5;
  scene.footage.tracks[1].weight = 3;
  for (TrackSample& s : scene.footage.tracks[1].samples) s.uv[1] -= 1;
  const double expected = 2.0 * (0.5 * 25 + 3 * 1) / (0.5 + 3);
  CHECK(loss_of(scene) == doctest::Approx(expected).epsilon(1e-9));

  // The clip running past the scene: frames beyond the last step are ignored. A first
  // frame of 10 shifts every step by 10 frames: a track from the shot's frame 10 on.
  Scene later = scene;
  later.footage.first_frame = 10;
  for (Track& t : later.footage.tracks)
    for (TrackSample& s : t.samples) s.frame += 10;
  CHECK(loss_of(later) == doctest::Approx(expected).epsilon(1e-9));
  // Samples with confidence 0 count for nothing.
  Scene lost = scene;
  for (TrackSample& s : lost.footage.tracks[1].samples) s.confidence = 0;
  CHECK(loss_of(lost) == doctest::Approx(2.0 * 25).epsilon(1e-9));
}

TEST_CASE("tracks: gradients through the projection against central differences, particles and bodies") {
  Scene scene = test::make_spring_shot(60.0, 0.25, 20);
  const Trajectory traj = test::simulate_on_cpu(scene);
  Track track = test::projected_track(scene, traj, 0, 1);
  for (size_t k = 0; k < track.samples.size(); ++k) {  // a track that disagrees, at varied confidence
    track.samples[k].uv[0] += 6 * std::sin(0.7 * double(k));
    track.samples[k].uv[1] -= 5 * std::cos(0.4 * double(k));
    track.samples[k].confidence = 0.4 + 0.5 * std::abs(std::sin(double(k)));
  }
  scene.footage.tracks = {track};
  scene.objectives = {test::tracks_objective({{0, 1}})};
  test::check_against_central_differences(
      scene, {ParamId::Stiffness, ParamId::Damping, ParamId::Mass, ParamId::InitialVelocity, ParamId::InitialPosition,
              ParamId::Gravity});

  // A body's centre of mass through bind_bodies, in free flight (no colliders: their
  // contacts' kinks are another test's business).
  Scene bodies = test::make_body_scene(0.01, 100);
  bodies.colliders.clear();
  bodies.settings.dt = 1e-3;  // 20 steps per frame at 50 fps
  bodies.footage.fps = 50;
  bodies.footage.camera = test::make_shot_camera();
  Track body_track;
  body_track.id = 3;
  for (int frame = 0; frame <= 5; ++frame)
    body_track.samples.push_back({frame, {300.0 + 10 * frame, 200.0 + 3 * frame}, 0.8, false});
  bodies.footage.tracks = {body_track};
  Objective o = test::tracks_objective({});
  o.bind_bodies = {{3, 0}};
  bodies.objectives = {o};
  test::check_against_central_differences(bodies, {ParamId::BodyPosition, ParamId::BodyVelocity});
}

TEST_CASE("tracks: stiffness and damping fitted to a filmed motion through the camera") {
  const Scene truth = test::make_spring_shot(60.0, 0.25);
  const Trajectory traj = test::simulate_on_cpu(truth);
  Scene scene = test::make_spring_shot(80.0, 0.6);  // a wrong guess: 33 % stiff, 2.4x damped
  scene.footage.tracks = {test::projected_track(truth, traj, 0, 1)};
  scene.objectives = {test::tracks_objective({{0, 1}})};
  for (ParamId id : {ParamId::Stiffness, ParamId::Damping}) {
    scene.params[id].optimize = true;
    scene.params[id].lower = 0;
  }
  scene.optimizer.method = OptimizerMethod::LBFGS;
  scene.optimizer.iterations = 60;
  SimulatorOptions options;
  options.device = Device::Cpu;
  auto sim = Simulator::create(scene, options);
  REQUIRE(sim.ok());
  ParameterSet params = scene.params;
  Result<OptimizeResult> fit = optimize_parameters(**sim, params, scene.optimizer);
  REQUIRE(fit.ok());
  const double k = params[ParamId::Stiffness].value[0], c = params[ParamId::Damping].value[0];
  MESSAGE("fitted stiffness " << k << " (60), damping " << c << " (0.25), loss " << fit->loss);
  CHECK(k == doctest::Approx(60.0).epsilon(0.02));
  CHECK(c == doctest::Approx(0.25).epsilon(0.02));
}

TEST_CASE("tracks: the footage section reads, writes and checks") {
  const std::string base = R"({"format": "nudge-scene", "version": 1, "name": "shot",
    "simulation": {"dt": 0.001, "steps": 100},
    "particles": {"position": [[0, 1, 0], [0.2, 0.5, 0]], "pinned": [0]},
    "springs": {"pairs": [[0, 1]], "stiffness": 50},)";
  const std::string camera =
      R"("camera": {"width": 640, "height": 480, "focal": 700, "position": [0.4, 0.9, 2.6], "target": [0, 0.55, 0]})";
  const std::string tracks = R"("tracks": [{"id": 2, "name": "weight", "weight": 1.5,
      "points": [[0, 320.5, 240.25, 1, 1], [1, 322, 241, 0.9, 0], [3, 330, 250, 0.7, 0], [40, 1, 1, 1, 0]]}])";
  const std::filesystem::path source = std::filesystem::temp_directory_path() / "shot.json";
  const auto parse = [&](const std::string& footage, const std::string& objectives) {
    return parse_scene(base + "\"footage\": {" + footage + "}, \"objectives\": " + objectives + "}", source);
  };
  const std::string objective = R"([{"type": "tracks", "bind": [[2, 1]], "weight": 0.5}])";
  Result<Scene> scene =
      parse(R"("video": "shot.mp4", "fps": 50, "first_frame": 0, )" + camera +
                R"(, "correspondences": [{"world": [0, 0, 0], "image": [100, 400], "frame": 0}], )" + tracks,
            objective);
  REQUIRE_MESSAGE(scene.ok(), (scene.ok() ? "" : scene.error().message));
  const Footage& f = scene->footage;
  CHECK(f.video == "shot.mp4");
  CHECK(f.camera->principal[0] == 319.5);
  CHECK(f.tracks.size() == 1);
  CHECK(f.tracks[0].samples[0].key);
  CHECK(f.tracks[0].samples[2].confidence == 0.7);
  CHECK(scene->objectives[0].type == ObjectiveType::Tracks);
  {
    test::TempDir dir("tracks-test");
    REQUIRE(save_scene(*scene, dir.path / "b.json").ok());
    const Result<Scene> again = load_scene(dir.path / "b.json");
    REQUIRE_MESSAGE(again.ok(), (again.ok() ? "" : again.error().message));
    REQUIRE(save_scene(*again, dir.path / "c.json").ok());
    CHECK(test::file_text(dir.path / "b.json") == test::file_text(dir.path / "c.json"));
    CHECK(again->footage.tracks == f.tracks);
    CHECK(again->footage.camera == f.camera);
    // The video is named from the saved scene's folder, so it is the same file.
    CHECK(std::filesystem::absolute(dir.path / again->footage.video).lexically_normal() ==
          (source.parent_path() / "shot.mp4").lexically_normal());
  }

  const auto error_of = [&](const std::string& footage, const std::string& objectives) {
    const Result<Scene> bad = parse(footage, objectives);
    REQUIRE_FALSE(bad.ok());
    return bad.error().message;
  };
  const auto contains = [](const std::string& text, const std::string& part) {
    INFO(text);
    CHECK(text.find(part) != std::string::npos);
  };
  contains(error_of(R"("fps": 50, )" + tracks, objective), "no camera");
  contains(error_of(R"("fps": 30, )" + camera + ", " + tracks, objective), "33.3333");
  contains(error_of(R"("fps": 50, )" + camera + ", " + tracks, R"([{"type": "tracks", "bind": [[5, 1]]}])"),
           "objectives[0].bind[0][0]");
  contains(error_of(R"("fps": 50, )" + camera + ", " + tracks, R"([{"type": "tracks", "bind": [[2, 7]]}])"),
           "objectives[0].bind[0][1]");
  contains(error_of(R"("fps": 50, "first_frame": 200, )" + camera + ", " + tracks, objective), "no sample within");
  contains(error_of(R"("fps": 50, )" + camera + R"(, "tracks": [{"id": 1, "points": [[0, 1, 1, 1.5, 0]]}])", "[]"),
           "$.footage.tracks[0].points[0][3]");
  contains(
      error_of(R"("fps": 50, )" + camera + R"(, "tracks": [{"id": 1, "points": [[3, 1, 1, 1, 0], [2, 1, 1, 1, 0]]}])",
               "[]"),
      "$.footage.tracks[0].points[1][0]");
  contains(error_of(R"("fps": 50, "tracks": [{"id": 1, "points": []}, {"id": 1, "points": []}])", "[]"),
           "$.footage.tracks[1].id");
  contains(error_of(R"("fps": 50, "camera": {"width": 640, "height": 480, "focal": 700, "position": [0, 0, 1]})", "[]"),
           "neither");
  contains(
      error_of(
          R"("fps": 50, "camera": {"width": 640, "height": 480, "focal": 700, "position": [0, 0, 1], "orientation": [0, 0, 0, 2]})",
          "[]"),
      "length 1");
  contains(error_of(R"("fps": 0)", "[]"), "$.footage.fps");
  contains(error_of(R"("fps": 50, "colour": 1)", "[]"), "colour");

  // check_scene holds code-built scenes to the same rules.
  Scene checked = *scene;
  checked.footage.tracks[0].samples[1].confidence = -0.1;
  CHECK(check_scene(checked).error().message.find("footage.tracks[0].points[1][3]") != std::string::npos);
  checked = *scene;
  checked.footage.camera.reset();
  CHECK(check_scene(checked).error().message.find("objectives[0]") != std::string::npos);
  checked = *scene;
  checked.objectives[0].bind = {{8, 1}};
  CHECK(check_scene(checked).error().message.find("objectives[0].bind[0][0]") != std::string::npos);
}
