// What is known about each kind of objective, from the registry of kinds
// (engine/src/objectives/objective_registry.cpp), for the code that treats kinds alike.
#pragma once

#include "nudge/scene.h"

namespace nudge {

// Whether it reads the state at its own step (Objective::step: target, positions,
// velocity, travel, orientation); the others read the controls alone (effort,
// smoothness) or the state at their samples' frames (markers, tracks).
bool objective_has_step(ObjectiveType type);

}  // namespace nudge
