// A scene as the JSON text save_scene writes (without the folder rebasing a save does):
// what a sweep's fingerprint hashes.
#pragma once

#include <string>

#include "nudge/scene.h"

namespace nudge {

std::string scene_json_text(const Scene& scene);

}  // namespace nudge
