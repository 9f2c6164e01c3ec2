// Scene files (docs/scene-format.md): JSON text to a checked Scene, and back.
//
// Reading happens in three passes so that no input, however broken, can crash,
// hang or recurse deeply: a scan of the raw text (nesting depth, NaN, numbers too
// large), nlohmann's parser (syntax, duplicate keys), then a walk over the DOM that
// checks every key and value against the format. Every error names the file, the
// JSON path, what was found and what was expected.
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <numbers>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "io/marker_csv.h"
#include "nudge/atomic_file.h"
#include "nudge/scene.h"

namespace nudge {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;  // keeps keys in the order written, for saving

constexpr std::uintmax_t kMaxSceneBytes = std::uintmax_t{256} << 20;
constexpr int kMaxNesting = 64;  // a valid scene nests 5 deep
constexpr std::string_view kFormat = "nudge-scene";
constexpr int kVersion = 1;
constexpr long long kIntMax = std::numeric_limits<int>::max();

// Thrown only inside this file; parse_scene turns it into an Error.
struct LoadFailure {
  std::string message;
};

bool finite(double x) { return std::isfinite(x); }
bool positive(double x) { return std::isfinite(x) && x > 0; }
bool non_negative(double x) { return std::isfinite(x) && x >= 0; }
bool unit_interval_open_right(double x) { return std::isfinite(x) && x >= 0 && x < 1; }
bool time_step(double x) { return std::isfinite(x) && x > 0 && x <= 1; }

// Shortest text that reads back as the same double ("2", "0.1", "inf").
std::string number_text(double x) {
  char buffer[32];
  return std::string(buffer, std::to_chars(buffer, buffer + sizeof buffer, x).ptr);
}

std::string range_text(long long lo, long long hi) {
  return "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
}

template <class Words>
std::string join(const Words& words) {
  std::string out;
  for (std::string_view w : words) out += (out.empty() ? "" : ", ") + std::string(w);
  return out;
}

// "target, positions, markers, velocity, effort, travel, orientation"
std::string objective_type_names() {
  std::vector<std::string_view> names;
  for (int i = 0; i <= static_cast<int>(ObjectiveType::Orientation); ++i)
    names.push_back(objective_type_name(static_cast<ObjectiveType>(i)));
  return join(names);
}

// ---- Pass 1: the raw text --------------------------------------------------------

std::string line_column(int line, std::size_t column) {
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// Whether a JSON number token overflows a double. from_chars reports underflow
// (1e-999) the same way, so look at where the leading digit sits: overflow only
// happens far above 10^0, underflow far below.
bool overflows_double(std::string_view token) {
  double value = 0;
  if (std::from_chars(token.data(), token.data() + token.size(), value).ec != std::errc::result_out_of_range)
    return false;
  const std::size_t exponent_at = token.find_first_of("eE");
  const std::string_view mantissa = token.substr(0, exponent_at);
  long long exponent = 0;
  if (exponent_at != std::string_view::npos) {
    std::string_view digits = token.substr(exponent_at + 1);
    const bool negative = !digits.empty() && digits.front() == '-';
    if (!digits.empty() && (digits.front() == '-' || digits.front() == '+')) digits.remove_prefix(1);
    for (char d : digits) {
      if (d < '0' || d > '9') break;
      exponent = std::min(exponent * 10 + (d - '0'), 1'000'000'000LL);  // clamped: only the sign matters
    }
    if (negative) exponent = -exponent;
  }
  const std::size_t point = std::min(mantissa.find('.'), mantissa.size());
  const std::size_t first = mantissa.find_first_of("123456789");
  if (first == std::string_view::npos) return false;  // zero never overflows
  const long long magnitude = first < point ? static_cast<long long>(point - first) - 1
                                            : -static_cast<long long>(first - point);
  return magnitude + exponent > 0;
}

// Catches what the parser would handle badly or explain obscurely: nesting too deep
// for any scene (before a DOM is built), NaN and Infinity (not JSON), comments (not
// JSON), numbers too large for a double and stray bytes. Skips strings; all other
// syntax is left to the parser.
struct RawTextProblem {
  std::size_t offset = 0;  // where it starts
  std::string message;
};

std::optional<RawTextProblem> scan_raw_text(std::string_view text) {
  int depth = 0;
  int line = 1;
  std::size_t line_start = 0;
  const auto is_letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  const auto is_number_char = [](char c) {
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
  };
  const std::size_t start = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;  // the parser skips a byte order mark
  for (std::size_t i = start; i < text.size(); ++i) {
    const char c = text[i];
    const auto problem = [&](const std::string& what) {
      return RawTextProblem{i, line_column(line, i - line_start + 1) + ": " + what};
    };
    if (c == '\n') {
      ++line;
      line_start = i + 1;
    } else if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\') ++i;
        if (i < text.size() && text[i] == '\n') {  // invalid in JSON, but keep positions right
          ++line;
          line_start = i + 1;
        }
      }
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxNesting)
        return problem("found more than " + std::to_string(kMaxNesting) +
                       " nested arrays or objects; expected at most " + std::to_string(kMaxNesting) +
                       " (a scene needs 5)");
    } else if (c == ']' || c == '}') {
      if (depth > 0) --depth;
    } else if (c == '/') {
      return problem("found '/', the start of a comment; expected JSON, which has no comments (use \"description\")");
    } else if (is_letter(c) || (c == '-' && i + 1 < text.size() && is_letter(text[i + 1]))) {
      std::size_t end = i + 1;
      while (end < text.size() && is_letter(text[end])) ++end;
      std::string word(text.substr(i, end - i));
      std::string lower = word;
      for (char& ch : lower) ch = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
      if (lower.starts_with('-')) lower.erase(0, 1);
      if (lower == "nan" || lower == "infinity" || lower == "inf")
        return problem("found " + word + ", which is not JSON; expected a finite number");
      i = end - 1;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      std::size_t end = i + 1;
      while (end < text.size() && is_number_char(text[end])) ++end;
      const std::string_view token = text.substr(i, end - i);
      if (overflows_double(token))
        return problem("found " + printable_excerpt(token, 40) +
                       ", a number too large for a double; expected a finite number");
      i = end - 1;
    } else if (c != ' ' && c != '\t' && c != '\r' && c != ':' && c != ',') {
      // Also NUL, which the parser would take for the end of the input.
      return problem("JSON syntax error: found the byte " + printable_excerpt(std::string_view(&text[i], 1)) +
                     ", which cannot appear in JSON outside a string");
    }
  }
  return std::nullopt;
}

// ---- Pass 2: the parser ------------------------------------------------------------

std::string member_path(const std::string& path, std::string_view key) {
  const bool identifier = !key.empty() && !(key.front() >= '0' && key.front() <= '9') &&
                          std::all_of(key.begin(), key.end(), [](char c) {
                            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                                   c == '_';
                          });
  if (identifier) return path + "." + std::string(key);
  return path + "[\"" + printable_excerpt(key) + "\"]";
}

std::string element_path(const std::string& path, std::size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

// Finds the first key that occurs twice in one object: the parser keeps the last
// one silently, and a repeated key is as easy a mistake as a misspelt one.
class DuplicateKeyFinder {
public:
  bool on_event(Json::parse_event_t event, const Json& parsed) {
    using Event = Json::parse_event_t;
    switch (event) {
      case Event::object_start: frames_.push_back({true, {}, {}, 0}); break;
      case Event::array_start: frames_.push_back({false, {}, {}, 0}); break;
      case Event::object_end:
      case Event::array_end:
        if (!frames_.empty()) frames_.pop_back();
        finish_value();
        break;
      case Event::value: finish_value(); break;
      case Event::key:
        if (!frames_.empty() && parsed.is_string()) {
          Frame& frame = frames_.back();
          frame.key = parsed.get<std::string>();
          if (!frame.keys.insert(frame.key).second && !duplicate_) duplicate_ = current_path();
        }
        break;
    }
    return true;
  }
  // "$.springs.stiffness" for the second "stiffness" in springs, if any.
  const std::optional<std::string>& duplicate() const { return duplicate_; }

private:
  struct Frame {
    bool is_object;
    std::set<std::string> keys;
    std::string key;        // the current member's key, objects only
    std::size_t index = 0;  // the current element's index, arrays only
  };
  void finish_value() {
    if (!frames_.empty() && !frames_.back().is_object) ++frames_.back().index;
  }
  std::string current_path() const {
    std::string path = "$";
    for (const Frame& f : frames_) path = f.is_object ? member_path(path, f.key) : element_path(path, f.index);
    return path;
  }
  std::vector<Frame> frames_;
  std::optional<std::string> duplicate_;
};

// nlohmann: "[json.exception.parse_error.101] parse error at line 3, column 5: syntax
// error while parsing value - invalid literal; last read: 'x'"
// becomes "line 3, column 5: JSON syntax error: invalid literal; last read: 'x'".
// The position is recomputed from the byte offset: the parser counts the character
// that ended a token, often a newline ("line 6, column 0"); the token itself is clearer.
std::string describe_parse_error(const Json::parse_error& e, std::string_view text) {
  const std::string_view what = e.what();
  std::string_view detail = what;
  if (const std::size_t at = what.find(": ", what.find("parse error")); at != std::string_view::npos)
    detail = what.substr(at + 2);
  if (const std::size_t dash = detail.find(" - "); detail.starts_with("syntax error") && dash != detail.npos)
    detail.remove_prefix(dash + 3);

  std::size_t offset = std::min<std::size_t>(e.byte, text.size());  // e.byte counts from 1
  offset = offset > 0 ? offset - 1 : 0;
  while (offset > 0 && std::string_view(" \t\r\n").find(text[offset]) != std::string_view::npos) --offset;
  const std::size_t line_start = offset == 0 ? 0 : text.rfind('\n', offset - 1) + 1;  // npos + 1 == 0
  const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n');
  return line_column(static_cast<int>(line), offset - line_start + 1) +
         ": JSON syntax error: " + printable_excerpt(detail, 200);
}

// ---- Pass 3: the DOM ------------------------------------------------------------

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// " (did you mean 'stiffness'?)" for a near miss, else nothing.
template <class Words>
std::string did_you_mean(std::string_view word, const Words& candidates) {
  std::string_view best;
  std::size_t best_distance = 3;  // further than 2 edits is not a near miss
  for (std::string_view known : candidates)
    if (const std::size_t d = edit_distance(word, known); d < best_distance && d < word.size()) {
      best = known;
      best_distance = d;
    }
  return best.empty() ? std::string() : " (did you mean '" + std::string(best) + "'?)";
}

// What a value is, for "found ...": numbers as written (shortest round trip), strings quoted.
std::string describe(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return value.get<bool>() ? "true" : "false";
    case Json::value_t::string: {
      const std::string& s = value.get_ref<const std::string&>();
      return s.empty() ? "an empty string" : "\"" + printable_excerpt(s) + "\"";
    }
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float: return value.dump();
    case Json::value_t::object: return value.empty() ? "an empty object" : "an object";
    case Json::value_t::array:
      return value.empty() ? "an empty array"
                           : "an array of " + std::to_string(value.size()) + (value.size() == 1 ? " value" : " values");
    default: return "an unsupported value";
  }
}

