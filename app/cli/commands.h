// Each subcommand adds itself to the command line; its action sets the exit code.
#pragma once

#include <CLI/CLI.hpp>

namespace nudge {

void add_validate_command(CLI::App& app, int& exit_code);
void add_simulate_command(CLI::App& app, int& exit_code);
void add_import_command(CLI::App& app, int& exit_code);
void add_optimize_command(CLI::App& app, int& exit_code);
void add_mpc_command(CLI::App& app, int& exit_code);
void add_gradient_command(CLI::App& app, int& exit_code);
void add_gradcheck_command(CLI::App& app, int& exit_code);
void add_sweep_command(CLI::App& app, int& exit_code);
void add_bench_command(CLI::App& app, int& exit_code);
#ifdef NUDGE_WITH_FOOTAGE
void add_track_command(CLI::App& app, int& exit_code);
void add_fit_camera_command(CLI::App& app, int& exit_code);
void add_export_command(CLI::App& app, int& exit_code);
#endif
#ifdef NUDGE_WITH_RENDERER
void add_render_command(CLI::App& app, int& exit_code);
#endif

}  // namespace nudge
