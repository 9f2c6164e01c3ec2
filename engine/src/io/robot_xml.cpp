#include "io/robot_xml.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>
#include <system_error>

namespace nudge::robot_xml {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

// tinyxml2's error in words: what is wrong, then its own detail ("XMLElement name=body").
std::string xml_problem(const tinyxml2::XMLDocument& document) {
  std::string what;
  switch (document.ErrorID()) {
    case tinyxml2::XML_ERROR_MISMATCHED_ELEMENT: what = "an element's end tag does not match its start"; break;
    case tinyxml2::XML_ERROR_PARSING_ELEMENT: what = "an element cannot be read"; break;
    case tinyxml2::XML_ERROR_PARSING_ATTRIBUTE: what = "an attribute cannot be read"; break;
    case tinyxml2::XML_ERROR_PARSING_TEXT: what = "text cannot be read"; break;
    case tinyxml2::XML_ERROR_PARSING_COMMENT: what = "a comment is not closed"; break;
    case tinyxml2::XML_ERROR_EMPTY_DOCUMENT: what = "the file has no XML in it"; break;
    default: what = document.ErrorName(); break;
  }
  // ErrorStr() is "Error=... ErrorID=... Line number=N: <detail>"; the detail is worth keeping.
  const std::string full = document.ErrorStr();
  const std::size_t line = full.find("Line number=");
  const std::size_t detail = line == std::string::npos ? std::string::npos : full.find(": ", line);
  if (detail != std::string::npos) what += " (" + full.substr(detail + 2) + ")";
  return what;
}

}  // namespace

std::optional<std::vector<double>> parse_numbers(std::string_view text) {
  std::vector<double> values;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && is_space(text[i])) ++i;
    std::size_t end = i;
    while (end < text.size() && !is_space(text[end])) ++end;
    if (end == i) break;
    std::string_view token = text.substr(i, end - i);
    if (token.size() > 1 && token.front() == '+') token.remove_prefix(1);  // from_chars takes no '+'
    double value = 0;
    const auto [stop, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (ec != std::errc() || stop != token.data() + token.size() || !std::isfinite(value)) return std::nullopt;
    values.push_back(value);
    i = end;
  }
  return values;
}

std::optional<std::string> load(const std::filesystem::path& file, const std::string& label,
                                tinyxml2::XMLDocument& document) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return label + ": no such file";
  std::ifstream in(file, std::ios::binary);
  if (!in) return label + ": cannot be read";
  std::ostringstream text;
  text << in.rdbuf();
  const std::string content = text.str();
  if (document.Parse(content.data(), content.size()) != tinyxml2::XML_SUCCESS)
    return label + ":" + std::to_string(document.ErrorLineNum()) + ": not valid XML: " + xml_problem(document);
  if (document.RootElement() == nullptr) return label + ": has no XML element";
  return std::nullopt;
}

}  // namespace nudge::robot_xml
