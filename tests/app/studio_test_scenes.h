// Scenes the studio's tests run on: the example scenes from the source tree, and one that
// blows up.
#pragma once

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "nudge/scene.h"

namespace nudge::studio_test {

// How long a test waits for a worker thread: generous, the sanitizer build is slow.
inline constexpr double kTimeoutSeconds = 120;

// The repository root: $NUDGE_SOURCE_DIR (set by ctest), else found from this file.
inline std::filesystem::path source_dir() {
  if (const char* dir = std::getenv("NUDGE_SOURCE_DIR")) return dir;
  return std::filesystem::path(__FILE__).parent_path().parent_path().parent_path();
}

// scenes/<name>.json, loaded and checked.
inline Scene load_example(const std::string& name) {
  Result<Scene> scene = load_scene(source_dir() / "scenes" / (name + ".json"));
  REQUIRE_MESSAGE(scene.ok(), (scene.ok() ? "" : scene.error().message));
  return std::move(*scene);
}

// Two particles on a spring far too stiff for the step: explicit integration blows up.
inline Scene exploding_scene() {
  Scene scene;
  scene.name = "exploding";
  scene.settings.dt = 2e-3;
  scene.settings.steps = 200;
  scene.pinned = {0, 0};
  scene.spring_a = {0};
  scene.spring_b = {1};
  scene.params[ParamId::InitialPosition].value = {0, 1, 0, 0.1, 1, 0};
  shape_parameters(scene);
  scene.params[ParamId::InitialVelocity].value = {0, 0, 0, 1, 0, 0};
  scene.params[ParamId::Stiffness].value = {1e9};
  return scene;
}

}  // namespace nudge::studio_test
