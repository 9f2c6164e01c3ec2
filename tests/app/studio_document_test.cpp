// The studio's document (open, new, save, save as, title), the example scene list, and
// the recent files list, on real scene files and temporary folders.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <csignal>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

#include "nudge/gradcheck.h"
#include "nudge/simulator.h"
#include "studio/document.h"
#include "studio_test_scenes.h"
#include "studio/recent_files.h"

using namespace nudge;
using namespace nudge::studio;
using nudge::studio_test::source_dir;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    static int count = 0;
    path =
        fs::temp_directory_path() / ("nudge_studio_test_" + std::to_string(::getpid()) + "_" + std::to_string(count++));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Sets an environment variable for one scope and puts the old value back.
class ScopedEnv {
public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value)
      ::setenv(name, value, 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
  const char* name_;
  std::optional<std::string> old_;
};

Document open_or_fail(const fs::path& path) {
  Result<Document> document = Document::open(path);
  REQUIRE_MESSAGE(document.ok(), (document.ok() ? "" : document.error().message));
  return std::move(*document);
}

}  // namespace

TEST_CASE("document: a new scene is empty, valid, simulates, and is untitled") {
  const Scene scene = make_new_scene();
  const Status valid = check_scene(scene);
  REQUIRE_MESSAGE(valid.ok(), (valid.ok() ? "" : valid.error().message));
  CHECK(scene.particle_count() == 0);
  CHECK(scene.bodies.empty());
  CHECK(scene.objectives.empty());
  CHECK(scene.params.optimized_size() == 0);
  CHECK(scene.settings.ground.enabled);
  CHECK(scene.settings.dt * scene.settings.steps == doctest::Approx(1.0));

  SimulatorOptions options;
  options.device = Device::Cpu;
  auto simulator = Simulator::create(scene, options);
  REQUIRE(simulator.ok());
  REQUIRE((*simulator)->trajectory(scene.params).ok());
  Result<Evaluation> evaluation = (*simulator)->evaluate(scene.params);
  REQUIRE(evaluation.ok());
  CHECK(evaluation->loss == 0.0);

  const Document document;
  CHECK(document.title() == "Nudge - untitled");
  CHECK(document.display_name() == "untitled");
  CHECK_FALSE(document.has_path());
  CHECK_FALSE(document.dirty());
}

// A new scene with a particle dropped from 1 m, its launch velocity free: what a user makes
// first from File > New and Edit > Add (the chain's test below).
namespace {
Scene new_scene_with_dropped_particle() {
  Scene scene = make_new_scene();
  scene.pinned = {0};
  scene.initial_positions() = {0.0, 1.0, 0.0};
  shape_parameters(scene);
  Parameter& velocity = scene.params[ParamId::InitialVelocity];
  velocity.optimize = true;
  velocity.lower = -10.0;
  velocity.upper = 10.0;
  Objective target;
  target.type = ObjectiveType::Target;
  target.particles = {0};
  target.target = {0.5, 0.0, 0.0};
  scene.objectives.push_back(target);
  return scene;
}
}  // namespace

TEST_CASE("document: a particle dropped in a new scene lands on the ground and rests") {
  const Scene scene = new_scene_with_dropped_particle();
  REQUIRE(check_scene(scene).ok());
  SimulatorOptions options;
  options.device = Device::Cpu;
  auto simulator = Simulator::create(scene, options);
  REQUIRE(simulator.ok());
  Result<Trajectory> trajectory = (*simulator)->trajectory(scene.params);
  REQUIRE(trajectory.ok());
  // It falls, lands on the ground at y = 0 after sqrt(2 h / g) = 0.45 s, and rests there.
  const auto y_at = [&](double t) { return trajectory->x[size_t(std::lround(t / scene.settings.dt)) * 3 + 1]; };
  CHECK(y_at(0.3) == doctest::Approx(1.0 - 0.5 * 9.81 * 0.3 * 0.3).epsilon(0.01));
  CHECK(std::abs(y_at(0.8)) < 0.01);
  CHECK(std::abs(y_at(1.0)) < 0.01);
}

