// Writing a file so that readers see either the old file or the whole new one, never a
// truncated mix: write to a temporary beside it, flush, then rename over it.
#pragma once

#include <filesystem>
#include <string_view>

#include "nudge/result.h"

namespace nudge {

Status write_file_atomically(const std::filesystem::path& path, std::string_view contents);

}  // namespace nudge
