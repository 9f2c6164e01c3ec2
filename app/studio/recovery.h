// Crash recovery: while the document has unsaved changes, the studio writes its scene to
// a recovery file every few seconds (atomically); saving or closing normally removes it.
// A recovery file found at start means the last session ended without either (a crash,
// a kill, a power cut): the studio offers to bring its changes back.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "nudge/result.h"
#include "nudge/scene.h"
#include "studio/document.h"

namespace nudge::studio {

// $XDG_STATE_HOME/nudge, else $HOME/.local/state/nudge; empty when neither is set (then
// nothing is recovered).
std::filesystem::path default_recovery_dir();

// What a recovery file holds: the scene as it was, the file it came from (empty for a
// scene never saved) and when it was written.
struct RecoveredScene {
  Scene scene;
  std::filesystem::path original;
  bool copy = false;       // `original` is the example it was a copy of, not its own file
  std::string written_at;  // local time, "2026-11-25 14:03:12"
};

class Recovery {
public:
  explicit Recovery(std::filesystem::path dir) : dir_(std::move(dir)) {}

  // Writes the document's scene and its path, unless it is what was written last
  // (revision). Does nothing without a folder.
  Status write(const Document& document);
  // Removes the recovery files (the user discarded them).
  void clear();
  // Removes them only if this session wrote them (after a save, a normal close): a
  // session that wrote nothing leaves an earlier one's file alone.
  void clear_own() {
    if (written_revision_) clear();
  }
  // The recovery file left by an earlier session, if any; an Error when it is there but
  // cannot be read (it is then kept, so nothing is lost, and the message says where).
  std::optional<Result<RecoveredScene>> find() const;

  const std::filesystem::path& dir() const { return dir_; }
  std::filesystem::path scene_file() const { return dir_ / "recovery.json"; }
  std::filesystem::path source_file() const { return dir_ / "recovery-source.txt"; }

private:
  std::filesystem::path dir_;
  std::optional<std::uint64_t> written_revision_;
};

}  // namespace nudge::studio
