// The column and field parameters of a section (ParamFile::Column, ColumnWhenSet, Field,
// RequiredField in the facts table): its keys, and writing them. Reading is
// SceneReader::read_param_columns and read_param_fields.
#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "io/scene_sections.h"
#include "nudge/assert.h"
#include "nudge/parameter_facts.h"

namespace nudge::scene_io {

namespace {

// Calls f with the facts of each parameter of `section` read by the table (kept(file)).
template <class Kept, class F>
void each_param(std::string_view section, Kept kept, F&& f) {
  for (int i = 0; i < kParamCount; ++i) {
    const ParamFacts& facts = param_facts(static_cast<ParamId>(i));
    if (kept(facts.file) && param_section(facts) == section) f(facts);
  }
}

}  // namespace

std::vector<std::string_view> section_keys(std::string_view section, std::initializer_list<std::string_view> own) {
  std::vector<std::string_view> keys(own);
  each_param(
      section, [](ParamFile file) { return file != ParamFile::Custom; },
      [&](const ParamFacts& facts) { keys.push_back(param_key(facts)); });
  return keys;
}

void write_param_fields(OrderedJson& json, const Scene& scene, std::string_view section, int index) {
  each_param(section, is_param_field, [&](const ParamFacts& facts) {
    const std::vector<double>& value = scene.params[facts.id].value;
    const std::size_t cols = std::size_t(facts.cols), at = cols * std::size_t(index);
    NUDGE_ASSERT(at + cols <= value.size());
    if (facts.file == ParamFile::FieldWhenSet &&
        std::equal(value.begin() + std::ptrdiff_t(at), value.begin() + std::ptrdiff_t(at + cols),
                   param_default_row(facts, facts.cols).begin()))
      return;
    const std::string key(param_key(facts));
    if (cols == 1)
      json[key] = value[at];
    else
      json[key] = std::vector<double>(value.begin() + std::ptrdiff_t(at), value.begin() + std::ptrdiff_t(at + cols));
  });
}

void write_param_columns(OrderedJson& json, const Scene& scene, std::string_view section) {
  each_param(section, is_param_column, [&](const ParamFacts& facts) {
    const std::vector<double>& value = scene.params[facts.id].value;
    if (facts.file == ParamFile::ColumnWhenSet &&
        std::all_of(value.begin(), value.end(), [&](double x) { return x == facts.fill; }))
      return;
    const std::string key(param_key(facts));
    if (facts.element == ParamElement::Scene)
      json[key] = facts.cols == 1 ? OrderedJson(value.at(0)) : OrderedJson(value);
    else if (facts.cols == 1)
      json[key] = value;
    else
      json[key] = rows(value, facts.cols);
  });
}

}  // namespace nudge::scene_io
