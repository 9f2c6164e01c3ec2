#include "footage/composite.h"

#include <cstdio>
#include <string>
#include <system_error>

#include "nudge/render/image.h"
#include "nudge/render/offscreen_target.h"
#include "view/footage_plate.h"
#include "view/scene_draw.h"

namespace nudge::footage {

Result<int> write_composited_frames(render::GpuContext& gpu, const Scene& scene, const Trajectory& traj,
                                    VideoReader& video, const std::filesystem::path& folder,
                                    const std::function<bool(int, int)>& progress) {
  if (!scene.footage.camera) return Error{"composited frames need the footage's camera; fit one with nudge fit-camera"};
  const std::optional<int> spf = steps_per_frame(scene.footage.fps, scene.settings.dt);
  if (!spf) return Error{"composited frames need a whole number of simulation steps per frame of the footage"};
  const PinholeCamera& camera = *scene.footage.camera;
  if (camera.width != video.width() || camera.height != video.height())
    return Error{"the footage's camera is " + std::to_string(camera.width) + " x " + std::to_string(camera.height) +
                 " px but its video is " + std::to_string(video.width()) + " x " + std::to_string(video.height())};
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error || !std::filesystem::is_directory(folder))
    return Error{"cannot make the folder " + folder.string() + (error ? ": " + error.message() : "")};
  render::Expected<render::OffscreenTarget> target = render::OffscreenTarget::create(gpu, camera.width, camera.height);
  if (!target) return Error{target.error().message};

  // The shot's frames within both the simulation and the video.
  const int first = std::max(scene.footage.first_frame, 0);
  const int last = std::min(video.frame_count() - 1, scene.footage.first_frame + traj.steps / *spf);
  const int total = std::max(0, last - first + 1);
  view::SceneDrawOptions options = view::scene_draw_options(scene, &traj, float(camera.width) / float(camera.height));
  options.camera = view::render_camera_of(camera);
  options.grid = false;  // the plate shows the real ground
  if (progress && !progress(0, total)) return Error{"stopped before the first frame"};
  int written = 0;
  for (int frame = first; frame <= last; ++frame) {
    Result<Image> plate = video.frame(frame);
    if (!plate) return Error{plate.error().message};
    const int step = int(step_of_frame(scene.footage, *spf, frame));
    render::DrawList list = view::scene_draw_list(scene, &traj, step, options);
    list.quads.push_back(view::footage_plate(camera, plate->width, plate->height, to_rgba(*plate)));
    render::Expected<render::Image> image = target->render(list);
    if (!image) return Error{image.error().message};
    char name[32];
    std::snprintf(name, sizeof name, "frame_%05d.png", frame);
    if (render::Status saved = render::write_png((folder / name).string(), *image); !saved)
      return Error{saved.error().message};
    ++written;
    if (progress && !progress(written, total)) return Error{"stopped after " + std::to_string(written) + " frames"};
  }
  return written;
}

}  // namespace nudge::footage
