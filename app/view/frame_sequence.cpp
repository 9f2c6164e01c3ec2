#include "view/frame_sequence.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <system_error>

#include "nudge/render/image.h"
#include "nudge/render/offscreen_target.h"

namespace nudge::view {

std::vector<int> sequence_steps(int steps, double dt, double fps) {
  const int every = std::max(1, static_cast<int>(std::lround(1.0 / (fps * dt))));
  std::vector<int> out;
  for (int t = 0; t < steps; t += every) out.push_back(t);
  out.push_back(steps);
  return out;
}

Result<int> write_frame_sequence(render::GpuContext& gpu, const FrameSequence& sequence,
                                 const FrameProgress& progress) {
  const Scene& scene = *sequence.scene;
  const Trajectory& traj = *sequence.trajectory;
  std::error_code error;
  std::filesystem::create_directories(sequence.folder, error);
  if (error || !std::filesystem::is_directory(sequence.folder))
    return Error{"cannot make the folder " + sequence.folder.string() + (error ? ": " + error.message() : "")};
  render::Expected<render::OffscreenTarget> target =
      render::OffscreenTarget::create(gpu, sequence.width, sequence.height);
  if (!target) return Error{target.error().message};
  const std::vector<int> steps = sequence_steps(traj.steps, traj.dt, sequence.fps);
  const int total = static_cast<int>(steps.size());
  if (progress && !progress(0, total)) return Error{"the export was cancelled before its first frame"};
  for (int k = 0; k < total; ++k) {
    render::DrawList list = scene_draw_list(scene, &traj, steps[size_t(k)], sequence.options);
    if (sequence.overlay != GradientOverlay::None)
      add_gradient_overlay(list, sequence.overlay, scene, &traj, steps[size_t(k)], sequence.options);
    add_element_colors(list, sequence.element_colors, scene, &traj, steps[size_t(k)], sequence.options, &scene);
    render::Expected<render::Image> image = target->render(list);
    if (!image) return Error{image.error().message};
    char name[32];
    std::snprintf(name, sizeof name, "frame_%05d.png", k);
    const std::filesystem::path path = sequence.folder / name;
    if (render::Status written = render::write_png(path.string(), *image); !written)
      return Error{written.error().message};
    if (progress && !progress(k + 1, total))
      return Error{"the export was cancelled after " + std::to_string(k + 1) + " of " + std::to_string(total) +
                   " frames (they stay in " + sequence.folder.string() + ")"};
  }
  return total;
}

}  // namespace nudge::view
