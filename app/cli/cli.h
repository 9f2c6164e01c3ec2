// The `nudge` command line: validate, simulate, optimize, gradcheck, bench, render.
#pragma once

namespace nudge {

// Exit codes shared by every subcommand.
inline constexpr int kExitOk = 0;
inline constexpr int kExitCheckFailed = 1;  // ran, but a check did not pass (gradcheck)
inline constexpr int kExitFailure = 1;      // could not finish: no Vulkan device, a failed write
inline constexpr int kExitBadInput = 2;     // bad arguments, scene files or values

int run_command_line(int argc, char** argv);

}  // namespace nudge
