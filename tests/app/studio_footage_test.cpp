// The studio's footage: the frame shown at a step, the view following the scene's video
// (opened, reopened when it changes, an error kept when it cannot be read), and a
// tracking run in the background giving what footage::retrack gives.
#include <doctest/doctest.h>

#include "../engine/temp_dir.h"
#include "footage/scene_footage.h"
#include "studio/footage_view.h"
#include "studio/tracking_run.h"

using namespace nudge;

namespace {

std::filesystem::path source_dir() {
  if (const char* dir = std::getenv("NUDGE_SOURCE_DIR")) return dir;
  return std::filesystem::path(__FILE__).parent_path().parent_path().parent_path();
}

Scene example() {
  Result<Scene> scene = load_scene(source_dir() / "scenes" / "footage_spring.json");
  REQUIRE_MESSAGE(scene.ok(), (scene.ok() ? "" : scene.error().message));
  return std::move(*scene);
}

}  // namespace

TEST_CASE("studio footage: the frame at a step, and the view following the scene's video") {
  Scene scene = example();  // 50 fps, dt 1 ms: 20 steps per frame
  CHECK(studio::shot_frame_at_step(scene, 0) == 0);
  CHECK(studio::shot_frame_at_step(scene, 29) == 1);
  CHECK(studio::shot_frame_at_step(scene, 2000) == 100);
  scene.footage.first_frame = 5;
  CHECK(studio::shot_frame_at_step(scene, 40) == 7);
  scene.footage.fps = 30;  // 33.3 steps per frame: the nearest frame in time
  CHECK(studio::shot_frame_at_step(scene, 100) == 5 + 3);

  studio::FootageView view;
  Scene shot = example();
  view.follow(shot);
  REQUIRE(view.has_video());
  CHECK(view.error().empty());
  const footage::Image* frame = view.frame(10);
  REQUIRE(frame != nullptr);
  CHECK(frame->width == 640);
  CHECK(view.frame_index() == 10);
  CHECK(view.frame(101) == nullptr);
  CHECK(view.frame(-1) == nullptr);

  Scene missing = shot;
  missing.footage.video = "no_such_clip.mp4";
  view.follow(missing);
  CHECK_FALSE(view.has_video());
  CHECK(view.error().find("no_such_clip.mp4") != std::string::npos);
  Scene none = shot;
  none.footage.video.clear();
  view.follow(none);
  CHECK_FALSE(view.has_video());
  CHECK(view.error().empty());
  view.follow(shot);
  CHECK(view.has_video());
}

TEST_CASE("studio footage: a tracking run gives the track footage::retrack gives") {
  const Scene shot = example();
  studio::TrackingRun run(shot, 0, 0, 100);
  REQUIRE(run.job().wait(120.0));
  std::optional<Result<Track>> result = run.result();
  REQUIRE(result.has_value());
  REQUIRE_MESSAGE(result->ok(), (result->ok() ? "" : result->error().message));
  Result<footage::VideoReader> video = footage::open_scene_video(shot);
  REQUIRE(video.ok());
  Result<Track> direct = footage::retrack(*video, *shot.footage.track(0), 0, 100);
  REQUIRE(direct.ok());
  CHECK((*result)->samples == direct->samples);
  CHECK((*result)->samples.size() >= 95);

  studio::TrackingRun missing(shot, 7, 0, 100);
  REQUIRE(missing.job().wait(30.0));
  REQUIRE(missing.result().has_value());
  CHECK_FALSE(missing.result()->ok());
}
