#include "studio/document.h"
#include "nudge/robot_import.h"

#include <algorithm>
#include <cstdlib>
#include <system_error>
#include <utility>

namespace nudge::studio {

namespace fs = std::filesystem;

Scene make_new_scene() {
  Scene scene;
  scene.name = "untitled";
  scene.settings.dt = 1e-3;
  scene.settings.steps = 1000;
  scene.settings.ground.enabled = true;
  scene.settings.ground.damping = 100.0;  // half of critical with the default stiffness: things land and stay
  // Friction is viscous below this slip speed; at the engine's default (1 cm/s) a landing's
  // brief large normal force makes that viscosity far too stiff for an explicit step, and
  // the gradient through a particle that lands without slipping blows up (1e20 where the
  // finite difference says 1). Light particles a user adds (a chain's) make it worse.
  scene.settings.ground.friction_smoothing = 0.1;
  shape_parameters(scene);  // gravity -9.81 m/s^2, ground stiffness and friction defaults
  return scene;
}

Result<Document> Document::open(const fs::path& path) {
  Result<Scene> scene = load_scene(path);
  if (!scene) return scene.error();
  Document document;
  document.history_ = {{"open " + path.filename().string(), std::move(*scene)}};
  document.path_ = path;
  document.saved_ = 0;
  return document;
}

Result<Document> Document::open_copy(const fs::path& path) {
  Result<Document> document = open(path);
  if (!document) return document;
  document->history_[0].label = "copy " + path.filename().string();
  document->copy_of_ = path;
  document->path_.clear();
  return document;
}

void Document::replace_scene(Scene scene, std::string label) {
  scene.source = path_.empty() ? copy_of_ : path_;
  history_.resize(position_ + 1);  // what was undone is gone
  if (saved_ != kNone && saved_ > position_) saved_ = kNone;
  history_.push_back({std::move(label), std::move(scene)});
  ++position_;
  ++revision_;
  if (history_.size() > kMaxHistory) {
    history_.erase(history_.begin());
    --position_;
    saved_ = saved_ == kNone || saved_ == 0 ? kNone : saved_ - 1;
  }
}

bool Document::undo() {
  if (!can_undo()) return false;
  --position_;
  ++revision_;
  return true;
}

bool Document::redo() {
  if (!can_redo()) return false;
  ++position_;
  ++revision_;
  return true;
}

void Document::go_to(std::size_t position) {
  if (position >= history_.size() || position == position_) return;
  position_ = position;
  ++revision_;
}

Document Document::recovered(Scene scene, const fs::path& path, bool copy) {
  Document document(std::move(scene), "recovered unsaved changes");
  (copy ? document.copy_of_ : document.path_) = path;
  document.history_[0].scene.source = path;
  document.saved_ = kNone;  // unsaved: the file does not hold it
  return document;
}

Status Document::save() {
  if (path_.empty()) return Error{"the new scene has no file yet; choose one with Save As"};
  return save_as(path_);
}

Status Document::save_as(const fs::path& path) {
  Scene saved = moved_scene(scene(), path);  // its marker tracks and meshes still found from there
  if (Status written = save_scene(saved, path); !written) return written;
  // Every step now names its files from the new folder, so undo and a later save keep
  // finding them.
  if (path != path_)
    for (HistoryState& state : history_) state.scene = moved_scene(state.scene, path);
  path_ = path;
  copy_of_.clear();
  saved_ = position_;
  return Ok{};
}

std::string Document::display_name() const {
  if (!path_.empty()) return path_.filename().string();
  return copy_of_.empty() ? "untitled" : "a copy of " + copy_of_.filename().string();
}

std::string Document::title() const { return "Nudge - " + display_name() + (dirty() ? "*" : ""); }

Result<Document> import_robot_document(const fs::path& path, std::vector<std::string>* notes) {
  Result<ImportedRobot> robot = import_robot(path);
  if (!robot) return robot.error();
  if (notes) *notes = robot->ignored;
  return Document(robot_scene(*robot, fs::absolute(path).string(), 1000), "import " + path.filename().string());
}

Result<Document> open_document(const fs::path& path, const std::vector<fs::path>& examples) {
  if (is_robot_file(path)) return import_robot_document(path);
  std::error_code error;
  for (const fs::path& example : examples)
    if (fs::equivalent(example, path, error)) return Document::open_copy(path);
  return Document::open(path);
}

fs::path examples_directory(const fs::path& fallback) {
  std::error_code ec;
  if (const char* dir = std::getenv("NUDGE_SCENES_DIR"); dir && *dir && fs::is_directory(dir, ec)) return dir;
  if (!fallback.empty() && fs::is_directory(fallback, ec)) return fallback;
  return {};
}

std::vector<fs::path> list_example_scenes(const fs::path& dir) {
  std::vector<fs::path> scenes;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (it->path().extension() == ".json" && it->is_regular_file(type_ec)) scenes.push_back(it->path());
  }
  std::sort(scenes.begin(), scenes.end());
  return scenes;
}

}  // namespace nudge::studio