TEST_CASE("document: the new scene's gradients match finite differences, also with a chain added") {
  // A particle landing without slipping once gave an adjoint of -2.6e20 against a finite
  // difference of -1.07: the friction's viscous regime was too stiff for the step.
  Scene scene = new_scene_with_dropped_particle();
  for (int with_chain = 0; with_chain < 2; ++with_chain) {
    if (with_chain) {
      // A hanging chain of light particles from where the new particle starts, as Edit >
      // Add > Chain does (its first particle pinned), its end swinging into the ground.
      const int first = scene.particle_count();
      for (int k = 0; k <= 10; ++k) {
        scene.pinned.push_back(k == 0 ? 1 : 0);
        for (const double v : {0.1 * k, 1.0, 0.0}) scene.params[ParamId::InitialPosition].value.push_back(v);
        if (k > 0) scene.spring_a.push_back(first + k - 1), scene.spring_b.push_back(first + k);
      }
      scene.spring_channel.assign(scene.spring_a.size(), -1);
      scene.actuation.assign(scene.spring_a.size(), 0.0);
      shape_parameters(scene);
      for (int k = 0; k <= 10; ++k) scene.params[ParamId::Mass].value[size_t(first + k)] = 0.05;
      scene.params[ParamId::Stiffness].value.assign(scene.spring_a.size(), 500.0);
      REQUIRE(check_scene(scene).ok());
    }
    GradCheckOptions options;
    options.parameters = {ParamId::InitialVelocity};
    options.samples_per_parameter = 3 * scene.particle_count();  // every entry
    const Result<GradCheckReport> report = gradient_check(scene, options);
    REQUIRE_MESSAGE(report.ok(), (report.ok() ? "" : report.error().message));
    CAPTURE(with_chain);
    CHECK(report->failed() == 0);
    CHECK(report->entries.size() == 3 * size_t(scene.particle_count()));
  }
}

TEST_CASE("document: open reads a scene; a bad file gives the engine's message and changes nothing") {
  Document document = open_or_fail(source_dir() / "scenes" / "projectile.json");
  CHECK(document.title() == "Nudge - projectile.json");
  CHECK(document.scene().name == "projectile");
  CHECK(document.path() == source_dir() / "scenes" / "projectile.json");
  CHECK_FALSE(document.dirty());

  TempDir temp;
  const fs::path bad = temp.path / "bad.json";
  write_text(bad, R"({"format": "nudge-scene", "version": 1, "simulation": {"dt": -1, "steps": 10},
                      "particles": {"position": [[0, 0, 0]]}})");
  for (const fs::path& path : {bad, temp.path / "missing.json"}) {
    CAPTURE(path);
    Result<Document> opened = Document::open(path);
    REQUIRE_FALSE(opened.ok());
    // The same message the engine gives, naming the file.
    Result<Scene> engine = load_scene(path);
    REQUIRE_FALSE(engine.ok());
    CHECK(opened.error().message == engine.error().message);
    CHECK(opened.error().message.find(path.filename().string()) != std::string::npos);
  }
  CHECK(document.scene().name == "projectile");
  CHECK(document.title() == "Nudge - projectile.json");
}

TEST_CASE("document: save as, edits, save, and the dirty mark in the title") {
  TempDir temp;
  Document document(new_scene_with_dropped_particle());
  CHECK_FALSE(document.save().ok());  // a new scene needs a name first
  CHECK_FALSE(document.has_path());

  const fs::path first = temp.path / "drop.json";
  Status saved = document.save_as(first);
  REQUIRE_MESSAGE(saved.ok(), (saved.ok() ? "" : saved.error().message));
  CHECK(document.path() == first);
  CHECK(document.title() == "Nudge - drop.json");
  Document reopened = open_or_fail(first);
  CHECK(reopened.scene().settings.steps == document.scene().settings.steps);
  CHECK(reopened.scene().params[ParamId::InitialPosition].value ==
        document.scene().params[ParamId::InitialPosition].value);

  Scene edited = document.scene();
  edited.params[ParamId::InitialVelocity].value = {1.5, 0.0, -0.5};
  document.replace_scene(edited);
  CHECK(document.dirty());
  CHECK(document.title() == "Nudge - drop.json*");
  saved = document.save();
  REQUIRE_MESSAGE(saved.ok(), (saved.ok() ? "" : saved.error().message));
  CHECK_FALSE(document.dirty());
  CHECK(document.title() == "Nudge - drop.json");
  CHECK(open_or_fail(first).scene().params[ParamId::InitialVelocity].value == std::vector<double>{1.5, 0.0, -0.5});
  // Nothing left beside it: the write went through a temporary that was renamed.
  int files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(temp.path)) ++files;
  CHECK(files == 1);

  // A failed save keeps the document's file and its unsaved mark.
  edited.params[ParamId::InitialVelocity].value = {0.5, 0.0, 0.0};
  document.replace_scene(edited);
  const Status failed = document.save_as(temp.path / "no" / "such" / "folder" / "x.json");
  CHECK_FALSE(failed.ok());
  CHECK(document.path() == first);
  CHECK(document.dirty());
}

