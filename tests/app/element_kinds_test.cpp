// The studio's table of element kinds (studio/element_kinds.h), on every example scene:
// each kind's count is the scene's, each element has an outliner line, and deleting the
// first element of each kind gives a valid scene with one fewer (or a refusal that names
// the action), whatever refers to it dropped or renumbered by drop_references.
#include <doctest/doctest.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "studio/element_kinds.h"
#include "studio_test_scenes.h"

using namespace nudge;
using nudge::studio::ElementKindFacts;

namespace {

std::vector<std::filesystem::path> example_scenes() {
  std::vector<std::filesystem::path> paths;
  for (const auto& entry : std::filesystem::directory_iterator(studio_test::source_dir() / "scenes"))
    if (entry.path().extension() == ".json") paths.push_back(entry.path());
  std::sort(paths.begin(), paths.end());
  return paths;
}

}  // namespace

TEST_CASE("element kinds: one row each, named apart") {
  std::set<std::string> singular, plural;
  for (const ElementKindFacts& kind : studio::element_kinds()) {
    CHECK(kind.kind != ElementKind::None);
    CHECK(&studio::element_kind_facts(kind.kind) == &kind);
    CHECK(singular.insert(std::string(kind.singular)).second);
    CHECK(plural.insert(std::string(kind.plural)).second);
    CHECK(!kind.title.empty());
  }
}

TEST_CASE("element kinds: counts, lines and deletion on every example scene") {
  const std::vector<std::filesystem::path> scenes = example_scenes();
  REQUIRE(scenes.size() >= 20);
  std::set<ElementKind> deleted;  // kinds some example let us delete from
  for (const std::filesystem::path& path : scenes) {
    CAPTURE(path.filename().string());
    Result<Scene> loaded = load_scene(path);
    REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.error().message));
    const Scene& scene = *loaded;
    for (const ElementKindFacts& kind : studio::element_kinds()) {
      CAPTURE(std::string(kind.plural));
      const int count = kind.count(scene);
      CHECK(count >= 0);
      if (kind.kind == ElementKind::Particle) CHECK(count == scene.particle_count());
      if (kind.kind == ElementKind::Tet) CHECK(count == scene.tet_count());
      if (kind.kind == ElementKind::Link) CHECK(count == scene.articulations.link_count());
      if (kind.kind == ElementKind::Objective) CHECK(count == static_cast<int>(scene.objectives.size()));
      for (int i = 0; i < count && i < 50; ++i) CHECK(!kind.label(scene, i).empty());
      if (!kind.remove || count == 0) continue;
      const Result<Scene> fewer = kind.remove(scene, {0});
      if (!fewer) {  // refused: it says what was asked (deleting a scene's last particle or body)
        CHECK(fewer.error().message.find("delete") != std::string::npos);
        continue;
      }
      CHECK(check_scene(*fewer).ok());
      if (kind.kind == ElementKind::Link)  // a link goes with every link below it
        CHECK(kind.count(*fewer) <= count - 1);
      else
        CHECK(kind.count(*fewer) == count - 1);
      deleted.insert(kind.kind);
    }
  }
  // The examples hold every kind the table can delete.
  for (const ElementKindFacts& kind : studio::element_kinds())
    if (kind.remove) CHECK_MESSAGE(deleted.count(kind.kind) == 1, "no example deleted a ", std::string(kind.singular));
}
