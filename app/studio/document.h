// The scene the studio shows: an engine Scene with the history of its edits (undo,
// redo), the file it lives in (empty until a new scene is first saved) and whether it
// has changes not yet saved. Opening validates the
// whole file first, so a bad file leaves the caller's document as it was; saves are atomic.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "nudge/result.h"
#include "nudge/scene.h"

namespace nudge::studio {

// File > New: an empty scene, nothing in it but 1 s of simulated time (1 ms steps), gravity
// and a ground, for the user to fill from Edit > Add. Nothing of a template goes into
// their file.
Scene make_new_scene();

// One state of the document's history: the scene after an edit, and the edit's name.
struct HistoryState {
  std::string label;  // "open walker.json", "edit mass[3]", ...
  Scene scene;
};

class Document {
public:
  // A new scene, or one given (a generated one, say), with no file yet; as it starts it
  // has nothing to lose, so it is not dirty until edited.
  Document() : Document(make_new_scene()) {}
  explicit Document(Scene scene, std::string label = "new scene")
      : history_{{std::move(label), std::move(scene)}}, saved_(0) {}

  // The scene in `path`, or the engine's message (naming the file, the JSON path, what
  // was found and what was expected) when it cannot be loaded.
  static Result<Document> open(const std::filesystem::path& path);
  // The scene in `path` as an untitled copy: Save asks where, so a shipped example is
  // never overwritten. Its marker and mesh files are still found from `path`'s folder,
  // and Save As rewrites them for the new one.
  static Result<Document> open_copy(const std::filesystem::path& path);

  const Scene& scene() const { return history_[position_].scene; }
  // An edit: `scene` replaces the current one and becomes a step of the history named
  // `label` (what Undo undoes); the steps that were undone are dropped. Marks it unsaved.
  void replace_scene(Scene scene, std::string label = "edit");

  // Undo and redo move along the history; the document is unsaved wherever the scene
  // differs from the last save's step. They return false at either end.
  bool can_undo() const { return position_ > 0; }
  bool can_redo() const { return position_ + 1 < history_.size(); }
  bool undo();
  bool redo();
  // The history, oldest first (the first step is the opened or new scene), and where
  // the document is in it; go_to moves there as undos or redos would.
  const std::vector<HistoryState>& history() const { return history_; }
  // Counts every change of the scene shown (an edit, an undo, a redo): what autosave
  // compares to know whether there is something new to write.
  std::uint64_t revision() const { return revision_; }
  // A document brought back from a recovery file: its scene, unsaved, for the file at
  // `path` (empty: a scene never saved).
  // `copy`: `path` is the example it was a copy of (it stays untitled).
  static Document recovered(Scene scene, const std::filesystem::path& path, bool copy = false);
  std::size_t position() const { return position_; }
  void go_to(std::size_t position);
  // At most this many steps are kept; older ones are forgotten (a step holds a whole
  // scene: simple and exact, and scenes are small next to a trajectory).
  static constexpr std::size_t kMaxHistory = 200;

  const std::filesystem::path& path() const { return path_; }  // empty for a new scene
  bool has_path() const { return !path_.empty(); }
  const std::filesystem::path& copy_of() const { return copy_of_; }  // open_copy's file until saved
  bool dirty() const { return saved_ != position_; }

  // Writes to path() (an error for a new scene: ask for a name and call save_as).
  Status save();
  // Writes to `path` and makes it the document's file. Marker files given relative to the
  // old folder are rewritten relative to the new one, so the saved scene still loads.
  Status save_as(const std::filesystem::path& path);

  std::string display_name() const;  // "walker.json", "a copy of walker.json", or "untitled"
  std::string title() const;         // for the window: "Nudge - walker.json", "*" appended when dirty

private:
  std::vector<HistoryState> history_;
  std::size_t position_ = 0;
  // The step last saved or opened (for a new document, its first); kNone when no step
  // is (the saved step was dropped from the history).
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::size_t saved_ = kNone;
  std::uint64_t revision_ = 0;
  std::filesystem::path path_;
  std::filesystem::path copy_of_;  // where its files are found from while it has no path
};

// Opens `path`, as an untitled copy (Document::open_copy) when it is one of `examples`,
// the shipped scenes, so that saving never overwrites them.
Result<Document> open_document(const std::filesystem::path& path, const std::vector<std::filesystem::path>& examples);
// A robot's MJCF or URDF file (nudge/robot_import.h) as a new document of its scene, with
// no file yet (Save asks where); what the file had that was not imported goes to `notes`.
Result<Document> import_robot_document(const std::filesystem::path& path, std::vector<std::string>* notes = nullptr);

// The folder of example scenes: $NUDGE_SCENES_DIR when it names a folder, else `fallback`
// when it is one (the GUI passes the source tree's scenes/), else empty.
std::filesystem::path examples_directory(const std::filesystem::path& fallback);

// The *.json files directly in `dir`, sorted by name; empty when it cannot be read.
std::vector<std::filesystem::path> list_example_scenes(const std::filesystem::path& dir);

}  // namespace nudge::studio
