// JSON text below the level of a scene, for reading and writing scene files: the scan
// of the raw text (pass 1 of reading), the parser's errors and repeated keys (pass 2),
// JSON paths ("$.springs.pairs[3]"), the words of messages (what a value is, "did you
// mean", numbers and ranges), and the pretty writer that save_scene uses.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace nudge::scene_io {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;  // keeps keys in the order written, for saving

// ---- Words of messages ----

// Shortest text that reads back as the same double ("2", "0.1", "inf").
std::string number_text(double x);

// "[lo, hi]"
std::string range_text(long long lo, long long hi);

// "a, b, c"
template <class Words>
std::string join(const Words& words) {
  std::string out;
  for (std::string_view w : words) out += (out.empty() ? "" : ", ") + std::string(w);
  return out;
}

// ---- Pass 1: the raw text ----

// What scan_raw_text found, and where.
struct RawTextProblem {
  std::size_t offset = 0;  // where it starts
  std::string message;
};

// Nesting too deep, NaN and Infinity, comments, numbers too large for a double and
// stray bytes, if any (the first one).
std::optional<RawTextProblem> scan_raw_text(std::string_view text);

// ---- Pass 2: the parser ----

// "$.springs.stiffness", or '$["an odd key"]' for a key that is not an identifier.
std::string member_path(const std::string& path, std::string_view key);

// "$.springs.pairs[3]"
std::string element_path(const std::string& path, std::size_t index);

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

// "line 3, column 5: JSON syntax error: invalid literal; last read: 'x'"
std::string describe_parse_error(const Json::parse_error& e, std::string_view text);

// ---- Pass 3: the DOM ----

// Levenshtein distance, for did_you_mean.
std::size_t edit_distance(std::string_view a, std::string_view b);

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

// What a value is, for "found ...".
std::string describe(const Json& value);

// ---- Writing ----

// A flat array as rows of `cols` values: [[x, y, z], ...].
OrderedJson rows(const std::vector<double>& flat, int cols);

// [v[0], v[1], v[2]]
OrderedJson vec3_json(const double* v);

// Indented JSON, but an array of plain values stays on one line.
void write_pretty(std::string& out, const OrderedJson& value, int indent);

}  // namespace nudge::scene_io
