// Reading reference marker tracks (nudge/marker_csv.h, where the reader is public), and
// the file helpers the scene loader shares with it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "nudge/marker_csv.h"
#include "nudge/result.h"

namespace nudge {

// Helpers shared with the scene loader.

// Reads a whole regular file, refusing directories, devices and files larger than
// max_bytes before reading. Errors start with the path; `kind` names what was
// expected ("a scene file").
Result<std::string> read_text_file(const std::filesystem::path& path, std::uintmax_t max_bytes, std::string_view kind);

// Text from a file made safe to show in a message: control bytes and invalid UTF-8
// become \xNN, and anything past max_chars characters becomes "...".
std::string printable_excerpt(std::string_view text, std::size_t max_chars = 60);

}  // namespace nudge
