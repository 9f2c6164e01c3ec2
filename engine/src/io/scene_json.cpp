// Scene files (docs/scene-format.md): JSON text to a checked Scene, and back.
//
// Reading happens in three passes so that no input, however broken, can crash,
// hang or recurse deeply: a scan of the raw text (nesting depth, NaN, numbers too
// large), nlohmann's parser (syntax, duplicate keys), then a walk over the DOM that
// checks every key and value against the format. Every error names the file, the
// JSON path, what was found and what was expected.
//
// This file holds the entry points and the walk over a file's sections, in reading and
// in writing (their list and stages: scene_section.h). The passes' text-level helpers are in json_text.cpp, the generic reading
// of values in scene_reader.h, and each section's reading, writing and checking in
// scene_section_*.cpp (scene_sections.h).
#include <cstdint>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/json_text.h"
#include "io/marker_csv.h"
#include "io/scene_section.h"
#include "io/scene_sections.h"
#include "nudge/scene_text.h"
#include "nudge/atomic_file.h"
#include "nudge/objective_facts.h"
#include "nudge/scene.h"

namespace nudge {

namespace scene_io {

namespace {

constexpr std::string_view kFormat = "nudge-scene";
constexpr int kVersion = 1;

}  // namespace

// ---- Reading ----------------------------------------------------------------------

Scene SceneReader::read(const Json& root, const fs::path& source) {
  Scene scene;
  scene.source = source;
  const Node top{root, "$"};
  if (!root.is_object()) fail_found(top, "a JSON object (a Nudge scene)");
  // Format and version before unknown keys: a newer file should read as a version problem.
  const Node format = required(top, "format", "\"nudge-scene\"");
  if (!format.json.is_string() || format.json.get_ref<const std::string&>() != kFormat)
    fail_found(format, "\"nudge-scene\"");
  const Node version = required(top, "version", "1");
  if (version.json.is_number() && version.json.get<double>() > kVersion)
    fail_found(version, "1 (this file was written by a newer version of Nudge)");
  integer(version, kVersion, kVersion, "1");
  std::vector<std::string_view> keys{"format", "version", "name", "description"};
  for (const SceneSection* section : scene_sections()) keys.push_back(section->key);
  expect_object(top, keys);

  const std::string stem = source.stem().string();
  scene.name = stem.empty() ? "untitled" : stem;
  if (auto name = optional(top, "name")) scene.name = string(*name, "a scene name");
  if (auto description = optional(top, "description")) scene.description = string(*description, "a description");

  // The sections stage by stage (scene_section.h), then defaults for every parameter the
  // file did not give, then what the sections left for after that, then the Values stage.
  const auto read_section = [&](const SceneSection& section) {
    const std::optional<Node> node = optional(top, section.key);
    return section.read(SectionInput{*this, top, node}, scene);
  };
  std::vector<AfterShaping> after_shaping;
  for (ReadStage stage :
       {ReadStage::Settings, ReadStage::Bodies, ReadStage::Particles, ReadStage::Elements, ReadStage::Links})
    for (const SceneSection* section : scene_sections())
      if (section->stage == stage)
        if (AfterShaping rest = read_section(*section)) after_shaping.push_back(std::move(rest));
  shape_parameters(scene);
  for (const AfterShaping& rest : after_shaping) rest(scene);
  for (const SceneSection* section : scene_sections())
    if (section->stage == ReadStage::Values) read_section(*section);
  return scene;
}

// ---- Writing ----------------------------------------------------------------------

namespace {

OrderedJson scene_json(const Scene& scene) {
  OrderedJson j;
  j["format"] = kFormat;
  j["version"] = kVersion;
  j["name"] = scene.name;
  if (!scene.description.empty()) j["description"] = scene.description;
  for (const SceneSection* section : scene_sections())
    if (OrderedJson json = section->write(scene); !json.empty()) j[std::string(section->key)] = std::move(json);
  return j;
}

}  // namespace

}  // namespace scene_io

namespace {

constexpr std::uintmax_t kMaxSceneBytes = std::uintmax_t{256} << 20;

}  // namespace

using namespace scene_io;  // the passes, the reader and the writer

Result<Scene> parse_scene(std::string_view json_text, const std::filesystem::path& source) {
  const std::string file = source.empty() ? "<scene>" : source.string();
  try {
    if (json_text.size() > kMaxSceneBytes)
      return Error{file + ": the text is " + std::to_string(json_text.size() >> 20) + " MiB; expected at most " +
                   std::to_string(kMaxSceneBytes >> 20) + " MiB"};
    if (json_text.find_first_not_of(" \t\r\n") == std::string_view::npos)
      return Error{file + ": the file is empty; expected a JSON object with \"format\": \"nudge-scene\""};
    if (std::optional<RawTextProblem> problem = scan_raw_text(json_text)) {
      // Errors in reading order: a syntax error before the problem comes first.
      try {
        const Json prefix = Json::parse(json_text.substr(0, problem->offset));
      } catch (const Json::parse_error& e) {
        if (std::string_view(e.what()).find("unexpected end of input") == std::string_view::npos)
          return Error{file + ": " + describe_parse_error(e, json_text)};
      } catch (const std::exception&) {}
      return Error{file + ": " + problem->message};
    }

    DuplicateKeyFinder duplicates;
    Json root;
    try {
      root = Json::parse(json_text.begin(), json_text.end(), [&](int, Json::parse_event_t event, Json& parsed) {
        return duplicates.on_event(event, parsed);
      });
    } catch (const Json::parse_error& e) {
      return Error{file + ": " + describe_parse_error(e, json_text)};
    } catch (const Json::out_of_range&) {  // the raw scan should have caught it first
      return Error{file + ": found a number too large for a double; expected finite numbers"};
    }
    if (const auto& path = duplicates.duplicate())
      return Error{file + ": " + *path + ": found this key a second time in the same object; expected each key once"};

    SceneReader reader(file, source.parent_path());
    Scene scene = reader.read(root, source);
    // A safety net: the reader checks everything as it goes, so this should never fail.
    if (Status valid = check_scene(scene); !valid) return Error{file + ": " + valid.error().message};
    return scene;
  } catch (const LoadFailure& failure) {
    return Error{failure.message};
  } catch (const std::bad_alloc&) {
    return Error{file + ": out of memory while loading the scene"};
  } catch (const std::exception& e) {
    return Error{file + ": unexpected error while loading the scene: " + printable_excerpt(e.what(), 200)};
  }
}

Result<Scene> load_scene(const std::filesystem::path& path) {
  Result<std::string> text = read_text_file(path, kMaxSceneBytes, "a scene file (.json)");
  if (!text) return text.error();
  return parse_scene(*text, path);
}

namespace {

// A file a scene names (a marker track, a mesh) relative to its folder, rewritten for the
// scene saved into another folder so that it still names the same file; as written when
// the folder is the same, the path absolute, or the scene was not loaded from a file.
fs::path rebased(const fs::path& written, const fs::path& from_folder, const fs::path& to_folder) {
  if (written.empty() || written.is_absolute()) return written;
  std::error_code error;
  const fs::path from = fs::absolute(from_folder, error).lexically_normal();
  const fs::path to = fs::absolute(to_folder, error).lexically_normal();
  if (error || from == to) return written;
  const fs::path target = (from / written).lexically_normal();
  const fs::path relative = target.lexically_relative(to);
  return relative.empty() ? target : relative;
}

}  // namespace

Scene moved_scene(const Scene& scene, const std::filesystem::path& path) {
  Scene moved = scene;
  moved.source = path;
  if (scene.source.empty()) return moved;
  const fs::path from = scene.source.parent_path(), to = path.parent_path();
  for (Objective& o : moved.objectives) o.marker_file = rebased(o.marker_file, from, to);
  if (!moved.footage.video.empty()) moved.footage.video = rebased(moved.footage.video, from, to);
  for (RigidBody& body : moved.bodies)
    if (body.mesh) {
      auto mesh = std::make_shared<BodyMesh>(*body.mesh);
      mesh->file = rebased(mesh->file, from, to);
      body.mesh = std::move(mesh);
    }
  if (!moved.articulations.source.empty()) moved.articulations.source = rebased(moved.articulations.source, from, to);
  for (ArticulationLink& link : moved.articulations.links)
    for (LinkShape& shape : link.shapes)
      if (!shape.mesh.empty()) shape.mesh = rebased(shape.mesh, from, to);
  return moved;
}

std::string scene_json_text(const Scene& scene) {
  std::string text;
  write_pretty(text, scene_json(scene), 0);
  return text;
}

Status save_scene(const Scene& scene, const std::filesystem::path& path) {
  const std::string name = path.string();
  if (Status valid = check_scene(scene); !valid)
    return Error{name + ": not saved, the scene is invalid: " + valid.error().message};
  // A markers objective refers to its samples by file; samples set in code have none.
  for (std::size_t k = 0; k < scene.objectives.size(); ++k)
    if (objective_layout(scene.objectives[k].type).binding == ObjectiveBinding::MarkerFile &&
        scene.objectives[k].marker_file.empty())
      return Error{name + ": not saved: objectives[" + std::to_string(k) +
                   "] is a markers objective without a marker_file; expected the path of its CSV file"};
  std::string text;
  try {
    write_pretty(text, scene_json(moved_scene(scene, path)), 0);
  } catch (const std::exception& e) {
    return Error{name + ": not saved: " + printable_excerpt(e.what(), 200)};
  }
  text += "\n";
  return write_file_atomically(path, text);
}

}  // namespace nudge