TEST_CASE("document: a save that fails midway leaves the old file whole and says why") {
  TempDir temp;
  const fs::path file = temp.path / "chain.json";
  Document document(new_scene_with_dropped_particle());
  REQUIRE(document.save_as(file).ok());
  const auto read_all = [](const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  const std::string before = read_all(file);
  REQUIRE(before.size() > 200);

  // A much larger scene, written with the process's file size limit at 200 bytes: the
  // write stops partway with EFBIG, as it would on a full disk (and as root, which no
  // read-only folder stops).
  Scene larger = document.scene();
  larger.description = std::string(100000, 'x');
  document.replace_scene(larger, "describe");
  rlimit old_limit{};
  REQUIRE(getrlimit(RLIMIT_FSIZE, &old_limit) == 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);  // else the signal ends the process
  rlimit small = old_limit;
  small.rlim_cur = 200;
  REQUIRE(setrlimit(RLIMIT_FSIZE, &small) == 0);
  const Status failed = document.save();
  REQUIRE(setrlimit(RLIMIT_FSIZE, &old_limit) == 0);
  std::signal(SIGXFSZ, old_handler);

  REQUIRE_FALSE(failed.ok());
  CHECK(failed.error().message.find(file.string()) != std::string::npos);
  CHECK(failed.error().message.find("File too large") != std::string::npos);
  CHECK(read_all(file) == before);  // the old file, whole
  int files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(temp.path)) ++files;
  CHECK(files == 1);        // no temporary left behind
  CHECK(document.dirty());  // the changes are still unsaved, and still there
  CHECK(document.scene().description.size() == 100000);

  // Saving over a folder fails at the rename: the folder and its contents stay.
  const fs::path folder = temp.path / "folder.json";
  fs::create_directory(folder);
  std::ofstream(folder / "keep.txt") << "kept";
  CHECK_FALSE(document.save_as(folder).ok());
  CHECK(read_all(folder / "keep.txt") == "kept");
  CHECK(document.path() == file);
  // With the limit gone the same save goes through.
  REQUIRE(document.save().ok());
  CHECK(open_or_fail(file).scene().description.size() == 100000);
}

TEST_CASE("document: save as into another folder keeps marker files reachable") {
  // spring_sysid's track is "../assets/tracks/...", relative to scenes/.
  Document document = open_or_fail(source_dir() / "scenes" / "spring_sysid.json");
  TempDir temp;
  const fs::path copy = temp.path / "deeper" / "sysid.json";
  fs::create_directories(copy.parent_path());
  const Status saved = document.save_as(copy);
  REQUIRE_MESSAGE(saved.ok(), (saved.ok() ? "" : saved.error().message));
  Document reopened = open_or_fail(copy);
  REQUIRE(reopened.scene().objectives.size() == document.scene().objectives.size());
  CHECK(reopened.scene().objectives[0].samples.size() == document.scene().objectives[0].samples.size());
  // And saved again in place, the path stays as good.
  const Status again = reopened.save();
  REQUIRE_MESSAGE(again.ok(), (again.ok() ? "" : again.error().message));
  open_or_fail(copy);
}

