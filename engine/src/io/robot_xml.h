// What the MJCF and URDF readers share (mjcf_import.cpp, urdf_import.cpp): a robot file
// read into a tinyxml2 document with its problems in words, and the numbers of an
// attribute's text.
#pragma once

#include <tinyxml2.h>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nudge::robot_xml {

// The numbers of an attribute's text, or nullopt if a token is not a finite number.
std::optional<std::vector<double>> parse_numbers(std::string_view text);

// `file` parsed into `document`: nothing, or the message (named by `label`, with the
// line where the XML went wrong).
std::optional<std::string> load(const std::filesystem::path& file, const std::string& label,
                                tinyxml2::XMLDocument& document);

inline std::string in_quotes(std::string_view s) { return "\"" + std::string(s) + "\""; }

}  // namespace nudge::robot_xml
