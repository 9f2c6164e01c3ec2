#include "window_command.h"

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "gui/gui_main.h"
#include "gui/render_benchmark.h"
#include "view/gradient_overlay.h"

namespace nudge::gui {

namespace {

// The parameters a gradient overlay can show, by their scene-file names.
std::vector<std::string> overlay_parameter_names() {
  std::vector<std::string> names;
  for (view::GradientOverlay overlay : view::gradient_overlays())
    if (overlay != view::GradientOverlay::None)
      names.emplace_back(param_name(view::gradient_overlay_parameter(overlay)));
  return names;
}

}  // namespace

DefaultCommand window_command() {
  auto options = std::make_shared<GuiOptions>();
  DefaultCommand command;
  auto bench = std::make_shared<RenderBenchOptions>();
  command.add_options = [options, bench](CLI::App& app, int& exit_code) {
    app.add_option(
        "scene", options->scene,
        "Scene file (JSON) to open in the window, a sweep's table (CSV, nudge sweep) to plot with its scene, or a "
        "robot's MJCF (.xml) or URDF (.urdf) file to import as a new scene");
    app.add_flag("--play", options->play, "Start playing the motion at once");
    app.add_flag("--optimize", options->optimize, "Start optimising the scene at once (the Optimise tab)");
    app.add_option("--mpc", options->mpc,
                   "Start model predictive control at once: HORIZON EVERY ITERATIONS (the Optimise tab's)")
        ->expected(3)
        ->check(CLI::PositiveNumber);
    app.add_option("--gradient-overlay", options->gradient_overlay,
                   "Draw this parameter's gradient over the scene (View > Gradient Overlay)")
        ->check(CLI::IsMember(overlay_parameter_names()));
    app.add_option(
           "--timeline", options->timeline_tracks,
           "Show these tracks under the timeline: controls (dL/du), controller (its outputs), adjoint (|dL/dx|)")
        ->check(CLI::IsMember({"controls", "controller", "adjoint"}));
    app.add_flag("--live", options->live,
                 "Start live play once the motion is computed: Ctrl+right drag pulls, the Live tab's sliders drive");
    app.add_flag("--contacts", options->contacts, "Draw contact points and forces (View > Contacts)");
    app.add_flag("--collision-shapes", options->collision_shapes,
                 "Draw the links' shapes that are felt but not drawn, in red (View > Collision Shapes)");
    app.add_flag("--through-shot", options->through_shot,
                 "Look through the footage's camera with the shot behind the scene (the Footage tab)");
    app.add_option("--quit-after", options->quit_after_seconds,
                   "Close the window by itself after this many seconds (demos, scripts)")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--samples", options->samples,
                   "Multisampling: 1, 2, 4 or 8; 0 (default): 4 on a GPU, 1 on a CPU rasteriser")
        ->check(CLI::IsMember({0, 1, 2, 4, 8}));
    app.add_flag("!--no-vsync", options->vsync, "Draw frames as fast as possible (measuring)");
    app.add_flag("--validate", options->validation,
                 "Vulkan validation layer on; any message is an error and the exit code 1");

    // `nudge bench render` needs the window, so it is added here, beside `bench cloth`.
    CLI::App* bench_command = nullptr;
    for (CLI::App* sub : app.get_subcommands([](CLI::App* c) { return c->get_name() == "bench"; })) bench_command = sub;
    if (bench_command) {
      CLI::App* render = bench_command->add_subcommand(
          "render", "Frame time of the studio window playing back the n x n cloth (needs a display)");
      render->add_option("--n", bench->n, "Cloth is n x n particles")->check(CLI::Range(2, 512));
      render->add_option("--steps", bench->steps, "Steps of its motion")->check(CLI::Range(1, 100000));
      render->add_option("--frames", bench->frames, "Frames measured")->check(CLI::Range(1, 100000));
      render->add_option("--warmup", bench->warmup, "Frames drawn before measuring")->check(CLI::Range(0, 100000));
      render->add_option("--width", bench->width, "Window width")->check(CLI::Range(320, 8192));
      render->add_option("--height", bench->height, "Window height")->check(CLI::Range(240, 8192));
      render->add_option("--samples", bench->samples, "Multisampling; 0: the window's default for the device")
          ->check(CLI::IsMember({0, 1, 2, 4, 8}));
      render->callback([bench, &exit_code] { exit_code = run_render_benchmark(*bench); });
    }
  };
  command.run = [options] { return run_gui(*options); };
  return command;
}

}  // namespace nudge::gui
