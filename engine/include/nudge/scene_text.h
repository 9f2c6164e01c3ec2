// A scene as the JSON text save_scene writes (without the folder rebasing a save does),
// its file paths relative to the folder of its source:
// what a sweep's fingerprint hashes and what a Ray worker reads the scene from.
#pragma once

#include <string>

#include "nudge/scene.h"

namespace nudge {

std::string scene_json_text(const Scene& scene);

}  // namespace nudge