// A JSON value and where it is in the file.
struct Node {
  const Json& json;
  std::string path;

  Node element(std::size_t i) const { return {json[i], element_path(path, i)}; }
  std::size_t size() const { return json.size(); }
};

// Walks the DOM into a Scene, checking every value as it goes.
class SceneReader {
public:
  SceneReader(std::string file, fs::path folder) : file_(std::move(file)), folder_(std::move(folder)) {}

  Scene read(const Json& root, const fs::path& source) {
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
    expect_object(top, {"format", "version", "name", "description", "simulation", "particles", "springs", "controls",
                        "bodies", "joints", "joint_settings", "joint_controls", "attachments", "colliders", "contact", "parameters",
                        "objectives", "optimizer", "camera"});

    const std::string stem = source.stem().string();
    scene.name = stem.empty() ? "untitled" : stem;
    if (auto name = optional(top, "name")) scene.name = string(*name, "a scene name");
    if (auto description = optional(top, "description")) scene.description = string(*description, "a description");

    // Order matters: particles give N, controls give C, springs need both.
    read_simulation(required(top, "simulation", "an object with the simulation settings"), scene);
    // Bodies before particles: a scene of bodies alone needs no particles.
    std::vector<BodyValues> body_values;
    if (auto bodies = optional(top, "bodies")) body_values = read_bodies(*bodies, scene);
    if (auto particles = optional(top, "particles")) read_particles(*particles, scene);
    else if (scene.bodies.empty())
      required(top, "particles", "an object with the particles' \"position\" (or a \"bodies\" array)");
    read_controls(optional(top, "controls"), scene);
    const std::optional<Node> springs = optional(top, "springs");
    const bool rest_lengths_defaulted = read_springs(springs, scene);
    if (auto colliders = optional(top, "colliders")) read_colliders(*colliders, scene);
    if (auto contact = optional(top, "contact")) read_contact(*contact, scene);
    std::vector<JointValues> joint_values;
    if (auto joints = optional(top, "joints")) joint_values = read_joints(*joints, scene);
    if (auto settings = optional(top, "joint_settings")) read_joint_settings(*settings, scene.joint_settings);

    shape_parameters(scene);  // defaults for every parameter the file did not give
    store_body_values(body_values, scene);
    store_joint_values(joint_values, scene);
    if (auto controls = optional(top, "joint_controls")) read_joint_controls(*controls, scene);
    if (auto attachments = optional(top, "attachments")) read_attachments(*attachments, scene);
    if (rest_lengths_defaulted) check_default_rest_lengths(scene, *springs);
    if (auto parameters = optional(top, "parameters")) read_parameters(*parameters, scene);
    if (auto objectives = optional(top, "objectives")) read_objectives(*objectives, scene);
    if (auto optimizer = optional(top, "optimizer")) read_optimizer(*optimizer, scene.optimizer);
    if (auto camera = optional(top, "camera")) read_camera(*camera, scene.camera);
    return scene;
  }

private:
  [[noreturn]] void fail(const std::string& path, const std::string& message) const {
    throw LoadFailure{file_ + ": " + path + ": " + message};
  }
  [[noreturn]] void fail_found(const Node& node, std::string_view expected) const {
    fail(node.path, "found " + describe(node.json) + "; expected " + std::string(expected));
  }

  // ---- structure ----

  static std::string context_of(const Node& node) { return node.path == "$" ? "the scene" : node.path.substr(2); }

  void expect_object(const Node& node, std::initializer_list<std::string_view> keys,
                     const std::string& context = {}) const {
    if (!node.json.is_object()) fail_found(node, "an object with the keys: " + join(keys));
    for (const auto& [key, value] : node.json.items()) {
      if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
      fail(member_path(node.path, key), "unknown key '" + printable_excerpt(key) + "' in " +
                                            (context.empty() ? context_of(node) : context) + did_you_mean(key, keys) +
                                            "; expected one of: " + join(keys));
    }
  }

  std::optional<Node> optional(const Node& object, std::string_view key) const {
    const auto it = object.json.find(key);
    if (it == object.json.end()) return std::nullopt;
    return Node{*it, member_path(object.path, key)};
  }

  Node required(const Node& object, std::string_view key, std::string_view expected) const {
    if (auto node = optional(object, key)) return *node;
    fail(object.path, "missing key '" + std::string(key) + "'; expected " + std::string(expected));
  }

  void expect_array(const Node& node, std::string_view expected) const {
    if (!node.json.is_array()) fail_found(node, expected);
  }

  // ---- values ----

  double number(const Node& node, std::string_view expected, bool (*ok)(double) = finite) const {
    if (!node.json.is_number() || !ok(node.json.get<double>())) fail_found(node, expected);
    return node.json.get<double>();
  }

  // Accepts integral numbers however written (500, 5e2); rejects 1.5.
  long long integer(const Node& node, long long lo, long long hi, std::string_view expected) const {
    const Json& j = node.json;
    long long value = 0;
    if (j.is_number_unsigned()) {
      if (j.get<std::uint64_t>() > static_cast<std::uint64_t>(hi)) fail_found(node, expected);
      value = static_cast<long long>(j.get<std::uint64_t>());
    } else if (j.is_number_integer()) {
      value = j.get<std::int64_t>();
    } else if (j.is_number_float()) {
      const double x = j.get<double>();
      if (x != std::floor(x) || x < static_cast<double>(lo) || x > static_cast<double>(hi)) fail_found(node, expected);
      value = static_cast<long long>(x);
    } else {
      fail_found(node, expected);
    }
    if (value < lo || value > hi) fail_found(node, expected);
    return value;
  }

  // Any integer that fits in 64 bits without a sign (a random seed), written as an integer.
  std::uint64_t unsigned_integer(const Node& node, std::string_view expected) const {
    if (!node.json.is_number_unsigned()) fail_found(node, expected);
    return node.json.get<std::uint64_t>();
  }

  int int_in(const Node& node, long long lo, long long hi, std::string_view what) const {
    return static_cast<int>(integer(node, lo, hi, std::string(what) + " in " + range_text(lo, hi)));
  }

  bool boolean(const Node& node) const {
    if (!node.json.is_boolean()) fail_found(node, "true or false");
    return node.json.get<bool>();
  }

  std::string string(const Node& node, std::string_view expected) const {
    if (!node.json.is_string()) fail_found(node, "a string (" + std::string(expected) + ")");
    return node.json.get<std::string>();
  }

  std::array<double, 3> vec3(const Node& node, std::string_view expected) const {
    if (!node.json.is_array() || node.size() != 3) fail_found(node, expected);
    std::array<double, 3> v{};
    for (std::size_t k = 0; k < 3; ++k) v[k] = number(node.element(k), "a finite number");
    return v;
  }

  // `rows` rows of [x, y, z], flattened; rows == 0 means any non-zero count.
  std::vector<double> rows_of_3(const Node& node, std::size_t rows, std::string_view row_expected,
                                std::string_view count_expected) const {
    if (!node.json.is_array() || node.json.empty() || (rows != 0 && node.size() != rows))
      fail_found(node, count_expected);
    std::vector<double> flat;
    flat.reserve(3 * node.size());
    for (std::size_t i = 0; i < node.size(); ++i) {
      const std::array<double, 3> v = vec3(node.element(i), row_expected);
      flat.insert(flat.end(), v.begin(), v.end());
    }
    return flat;
  }

