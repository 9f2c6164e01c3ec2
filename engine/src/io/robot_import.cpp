// Choosing the reader of a robot file, MJCF or URDF, by its extension. (The joint names
// and coordinates that nudge/articulations.h also declares are in
// families/articulations/articulation_coordinates.cpp.)
#include <algorithm>
#include <cctype>
#include <string>

#include "nudge/articulations.h"
#include "nudge/robot_import.h"

namespace nudge {

namespace {

std::string lower_extension(const std::filesystem::path& file) {
  std::string extension = file.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension;
}

}  // namespace

bool is_robot_file(const std::filesystem::path& file) {
  const std::string extension = lower_extension(file);
  return extension == ".urdf" || extension == ".xml" || extension == ".mjcf";
}

Result<ImportedRobot> import_robot(const std::filesystem::path& file) {
  const std::string extension = lower_extension(file);
  if (extension == ".urdf") return import_urdf(file);
  if (extension == ".xml" || extension == ".mjcf") return import_mjcf(file);
  return Error{file.string() + ": not a robot file nudge reads: expected .urdf (URDF), or .xml or .mjcf (MJCF)"};
}

}  // namespace nudge
