// `nudge bench render`: the studio's frame time while it plays back the B1 cloth (an
// n x n sheet), measured in the real window with presentation unpaced, so the figure is
// what the UI costs per frame on this machine's Vulkan device (lavapipe with no GPU).
#pragma once

#include <string>

namespace nudge::gui {

struct RenderBenchOptions {
  int n = 64;        // the cloth is n x n particles
  int steps = 500;   // of its motion
  int frames = 300;  // measured frames
  int warmup = 30;   // frames drawn first and not measured
  int width = 1280, height = 720;
  int samples = 0;  // as the window's: 0 picks for the device
};

// Prints a summary on stderr and the JSON line on stdout; returns an exit code
// (2 without a display, 1 if the window fails).
int run_render_benchmark(const RenderBenchOptions& options);

}  // namespace nudge::gui
