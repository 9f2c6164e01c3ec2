#include "cli/cli.h"

#ifdef NUDGE_WITH_GUI
#include "window_command.h"
#endif

int main(int argc, char** argv) {
#ifdef NUDGE_WITH_GUI
  const nudge::DefaultCommand window = nudge::gui::window_command();
  return nudge::run_command_line(argc, argv, &window);
#else
  return nudge::run_command_line(argc, argv);
#endif
}
