// The fitted motion drawn over the shot: each frame of the video as a plate behind the
// scene, seen through the footage's camera, at the video's size (the offscreen
// renderer). `nudge export --frames` writes these.
#pragma once

#include <filesystem>
#include <functional>

#include "footage/video_reader.h"
#include "nudge/render/gpu_context.h"
#include "nudge/result.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"

namespace nudge::footage {

// Writes frame_<shot frame, 5 digits>.png for every frame of the shot the simulation
// covers (and the video has); returns how many. The scene needs a footage camera and a
// whole number of steps per frame. progress(done, total) may stop it by returning false.
Result<int> write_composited_frames(render::GpuContext& gpu, const Scene& scene, const Trajectory& traj,
                                    VideoReader& video, const std::filesystem::path& folder,
                                    const std::function<bool(int, int)>& progress = {});

}  // namespace nudge::footage
