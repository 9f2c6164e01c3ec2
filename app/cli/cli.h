// The `nudge` command line: validate, simulate, optimize, gradcheck, bench, render.
#pragma once

#include <functional>

namespace CLI {
class App;
}

namespace nudge {

// Exit codes shared by every subcommand.
inline constexpr int kExitOk = 0;
inline constexpr int kExitCheckFailed = 1;  // ran, but a check did not pass (gradcheck)
inline constexpr int kExitFailure = 1;      // could not finish: no Vulkan device, a failed write
inline constexpr int kExitBadInput = 2;     // bad arguments, scene files or values

// What `nudge` does with no subcommand (`nudge`, `nudge SCENE`): open the window, when
// this build has one. `add_options` adds its arguments to the top-level command (and
// any subcommands that need the window, which set `exit_code`); `run` runs it after
// parsing and returns the exit code.
struct DefaultCommand {
  std::function<void(CLI::App&, int& exit_code)> add_options;
  std::function<int()> run;
};

int run_command_line(int argc, char** argv, const DefaultCommand* no_subcommand = nullptr);

}  // namespace nudge
