// nudge export SCENE [--csv FILE] [--gltf FILE.gltf|.glb] [--frames DIR]: simulates the
// scene (its fitted parameters) and writes the motion for other programs: a table, a
// glTF animation with the shot's camera, and frames composited over the footage.
#include <iostream>
#include <memory>
#include <string>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "footage/motion_export.h"
#include "footage/scene_footage.h"
#ifdef NUDGE_WITH_RENDERER
#include "footage/composite.h"
#include "nudge/render/gpu_context.h"
#endif

namespace nudge {

namespace {

struct ExportArgs {
  std::string scene, csv, gltf, frames;
  DeviceOptions device;
};

int run_export(const ExportArgs& args) {
  if (args.csv.empty() && args.gltf.empty() && args.frames.empty()) {
    print_error("export: give at least one of --csv FILE, --gltf FILE (.gltf or .glb) and --frames DIR");
    return kExitBadInput;
  }
  std::optional<Scene> scene = load_scene_or_report(args.scene);
  if (!scene) return kExitBadInput;
  auto sim = create_simulator_or_report(*scene, args.device);
  if (!sim) return kExitBadInput;
  Result<Trajectory> traj = sim->trajectory(scene->params);
  if (!traj) {
    print_error(args.scene + ": " + traj.error().message);
    return kExitBadInput;
  }
  const footage::MotionSampling sampling = footage::shot_sampling(*scene);
  if (!args.csv.empty()) {
    if (Status s = footage::write_motion_csv(args.csv, *scene, *traj, sampling); !s) {
      print_error("export: " + s.error().message);
      return kExitFailure;
    }
    std::cout << "wrote " << args.csv << "\n";
  }
  if (!args.gltf.empty()) {
    if (Status s = footage::write_motion_gltf(args.gltf, *scene, *traj, sampling); !s) {
      print_error("export: " + s.error().message);
      return kExitBadInput;
    }
    std::cout << "wrote " << args.gltf << "\n";
  }
  if (!args.frames.empty()) {
#ifdef NUDGE_WITH_RENDERER
    Result<footage::VideoReader> video = footage::open_scene_video(*scene);
    if (!video) {
      print_error("export: " + video.error().message);
      return kExitBadInput;
    }
    render::Expected<render::GpuContext> gpu = render::GpuContext::create({});
    if (!gpu) {
      print_error("export: no Vulkan device to render with: " + gpu.error().message);
      return kExitFailure;
    }
    Result<int> written = footage::write_composited_frames(*gpu, *scene, *traj, *video, args.frames);
    if (!written) {
      print_error("export: " + written.error().message);
      return kExitFailure;
    }
    std::cout << "wrote " << *written << " frames composited over the footage to " << args.frames << "\n";
#else
    print_error("export: --frames needs the renderer, which this build lacks");
    return kExitBadInput;
#endif
  }
  return kExitOk;
}

}  // namespace

void add_export_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ExportArgs>();
  CLI::App* cmd =
      app.add_subcommand("export", "Write the scene's motion as CSV, as a glTF animation, or over its footage");
  cmd->add_option("scene", args->scene, "Scene file (JSON)")->required();
  cmd->add_option("--csv", args->csv, "CSV: frame,time,kind,index,x,y,z[,u,v] at the footage's frames");
  cmd->add_option("--gltf", args->gltf,
                  "glTF 2.0 (.gltf or .glb): an animated node per particle and body, and the camera");
  cmd->add_option("--frames", args->frames, "Folder for PNG frames of the motion drawn over the footage");
  add_device_options(*cmd, args->device);
  cmd->callback([args, &exit_code] { exit_code = run_export(*args); });
}

}  // namespace nudge