// Examples open as copies (issue 25: Save overwrote the shipped scenes): untitled, so
// Save asks where; edits keep finding the example's marker files, and Save As rewrites
// them for the new folder.
TEST_CASE("document: an example opened as a copy has no file, and Save As keeps its marker files reachable") {
  const fs::path example = source_dir() / "scenes" / "spring_sysid.json";
  Result<Document> opened = Document::open_copy(example);
  REQUIRE(opened.ok());
  Document& document = *opened;
  CHECK_FALSE(document.has_path());
  CHECK(document.copy_of() == example);
  CHECK(document.display_name() == "a copy of spring_sysid.json");
  CHECK_FALSE(document.dirty());
  CHECK_FALSE(document.save().ok());  // no file of its own: the studio asks with Save As
  Scene edited = document.scene();
  edited.params[ParamId::Stiffness].value[0] *= 2;
  document.replace_scene(edited, "stiffer");
  CHECK(document.scene().source == example);  // its track is still found from scenes/
  CHECK(document.dirty());

  TempDir temp;
  const fs::path kept = temp.path / "mine" / "sysid.json";
  fs::create_directories(kept.parent_path());
  REQUIRE(document.save_as(kept).ok());
  CHECK(document.path() == kept);
  CHECK(document.copy_of().empty());
  CHECK(document.display_name() == "sysid.json");
  Document reopened = open_or_fail(kept);
  REQUIRE_FALSE(reopened.scene().objectives.empty());
  CHECK(reopened.scene().objectives[0].samples.size() == document.scene().objectives[0].samples.size());
  CHECK(reopened.scene().params[ParamId::Stiffness].value[0] == edited.params[ParamId::Stiffness].value[0]);
  CHECK_FALSE(Document::open_copy(temp.path / "missing.json").ok());
}

