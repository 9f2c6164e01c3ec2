// nudge fit-camera SCENE [--point X Y Z U V]... [--focal PX] [--out PATH]: fits the
// camera that filmed the shot to the scene's correspondences (points known in the world
// and clicked in the image) and saves it as the footage's camera.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "footage/camera_fit.h"
#include "footage/scene_footage.h"

namespace nudge {

namespace {

struct FitCameraArgs {
  std::string scene, out;
  std::vector<double> points;  // X Y Z U V, repeated
  double focal = 0;            // 0: fitted
  int frame = 0;
};

int run_fit_camera(const FitCameraArgs& args) {
  std::optional<Scene> scene = load_scene_or_report(args.scene);
  if (!scene) return kExitBadInput;
  for (size_t k = 0; k + 4 < args.points.size(); k += 5) {
    CameraCorrespondence c;
    std::copy(&args.points[k], &args.points[k] + 3, c.world);
    std::copy(&args.points[k] + 3, &args.points[k] + 5, c.image);
    c.frame = args.frame;
    scene->footage.correspondences.push_back(c);
  }
  // The image size: the camera's when there is one, else the video's.
  int width = 0, height = 0;
  if (scene->footage.camera) {
    width = scene->footage.camera->width, height = scene->footage.camera->height;
  } else {
    Result<footage::VideoReader> video = footage::open_scene_video(*scene);
    if (!video) {
      print_error("fit-camera: the image size comes from the footage's video or camera: " + video.error().message);
      return kExitBadInput;
    }
    width = video->width(), height = video->height();
  }
  Result<footage::CameraFit> fit = footage::fit_camera(
      scene->footage.correspondences, width, height, args.focal > 0 ? std::optional<double>(args.focal) : std::nullopt);
  if (!fit) {
    print_error("fit-camera: " + args.scene + ": " + fit.error().message);
    return kExitBadInput;
  }
  const PinholeCamera& c = fit->camera;
  std::cout << "camera: " << width << " x " << height << " px, focal " << format_number(c.focal) << " px ("
            << format_number(vertical_fov_degrees(c)) << " degrees vertical), at (" << format_number(c.position[0])
            << ", " << format_number(c.position[1]) << ", " << format_number(c.position[2]) << ") m\n";
  std::cout << "reprojection error over " << fit->errors.size() << " points: rms " << format_number(fit->rms_error)
            << " px, max " << format_number(fit->max_error) << " px\n";
  for (size_t i = 0; i < fit->errors.size(); ++i)
    std::cout << "  point " << i << ": " << format_number(fit->errors[i]) << " px\n";
  scene->footage.camera = c;
  const std::string out = args.out.empty() ? args.scene : args.out;
  if (Status saved = save_scene(*scene, out); !saved) {
    print_error("fit-camera: " + saved.error().message);
    return kExitFailure;
  }
  std::cout << "wrote " << out << "\n";
  return kExitOk;
}

}  // namespace

void add_fit_camera_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<FitCameraArgs>();
  CLI::App* cmd =
      app.add_subcommand("fit-camera", "Fit the shot's camera to points known in the world and in the image");
  cmd->add_option("scene", args->scene, "Scene file (JSON) with footage")->required();
  cmd->add_option("--point", args->points,
                  "A correspondence X Y Z (m) U V (px), added to the scene's footage.correspondences; repeatable")
      ->expected(5)
      ->allow_extra_args(false);
  cmd->add_option("--frame", args->frame, "The frame the --point clicks were made on (default 0)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--focal", args->focal, "The focal length in px when it is known (default: fitted)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--out", args->out, "Write the scene here instead of over SCENE");
  cmd->callback([args, &exit_code] { exit_code = run_fit_camera(*args); });
}

}  // namespace nudge