  // One number for all `count` items, or exactly `count` numbers.
  std::vector<double> per_item(const Node& node, std::size_t count, std::string_view item, std::string_view expected,
                               bool (*ok)(double), bool allow_single = true) const {
    const std::string counted = std::to_string(count) + " numbers (one per " + std::string(item) + ")";
    if (allow_single && node.json.is_number()) return std::vector<double>(count, number(node, expected, ok));
    if (!node.json.is_array() || node.size() != count)
      fail_found(node, allow_single ? "a number or an array of " + counted : "an array of " + counted);
    std::vector<double> values(count);
    for (std::size_t i = 0; i < count; ++i) values[i] = number(node.element(i), expected, ok);
    return values;
  }

  int particle_index(const Node& node) const {
    return static_cast<int>(integer(node, 0, particle_count_ - 1,
                                    "a particle index in [0, " + std::to_string(particle_count_) + ")"));
  }

  // A non-empty list of distinct body indices.
  std::vector<int> body_list(const Node& node, const Scene& scene) const {
    const int count = scene.body_count();
    if (!node.json.is_array() || node.json.empty()) fail_found(node, "a non-empty array of body indices");
    std::vector<int> list;
    for (std::size_t k = 0; k < node.size(); ++k) {
      const Node element = node.element(k);
      const int b = static_cast<int>(integer(element, 0, count - 1, "a body index in [0, " + std::to_string(count) + ")"));
      if (std::find(list.begin(), list.end(), b) != list.end()) fail_found(element, "each body once");
      list.push_back(b);
    }
    return list;
  }

  // A non-empty list of distinct particle indices.
  std::vector<int> particle_list(const Node& node) const {
    if (!node.json.is_array() || node.json.empty()) fail_found(node, "a non-empty array of particle indices");
    std::vector<int> list;
    std::map<int, std::size_t> first_at;
    for (std::size_t k = 0; k < node.size(); ++k) {
      const Node element = node.element(k);
      const int i = particle_index(element);
      if (const auto [it, inserted] = first_at.emplace(i, k); !inserted)
        fail_found(element, "each particle once (" + std::to_string(i) + " is already at [" +
                                std::to_string(it->second) + "])");
      list.push_back(i);
    }
    return list;
  }

  // ---- sections ----

  void read_simulation(const Node& node, Scene& scene) const {
    expect_object(node, {"dt", "steps", "checkpoint_every", "gravity", "drag", "ground"});
    Settings& s = scene.settings;
    s.dt = number(required(node, "dt", "a time step in (0, 1] (s)"), "a time step in (0, 1] (s)", time_step);
    s.steps = int_in(required(node, "steps", "a step count, an integer in " + range_text(1, kMaxSteps)), 1, kMaxSteps,
                     "a step count, an integer");
    if (auto every = optional(node, "checkpoint_every"))
      s.checkpoint_every = int_in(*every, 0, kIntMax, "an integer (0: store every state)");
    if (auto gravity = optional(node, "gravity")) {
      const std::array<double, 3> g = vec3(*gravity, "a gravity vector [x, y, z] (m/s^2)");
      scene.params[ParamId::Gravity].value.assign(g.begin(), g.end());
    }
    if (auto drag = optional(node, "drag"))
      scene.params[ParamId::Drag].value = {number(*drag, "a drag coefficient >= 0 (N s/m)", non_negative)};
    if (auto ground = optional(node, "ground")) read_ground(*ground, scene);
  }

  void read_ground(const Node& node, Scene& scene) const {
    expect_object(node, {"height", "stiffness", "damping", "friction", "contact_smoothing", "friction_smoothing"});
    Ground& g = scene.settings.ground;
    g.enabled = true;
    if (auto height = optional(node, "height")) g.height = number(*height, "a finite height (m)");
    if (auto stiffness = optional(node, "stiffness"))
      scene.params[ParamId::GroundStiffness].value = {number(*stiffness, "a stiffness >= 0 (N/m)", non_negative)};
    if (auto damping = optional(node, "damping")) g.damping = number(*damping, "a damping >= 0 (N s/m)", non_negative);
    if (auto friction = optional(node, "friction"))
      scene.params[ParamId::Friction].value = {number(*friction, "a friction coefficient >= 0", non_negative)};
    if (auto smoothing = optional(node, "contact_smoothing"))
      g.contact_smoothing = number(*smoothing, "a width > 0 (m)", positive);
    if (auto smoothing = optional(node, "friction_smoothing"))
      g.friction_smoothing = number(*smoothing, "a speed > 0 (m/s)", positive);
  }

  void read_particles(const Node& node, Scene& scene) {
    expect_object(node, {"position", "velocity", "mass", "pinned", "force", "radius"});
    const std::vector<double> position =
        rows_of_3(required(node, "position", "a non-empty array of [x, y, z] positions (m)"), 0,
                  "a position [x, y, z] (m)", "a non-empty array of [x, y, z] positions (m)");
    if (position.size() / 3 > static_cast<std::size_t>(kIntMax)) fail(node.path, "too many particles");
    particle_count_ = static_cast<int>(position.size() / 3);
    const auto n = static_cast<std::size_t>(particle_count_);
    const std::string per_particle = "an array of " + std::to_string(n) + " rows (one per particle)";
    scene.params[ParamId::InitialPosition].value = position;

    if (auto velocity = optional(node, "velocity"))
      scene.params[ParamId::InitialVelocity].value =
          rows_of_3(*velocity, n, "a velocity [x, y, z] (m/s)", per_particle + " of [x, y, z] velocities (m/s)");
    if (auto mass = optional(node, "mass"))
      scene.params[ParamId::Mass].value = per_item(*mass, n, "particle", "a mass > 0 (kg)", positive);
    if (auto force = optional(node, "force"))
      scene.params[ParamId::ExternalForce].value =
          rows_of_3(*force, n, "a force [x, y, z] (N)", per_particle + " of [x, y, z] forces (N)");
    if (auto radius = optional(node, "radius"))
      scene.params[ParamId::ParticleRadius].value = per_item(*radius, n, "particle", "a radius >= 0 (m)", non_negative);

    scene.pinned.assign(n, 0);
    if (auto pinned = optional(node, "pinned")) {
      expect_array(*pinned, "an array of particle indices");
      for (std::size_t k = 0; k < pinned->size(); ++k) {
        const Node element = pinned->element(k);
        const int i = particle_index(element);
        if (scene.pinned[i]) fail_found(element, "each particle once (" + std::to_string(i) + " is already pinned)");
        scene.pinned[i] = 1;
      }
    }
  }

  void read_controls(const std::optional<Node>& node, Scene& scene) const {
    if (!node) return;
    expect_object(*node, {"channels", "values"});
    const Node channels = required(*node, "channels", "a channel count, an integer in " + range_text(0, kMaxChannels));
    scene.channels = int_in(channels, 0, kMaxChannels, "a channel count, an integer");
    const long long total = static_cast<long long>(scene.channels) * scene.settings.steps;
    if (total > kMaxControlValues)
      fail(channels.path, "found " + std::to_string(scene.channels) + " channels x " +
                              std::to_string(scene.settings.steps) + " steps = " + std::to_string(total) +
                              " control values; expected at most " + std::to_string(kMaxControlValues));
    auto values = optional(*node, "values");
    if (!values) return;  // shape_parameters fills zeros
    const auto steps = static_cast<std::size_t>(scene.settings.steps);
    const auto c = static_cast<std::size_t>(scene.channels);
    std::vector<double>& controls = scene.params[ParamId::Controls].value;
    if (values->json.is_number()) {
      controls.assign(steps * c, number(*values, "a finite control value"));
      return;
    }
    const std::string row_expected = "an array of " + std::to_string(c) + " control values (one per channel)";
    if (!values->json.is_array() || values->size() != steps)
      fail_found(*values, "a number for all, or an array of " + std::to_string(steps) +
                              " rows (one per step, simulation.steps) of " + std::to_string(c) + " numbers");
    controls.reserve(steps * c);
    for (std::size_t t = 0; t < steps; ++t) {
      const Node row = values->element(t);
      if (!row.json.is_array() || row.size() != c) fail_found(row, row_expected);
      for (std::size_t k = 0; k < c; ++k) controls.push_back(number(row.element(k), "a finite control value"));
    }
  }

  // Returns whether rest lengths are left to their default (the initial distance).
  bool read_springs(const std::optional<Node>& node, Scene& scene) const {
    if (!node) return false;
    expect_object(*node, {"pairs", "stiffness", "damping", "rest_length", "channel", "actuation"});
    const Node pairs = required(*node, "pairs", "an array of [a, b] particle index pairs");
    expect_array(pairs, "an array of [a, b] particle index pairs");
    const std::size_t s = pairs.size();
    for (std::size_t k = 0; k < s; ++k) {
      const Node pair = pairs.element(k);
      if (!pair.json.is_array() || pair.size() != 2) fail_found(pair, "a pair [a, b] of particle indices");
      const int a = particle_index(pair.element(0)), b = particle_index(pair.element(1));
      if (a == b)
        fail(pair.path, "found a spring from particle " + std::to_string(a) +
                            " to itself; expected two different particles");
      scene.spring_a.push_back(a);
      scene.spring_b.push_back(b);
    }

    if (auto stiffness = optional(*node, "stiffness"))
      scene.params[ParamId::Stiffness].value =
          per_item(*stiffness, s, "spring", "a stiffness >= 0 (N/m)", non_negative);
    if (auto damping = optional(*node, "damping"))
      scene.params[ParamId::Damping].value = per_item(*damping, s, "spring", "a damping >= 0 (N s/m)", non_negative);
    auto rest = optional(*node, "rest_length");
    if (rest)
      scene.params[ParamId::RestLength].value =
          per_item(*rest, s, "spring", "a rest length > 0 (m)", positive, /*allow_single=*/false);

    scene.spring_channel.assign(s, -1);
    if (auto channel = optional(*node, "channel")) {
      const int c = scene.channels;
      const std::string expected = c == 0 ? "-1 (passive; controls.channels is 0, so no spring can be driven)"
                                          : "-1 (passive) or a channel in [0, " + std::to_string(c) + ")";
      if (!channel->json.is_array() || channel->size() != s)
        fail_found(*channel, "an array of " + std::to_string(s) + " channels (one per spring)");
      for (std::size_t k = 0; k < s; ++k)
        scene.spring_channel[k] = static_cast<int>(integer(channel->element(k), -1, c - 1, expected));
    }
    scene.actuation.assign(s, 0.0);
    if (auto actuation = optional(*node, "actuation"))
      scene.actuation = per_item(*actuation, s, "spring", "a finite actuation", finite);
    return !rest.has_value();
  }

