#include "cli/cli.h"

#include <iostream>

#include "cli/commands.h"

namespace nudge {

int run_command_line(int argc, char** argv) {
  CLI::App app{"Nudge: inverse design on a differentiable physics engine.\n"
               "These commands run headless; the window arrives in a later release."};
  app.name("nudge");
  app.require_subcommand(1);
  int exit_code = kExitOk;
  add_validate_command(app, exit_code);
  add_simulate_command(app, exit_code);
  add_optimize_command(app, exit_code);
  add_gradcheck_command(app, exit_code);
  add_bench_command(app, exit_code);
#ifdef NUDGE_WITH_RENDERER
  add_render_command(app, exit_code);
#endif
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitBadInput;
  }
  return exit_code;
}

}  // namespace nudge
