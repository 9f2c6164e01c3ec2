// `nudge [SCENE] [--play] ...`: the command line's way into the window.
#pragma once

#include "cli/cli.h"

namespace nudge::gui {

// The arguments and action of `nudge` with no subcommand.
DefaultCommand window_command();

}  // namespace nudge::gui