  // A default rest length is the initial distance, which must not be zero.
  void check_default_rest_lengths(const Scene& scene, const Node& springs) const {
    const std::vector<double>& rest = scene.params[ParamId::RestLength].value;
    const Node pairs = *optional(springs, "pairs");
    for (std::size_t k = 0; k < rest.size(); ++k)
      if (!positive(rest[k]))
        fail(pairs.element(k).path,
             "found particles " + std::to_string(scene.spring_a[k]) + " and " + std::to_string(scene.spring_b[k]) +
                 " at distance " + number_text(rest[k]) +
                 " initially, which cannot be the default rest length; expected distinct finite positions "
                 "or a \"rest_length\" > 0 for every spring");
  }

  // A body's parameter values as written (absent ones keep their defaults).
  struct BodyValues {
    std::array<double, 3> position{}, velocity{}, angular_velocity{};
    std::array<double, 4> orientation{0, 0, 0, 1};
    double density = 1000;
  };

  std::vector<BodyValues> read_bodies(const Node& node, Scene& scene) const {
    expect_array(node, "an array of rigid bodies");
    std::vector<BodyValues> values;
    for (std::size_t k = 0; k < node.size(); ++k) {
      const Node item = node.element(k);
      const std::string shapes = "sphere, box or capsule";
      if (!item.json.is_object()) fail_found(item, "a body object with a \"shape\" (" + shapes + ")");
      const Node shape_node = required(item, "shape", shapes);
      const std::optional<BodyShape> shape = body_shape_from_name(string(shape_node, shapes));
      if (!shape) fail_found(shape_node, shapes);
      const std::string context = context_of(item) + " (a " + std::string(body_shape_name(*shape)) + " body)";
      RigidBody body;
      body.shape = *shape;
      switch (*shape) {
        case BodyShape::Sphere:
          expect_object(item, {"name", "shape", "radius", "density", "position", "orientation", "velocity", "angular_velocity"}, context);
          body.radius = number(required(item, "radius", "a radius > 0 (m)"), "a radius > 0 (m)", positive);
          break;
        case BodyShape::Box: {
          expect_object(item, {"name", "shape", "half_extents", "density", "position", "orientation", "velocity", "angular_velocity"}, context);
          const Node half = required(item, "half_extents", "the box's half extents [x, y, z] (m)");
          const std::array<double, 3> e = vec3(half, "the box's half extents [x, y, z] (m)");
          for (int i = 0; i < 3; ++i) {
            if (!positive(e[i])) fail_found(half.element(i), "a half extent > 0 (m)");
            body.half_extents[i] = e[i];
          }
          break;
        }
        case BodyShape::Capsule:
          expect_object(item, {"name", "shape", "radius", "half_length", "density", "position", "orientation", "velocity", "angular_velocity"}, context);
          body.radius = number(required(item, "radius", "a radius > 0 (m)"), "a radius > 0 (m)", positive);
          body.half_length = number(required(item, "half_length", "half the axis' length > 0 (m)"), "half the axis' length > 0 (m)", positive);
          break;
      }
      if (auto name = optional(item, "name")) body.name = string(*name, "a body name");
      BodyValues v;
      v.position = vec3(required(item, "position", "the centre of mass [x, y, z] (m)"), "the centre of mass [x, y, z] (m)");
      if (auto velocity = optional(item, "velocity")) v.velocity = vec3(*velocity, "a velocity [x, y, z] (m/s)");
      if (auto spin = optional(item, "angular_velocity")) v.angular_velocity = vec3(*spin, "an angular velocity [x, y, z] (rad/s)");
      if (auto density = optional(item, "density")) v.density = number(*density, "a density > 0 (kg/m^3)", positive);
      if (auto orientation = optional(item, "orientation")) {
        constexpr std::string_view expected = "a quaternion [x, y, z, w] of non-zero length";
        if (!orientation->json.is_array() || orientation->size() != 4) fail_found(*orientation, expected);
        double length = 0;
        for (std::size_t i = 0; i < 4; ++i) {
          v.orientation[i] = number(orientation->element(i), "a finite number");
          length += v.orientation[i] * v.orientation[i];
        }
        if (!(length > 1e-12)) fail_found(*orientation, expected);
      }
      scene.bodies.push_back(body);
      values.push_back(v);
    }
    return values;
  }

  static void store_body_values(const std::vector<BodyValues>& values, Scene& scene) {
    ParameterSet& p = scene.params;
    for (std::size_t b = 0; b < values.size(); ++b) {
      const BodyValues& v = values[b];
      std::copy(v.position.begin(), v.position.end(), p[ParamId::BodyPosition].value.begin() + 3 * b);
      std::copy(v.orientation.begin(), v.orientation.end(), p[ParamId::BodyOrientation].value.begin() + 4 * b);
      std::copy(v.velocity.begin(), v.velocity.end(), p[ParamId::BodyVelocity].value.begin() + 3 * b);
      std::copy(v.angular_velocity.begin(), v.angular_velocity.end(), p[ParamId::BodyAngularVelocity].value.begin() + 3 * b);
      p[ParamId::BodyDensity].value[b] = v.density;
    }
  }

  // A joint's parameter values as written.
  struct JointValues {
    std::array<double, 3> anchor{};
    double damping = 0;
  };

  std::vector<JointValues> read_joints(const Node& node, Scene& scene) const {
    expect_array(node, "an array of joints");
    const std::string types = "ball, hinge, prismatic or fixed";
    const int b = scene.body_count();
    // Each joint has a motor control per step (ParamId::JointControl), like a control channel.
    const long long total = static_cast<long long>(node.size()) * scene.settings.steps;
    if (total > kMaxControlValues)
      fail(node.path, "found " + std::to_string(node.size()) + " joints x " + std::to_string(scene.settings.steps) +
                          " steps = " + std::to_string(total) + " joint control values; expected at most " +
                          std::to_string(kMaxControlValues));
    std::vector<JointValues> values;
    for (std::size_t k = 0; k < node.size(); ++k) {
      const Node item = node.element(k);
      if (!item.json.is_object()) fail_found(item, "a joint object with a \"type\" (" + types + ")");
      const Node type_node = required(item, "type", types);
      const std::optional<JointType> type = joint_type_from_name(string(type_node, types));
      if (!type) fail_found(type_node, types);
      const bool free_direction = *type == JointType::Hinge || *type == JointType::Prismatic;
      const std::string context = context_of(item) + " (a " + std::string(joint_type_name(*type)) + " joint)";
      if (free_direction || *type == JointType::Fixed)
        expect_object(item, {"name", "type", "parent", "child", "anchor", "axis", "limits", "damping", "collide"}, context);
      else
        expect_object(item, {"name", "type", "parent", "child", "anchor", "damping", "collide"}, context);
      if (b == 0) fail(item.path, "a joint needs bodies; expected a \"bodies\" array before joints can join them");
      Joint joint;
      joint.type = *type;
      if (auto name = optional(item, "name")) joint.name = string(*name, "a joint name");
      const std::string body_range = "a body index in [0, " + std::to_string(b) + ")";
      if (auto parent = optional(item, "parent"))
        joint.parent = static_cast<int>(integer(*parent, -1, b - 1, "-1 (the world) or " + body_range));
      const Node child = required(item, "child", body_range);
      joint.child = static_cast<int>(integer(child, 0, b - 1, body_range));
      if (joint.child == joint.parent) fail_found(child, "a body other than the parent");
      JointValues v;
      v.anchor = vec3(required(item, "anchor", "the joint's anchor [x, y, z] in the world at the start (m)"),
                      "the joint's anchor [x, y, z] in the world at the start (m)");
      if (auto axis = optional(item, "axis")) unit_vector(*axis, vec3(*axis, "the joint's axis [x, y, z]"), joint.axis);
      else if (free_direction) required(item, "axis", "the joint's axis [x, y, z] in the world at the start");
      if (auto limits = optional(item, "limits")) {
        const std::string expected = *type == JointType::Hinge ? "[lower, upper] turns about the axis in [-pi, pi] (rad)"
                                                               : "[lower, upper] slides along the axis (m)";
        if (!free_direction) fail(limits->path, "a fixed joint has no free direction to limit");
        if (!limits->json.is_array() || limits->size() != 2) fail_found(*limits, expected);
        joint.lower = number(limits->element(0), expected);
        joint.upper = number(limits->element(1), expected);
        if (joint.lower > joint.upper) fail_found(*limits, expected + " with lower <= upper");
        if (*type == JointType::Hinge && (joint.lower < -std::numbers::pi || joint.upper > std::numbers::pi))
          fail_found(*limits, expected);
        joint.limited = true;
      }
      if (auto damping = optional(item, "damping")) v.damping = number(*damping, "a damping >= 0", non_negative);
      if (auto collide = optional(item, "collide")) joint.collide = boolean(*collide);
      scene.joints.push_back(joint);
      values.push_back(v);
    }
    return values;
  }

