// What the MJCF and URDF readers share (mjcf_import.cpp, urdf_import.cpp): a robot file
// read into a tinyxml2 document with its problems in words, and the numbers of an
// attribute's text.
#pragma once

#include <tinyxml2.h>

#include <exception>
#include <filesystem>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nudge/result.h"
#include "nudge/robot_import.h"

namespace nudge::robot_xml {

// Thrown anywhere inside a reader (a recursion over the file's tree, where any attribute
// on the way may be wrong) and returned by read_robot as its Error.
struct Failure {
  std::string message;
};

// Reader(file).read(), its failures as Errors naming the file.
template <class Reader>
Result<ImportedRobot> read_robot(const std::filesystem::path& file) {
  try {
    Reader reader(file);
    return reader.read();
  } catch (const Failure& failure) {
    return Error{failure.message};
  } catch (const std::bad_alloc&) {
    return Error{file.string() + ": out of memory while reading it"};
  } catch (const std::exception& e) {
    return Error{file.string() + ": " + e.what()};
  }
}

// The numbers of an attribute's text, or nullopt if a token is not a finite number.
std::optional<std::vector<double>> parse_numbers(std::string_view text);

// `file` parsed into `document`: nothing, or the message (named by `label`, with the
// line where the XML went wrong).
std::optional<std::string> load(const std::filesystem::path& file, const std::string& label,
                                tinyxml2::XMLDocument& document);

inline std::string in_quotes(std::string_view s) { return "\"" + std::string(s) + "\""; }

}  // namespace nudge::robot_xml
