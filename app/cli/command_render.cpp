// nudge render SCENE --out shot.png [--frame N] [--frames DIR] [--width W --height H]
// [--eye X Y Z --target X Y Z --fov DEG]: simulates the scene and draws it with no window
// (the offscreen renderer; lavapipe on machines with no GPU), one PNG or a sequence.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "nudge/render/gpu_context.h"
#include "nudge/render/image.h"
#include "nudge/render/offscreen_target.h"
#include "view/frame_sequence.h"
#include "view/scene_draw.h"

namespace nudge {

namespace {

struct RenderArgs {
  std::string scene, out, frames_dir;
  int frame = -1;  // -1: the last step
  int width = 1280, height = 720;
  double fps = 30;
  std::vector<double> eye, target;
  double fov = 0;
  bool validate = false;
  DeviceOptions device;
};

int run_render(const RenderArgs& args) {
  if (args.out.empty() == args.frames_dir.empty()) {
    print_error("render: give exactly one of --out FILE.png (one frame) or --frames DIR (the whole motion)");
    return kExitBadInput;
  }
  if (args.eye.empty() != args.target.empty()) {
    print_error("render: --eye and --target go together (the camera's position and the point it looks at)");
    return kExitBadInput;
  }
  std::optional<Scene> scene = load_scene_or_report(args.scene);
  if (!scene) return kExitBadInput;
  const int steps = scene->settings.steps;
  if (args.frame > steps) {
    print_error("render: --frame " + std::to_string(args.frame) + " is past the last step of " + args.scene + " (" +
                std::to_string(steps) + ")");
    return kExitBadInput;
  }
  if (!args.eye.empty()) {
    std::copy(args.eye.begin(), args.eye.end(), scene->camera.eye);
    std::copy(args.target.begin(), args.target.end(), scene->camera.target);
    scene->camera.set = true;
  }
  if (args.fov > 0) scene->camera.fov_degrees = args.fov;
  if (Status ok = check_scene(*scene); !ok) {  // a camera from the command line is checked like one from the file
    print_error("render: " + ok.error().message);
    return kExitBadInput;
  }

  auto sim = create_simulator_or_report(*scene, args.device);
  if (!sim) return kExitBadInput;
  Result<Trajectory> traj = sim->trajectory(scene->params);
  if (!traj) {
    print_error(args.scene + ": " + traj.error().message);
    return kExitBadInput;
  }

  render::ContextOptions context_options;
  context_options.validation = args.validate;
  render::Expected<render::GpuContext> gpu = render::GpuContext::create(context_options);
  if (!gpu) {
    print_error("render: no Vulkan device to render with: " + gpu.error().message);
    return kExitFailure;
  }
  render::Expected<render::OffscreenTarget> target = render::OffscreenTarget::create(*gpu, args.width, args.height);
  if (!target) {
    print_error("render: " + target.error().message);
    return kExitFailure;
  }

  const view::SceneDrawOptions options =
      view::scene_draw_options(*scene, &*traj, float(args.width) / float(args.height));
  auto render_step = [&](int step, const std::string& path) -> bool {
    render::Expected<render::Image> image = target->render(view::scene_draw_list(*scene, &*traj, step, options));
    if (!image) {
      print_error("render: " + image.error().message);
      return false;
    }
    if (render::Status written = render::write_png(path, *image); !written) {
      print_error("render: " + written.error().message);
      return false;
    }
    return true;
  };

  int written = 0;
  if (!args.out.empty()) {
    if (!render_step(args.frame < 0 ? steps : args.frame, args.out)) return kExitFailure;
    std::cout << "wrote " << args.out << "\n";
    written = 1;
  } else {
    std::error_code error;  // a folder that cannot be made is the user's input, not a failure
    std::filesystem::create_directories(args.frames_dir, error);
    if (error || !std::filesystem::is_directory(args.frames_dir)) {
      print_error("render: cannot make the folder " + args.frames_dir + (error ? ": " + error.message() : ""));
      return kExitBadInput;
    }
    view::FrameSequence sequence;
    sequence.scene = &*scene;
    sequence.trajectory = &*traj;
    sequence.folder = args.frames_dir;
    sequence.width = args.width;
    sequence.height = args.height;
    sequence.fps = args.fps;
    sequence.options = options;
    Result<int> frames = view::write_frame_sequence(*gpu, sequence);
    if (!frames) {
      print_error("render: " + frames.error().message);
      return kExitFailure;
    }
    written = *frames;
    std::cout << "wrote " << written << " frames to " << args.frames_dir << " (" << args.fps << " fps)\n";
  }
  if (args.validate && gpu->validation_message_count() > 0) {
    print_error("render: " + std::to_string(gpu->validation_message_count()) + " Vulkan validation messages");
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace

void add_render_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<RenderArgs>();
  CLI::App* cmd = app.add_subcommand("render", "Draw a scene's motion to PNG, with no window");
  cmd->add_option("scene", args->scene, "Scene file (JSON)")->required();
  cmd->add_option("--out", args->out, "PNG of one frame");
  cmd->add_option("--frame", args->frame, "Step to draw with --out (default: the last)")->check(CLI::NonNegativeNumber);
  cmd->add_option("--frames", args->frames_dir, "Folder for a PNG sequence of the whole motion");
  cmd->add_option("--fps", args->fps, "Frames per simulated second for --frames")->check(CLI::Range(1.0, 1000.0));
  cmd->add_option("--width", args->width, "Image width in pixels")->check(CLI::Range(16, 8192));
  cmd->add_option("--height", args->height, "Image height in pixels")->check(CLI::Range(16, 8192));
  cmd->add_option("--eye", args->eye, "Camera position X Y Z (overrides the scene's camera)")->expected(3);
  cmd->add_option("--target", args->target, "Point the camera looks at X Y Z")->expected(3);
  cmd->add_option("--fov", args->fov, "Vertical field of view in degrees")->check(CLI::Range(1.0, 179.0));
  cmd->add_flag("--validate", args->validate, "Enable Vulkan validation; fail on any message");
  add_device_options(*cmd, args->device);
  cmd->callback([args, &exit_code] { exit_code = run_render(*args); });
}

}  // namespace nudge
