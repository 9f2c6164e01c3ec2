// The scene the studio shows: an engine Scene, the file it lives in (empty until a new
// scene is first saved) and whether it has changes not yet saved. Opening validates the
// whole file first, so a bad file leaves the caller's document as it was; saves are atomic.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "nudge/result.h"
#include "nudge/scene.h"

namespace nudge::studio {

// A small valid scene to start from: one 1 kg particle dropped from 1 m onto the ground
// under gravity for 1 s, with a target beside where it lands and its launch velocity free
// to optimise, so that every panel has something to show.
Scene make_new_scene();

class Document {
public:
  Document() : scene_(make_new_scene()) {}  // a new, unsaved scene

  // The scene in `path`, or the engine's message (naming the file, the JSON path, what
  // was found and what was expected) when it cannot be loaded.
  static Result<Document> open(const std::filesystem::path& path);

  const Scene& scene() const { return scene_; }
  // Replaces the scene (an edit, an applied optimisation result) and marks it unsaved.
  void replace_scene(Scene scene);

  const std::filesystem::path& path() const { return path_; }  // empty for a new scene
  bool has_path() const { return !path_.empty(); }
  bool dirty() const { return dirty_; }
  void mark_dirty() { dirty_ = true; }

  // Writes to path() (an error for a new scene: ask for a name and call save_as).
  Status save();
  // Writes to `path` and makes it the document's file. Marker files given relative to the
  // old folder are rewritten relative to the new one, so the saved scene still loads.
  Status save_as(const std::filesystem::path& path);

  std::string display_name() const;  // "walker.json", or "untitled"
  std::string title() const;         // for the window: "Nudge - walker.json", "*" appended when dirty

private:
  Scene scene_;
  std::filesystem::path path_;
  bool dirty_ = false;
};

// The folder of example scenes: $NUDGE_SCENES_DIR when it names a folder, else `fallback`
// when it is one (the GUI passes the source tree's scenes/), else empty.
std::filesystem::path examples_directory(const std::filesystem::path& fallback);

// The *.json files directly in `dir`, sorted by name; empty when it cannot be read.
std::vector<std::filesystem::path> list_example_scenes(const std::filesystem::path& dir);

}  // namespace nudge::studio
