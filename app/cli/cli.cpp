#include "cli/cli.h"

#include <iostream>

#include "cli/commands.h"

namespace nudge {

int run_command_line(int argc, char** argv, const DefaultCommand* no_subcommand) {
  CLI::App app{no_subcommand ? "Nudge: inverse design on a differentiable physics engine.\n"
                               "`nudge [SCENE]` opens the studio's window; the subcommands run headless."
                             : "Nudge: inverse design on a differentiable physics engine.\n"
                               "This build has no window; the subcommands run headless."};
  app.name("nudge");
  if (no_subcommand)
    app.require_subcommand(0, 1);
  else
    app.require_subcommand(1);
  int exit_code = kExitOk;
  add_validate_command(app, exit_code);
  add_simulate_command(app, exit_code);
  add_import_command(app, exit_code);
  add_optimize_command(app, exit_code);
  add_mpc_command(app, exit_code);
  add_gradient_command(app, exit_code);
  add_gradcheck_command(app, exit_code);
  add_sweep_command(app, exit_code);
  add_bench_command(app, exit_code);
#ifdef NUDGE_WITH_FOOTAGE
  add_track_command(app, exit_code);
  add_fit_camera_command(app, exit_code);
  add_export_command(app, exit_code);
#endif
#ifdef NUDGE_WITH_RENDERER
  add_render_command(app, exit_code);
#endif
  if (no_subcommand) no_subcommand->add_options(app, exit_code);
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
  if (no_subcommand && app.get_subcommands().empty()) return no_subcommand->run();
  return exit_code;
}

}  // namespace nudge
