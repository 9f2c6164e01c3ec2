#include "gui/gui_command.h"

#include <CLI/CLI.hpp>
#include <memory>

#include "gui/gui_main.h"

namespace nudge::gui {

DefaultCommand window_command() {
  auto options = std::make_shared<GuiOptions>();
  DefaultCommand command;
  command.add_options = [options](CLI::App& app) {
    app.add_option("scene", options->scene, "Scene file (JSON) to open in the window");
    app.add_flag("--play", options->play, "Start playing the motion at once");
    app.add_option("--quit-after", options->quit_after_seconds,
                   "Close the window by itself after this many seconds (demos, scripts)")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--samples", options->samples,
                   "Multisampling: 1, 2, 4 or 8; 0 (default): 4 on a GPU, 1 on a CPU rasteriser")
        ->check(CLI::IsMember({0, 1, 2, 4, 8}));
    app.add_flag("!--no-vsync", options->vsync, "Draw frames as fast as possible (measuring)");
    app.add_flag("--validate", options->validation,
                 "Vulkan validation layer on; any message is an error and the exit code 1");
  };
  command.run = [options] { return run_gui(*options); };
  return command;
}

}  // namespace nudge::gui
