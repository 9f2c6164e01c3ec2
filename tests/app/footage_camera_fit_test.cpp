// The camera fit: exact correspondences give the camera back; noisy clicks give it to
// within what the noise allows; a known focal length is kept; too few points, points on
// a line and values that are not finite are refused with a message saying so.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "../engine/footage_test_scenes.h"
#include "footage/camera_fit.h"

using namespace nudge;

namespace {

std::vector<CameraCorrespondence> clicks(const PinholeCamera& camera,
                                         std::initializer_list<std::array<double, 3>> places, double noise,
                                         unsigned seed = 3) {
  std::mt19937 random(seed);
  std::normal_distribution<double> jitter(0.0, noise > 0 ? noise : 1.0);
  std::vector<CameraCorrespondence> out;
  for (const auto& place : places) {
    CameraCorrespondence c;
    std::copy(place.begin(), place.end(), c.world);
    project_point(camera, c.world, c.image);
    if (noise > 0) c.image[0] += jitter(random), c.image[1] += jitter(random);
    out.push_back(c);
  }
  return out;
}

double distance(const double a[3], const double b[3]) { return std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]); }

}  // namespace

TEST_CASE("footage: the camera fit recovers a camera from exact and from noisy clicks") {
  const PinholeCamera truth = test::make_shot_camera();
  SUBCASE("exact, ground corners and two raised points") {
    const auto points =
        clicks(truth, {{-0.5, 0, -0.5}, {0.5, 0, -0.5}, {0.5, 0, 0.5}, {-0.5, 0, 0.5}, {0, 1, 0}, {0.5, 0.5, -0.5}}, 0);
    Result<footage::CameraFit> fit = footage::fit_camera(points, truth.width, truth.height);
    REQUIRE_MESSAGE(fit.ok(), (fit.ok() ? "" : fit.error().message));
    CHECK(fit->camera.focal == doctest::Approx(truth.focal).epsilon(1e-6));
    CHECK(distance(fit->camera.position, truth.position) < 1e-6);
    for (int k = 0; k < 4; ++k)
      CHECK(std::abs(std::abs(fit->camera.orientation[k]) - std::abs(truth.orientation[k])) < 1e-6);
    CHECK(fit->rms_error < 1e-6);
    CHECK(fit->errors.size() == points.size());
  }
  SUBCASE("exact, four ground corners alone (a plane)") {
    const auto points = clicks(truth, {{-0.5, 0, -0.5}, {0.5, 0, -0.5}, {0.5, 0, 0.5}, {-0.5, 0, 0.5}}, 0);
    Result<footage::CameraFit> fit = footage::fit_camera(points, truth.width, truth.height);
    REQUIRE(fit.ok());
    CHECK(fit->camera.focal == doctest::Approx(truth.focal).epsilon(1e-5));
    CHECK(distance(fit->camera.position, truth.position) < 1e-5);
  }
  SUBCASE("clicks off by 0.5 px, and a known focal length kept") {
    const auto points = clicks(
        truth, {{-0.5, 0, -0.5}, {0.5, 0, -0.5}, {0.5, 0, 0.5}, {-0.5, 0, 0.5}, {0, 1, 0}, {0.5, 0.5, -0.5}}, 0.5);
    Result<footage::CameraFit> fit = footage::fit_camera(points, truth.width, truth.height);
    REQUIRE(fit.ok());
    MESSAGE("noisy fit: focal " << fit->camera.focal << ", " << distance(fit->camera.position, truth.position) * 100
                                << " cm off, rms " << fit->rms_error << " px");
    CHECK(fit->camera.focal == doctest::Approx(truth.focal).epsilon(0.02));
    CHECK(distance(fit->camera.position, truth.position) < 0.04);
    CHECK(fit->rms_error < 1.0);
    Result<footage::CameraFit> fixed = footage::fit_camera(points, truth.width, truth.height, 650.0);
    REQUIRE(fixed.ok());
    CHECK(fixed->camera.focal == 650.0);
    CHECK(fixed->rms_error > fit->rms_error);  // the wrong focal length fits worse
  }
}

TEST_CASE("footage: the camera fit refuses what cannot fix a camera") {
  const PinholeCamera truth = test::make_shot_camera();
  const auto message = [&](const std::vector<CameraCorrespondence>& points) {
    Result<footage::CameraFit> fit = footage::fit_camera(points, truth.width, truth.height);
    REQUIRE_FALSE(fit.ok());
    return fit.error().message;
  };
  CHECK(message(clicks(truth, {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}}, 0)).find("at least 4") != std::string::npos);
  CHECK(message(clicks(truth, {{0, 0, 0}, {0.2, 0, 0}, {0.4, 0, 0}, {0.6, 0, 0}}, 0)).find("one line") !=
        std::string::npos);
  auto bad = clicks(truth, {{-0.5, 0, -0.5}, {0.5, 0, -0.5}, {0.5, 0, 0.5}, {-0.5, 0, 0.5}}, 0);
  bad[2].image[1] = NAN;
  CHECK(message(bad).find("correspondence 2") != std::string::npos);
  CHECK_FALSE(
      footage::fit_camera(clicks(truth, {{-0.5, 0, -0.5}, {0.5, 0, -0.5}, {0.5, 0, 0.5}, {-0.5, 0, 0.5}}, 0), 0, 480)
          .ok());
}
