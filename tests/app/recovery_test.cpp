// Crash recovery's files: written while a document has unsaved changes, found by the next
// session with the scene and its file, removed when cleared; an unreadable one is kept
// and named. (The GUI test kills the studio with SIGKILL and recovers through the window.)
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "studio/recovery.h"
#include "studio_test_scenes.h"

using namespace nudge;
using namespace nudge::studio;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("nudge_recovery_test_" + std::to_string(::getpid()));
  TempDir() {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

}  // namespace

TEST_CASE("recovery: an unsaved edit is written, found with its file, and cleared") {
  TempDir temp;
  Recovery recovery(temp.path / "state");
  CHECK_FALSE(recovery.find().has_value());

  // A marker scene: its track is named relative to scenes/, and must still be found.
  Result<Document> opened = Document::open(nudge::studio_test::source_dir() / "scenes" / "spring_sysid.json");
  REQUIRE(opened.ok());
  Document document = std::move(*opened);
  Scene edited = document.scene();
  edited.params[ParamId::Stiffness].value[0] = 123.0;
  document.replace_scene(edited, "edit stiffness");
  REQUIRE(recovery.write(document).ok());
  const auto written = fs::last_write_time(recovery.scene_file());
  REQUIRE(recovery.write(document).ok());  // nothing new: not written again
  CHECK(fs::last_write_time(recovery.scene_file()) == written);

  std::optional<Result<RecoveredScene>> found = recovery.find();
  REQUIRE(found.has_value());
  REQUIRE(found->ok());
  CHECK((*found)->original == document.path());
  CHECK((*found)->scene.params[ParamId::Stiffness].value[0] == 123.0);
  CHECK((*found)->written_at.size() == 19);  // "YYYY-MM-DD HH:MM:SS"
  const Document back = Document::recovered(std::move((*found)->scene), (*found)->original);
  CHECK(back.dirty());
  CHECK(back.path() == document.path());
  // Saved where it came from, its marker track is named as before.
  TempDir out;
  REQUIRE(save_scene(back.scene(), out.path / "copy.json").ok());
  CHECK(load_scene(out.path / "copy.json").ok());

  recovery.clear();
  CHECK_FALSE(fs::exists(recovery.scene_file()));
  CHECK_FALSE(recovery.find().has_value());
}

TEST_CASE("recovery: a session that wrote nothing leaves an earlier session's file alone") {
  TempDir temp;
  Recovery earlier(temp.path);
  Document document;
  document.replace_scene(document.scene(), "edit");
  REQUIRE(earlier.write(document).ok());
  Recovery later(temp.path);  // a new session, e.g. a benchmark's window
  later.clear_own();
  CHECK(later.find().has_value());
  later.clear();  // the user discarded it
  CHECK_FALSE(later.find().has_value());
}

TEST_CASE("recovery: a recovery file that cannot be read is reported and kept") {
  TempDir temp;
  Recovery recovery(temp.path);
  std::ofstream(recovery.scene_file()) << "{ not json";
  std::optional<Result<RecoveredScene>> found = recovery.find();
  REQUIRE(found.has_value());
  REQUIRE_FALSE(found->ok());
  CHECK(found->error().message.starts_with("the recovery file could not be read: " + recovery.scene_file().string()));
  CHECK(fs::exists(recovery.scene_file()));
}

TEST_CASE("recovery: without a folder nothing is written or found") {
  Recovery recovery{fs::path()};
  Document document;
  document.replace_scene(document.scene(), "edit");
  CHECK(recovery.write(document).ok());
  CHECK_FALSE(recovery.find().has_value());
}

// An example's copy comes back as a copy: untitled, its files still found from the
// example's folder, so Save asks where instead of overwriting the example.
TEST_CASE("recovery: an example's copy is recovered as a copy") {
  TempDir temp;
  Recovery recovery(temp.path / "state");
  const fs::path example = nudge::studio_test::source_dir() / "scenes" / "spring_sysid.json";
  Result<Document> opened = Document::open_copy(example);
  REQUIRE(opened.ok());
  Scene edited = opened->scene();
  edited.params[ParamId::Stiffness].value[0] = 77.0;
  opened->replace_scene(edited, "edit stiffness");
  REQUIRE(recovery.write(*opened).ok());

  std::optional<Result<RecoveredScene>> found = recovery.find();
  REQUIRE(found.has_value());
  REQUIRE(found->ok());
  CHECK((*found)->original == example);
  CHECK((*found)->copy);
  const Document back = Document::recovered(std::move((*found)->scene), (*found)->original, (*found)->copy);
  CHECK_FALSE(back.has_path());
  CHECK(back.copy_of() == example);
  CHECK(back.dirty());
  CHECK(back.scene().params[ParamId::Stiffness].value[0] == 77.0);
  CHECK_FALSE(back.scene().objectives.at(0).samples.empty());
}