namespace {

// The scene as its file would be: what "the same scene" means for undo and redo.
std::string file_text(const Scene& scene, const TempDir& temp) {
  const fs::path path = temp.path / "snapshot.json";
  const Status saved = save_scene(scene, path);
  REQUIRE_MESSAGE(saved.ok(), (saved.ok() ? "" : saved.error().message));
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

Scene with_velocity(Scene scene, double vx) {
  scene.params[ParamId::InitialVelocity].value[0] = vx;
  return scene;
}

}  // namespace

TEST_CASE("document: undo and redo step through the edits, and the scene is the same file at each step") {
  TempDir temp;
  Document document = open_or_fail(source_dir() / "scenes" / "projectile.json");
  const std::string opened = file_text(document.scene(), temp);
  CHECK_FALSE(document.can_undo());
  CHECK_FALSE(document.can_redo());
  document.replace_scene(with_velocity(document.scene(), 3.0), "edit initial_velocity[0]");
  const std::string first = file_text(document.scene(), temp);
  document.replace_scene(with_velocity(document.scene(), 4.0), "edit initial_velocity[0] again");
  const std::string second = file_text(document.scene(), temp);
  REQUIRE(document.history().size() == 3);
  CHECK(document.history()[0].label == "open projectile.json");
  CHECK(document.history()[2].label == "edit initial_velocity[0] again");
  CHECK(document.dirty());

  CHECK(document.undo());
  CHECK(file_text(document.scene(), temp) == first);
  CHECK(document.undo());
  CHECK(file_text(document.scene(), temp) == opened);
  CHECK_FALSE(document.dirty());  // back at what the file holds
  CHECK(document.title() == "Nudge - projectile.json");
  CHECK_FALSE(document.undo());
  CHECK(document.redo());
  CHECK(document.redo());
  CHECK(file_text(document.scene(), temp) == second);
  CHECK_FALSE(document.redo());
  document.go_to(1);
  CHECK(file_text(document.scene(), temp) == first);

  // An edit after undoing drops what was undone.
  document.replace_scene(with_velocity(document.scene(), 5.0), "edit");
  CHECK(document.history().size() == 3);
  CHECK_FALSE(document.can_redo());
  CHECK(document.scene().params[ParamId::InitialVelocity].value[0] == 5.0);
}

TEST_CASE("document: saving marks the step saved; undoing past it or editing after it is unsaved") {
  TempDir temp;
  Document document(new_scene_with_dropped_particle());
  REQUIRE(document.save_as(temp.path / "a.json").ok());
  document.replace_scene(with_velocity(document.scene(), 1.0));
  REQUIRE(document.save().ok());
  CHECK_FALSE(document.dirty());
  CHECK(document.undo());
  CHECK(document.dirty());  // the file holds the edit, the document the step before
  CHECK(document.redo());
  CHECK_FALSE(document.dirty());
  CHECK(document.undo());
  document.replace_scene(with_velocity(document.scene(), 2.0));  // the saved step is gone
  CHECK(document.dirty());
  CHECK(document.undo());
  CHECK(document.dirty());
}

TEST_CASE("document: the history keeps its last steps, and random undo, redo and edits stay consistent") {
  Document document(new_scene_with_dropped_particle());
  for (int k = 0; k < int(Document::kMaxHistory) + 25; ++k)
    document.replace_scene(with_velocity(document.scene(), double(k)), "edit " + std::to_string(k));
  CHECK(document.history().size() == Document::kMaxHistory);
  CHECK(document.scene().params[ParamId::InitialVelocity].value[0] == double(Document::kMaxHistory + 24));
  CHECK(document.history().front().label == "edit 25");  // the new scene and edits 0 to 24 are forgotten
  CHECK(document.dirty());                               // edited, and the pristine first step is gone

  // A model of the history (the velocity of each step) against the document.
  Document random(new_scene_with_dropped_particle());
  std::vector<double> model{random.scene().params[ParamId::InitialVelocity].value[0]};
  std::size_t at = 0;
  std::uint64_t state = 12345;
  const auto next = [&] { return (state = state * 6364136223846793005ull + 1442695040888963407ull) >> 33; };
  for (int k = 0; k < 3000; ++k) {
    switch (next() % 4) {
      case 0:
        CHECK(random.undo() == (at > 0));
        if (at > 0) --at;
        break;
      case 1:
        CHECK(random.redo() == (at + 1 < model.size()));
        if (at + 1 < model.size()) ++at;
        break;
      default: {
        const double v = double(next() % 1000);
        random.replace_scene(with_velocity(random.scene(), v));
        model.resize(at + 1);
        model.push_back(v);
        ++at;
        if (model.size() > Document::kMaxHistory) model.erase(model.begin()), --at;
      }
    }
    REQUIRE(random.position() == at);
    REQUIRE(random.history().size() == model.size());
    REQUIRE(random.scene().params[ParamId::InitialVelocity].value[0] == model[at]);
    REQUIRE(check_scene(random.scene()).ok());
  }
}

TEST_CASE("document: example scenes are the sorted JSON files of a folder") {
  const std::vector<fs::path> scenes = list_example_scenes(source_dir() / "scenes");
  REQUIRE(scenes.size() >= 5);
  CHECK(std::is_sorted(scenes.begin(), scenes.end()));
  bool projectile = false, walker = false;
  for (const fs::path& scene : scenes) {
    CHECK(scene.extension() == ".json");
    projectile |= scene.filename() == "projectile.json";
    walker |= scene.filename() == "walker.json";
  }
  CHECK(projectile);
  CHECK(walker);

  TempDir temp;
  write_text(temp.path / "b.json", "{}");
  write_text(temp.path / "a.json", "{}");
  write_text(temp.path / "notes.txt", "");
  fs::create_directories(temp.path / "dir.json");
  const std::vector<fs::path> listed = list_example_scenes(temp.path);
  REQUIRE(listed.size() == 2);
  CHECK(listed[0].filename() == "a.json");
  CHECK(listed[1].filename() == "b.json");
  CHECK(list_example_scenes(temp.path / "missing").empty());
}

TEST_CASE("document: the examples folder comes from NUDGE_SCENES_DIR, else the fallback") {
  TempDir temp;
  const fs::path fallback = source_dir() / "scenes";
  {
    ScopedEnv env("NUDGE_SCENES_DIR", temp.path.c_str());
    CHECK(examples_directory(fallback) == temp.path);
  }
  {
    ScopedEnv env("NUDGE_SCENES_DIR", (temp.path / "missing").c_str());
    CHECK(examples_directory(fallback) == fallback);
  }
  {
    ScopedEnv env("NUDGE_SCENES_DIR", nullptr);
    CHECK(examples_directory(fallback) == fallback);
    CHECK(examples_directory(temp.path / "missing").empty());
  }
}

TEST_CASE("recent files: most recent first, each file once, at most ten") {
  TempDir temp;
  RecentFiles recent;
  const fs::path a = temp.path / "a.json", b = temp.path / "b.json";
  recent.add(a);
  recent.add(b);
  recent.add(temp.path / "sub" / ".." / "a.json");  // the same file spelled differently
  REQUIRE(recent.paths().size() == 2);
  CHECK(recent.paths()[0] == fs::weakly_canonical(a));
  CHECK(recent.paths()[1] == fs::weakly_canonical(b));

  // A relative path names the file in the working directory.
  recent.add("relative.json");
  CHECK(recent.paths()[0].is_absolute());
  CHECK(recent.paths()[0] == fs::weakly_canonical(fs::current_path() / "relative.json"));

  for (int i = 0; i < 12; ++i) recent.add(temp.path / ("s" + std::to_string(i) + ".json"));
  REQUIRE(recent.paths().size() == RecentFiles::kMaxEntries);
  CHECK(recent.paths().front().filename() == "s11.json");
  CHECK(recent.paths().back().filename() == "s2.json");

  recent.remove(temp.path / "s5.json");
  CHECK(recent.paths().size() == RecentFiles::kMaxEntries - 1);
  for (const fs::path& path : recent.paths()) CHECK(path.filename() != "s5.json");
  recent.add("");  // ignored
  CHECK(recent.paths().size() == RecentFiles::kMaxEntries - 1);
}

TEST_CASE("recent files: saved and loaded back; bad files give an empty list") {
  TempDir temp;
  RecentFiles recent;
  recent.add(temp.path / "one.json");
  recent.add(temp.path / "two.json");
  const fs::path file = temp.path / "config" / "nudge" / "recent.json";  // folders made on save
  const Status saved = recent.save(file);
  REQUIRE_MESSAGE(saved.ok(), (saved.ok() ? "" : saved.error().message));
  CHECK(read_text(file).find("two.json") != std::string::npos);
  const RecentFiles loaded = RecentFiles::load(file);
  CHECK(loaded.paths() == recent.paths());

  CHECK(RecentFiles::load(temp.path / "missing.json").paths().empty());
  for (const char* text : {"", "not json", "{\"files\": 3}", "[1, 2]", "{\"files\": [", "null"}) {
    CAPTURE(text);
    write_text(file, text);
    CHECK(RecentFiles::load(file).paths().empty());
  }
  // Entries that are not paths are skipped; repeats and extras beyond ten are dropped.
  std::string many = "{\"files\": [3, \"\", \"/x/a.json\", \"/x/a.json\"";
  for (int i = 0; i < 15; ++i) many += ", \"/x/f" + std::to_string(i) + ".json\"";
  write_text(file, many + "]}");
  const RecentFiles partial = RecentFiles::load(file);
  REQUIRE(partial.paths().size() == RecentFiles::kMaxEntries);
  CHECK(partial.paths()[0] == "/x/a.json");
  CHECK(partial.paths()[9] == "/x/f8.json");
  // A folder where the file should be is not a crash either.
  CHECK(RecentFiles::load(temp.path).paths().empty());
  CHECK_FALSE(recent.save(temp.path).ok());
  CHECK(fs::is_directory(temp.path));
}

TEST_CASE("recent files: the default file is under XDG_CONFIG_HOME, else ~/.config") {
  {
    ScopedEnv config("XDG_CONFIG_HOME", "/tmp/cfg");
    CHECK(default_recent_files_path() == fs::path("/tmp/cfg/nudge/recent.json"));
  }
  {
    ScopedEnv config("XDG_CONFIG_HOME", nullptr);
    ScopedEnv home("HOME", "/home/someone");
    CHECK(default_recent_files_path() == fs::path("/home/someone/.config/nudge/recent.json"));
  }
  {
    ScopedEnv config("XDG_CONFIG_HOME", "relative/cfg");  // not absolute: ignored, per the spec
    ScopedEnv home("HOME", "/home/someone");
    CHECK(default_recent_files_path() == fs::path("/home/someone/.config/nudge/recent.json"));
  }
  {
    ScopedEnv config("XDG_CONFIG_HOME", nullptr);
    ScopedEnv home("HOME", nullptr);
    CHECK(default_recent_files_path().empty());
  }
}
