// The footage commands on the example shot, as a user runs them: nudge fit-camera, nudge
// track, nudge optimize and nudge export on a copy of scenes/footage_spring.json; and
// their refusals of bad input, which leave the scene file as it was.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/wait.h>

#include "../engine/footage_test_scenes.h"
#include "../engine/temp_dir.h"
#include "nudge/scene.h"

using namespace nudge;

namespace {

std::filesystem::path source_dir() {
  if (const char* dir = std::getenv("NUDGE_SOURCE_DIR")) return dir;
  return std::filesystem::path(__FILE__).parent_path().parent_path().parent_path();
}

struct Run {
  int exit_code = -1;
  std::string output;
};

Run nudge_run(const std::string& args) {
  const char* binary = std::getenv("NUDGE_BINARY");
  REQUIRE_MESSAGE(binary != nullptr, "NUDGE_BINARY is not set (run through ctest)");
  FILE* pipe = popen(("'" + std::string(binary) + "' " + args + " 2>&1").c_str(), "r");
  REQUIRE(pipe != nullptr);
  Run run;
  char buffer[4096];
  for (size_t got; (got = fread(buffer, 1, sizeof buffer, pipe)) > 0;) run.output.append(buffer, got);
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

}  // namespace

TEST_CASE("footage: fit-camera, track, optimize and export on the example shot") {
  test::TempDir dir("footage-cli");
  Result<Scene> example = load_scene(source_dir() / "scenes" / "footage_spring.json");
  REQUIRE_MESSAGE(example.ok(), (example.ok() ? "" : example.error().message));
  const std::filesystem::path scene = dir.path / "shot.json";
  REQUIRE(save_scene(*example, scene).ok());  // names the clip from the copy's folder
  const std::string path = "'" + scene.string() + "'";

  Run fit = nudge_run("fit-camera " + path);
  INFO(fit.output);
  REQUIRE(fit.exit_code == 0);
  CHECK(fit.output.find("reprojection error over 6 points") != std::string::npos);
  Result<Scene> fitted = load_scene(scene);
  REQUIRE(fitted.ok());
  CHECK(fitted->footage.camera->focal == doctest::Approx(700).epsilon(0.01));  // the clip's true focal length

  Run track = nudge_run("track " + path + " --track 0");
  INFO(track.output);
  REQUIRE(track.exit_code == 0);
  Result<Scene> tracked = load_scene(scene);
  REQUIRE(tracked.ok());
  CHECK(tracked->footage.tracks.at(0).samples.size() >= 95);

  Run optimize = nudge_run("optimize " + path + " --write-scene '" + (dir.path / "fitted.json").string() + "'");
  INFO(optimize.output);
  REQUIRE(optimize.exit_code == 0);
  Result<Scene> result = load_scene(dir.path / "fitted.json");
  REQUIRE(result.ok());
  const double k = result->params[ParamId::Stiffness].value[0], c = result->params[ParamId::Damping].value[0];
  MESSAGE("example: stiffness " << k << " N/m (60), damping " << c << " N s/m (0.25)");
  CHECK(k == doctest::Approx(60.0).epsilon(0.02));
  CHECK(c == doctest::Approx(0.25).epsilon(0.15));  // the clip's grain and a 5 px ball: see the README

  const std::filesystem::path out = dir.path / "out";
  Run exported = nudge_run("export '" + (dir.path / "fitted.json").string() + "' --csv '" + (out / "m.csv").string() +
                           "' --gltf '" + (out / "m.gltf").string() + "' --frames '" + (out / "frames").string() + "'");
  INFO(exported.output);
  CHECK(exported.exit_code == 1);  // the folder for the CSV does not exist yet
  std::filesystem::create_directories(out);
  exported = nudge_run("export '" + (dir.path / "fitted.json").string() + "' --csv '" + (out / "m.csv").string() +
                       "' --gltf '" + (out / "m.gltf").string() + "' --frames '" + (out / "frames").string() + "'");
  REQUIRE(exported.exit_code == 0);
  CHECK(std::filesystem::exists(out / "m.gltf"));
  CHECK(std::filesystem::exists(out / "frames" / "frame_00100.png"));
  CHECK(test::file_text(out / "m.csv").find("frame,time,kind,index,x,y,z,u,v") == 0);

  // Refusals leave the scene as it was.
  const std::string before = test::file_text(scene);
  Run outside = nudge_run("track " + path + " --add ball 0 5000 10");
  CHECK(outside.exit_code != 0);
  CHECK(outside.output.find("outside") != std::string::npos);
  Run too_few = nudge_run("fit-camera " + path + " --focal -3");
  CHECK(too_few.exit_code == 2);
  Run no_frame = nudge_run("track " + path + " --add ball 500 100 100");
  CHECK(no_frame.exit_code == 2);
  CHECK(no_frame.output.find("frame 500") != std::string::npos);
  Run wrong = nudge_run("export " + path + " --gltf '" + (dir.path / "m.fbx").string() + "'");
  CHECK(wrong.exit_code == 2);
  CHECK(test::file_text(scene) == before);
}
