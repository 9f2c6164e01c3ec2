// The repository root, for tests that read its example scenes and assets:
// NUDGE_SOURCE_DIR (ctest sets it), else the folder above tests/ as compiled.
#pragma once

#include <cstdlib>
#include <filesystem>

namespace nudge::test {

inline std::filesystem::path source_dir() {
  if (const char* env = std::getenv("NUDGE_SOURCE_DIR"); env != nullptr && *env != '\0') return env;
  // Included as "../source_dir.h", __FILE__ may hold a "..": normalise it first.
  return std::filesystem::path(__FILE__).lexically_normal().parent_path().parent_path();
}

}  // namespace nudge::test
