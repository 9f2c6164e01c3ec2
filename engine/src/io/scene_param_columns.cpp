// The column parameters of a section (ParamFile::Column, ColumnWhenSet in the facts
// table): its keys, and writing them. Reading is SceneReader::read_param_columns.
#include <algorithm>
#include <string_view>
#include <vector>

#include "io/scene_sections.h"
#include "nudge/parameter_facts.h"

namespace nudge::scene_io {

namespace {

template <class F>
void each_column(std::string_view section, F&& f) {
  for (int i = 0; i < kParamCount; ++i) {
    const ParamFacts& facts = param_facts(static_cast<ParamId>(i));
    if (facts.file != ParamFile::Custom && param_section(facts) == section) f(facts);
  }
}

}  // namespace

std::vector<std::string_view> section_keys(std::string_view section, std::initializer_list<std::string_view> own) {
  std::vector<std::string_view> keys(own);
  each_column(section, [&](const ParamFacts& facts) { keys.push_back(param_key(facts)); });
  return keys;
}

void write_param_columns(OrderedJson& json, const Scene& scene, std::string_view section) {
  each_column(section, [&](const ParamFacts& facts) {
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