  static void store_joint_values(const std::vector<JointValues>& values, Scene& scene) {
    ParameterSet& p = scene.params;
    for (std::size_t j = 0; j < values.size(); ++j) {
      std::copy(values[j].anchor.begin(), values[j].anchor.end(), p[ParamId::JointAnchor].value.begin() + 3 * j);
      p[ParamId::JointDamping].value[j] = values[j].damping;
    }
  }

  void read_joint_settings(const Node& node, JointSettings& s) const {
    expect_object(node, {"stiffness", "damping", "angular_stiffness", "angular_damping", "limit_stiffness"});
    if (auto v = optional(node, "stiffness")) s.stiffness = number(*v, "a stiffness > 0 (N/m)", positive);
    if (auto v = optional(node, "damping")) s.damping = number(*v, "a damping >= 0 (N s/m)", non_negative);
    if (auto v = optional(node, "angular_stiffness"))
      s.angular_stiffness = number(*v, "a stiffness > 0 (N m/rad)", positive);
    if (auto v = optional(node, "angular_damping"))
      s.angular_damping = number(*v, "a damping >= 0 (N m s/rad)", non_negative);
    if (auto v = optional(node, "limit_stiffness")) s.limit_stiffness = number(*v, "a stiffness >= 0", non_negative);
  }

  // A number for every step and joint, or one row of J values per step.
  void read_joint_controls(const Node& node, Scene& scene) const {
    const auto steps = static_cast<std::size_t>(scene.settings.steps);
    const auto joints = static_cast<std::size_t>(scene.joint_count());
    if (joints == 0) fail(node.path, "joint controls need joints; expected a \"joints\" array");
    std::vector<double>& controls = scene.params[ParamId::JointControl].value;
    constexpr std::string_view value = "a finite torque (N m) or force (N)";
    if (node.json.is_number()) {
      controls.assign(steps * joints, number(node, value));
      return;
    }
    if (!node.json.is_array() || node.size() != steps)
      fail_found(node, "a number for all, or an array of " + std::to_string(steps) +
                           " rows (one per step, simulation.steps) of " + std::to_string(joints) + " numbers");
    controls.clear();
    for (std::size_t t = 0; t < steps; ++t) {
      const Node row = node.element(t);
      if (!row.json.is_array() || row.size() != joints)
        fail_found(row, "an array of " + std::to_string(joints) + " values (one per joint)");
      for (std::size_t k = 0; k < joints; ++k) controls.push_back(number(row.element(k), value));
    }
  }

  // [[particle, body], ...]: each particle held to the body where it starts.
  void read_attachments(const Node& node, Scene& scene) const {
    constexpr std::string_view expected = "an array of [particle, body] pairs";
    expect_array(node, expected);
    const int b = scene.body_count();
    if (b == 0 && node.size() > 0) fail(node.path, "attachments need bodies; expected a \"bodies\" array");
    std::vector<int> attached_to(size_t(scene.particle_count()), -1);
    for (std::size_t k = 0; k < node.size(); ++k) {
      const Node pair = node.element(k);
      if (!pair.json.is_array() || pair.size() != 2) fail_found(pair, "a pair [particle, body]");
      const int particle = particle_index(pair.element(0));
      const int body = static_cast<int>(integer(pair.element(1), 0, b - 1, "a body index in [0, " + std::to_string(b) + ")"));
      if (attached_to[size_t(particle)] >= 0)
        fail_found(pair.element(0), "each particle attached once (it is already held to body " +
                                        std::to_string(attached_to[size_t(particle)]) + ")");
      if (scene.pinned[size_t(particle)])
        fail_found(pair.element(0), "a particle that is not pinned (a pinned particle cannot follow a body)");
      attached_to[size_t(particle)] = body;
      scene.attachments.push_back({particle, body});
    }
  }

  void read_colliders(const Node& node, Scene& scene) const {
    expect_array(node, "an array of colliders");
    for (std::size_t k = 0; k < node.size(); ++k) scene.colliders.push_back(read_collider(node.element(k)));
  }

  ColliderShape read_collider(const Node& node) const {
    const std::string names = "plane, box, sphere or capsule";
    if (!node.json.is_object()) fail_found(node, "a collider object with a \"type\" (" + names + ")");
    const Node type_node = required(node, "type", names);
    const std::optional<ColliderType> type = collider_type_from_name(string(type_node, names));
    if (!type) fail_found(type_node, names);
    const std::string context = context_of(node) + " (a " + std::string(collider_type_name(*type)) + " collider)";
    ColliderShape c;
    c.type = *type;
    const auto size = [&](std::string_view key, std::string_view expected) {
      return number(required(node, key, expected), expected, positive);
    };
    switch (*type) {
      case ColliderType::Plane: {
        expect_object(node, {"type", "normal", "offset"}, context);
        const Node normal = required(node, "normal", "the plane's normal [x, y, z]");
        unit_vector(normal, vec3(normal, "the plane's normal [x, y, z]"), c.normal);
        if (auto offset = optional(node, "offset")) c.offset = number(*offset, "a finite offset (m)");
        return c;
      }
      case ColliderType::Box:
        expect_object(node, {"type", "position", "orientation", "half_extents"}, context);
        read_placement(node, c);
        {
          const Node half = required(node, "half_extents", "the box's half extents [x, y, z] (m)");
          const std::array<double, 3> e = vec3(half, "the box's half extents [x, y, z] (m)");
          for (int k = 0; k < 3; ++k) {
            if (!positive(e[k])) fail_found(half.element(k), "a half extent > 0 (m)");
            c.half_extents[k] = e[k];
          }
        }
        return c;
      case ColliderType::Sphere:
        expect_object(node, {"type", "position", "radius"}, context);
        c.position_from(vec3(required(node, "position", "the centre [x, y, z] (m)"), "the centre [x, y, z] (m)"));
        c.radius = size("radius", "a radius > 0 (m)");
        return c;
      case ColliderType::Capsule:
        expect_object(node, {"type", "position", "orientation", "radius", "half_length"}, context);
        read_placement(node, c);
        c.radius = size("radius", "a radius > 0 (m)");
        c.half_length = size("half_length", "half the axis' length > 0 (m)");
        return c;
    }
    return c;
  }

  // A shape's position and orientation (a unit quaternion [x, y, z, w]; identity if absent).
  void read_placement(const Node& node, ColliderShape& c) const {
    c.position_from(vec3(required(node, "position", "the centre [x, y, z] (m)"), "the centre [x, y, z] (m)"));
    auto orientation = optional(node, "orientation");
    if (!orientation) return;
    constexpr std::string_view expected = "a unit quaternion [x, y, z, w]";
    if (!orientation->json.is_array() || orientation->size() != 4) fail_found(*orientation, expected);
    double q[4];
    for (std::size_t k = 0; k < 4; ++k) q[k] = number(orientation->element(k), "a finite number");
    const double length = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (std::abs(length - 1) > 1e-6) fail_found(*orientation, "a unit quaternion [x, y, z, w] (its length is " + number_text(length) + ")");
    std::copy(q, q + 4, c.orientation);
  }

  // A direction kept bit for bit when it is unit length already (as saved), else normalised.
  void unit_vector(const Node& node, const std::array<double, 3>& d, double* out) const {
    const double scale = std::max({std::abs(d[0]), std::abs(d[1]), std::abs(d[2])});
    if (scale == 0) fail_found(node, "a non-zero direction");
    if (scale <= 1 && std::abs(std::hypot(d[0], d[1], d[2]) - 1) <= 4 * std::numeric_limits<double>::epsilon()) {
      std::copy(d.begin(), d.end(), out);
      return;
    }
    const double length = std::hypot(d[0] / scale, d[1] / scale, d[2] / scale);  // scaled: cannot overflow
    for (int k = 0; k < 3; ++k) out[k] = d[k] / scale / length;
  }

  void read_contact(const Node& node, Scene& scene) const {
    expect_object(node, {"stiffness", "damping", "friction", "damping_mode", "smoothing", "friction_smoothing", "bodies"});
    ContactSettings& c = scene.contact;
    if (auto bodies = optional(node, "bodies")) c.bodies = boolean(*bodies);
    if (auto stiffness = optional(node, "stiffness"))
      scene.params[ParamId::ContactStiffness].value = {number(*stiffness, "a stiffness >= 0 (N/m)", non_negative)};
    if (auto damping = optional(node, "damping"))
      scene.params[ParamId::ContactDamping].value = {number(*damping, "a damping >= 0 (N s/m)", non_negative)};
    if (auto friction = optional(node, "friction"))
      scene.params[ParamId::ContactFriction].value = {number(*friction, "a friction coefficient >= 0", non_negative)};
    if (auto mode = optional(node, "damping_mode")) {
      constexpr std::string_view expected = "\"approach\" (damp only motion into a collider) or \"both\"";
      const std::string name = string(*mode, expected);
      if (name != "approach" && name != "both") fail_found(*mode, expected);
      c.damp_approach_only = name == "approach";
    }
    if (auto smoothing = optional(node, "smoothing"))
      c.smoothing = number(*smoothing, "a width >= 0 (m; 0: contact switches on at the surface)", non_negative);
    if (auto smoothing = optional(node, "friction_smoothing"))
      c.friction_smoothing = number(*smoothing, "a speed > 0 (m/s)", positive);
  }

