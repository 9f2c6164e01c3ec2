// `nudge` and `nudge SCENE`: the studio's window.
#pragma once

#include <string>
#include <vector>

namespace nudge::gui {

struct GuiOptions {
  std::string scene;                         // opened at start; empty: a new scene
  bool play = false;                         // start playing the motion at once
  bool optimize = false;                     // start optimising at once
  std::vector<int> mpc;                      // empty, or horizon, re-plan interval, iterations: start MPC at once
  std::string gradient_overlay;              // a parameter name (initial_velocity, stiffness...) or empty
  std::vector<std::string> timeline_tracks;  // "controls", "controller", "adjoint": View's timeline tracks shown
  bool through_shot = false;                 // look through the footage's camera, its frame behind the scene
  bool live = false;                         // start live play once the motion is computed (the Live tab)
  bool contacts = false;                     // View > Contacts
  bool collision_shapes = false;             // View > Collision Shapes
  double quit_after_seconds = 0;             // > 0: close by itself after this long (demos, scripts)
  int samples = 0;                           // 0: 4 on a GPU, 1 on a CPU rasteriser
  bool vsync = true;
#ifdef NDEBUG
  bool validation = false;  // Vulkan validation layer; any message is an error (exit code 1)
#else
  bool validation = true;  // on in debug builds
#endif
};

// Runs the window until it is closed. Exit codes as the command line's: 0 closed
// normally, 1 the window or its GPU failed, 2 no display (with a message naming the
// headless commands).
int run_gui(const GuiOptions& options);

}  // namespace nudge::gui
