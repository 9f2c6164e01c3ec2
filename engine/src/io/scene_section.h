// One top-level section of a scene file ("triangles", "bodies", ...) as a row: its key,
// when it is read, how it is written and how a scene is checked against it. Each row sits
// with its section's code (a family's <name>_section.cpp, or io/scene_section_*.cpp), and
// scene_section_list.cpp lists them in the order a file writes them; reading, writing
// and check_scene all walk that one list. A new section is a row in its own file and a
// line in the list.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "io/json_text.h"
#include "io/scene_reader.h"
#include "nudge/scene.h"

namespace nudge::scene_io {

class SceneReader;

// When a section is read, by what it may rely on. Stages run in this order and, within
// one, sections in the list's order; files are read whatever order their keys are in.
enum class ReadStage {
  Settings,   // "simulation": the steps and the time step everything else reads
  Bodies,     // before the particles: a scene of bodies alone needs no particles
  Particles,  // the particle count N and the control channels C
  Elements,   // what joins particles (springs, triangles, tets) or stands beside them (the
              // articulations): N and C known
  Links,      // what joins bodies, particles and channels (joints, the controller, which may
              // read the articulations' joints, actuators)
  Values,     // after every parameter has its shape and default (shape_parameters)
};

// When check_scene runs a section's check: first those that give the counts parameter
// shapes follow from, then the parameters' shapes, then the rest, which index with both.
enum class CheckStage { Counts, Parameters, Elements };

// What a section's reading sees.
struct SectionInput {
  SceneReader& reader;              // its helpers say what and where when a value is wrong
  const Node& top;                  // the whole file, for a section that looks at another's keys
  const std::optional<Node>& node;  // the section, when the file has it
};

// What is left of a section's reading once every parameter has its shape: storing the
// values the file gave (a body's density, the controller's weights) or a check that needs
// them. Run in the order the sections were read, before the Values stage.
using AfterShaping = std::function<void(Scene&)>;

struct SceneSection {
  std::string_view key;
  ReadStage stage;
  // Reads the section into the scene (input.node is empty when the file lacks it).
  AfterShaping (*read)(const SectionInput& input, Scene& scene);
  // The section's JSON for a scene; null or empty leaves it out of the file.
  OrderedJson (*write)(const Scene& scene);
  CheckStage check_stage = CheckStage::Elements;
  // The first invariant the scene breaks in this section, if any (null: nothing to check).
  std::optional<std::string> (*check)(const Scene& scene) = nullptr;
};

// Every section, in the order a file writes them (scene_section_list.cpp).
std::span<const SceneSection* const> scene_sections();

}  // namespace nudge::scene_io