  void read_parameters(const Node& node, Scene& scene) const {
    if (!node.json.is_object()) fail_found(node, "an object of parameter names");
    for (const auto& [name, value] : node.json.items()) {
      const Node entry{value, member_path(node.path, name)};
      const std::optional<ParamId> id = param_from_name(name);
      if (!id) {
        std::vector<std::string_view> names;
        for (int i = 0; i < kParamCount; ++i) names.push_back(param_name(static_cast<ParamId>(i)));
        fail(entry.path, "unknown parameter '" + printable_excerpt(name) + "'" + did_you_mean(name, names) +
                             "; expected one of: " + join(names));
      }
      expect_object(entry, {"optimize", "rows", "lower", "upper"});
      Parameter& p = scene.params[*id];
      if (auto optimize = optional(entry, "optimize")) p.optimize = boolean(*optimize);
      if (auto rows = optional(entry, "rows")) {
        const std::string expected = "an array of distinct row indices in [0, " + std::to_string(p.rows) +
                                     ") (the bodies, particles or joints to optimise)";
        if (!rows->json.is_array() || rows->json.empty()) fail_found(*rows, expected);
        for (std::size_t k = 0; k < rows->size(); ++k) {
          if (p.rows == 0) fail_found(rows->element(k), expected);
          const int row = static_cast<int>(integer(rows->element(k), 0, p.rows - 1, expected));
          if (std::find(p.optimize_rows.begin(), p.optimize_rows.end(), row) != p.optimize_rows.end())
            fail_found(rows->element(k), expected);
          p.optimize_rows.push_back(row);
        }
        std::sort(p.optimize_rows.begin(), p.optimize_rows.end());
      }
      if (auto lower = optional(entry, "lower")) p.lower = number(*lower, "a finite lower bound");
      if (auto upper = optional(entry, "upper")) p.upper = number(*upper, "a finite upper bound");
      if (p.lower > p.upper)
        fail(entry.path, "found lower " + number_text(p.lower) + " > upper " + number_text(p.upper) +
                             "; expected lower <= upper");
    }
  }

  void read_objectives(const Node& node, Scene& scene) const {
    expect_array(node, "an array of objectives");
    for (std::size_t k = 0; k < node.size(); ++k) scene.objectives.push_back(read_objective(node.element(k), scene));
  }

  int step(const Node& objective, int steps) const {
    auto node = optional(objective, "step");
    if (!node) return -1;
    return static_cast<int>(
        integer(*node, -1, steps, "-1 (the final step) or a step in [0, " + std::to_string(steps) + "]"));
  }

  Objective read_objective(const Node& node, const Scene& scene) const {
    if (!node.json.is_object()) fail_found(node, "an objective object with a \"type\"");
    const Node type_node = required(node, "type", "one of: " + objective_type_names());
    const std::string type_name = string(type_node, "one of: " + objective_type_names());
    const std::optional<ObjectiveType> type = objective_type_from_name(type_name);
    if (!type) fail_found(type_node, "one of: " + objective_type_names());
    const std::string context = context_of(node) + " (a " + type_name + " objective)";

    Objective o;
    o.type = *type;
    switch (*type) {
      case ObjectiveType::Target:
      case ObjectiveType::Velocity: {
        expect_object(node, {"type", "particles", "bodies", "target", "step", "weight"}, context);
        if (auto bodies = optional(node, "bodies")) o.bodies = body_list(*bodies, scene);
        if (auto particles = optional(node, "particles")) o.particles = particle_list(*particles);
        else if (o.bodies.empty())
          required(node, "particles", "a non-empty array of particle indices (or \"bodies\")");
        const std::string_view expected = *type == ObjectiveType::Target ? "a target position [x, y, z] (m)"
                                                                         : "a target velocity [x, y, z] (m/s)";
        const std::array<double, 3> target = vec3(required(node, "target", expected), expected);
        o.target.assign(target.begin(), target.end());
        break;
      }
      case ObjectiveType::Positions:
        expect_object(node, {"type", "particles", "targets", "offset", "step", "weight"}, context);
        if (auto particles = optional(node, "particles")) {
          o.particles = particle_list(*particles);
        } else {
          for (int i = 0; i < scene.particle_count(); ++i) o.particles.push_back(i);
        }
        read_position_targets(node, scene, o);
        break;
      case ObjectiveType::Markers:
        expect_object(node, {"type", "file", "bind", "bind_bodies", "steps_per_frame", "weight"}, context);
        read_markers(node, scene, o);
        break;
      case ObjectiveType::Effort: expect_object(node, {"type", "weight"}, context); break;
      case ObjectiveType::Orientation:
        expect_object(node, {"type", "bodies", "axis", "direction", "step", "weight"}, context);
        o.bodies = body_list(required(node, "bodies", "a non-empty array of body indices"), scene);
        o.direction[0] = 0, o.direction[1] = 1, o.direction[2] = 0;  // by default: the axis points up
        if (auto axis = optional(node, "axis")) unit_vector(*axis, vec3(*axis, "an axis [x, y, z] in the body's frame"), o.axis);
        if (auto direction = optional(node, "direction")) read_direction(*direction, o);
        break;
      case ObjectiveType::Travel:
        expect_object(node, {"type", "particles", "direction", "step", "weight"}, context);
        o.particles = particle_list(required(node, "particles", "a non-empty array of particle indices"));
        if (auto direction = optional(node, "direction")) read_direction(*direction, o);
        break;
    }
    o.step = step(node, scene.settings.steps);
    if (auto weight = optional(node, "weight")) o.weight = number(*weight, "a weight >= 0", non_negative);
    return o;
  }

  void read_position_targets(const Node& node, const Scene& scene, Objective& o) const {
    auto targets = optional(node, "targets");
    auto offset = optional(node, "offset");
    if (targets.has_value() == offset.has_value())
      fail(node.path, std::string(targets ? "found both" : "found neither") +
                          " \"targets\" and \"offset\"; expected exactly one of them");
    if (targets) {
      o.target = rows_of_3(*targets, o.particles.size(), "a target position [x, y, z] (m)",
                           "an array of " + std::to_string(o.particles.size()) +
                               " [x, y, z] targets (one per listed particle)");
      return;
    }
    const std::array<double, 3> d = vec3(*offset, "an offset [dx, dy, dz] (m)");
    const std::vector<double>& x0 = scene.params[ParamId::InitialPosition].value;
    for (int i : o.particles)
      for (int k = 0; k < 3; ++k) {
        const double target = x0[3 * i + k] + d[k];
        if (!finite(target)) fail_found(*offset, "an offset whose targets stay finite");
        o.target.push_back(target);
      }
  }

  // Normalising a saved unit direction again could change a last digit and break
  // load-save-load: unit_vector keeps it bit for bit.
  void read_direction(const Node& node, Objective& o) const {
    unit_vector(node, vec3(node, "a direction [x, y, z]"), o.direction);
  }

  void read_markers(const Node& node, const Scene& scene, Objective& o) const {
    const Node file = required(node, "file", "the path of a marker CSV file");
    const std::string written = string(file, "the path of a marker CSV file, relative to the scene's folder");
    if (written.empty()) fail_found(file, "the path of a marker CSV file");
    o.marker_file = fs::path(written);
    const fs::path resolved = o.marker_file.is_absolute() ? o.marker_file : folder_ / o.marker_file;

    if (auto spf = optional(node, "steps_per_frame"))
      o.steps_per_frame = int_in(*spf, 1, kIntMax, "an integer number of steps per frame");

    // Markers follow particles ("bind") or bodies' centres of mass ("bind_bodies").
    const std::optional<Node> bind_bodies = optional(node, "bind_bodies");
    const std::optional<Node> bind = bind_bodies ? optional(node, "bind")
                                                 : required(node, "bind", "a non-empty array of [marker, particle] pairs");
    std::map<int, std::string> bound;  // marker id -> where it is bound
    const auto read_bind = [&](const Node& list, std::string_view what, auto index_of, auto& out) {
      const std::string expected = "a non-empty array of [marker, " + std::string(what) + "] pairs";
      if (!list.json.is_array() || list.json.empty()) fail_found(list, expected);
      for (std::size_t k = 0; k < list.size(); ++k) {
        const Node pair = list.element(k);
        if (!pair.json.is_array() || pair.size() != 2) fail_found(pair, "a pair [marker, " + std::string(what) + "]");
        const Node marker_node = pair.element(0);
        const int marker = int_in(marker_node, std::numeric_limits<int>::min(), kIntMax, "a marker id, an integer");
        if (const auto [it, inserted] = bound.emplace(marker, pair.path); !inserted)
          fail_found(marker_node, "each marker bound once (marker " + std::to_string(marker) + " is already at " +
                                      it->second + ")");
        out.emplace_back(marker, index_of(pair.element(1)));
      }
    };
    if (bind) read_bind(*bind, "particle", [&](const Node& n) { return particle_index(n); }, o.bind);
    if (bind_bodies) {
      const int bodies = scene.body_count();
      const std::string body_range = "a body index in [0, " + std::to_string(bodies) + ")";
      read_bind(*bind_bodies, "body",
                [&](const Node& n) {
                  if (bodies == 0) fail_found(n, "a body index (the scene has no bodies)");
                  return static_cast<int>(integer(n, 0, bodies - 1, body_range));
                },
                o.bind_bodies);
    }

    Result<MarkerTrack> track = read_marker_csv(resolved);
    if (!track) fail(file.path, track.error().message);

    // Keep the samples of bound markers; others are ignored.
    std::set<int> observed;
    const long long steps = scene.settings.steps;
    for (std::size_t k = 0; k < track->samples.size(); ++k) {
      const MarkerSample& sample = track->samples[k];
      if (!bound.contains(sample.marker)) continue;
      const long long step_of_frame = static_cast<long long>(sample.frame) * o.steps_per_frame;
      if (step_of_frame < 0 || step_of_frame > steps)
        fail(file.path, resolved.string() + ":" + std::to_string(track->lines[k]) + ": found frame " +
                            std::to_string(sample.frame) + " (step " + std::to_string(step_of_frame) + " at " +
                            std::to_string(o.steps_per_frame) + " steps per frame); expected a frame in [0, " +
                            std::to_string(steps / o.steps_per_frame) + "] (simulation.steps is " +
                            std::to_string(steps) + ")");
      o.samples.push_back(sample);
      observed.insert(sample.marker);
    }
    for (const auto& [marker, where] : bound)
      if (!observed.contains(marker))
        fail(where + "[0]", "found " + std::to_string(marker) + "; expected a marker id that occurs in " + resolved.string());
  }

