// The footage of a scene, worked on: its video opened from the scene's folder, and its
// tracks followed through the video from their key points. The command line (`nudge
// track`, `nudge fit-camera`, `nudge export`) and the studio share these.
#pragma once

#include <filesystem>

#include "footage/point_tracker.h"
#include "footage/video_reader.h"
#include "nudge/scene.h"

namespace nudge::footage {

// The scene's video path, resolved against the scene file's folder.
std::filesystem::path scene_video_path(const Scene& scene);

// Opens the scene's video; an error when it names none or it cannot be read. The frame
// rate of an image sequence is the footage's.
Result<VideoReader> open_scene_video(const Scene& scene);

// The track followed through frames [first, last] of the video from its key samples:
// they are kept, and every other sample is the tracker's (frames where it lost the
// feature have none). An error when the track has no key.
Result<Track> retrack(VideoReader& video, const Track& track, int first, int last,
                      const TrackerSettings& settings = {});

// The particle the scene's first tracks objective binding track `id` compares it with
// (-1: none).
int bound_particle(const Scene& scene, int id);

}  // namespace nudge::footage
