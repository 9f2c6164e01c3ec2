// nudge import ROBOT.xml|ROBOT.urdf [--out scene.json] [--steps N]: a scene of a robot's
// MJCF or URDF file (nudge/articulations.h), written beside it or where --out says; the
// scene names the robot's file relative to its own folder, so the two move together.
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "nudge/scene.h"
#include "nudge/robot_import.h"

namespace nudge {

namespace {

struct ImportArgs {
  std::string robot, out;
  int steps = 1000;
};

int run_import(const ImportArgs& args) {
  namespace fs = std::filesystem;
  Result<ImportedRobot> robot = import_robot(args.robot);
  if (!robot) {
    print_error(robot.error().message);
    return kExitBadInput;
  }
  const fs::path out = args.out.empty() ? fs::path(args.robot).replace_extension(".json") : fs::path(args.out);
  std::error_code same_error;
  if (fs::exists(out) && fs::equivalent(fs::path(args.robot), out, same_error)) {
    print_error(out.string() + ": the scene would overwrite the robot's file; give another --out");
    return kExitBadInput;
  }
  const fs::path folder = out.parent_path().empty() ? fs::path(".") : out.parent_path();
  const std::string source = fs::relative(fs::absolute(args.robot), fs::absolute(folder)).generic_string();
  const Scene scene = robot_scene(*robot, source, args.steps);
  if (Status saved = save_scene(scene, out); !saved) {
    print_error(saved.error().message);
    return kExitBadInput;
  }
  const Articulations& a = scene.articulations;
  std::cout << "imported " << args.robot << ": " << a.link_count() << " links, " << articulation_coordinate_count(a)
            << " joint coordinates, " << a.actuators.size() << " actuators, dt " << scene.settings.dt << " s\n";
  for (const std::string& line : robot->ignored) std::cout << "  not imported: " << line << "\n";
  std::cout << "wrote " << out.string() << "\n";
  return kExitOk;
}

}  // namespace

void add_import_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ImportArgs>();
  CLI::App* cmd = app.add_subcommand("import", "Make a scene of a robot's MJCF or URDF file");
  cmd->add_option("robot", args->robot, "The robot's file: .xml or .mjcf (MJCF), .urdf (URDF)")->required();
  cmd->add_option("--out,-o", args->out, "The scene file to write (default: the robot's name with .json)");
  cmd->add_option("--steps", args->steps, "The motion's length in steps")->check(CLI::Range(1, kMaxSteps));
  cmd->callback([args, &exit_code] { exit_code = run_import(*args); });
}

}  // namespace nudge