  void read_camera(const Node& node, SceneCamera& camera) const {
    expect_object(node, {"eye", "target", "fov_degrees"});
    const std::array<double, 3> eye = vec3(required(node, "eye", "the camera position [x, y, z] (m)"),
                                           "the camera position [x, y, z] (m)");
    const Node target_node = required(node, "target", "the point looked at [x, y, z] (m)");
    const std::array<double, 3> target = vec3(target_node, "the point looked at [x, y, z] (m)");
    if (eye == target) fail_found(target_node, "a point other than the camera position");
    if (auto fov = optional(node, "fov_degrees"))
      camera.fov_degrees = number(*fov, "a vertical field of view in degrees, in (0, 180)",
                                  [](double v) { return v > 0 && v < 180; });
    std::copy(eye.begin(), eye.end(), camera.eye);
    std::copy(target.begin(), target.end(), camera.target);
    camera.set = true;
  }

  void read_optimizer(const Node& node, OptimizerSettings& o) const {
    expect_object(node, {"method", "iterations", "learning_rate", "momentum", "beta1", "beta2", "epsilon", "history",
                         "clip", "tolerance", "loss_tolerance", "population", "sigma", "seed"});
    if (auto method = optional(node, "method")) {
      const std::string name = string(*method, "gd, adam, lbfgs or cmaes");
      const std::optional<OptimizerMethod> m = method_from_name(name);
      if (!m) fail_found(*method, "one of: gd, adam, lbfgs, cmaes");
      o.method = *m;
    }
    const auto read_number = [&](std::string_view key, double& field, std::string_view expected, bool (*ok)(double)) {
      if (auto value = optional(node, key)) field = number(*value, expected, ok);
    };
    if (auto iterations = optional(node, "iterations")) o.iterations = int_in(*iterations, 0, kIntMax, "an integer");
    if (auto history = optional(node, "history")) o.history = int_in(*history, 1, 1000, "an integer");
    read_number("learning_rate", o.learning_rate, "a number > 0", positive);
    read_number("momentum", o.momentum, "a number in [0, 1)", unit_interval_open_right);
    read_number("beta1", o.beta1, "a number in [0, 1)", unit_interval_open_right);
    read_number("beta2", o.beta2, "a number in [0, 1)", unit_interval_open_right);
    read_number("epsilon", o.epsilon, "a number > 0", positive);
    read_number("clip", o.clip, "a number >= 0 (0: no clipping)", non_negative);
    read_number("tolerance", o.tolerance, "a number >= 0", non_negative);
    read_number("loss_tolerance", o.loss_tolerance, "a number >= 0", non_negative);
    if (auto population = optional(node, "population")) {
      constexpr std::string_view expected = "0 (the default) or an integer >= 2";
      o.population = static_cast<int>(integer(*population, 0, kIntMax, expected));
      if (o.population == 1) fail_found(*population, expected);
    }
    read_number("sigma", o.sigma, "a number > 0", positive);
    if (auto seed = optional(node, "seed")) o.seed = unsigned_integer(*seed, "an integer in [0, 2^64 - 1]");
  }

  std::string file_;
  fs::path folder_;  // marker files are relative to it
  int particle_count_ = 0;
};

// ---- Writing ---------------------------------------------------------------------

OrderedJson rows(const std::vector<double>& flat, int cols) {
  OrderedJson out = OrderedJson::array();
  for (std::size_t at = 0; at + static_cast<std::size_t>(cols) <= flat.size() && cols > 0; at += cols)
    out.push_back(std::vector<double>(flat.begin() + static_cast<std::ptrdiff_t>(at),
                                      flat.begin() + static_cast<std::ptrdiff_t>(at + cols)));
  return out;
}

OrderedJson vec3_json(const double* v) { return OrderedJson::array({v[0], v[1], v[2]}); }

OrderedJson objective_json(const Objective& o) {
  OrderedJson j;
  j["type"] = objective_type_name(o.type);
  switch (o.type) {
    case ObjectiveType::Target:
    case ObjectiveType::Velocity:
      if (!o.particles.empty() || o.bodies.empty()) j["particles"] = o.particles;
      if (!o.bodies.empty()) j["bodies"] = o.bodies;
      j["target"] = o.target;
      j["step"] = o.step;
      break;
    case ObjectiveType::Positions:
      j["particles"] = o.particles;
      j["targets"] = rows(o.target, 3);
      j["step"] = o.step;
      break;
    case ObjectiveType::Markers: {
      j["file"] = o.marker_file.generic_string();
      OrderedJson bind = OrderedJson::array();
      for (const auto& [marker, particle] : o.bind) bind.push_back({marker, particle});
      if (!o.bind.empty()) j["bind"] = bind;
      if (!o.bind_bodies.empty()) {
        OrderedJson bodies = OrderedJson::array();
        for (const auto& [marker, body] : o.bind_bodies) bodies.push_back({marker, body});
        j["bind_bodies"] = bodies;
      }
      j["steps_per_frame"] = o.steps_per_frame;
      break;
    }
    case ObjectiveType::Effort: break;
    case ObjectiveType::Orientation:
      j["bodies"] = o.bodies;
      j["axis"] = vec3_json(o.axis);
      j["direction"] = vec3_json(o.direction);
      j["step"] = o.step;
      break;
    case ObjectiveType::Travel:
      j["particles"] = o.particles;
      j["direction"] = vec3_json(o.direction);
      j["step"] = o.step;
      break;
  }
  j["weight"] = o.weight;
  return j;
}

OrderedJson body_json(const Scene& scene, int b) {
  const RigidBody& body = scene.bodies[size_t(b)];
  const ParameterSet& p = scene.params;
  OrderedJson j;
  if (!body.name.empty()) j["name"] = body.name;
  j["shape"] = body_shape_name(body.shape);
  switch (body.shape) {
    case BodyShape::Sphere: j["radius"] = body.radius; break;
    case BodyShape::Box: j["half_extents"] = vec3_json(body.half_extents); break;
    case BodyShape::Capsule:
      j["radius"] = body.radius;
      j["half_length"] = body.half_length;
      break;
  }
  j["density"] = p[ParamId::BodyDensity].value.at(size_t(b));
  j["position"] = vec3_json(&p[ParamId::BodyPosition].value.at(3 * size_t(b)));
  const double* q = &p[ParamId::BodyOrientation].value.at(4 * size_t(b));
  j["orientation"] = OrderedJson::array({q[0], q[1], q[2], q[3]});
  j["velocity"] = vec3_json(&p[ParamId::BodyVelocity].value.at(3 * size_t(b)));
  j["angular_velocity"] = vec3_json(&p[ParamId::BodyAngularVelocity].value.at(3 * size_t(b)));
  return j;
}

OrderedJson joint_json(const Scene& scene, int k) {
  const Joint& joint = scene.joints[size_t(k)];
  const ParameterSet& p = scene.params;
  OrderedJson j;
  if (!joint.name.empty()) j["name"] = joint.name;
  j["type"] = joint_type_name(joint.type);
  j["parent"] = joint.parent;
  j["child"] = joint.child;
  j["anchor"] = vec3_json(&p[ParamId::JointAnchor].value.at(3 * size_t(k)));
  if (joint.type != JointType::Ball) j["axis"] = vec3_json(joint.axis);
  if (joint.limited) j["limits"] = OrderedJson::array({joint.lower, joint.upper});
  j["damping"] = p[ParamId::JointDamping].value.at(size_t(k));
  if (joint.collide) j["collide"] = true;
  return j;
}

