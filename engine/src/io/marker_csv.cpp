#include "io/marker_csv.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <system_error>
#include <utility>

namespace nudge {

namespace {

constexpr std::string_view kHeader = "frame,marker,x,y,z";
constexpr std::string_view kColumns[5] = {"frame", "marker", "x", "y", "z"};

std::string_view trim(std::string_view s) {
  const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::string quoted(std::string_view field) { return "'" + printable_excerpt(field, 40) + "'"; }

// from_chars accepts neither a leading '+' nor surrounding spaces; spreadsheets write both.
std::string_view numeric_text(std::string_view field) {
  field = trim(field);
  if (field.size() > 1 && field.front() == '+') field.remove_prefix(1);
  return field;
}

std::optional<int> parse_int(std::string_view field) {
  const std::string_view s = numeric_text(field);
  int value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return value;
}

std::optional<double> parse_finite(std::string_view field) {
  const std::string_view s = numeric_text(field);
  double value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

// Length of the valid UTF-8 sequence starting at s[i], or 0 if there is none.
std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
  const auto byte = static_cast<unsigned char>(s[i]);
  std::size_t length = 0;
  if (byte >= 0xC2 && byte <= 0xDF)
    length = 2;
  else if (byte >= 0xE0 && byte <= 0xEF)
    length = 3;
  else if (byte >= 0xF0 && byte <= 0xF4)
    length = 4;
  else
    return 0;
  if (i + length > s.size()) return 0;
  for (std::size_t k = 1; k < length; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
  return length;
}

}  // namespace

std::string printable_excerpt(std::string_view text, std::size_t max_chars) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size(); ++chars) {
    if (chars == max_chars) return out + "...";
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x20 && byte < 0x7F) {
      out += text[i++];
    } else if (const std::size_t length = utf8_sequence_length(text, i); length > 0) {
      out.append(text.substr(i, length));
      i += length;
    } else {
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xF];
      ++i;
    }
  }
  return out;
}

Result<std::string> read_text_file(const std::filesystem::path& path, std::uintmax_t max_bytes, std::string_view kind) {
  namespace fs = std::filesystem;
  const std::string name = path.string();
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (status.type() == fs::file_type::not_found) return Error{name + ": no such file"};
  if (ec) return Error{name + ": cannot access: " + ec.message()};
  if (status.type() == fs::file_type::directory) return Error{name + ": is a directory; expected " + std::string(kind)};
  if (status.type() != fs::file_type::regular)
    return Error{name + ": is not a regular file; expected " + std::string(kind)};

  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) return Error{name + ": cannot read its size: " + ec.message()};
  if (size > max_bytes)
    return Error{name + ": the file is " + std::to_string(size >> 20) + " MiB; expected at most " +
                 std::to_string(max_bytes >> 20) + " MiB"};

  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const int error = errno;
    return Error{name + ": cannot open for reading" +
                 (error != 0 ? ": " + std::generic_category().message(error) : std::string())};
  }
  std::string text(static_cast<std::size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  if (in.bad()) return Error{name + ": read error"};
  text.resize(static_cast<std::size_t>(in.gcount()));  // the file may have shrunk meanwhile
  return text;
}

Result<MarkerTrack> parse_marker_csv(std::string_view text, std::string_view file_label) {
  const auto error_at = [&](int line, const std::string& what) {
    return Error{std::string(file_label) + ":" + std::to_string(line) + ": " + what};
  };

  MarkerTrack track;
  std::map<std::pair<int, int>, int> line_of_row;  // (frame, marker) -> line, to find duplicates
  int first_blank_line = 0;                        // a blank line seen after the header, or 0
  int line_number = 0;
  std::size_t position = 0;
  bool seen_header = false;

  while (position < text.size()) {
    const std::size_t end = std::min(text.find('\n', position), text.size());
    std::string_view line = text.substr(position, end - position);
    position = end + 1;
    ++line_number;

    if (!seen_header) {
      if (line.starts_with("\xEF\xBB\xBF")) line.remove_prefix(3);  // a UTF-8 byte order mark
      if (trim(line) != kHeader)
        return error_at(line_number,
                        "found the header " + quoted(trim(line)) + "; expected exactly '" + std::string(kHeader) + "'");
      seen_header = true;
      continue;
    }

    if (trim(line).empty()) {
      if (first_blank_line == 0) first_blank_line = line_number;
      continue;
    }
    if (first_blank_line != 0)
      return error_at(first_blank_line,
                      "found a blank line followed by more rows; expected blank lines only at "
                      "the end of the file");

    std::string_view fields[5];
    int field_count = 0;
    for (std::size_t start = 0;; ++field_count) {
      const std::size_t comma = line.find(',', start);
      if (field_count < 5) fields[field_count] = line.substr(start, comma - start);
      if (comma == std::string_view::npos) {
        ++field_count;
        break;
      }
      start = comma + 1;
    }
    if (field_count != 5)
      return error_at(line_number, "expected 5 comma-separated values, found " + std::to_string(field_count));

    MarkerSample sample;
    for (int column = 0; column < 2; ++column) {
      const std::optional<int> value = parse_int(fields[column]);
      if (!value)
        return error_at(line_number, "column '" + std::string(kColumns[column]) + "': found " +
                                         quoted(trim(fields[column])) + "; expected an integer");
      (column == 0 ? sample.frame : sample.marker) = *value;
    }
    for (int axis = 0; axis < 3; ++axis) {
      const std::optional<double> value = parse_finite(fields[2 + axis]);
      if (!value)
        return error_at(line_number, "column '" + std::string(kColumns[2 + axis]) + "': found " +
                                         quoted(trim(fields[2 + axis])) + "; expected a finite number");
      sample.position[axis] = *value;
    }

    const auto [previous, inserted] = line_of_row.emplace(std::pair(sample.frame, sample.marker), line_number);
    if (!inserted)
      return error_at(line_number, "found frame " + std::to_string(sample.frame) + " marker " +
                                       std::to_string(sample.marker) + " again (first on line " +
                                       std::to_string(previous->second) + "); expected one row per frame and marker");
    track.samples.push_back(sample);
    track.lines.push_back(line_number);
  }

  if (!seen_header) return error_at(1, "found an empty file; expected the header '" + std::string(kHeader) + "'");
  return track;
}

Result<MarkerTrack> read_marker_csv(const std::filesystem::path& path) {
  Result<std::string> text = read_text_file(path, kMaxMarkerFileBytes, "a marker CSV file");
  if (!text) return text.error();
  return parse_marker_csv(*text, path.string());
}

}  // namespace nudge
