// Edits of a scene's footage: tracks added from a click, keys placed and moved, tracked
// samples taken in, tracks bound to particles (a tracks objective made on the first
// binding) and deleted (the objective going with its last binding); correspondences and
// the camera; refusals that change nothing; and every result saves and loads back the same.
#include <doctest/doctest.h>

#include "../engine/footage_test_scenes.h"
#include "scene_edits_test_scenes.h"

using namespace nudge;
using namespace nudge::scene_edits_test;
namespace edits = nudge::studio::edits;

TEST_CASE("scene edits: tracks, keys, bindings, correspondences and the camera") {
  TempDir temp;
  Scene shot = test::make_spring_shot(60.0, 0.25, 10);
  shot.footage.camera.reset();

  // A track from a click, a second one, and a key moved and added.
  Scene edited = ok(edits::add_track(shot, "weight", 3, 120.5, 80.25));
  edited = ok(edits::add_track(edited, "anchor", 0, 300, 20));
  REQUIRE(edited.footage.tracks.size() == 2);
  CHECK(edited.footage.tracks[0].id == 0);
  CHECK(edited.footage.tracks[1].id == 1);
  CHECK(edited.footage.tracks[0].samples == std::vector<TrackSample>{{3, {120.5, 80.25}, 1.0, true}});
  edited = ok(edits::set_track_key(edited, 0, 3, 121, 81));
  edited = ok(edits::set_track_key(edited, 0, 1, 118, 79));
  REQUIRE(edited.footage.tracks[0].samples.size() == 2);
  CHECK(edited.footage.tracks[0].samples[0].frame == 1);  // kept in frame order
  CHECK(edited.footage.tracks[0].samples[1].uv[0] == 121);

  // The tracker's samples taken in; ones out of order are refused.
  edited = ok(edits::set_track_samples(
      edited, 0, {{1, {118, 79}, 1.0, true}, {2, {119, 80}, 0.9, false}, {3, {121, 81}, 1.0, true}}));
  CHECK(edited.footage.tracks[0].samples.size() == 3);
  CHECK_FALSE(edits::set_track_samples(edited, 0, {{2, {1, 1}, 1, false}, {1, {1, 1}, 1, false}}).ok());

  // Binding needs the camera; with one, the first binding makes a tracks objective.
  check_error(edits::bind_track(edited, 0, 1),
              "bind track: the footage has no camera to compare through; fit one from correspondences first");
  edited = ok(edits::set_footage_camera(edited, test::make_shot_camera()));
  edited = ok(edits::bind_track(edited, 0, 1));
  edited = ok(edits::bind_track(edited, 1, 0));
  REQUIRE(edited.objectives.size() == 1);
  CHECK(edited.objectives[0].type == ObjectiveType::Tracks);
  CHECK(edited.objectives[0].bind == std::vector<std::pair<int, int>>{{0, 1}, {1, 0}});
  edited = ok(edits::bind_track(edited, 0, 0));  // rebound where it was listed
  CHECK(edited.objectives[0].bind[0] == std::pair<int, int>{0, 0});
  check_stable(edited, temp.path);

  // A time step that leaves no whole number of steps per frame is refused while a tracks
  // objective needs one; so is removing the camera it looks through.
  CHECK_FALSE(edits::set_footage(edited, "", 30.0, 0).ok());
  CHECK(ok(edits::set_footage(edited, "shot.mp4", 25.0, 2)).footage.first_frame == 2);

  // Deleting a track drops its bindings; the objective goes with the last one.
  Scene fewer = ok(edits::delete_track(edited, 1));
  CHECK(fewer.objectives[0].bind.size() == 1);
  fewer = ok(edits::delete_track(fewer, 0));
  CHECK(fewer.objectives.empty());
  CHECK(fewer.footage.tracks.empty());
  check_error(edits::delete_track(fewer, 0), "delete track: the scene has no track 0");

  // Deleting the bound particle removes the binding (and the objective left empty).
  // (track 0 is bound to the anchor, particle 0, since it was rebound).
  Scene no_anchor = ok(edits::delete_particles(ok(edits::delete_track(edited, 1)), {0}));
  CHECK(no_anchor.objectives.empty());
  CHECK(no_anchor.footage.tracks.size() == 1);  // the track itself stays with the footage

  // Correspondences.
  CameraCorrespondence c;
  c.world[1] = 1, c.image[0] = 10, c.image[1] = 20;
  Scene points = ok(edits::add_correspondence(edited, c));
  CHECK(points.footage.correspondences.size() == 1);
  points = ok(edits::delete_correspondence(points, 0));
  CHECK(points.footage.correspondences.empty());
  CHECK_FALSE(edits::delete_correspondence(points, 0).ok());
  c.image[0] = NAN;
  CHECK_FALSE(edits::add_correspondence(edited, c).ok());
  check_error(edits::add_track(edited, "x", -1, 0, 0), "add track: found frame -1; expected a frame >= 0");
}