OrderedJson collider_json(const ColliderShape& c) {
  OrderedJson j;
  j["type"] = collider_type_name(c.type);
  const auto placement = [&] {
    j["position"] = vec3_json(c.position);
    j["orientation"] = OrderedJson::array({c.orientation[0], c.orientation[1], c.orientation[2], c.orientation[3]});
  };
  switch (c.type) {
    case ColliderType::Plane:
      j["normal"] = vec3_json(c.normal);
      j["offset"] = c.offset;
      break;
    case ColliderType::Box:
      placement();
      j["half_extents"] = vec3_json(c.half_extents);
      break;
    case ColliderType::Sphere:
      j["position"] = vec3_json(c.position);
      j["radius"] = c.radius;
      break;
    case ColliderType::Capsule:
      placement();
      j["radius"] = c.radius;
      j["half_length"] = c.half_length;
      break;
  }
  return j;
}

OrderedJson scene_json(const Scene& scene) {
  const ParameterSet& p = scene.params;
  OrderedJson j;
  j["format"] = kFormat;
  j["version"] = kVersion;
  j["name"] = scene.name;
  if (!scene.description.empty()) j["description"] = scene.description;

  OrderedJson& sim = j["simulation"];
  sim["dt"] = scene.settings.dt;
  sim["steps"] = scene.settings.steps;
  sim["checkpoint_every"] = scene.settings.checkpoint_every;
  sim["gravity"] = p[ParamId::Gravity].value;
  sim["drag"] = p[ParamId::Drag].value.at(0);
  if (const Ground& g = scene.settings.ground; g.enabled) {
    OrderedJson& ground = sim["ground"];
    ground["height"] = g.height;
    ground["stiffness"] = p[ParamId::GroundStiffness].value.at(0);
    ground["damping"] = g.damping;
    ground["friction"] = p[ParamId::Friction].value.at(0);
    ground["contact_smoothing"] = g.contact_smoothing;
    ground["friction_smoothing"] = g.friction_smoothing;
  }

  if (scene.body_count() > 0) {
    OrderedJson& bodies = j["bodies"] = OrderedJson::array();
    for (int b = 0; b < scene.body_count(); ++b) bodies.push_back(body_json(scene, b));
  }

  if (scene.joint_count() > 0) {
    OrderedJson& joints = j["joints"] = OrderedJson::array();
    for (int k = 0; k < scene.joint_count(); ++k) joints.push_back(joint_json(scene, k));
    const JointSettings& js = scene.joint_settings;
    j["joint_settings"] = {{"stiffness", js.stiffness},
                           {"damping", js.damping},
                           {"angular_stiffness", js.angular_stiffness},
                           {"angular_damping", js.angular_damping},
                           {"limit_stiffness", js.limit_stiffness}};
    const std::vector<double>& controls = p[ParamId::JointControl].value;
    if (std::any_of(controls.begin(), controls.end(), [](double u) { return u != 0.0; }))
      j["joint_controls"] = rows(controls, scene.joint_count());
  }

  if (!scene.attachments.empty()) {
    OrderedJson& attachments = j["attachments"] = OrderedJson::array();
    for (const Attachment& a : scene.attachments) attachments.push_back({a.particle, a.body});
  }

  if (scene.particle_count() > 0) {
    OrderedJson& particles = j["particles"];
    particles["position"] = rows(p[ParamId::InitialPosition].value, 3);
    particles["velocity"] = rows(p[ParamId::InitialVelocity].value, 3);
    particles["mass"] = p[ParamId::Mass].value;
    OrderedJson pinned = OrderedJson::array();
    for (int i = 0; i < scene.particle_count(); ++i)
      if (scene.pinned[i]) pinned.push_back(i);
    particles["pinned"] = pinned;
    particles["force"] = rows(p[ParamId::ExternalForce].value, 3);
    const std::vector<double>& radius = p[ParamId::ParticleRadius].value;
    if (std::any_of(radius.begin(), radius.end(), [](double r) { return r != 0.0; }))
      particles["radius"] = radius;
  }

  if (scene.spring_count() > 0) {
    OrderedJson& springs = j["springs"];
    OrderedJson pairs = OrderedJson::array();
    for (int i = 0; i < scene.spring_count(); ++i) pairs.push_back({scene.spring_a[i], scene.spring_b[i]});
    springs["pairs"] = pairs;
    springs["stiffness"] = p[ParamId::Stiffness].value;
    springs["damping"] = p[ParamId::Damping].value;
    springs["rest_length"] = p[ParamId::RestLength].value;
    springs["channel"] = scene.spring_channel;
    springs["actuation"] = scene.actuation;
  }
  if (scene.channels > 0) {
    j["controls"]["channels"] = scene.channels;
    j["controls"]["values"] = rows(p[ParamId::Controls].value, scene.channels);
  }

  if (!scene.colliders.empty()) {
    OrderedJson& colliders = j["colliders"] = OrderedJson::array();
    for (const ColliderShape& c : scene.colliders) colliders.push_back(collider_json(c));
  }
  if (!scene.colliders.empty() || scene.body_count() > 1) {  // what colliders and bodies meet each other with
    j["contact"] = {{"stiffness", p[ParamId::ContactStiffness].value.at(0)},
                    {"damping", p[ParamId::ContactDamping].value.at(0)},
                    {"friction", p[ParamId::ContactFriction].value.at(0)},
                    {"damping_mode", scene.contact.damp_approach_only ? "approach" : "both"},
                    {"smoothing", scene.contact.smoothing},
                    {"friction_smoothing", scene.contact.friction_smoothing}};
    if (!scene.contact.bodies) j["contact"]["bodies"] = false;
  }

  OrderedJson parameters = OrderedJson::object();
  for (const Parameter& param : p.items) {
    const bool lower = std::isfinite(param.lower), upper = std::isfinite(param.upper);
    if (!param.optimize && !lower && !upper) continue;
    OrderedJson& entry = parameters[std::string(param_name(param.id))];
    entry["optimize"] = param.optimize;
    if (!param.optimize_rows.empty()) entry["rows"] = param.optimize_rows;
    if (lower) entry["lower"] = param.lower;
    if (upper) entry["upper"] = param.upper;
  }
  if (!parameters.empty()) j["parameters"] = parameters;

  if (!scene.objectives.empty()) {
    OrderedJson& objectives = j["objectives"] = OrderedJson::array();
    for (const Objective& o : scene.objectives) objectives.push_back(objective_json(o));
  }

  const OptimizerSettings& o = scene.optimizer;
  j["optimizer"] = {{"method", method_name(o.method)},
                    {"iterations", o.iterations},
                    {"learning_rate", o.learning_rate},
                    {"momentum", o.momentum},
                    {"beta1", o.beta1},
                    {"beta2", o.beta2},
                    {"epsilon", o.epsilon},
                    {"history", o.history},
                    {"clip", o.clip},
                    {"tolerance", o.tolerance},
                    {"loss_tolerance", o.loss_tolerance},
                    {"population", o.population},
                    {"sigma", o.sigma},
                    {"seed", o.seed}};
  if (scene.camera.set)
    j["camera"] = {{"eye", vec3_json(scene.camera.eye)},
                   {"target", vec3_json(scene.camera.target)},
                   {"fov_degrees", scene.camera.fov_degrees}};
  return j;
}

std::string compact(const OrderedJson& value) {
  return value.dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
}

// Indented JSON, but an array of plain values stays on one line, so that a file of
// positions reads as one [x, y, z] row per line.
void write_pretty(std::string& out, const OrderedJson& value, int indent) {
  const std::string inner(static_cast<std::size_t>(indent) + 2, ' ');
  const auto is_container = [](const OrderedJson& v) { return v.is_array() || v.is_object(); };
  if (value.is_object() && !value.empty()) {
    out += "{\n";
    bool first = true;
    for (const auto& [key, member] : value.items()) {
      out += (first ? "" : ",\n") + inner + compact(OrderedJson(key)) + ": ";
      write_pretty(out, member, indent + 2);
      first = false;
    }
    out += "\n" + std::string(static_cast<std::size_t>(indent), ' ') + "}";
  } else if (value.is_array() && std::any_of(value.begin(), value.end(), is_container)) {
    out += "[\n";
    for (std::size_t i = 0; i < value.size(); ++i) {
      out += (i ? ",\n" : "") + inner;
      write_pretty(out, value[i], indent + 2);
    }
    out += "\n" + std::string(static_cast<std::size_t>(indent), ' ') + "]";
  } else if (value.is_array()) {
    out += "[";
    for (std::size_t i = 0; i < value.size(); ++i) out += (i ? ", " : "") + compact(value[i]);
    out += "]";
  } else {
    out += compact(value);
  }
}

}  // namespace

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
      } catch (const std::exception&) {
      }
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

Status save_scene(const Scene& scene, const std::filesystem::path& path) {
  const std::string name = path.string();
  if (Status valid = check_scene(scene); !valid)
    return Error{name + ": not saved, the scene is invalid: " + valid.error().message};
  // A markers objective refers to its samples by file; samples set in code have none.
  for (std::size_t k = 0; k < scene.objectives.size(); ++k)
    if (scene.objectives[k].type == ObjectiveType::Markers && scene.objectives[k].marker_file.empty())
      return Error{name + ": not saved: objectives[" + std::to_string(k) +
                   "] is a markers objective without a marker_file; expected the path of its CSV file"};
  std::string text;
  try {
    write_pretty(text, scene_json(scene), 0);
  } catch (const std::exception& e) {
    return Error{name + ": not saved: " + printable_excerpt(e.what(), 200)};
  }
  text += "\n";
  return write_file_atomically(path, text);
}

}  // namespace nudge
