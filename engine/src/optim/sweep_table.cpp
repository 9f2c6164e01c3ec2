// A sweep's table: CSV with a first line naming the sweep, written a whole row at a time
// and flushed, read back to resume a stopped sweep or to plot one.
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>

#include "nudge/atomic_file.h"
#include "nudge/sweep.h"

namespace nudge {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kFirstLine = "# nudge sweep:";

// A field as CSV writes it: quoted when it holds a comma, a quote or a line break.
std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (const char c : text) {
    if (c == '\n' || c == '\r') {
      out += ' ';  // one row per line, always
      continue;
    }
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// Splits one CSV line; false when a quote is left open.
bool split_csv(std::string_view line, std::vector<std::string>& fields) {
  fields.assign(1, {});
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c != '"')
        fields.back() += c;
      else if (i + 1 < line.size() && line[i + 1] == '"')
        fields.back() += '"', ++i;
      else
        quoted = false;
    } else if (c == '"')
      quoted = true;
    else if (c == ',')
      fields.emplace_back();
    else
      fields.back() += c;
  }
  return !quoted;
}

std::string exact_text(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", x);  // read back to the same bits
  return text;
}

bool parse_number(const std::string& text, double& x) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
  return ec == std::errc() && end == text.data() + text.size();
}

std::string row_line(const SweepRow& row) {
  std::string line = std::to_string(row.index);
  for (const double x : row.values) line += "," + exact_text(x);
  return line + "," + csv_field(row.status) + "\n";
}

std::string columns_line(const std::vector<std::string>& columns) {
  std::string line;
  for (std::size_t k = 0; k < columns.size(); ++k) line += (k > 0 ? "," : "") + csv_field(columns[k]);
  return line + "\n";
}

// "# nudge sweep: mode=loss fingerprint=... scene=...": the scene last, as it may hold spaces.
bool parse_first_line(std::string_view line, SweepTableContents& out) {
  if (line.substr(0, kFirstLine.size()) != kFirstLine) return false;
  line.remove_prefix(kFirstLine.size());
  const auto field = [&](std::string_view key, bool rest) -> std::optional<std::string_view> {
    const std::size_t at = line.find(" " + std::string(key) + "=");
    if (at == std::string_view::npos) return std::nullopt;
    std::string_view value = line.substr(at + key.size() + 2);
    if (!rest) value = value.substr(0, value.find(' '));
    return value;
  };
  const auto mode = field("mode", false), fingerprint = field("fingerprint", false), scene = field("scene", true);
  if (!mode || !fingerprint || !scene || !sweep_mode_from_name(*mode)) return false;
  out.mode = *sweep_mode_from_name(*mode);
  out.fingerprint = std::string(*fingerprint);
  out.scene = std::string(*scene);
  return true;
}

struct ParsedTable {
  SweepTableContents contents;
  std::uintmax_t whole_lines_bytes = 0;  // up to the last complete line
};

Result<ParsedTable> parse_table(const fs::path& path, const std::string& text) {
  const std::string name = path.string();
  ParsedTable parsed;
  SweepTableContents& out = parsed.contents;
  std::size_t begin = 0;
  int line_number = 0;
  std::vector<std::string> fields;
  while (begin < text.size()) {
    const std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) break;  // a half-written last line: not a row
    std::string_view line(text.data() + begin, end - begin);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ++line_number;
    const std::string where = name + ":" + std::to_string(line_number) + ": ";
    begin = end + 1;
    parsed.whole_lines_bytes = begin;
    if (line_number == 1) {
      if (!parse_first_line(line, out))
        return Error{where +
                     "not a sweep table: expected a first line '# nudge sweep: mode=... fingerprint=... "
                     "scene=...' (nudge sweep writes it)"};
      continue;
    }
    if (!split_csv(line, fields)) return Error{where + "a quoted field is not closed"};
    if (line_number == 2) {
      if (fields.size() < 3 || fields.front() != "index" || fields.back() != "status")
        return Error{where + "expected the columns' names, from index to status"};
      out.columns = fields;
      continue;
    }
    if (fields.size() != out.columns.size())
      return Error{where + std::to_string(fields.size()) + " fields where the table has " +
                   std::to_string(out.columns.size()) + " columns"};
    SweepRow row;
    double index = -1;
    if (!parse_number(fields.front(), index) || index < 0 || index != std::floor(index) || index > kMaxSweepPoints)
      return Error{where + "index '" + fields.front() + "' is not a point's number"};
    row.index = int(index);
    for (std::size_t k = 1; k + 1 < fields.size(); ++k) {
      double x = 0;
      if (!parse_number(fields[k], x))
        return Error{where + "column " + out.columns[k] + ": '" + fields[k] + "' is not a number"};
      row.values.push_back(x);
    }
    row.status = fields.back();
    out.rows.push_back(std::move(row));
  }
  if (line_number < 2) {
    if (text.empty()) return Error{name + ": empty, not a sweep table"};
    if (line_number == 0) return Error{name + ": not a sweep table (no complete first line)"};
    parsed.contents.columns.clear();  // the columns' line was cut short: it is written again
  }
  return parsed;
}

Result<std::string> read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path.string() + ": cannot read: " + std::strerror(errno)};
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Error{path.string() + ": cannot read"};
  return text.str();
}

}  // namespace

Result<SweepTableContents> read_sweep_table(const fs::path& path) {
  Result<std::string> text = read_text(path);
  if (!text) return text.error();
  Result<ParsedTable> parsed = parse_table(path, *text);
  if (!parsed) return parsed.error();
  if (parsed->contents.columns.empty()) return Error{path.string() + ": no columns' line, not a sweep table"};
  return std::move(parsed->contents);
}

Result<std::unique_ptr<SweepTable>> SweepTable::open(const fs::path& path, const Scene& scene, const SweepPlan& plan) {
  const std::string name = path.string();
  const std::vector<std::string> columns = sweep_columns(scene, plan);
  const std::string fingerprint = sweep_fingerprint(scene, plan);
  std::unique_ptr<SweepTable> table(new SweepTable());
  table->path_ = path;
  table->point_count_ = plan.point_count();
  table->column_count_ = int(columns.size());
  table->done_.assign(std::size_t(table->point_count_), false);

  std::error_code ec;
  const bool resumed = fs::exists(path, ec) && fs::file_size(path, ec) > 0;
  std::string header;
  if (!resumed) {
    std::string scene_path;
    if (!scene.source.empty()) {
      const fs::path folder = fs::absolute(path, ec).parent_path();
      scene_path = fs::proximate(fs::absolute(scene.source, ec), folder, ec).generic_string();
    }
    header = std::string(kFirstLine) + " mode=" + std::string(sweep_mode_name(plan.mode)) +
             " fingerprint=" + fingerprint + " scene=" + scene_path + "\n" + columns_line(columns);
    if (Status written = write_file_atomically(path, header); !written) return written.error();
  } else {
    Result<std::string> text = read_text(path);
    if (!text) return text.error();
    Result<ParsedTable> parsed = parse_table(path, *text);
    if (!parsed) return Error{parsed.error().message + " (the sweep did not resume and left the file as it is)"};
    const SweepTableContents& old = parsed->contents;
    if (old.fingerprint != fingerprint || old.mode != plan.mode)
      return Error{name + ": begun by another sweep (mode " + std::string(sweep_mode_name(old.mode)) +
                   ", fingerprint " + old.fingerprint + "; this one is mode " +
                   std::string(sweep_mode_name(plan.mode)) + ", fingerprint " + fingerprint +
                   ": a different scene, mode or parameters); write to another table, or remove it to start again"};
    if (!old.columns.empty() && old.columns != columns)
      return Error{name + ": its columns are not this sweep's; write to another table, or remove it to start again"};
    int line = 3;
    for (const SweepRow& row : old.rows) {
      if (row.index >= table->point_count_ || table->done_[std::size_t(row.index)])
        return Error{name + ":" + std::to_string(line) + ": point " + std::to_string(row.index) +
                     (row.index >= table->point_count_ ? " is not one of this sweep's" : " is in the table twice")};
      table->done_[std::size_t(row.index)] = true;
      ++table->done_count_;
      ++line;
    }
    // A line the last run left half-written is cut off; its point runs again.
    if (parsed->whole_lines_bytes < text->size()) {
      fs::resize_file(path, parsed->whole_lines_bytes, ec);
      if (ec) return Error{name + ": cannot cut off its half-written last line: " + ec.message()};
    }
    if (old.columns.empty()) header = columns_line(columns);  // the first run stopped inside it
  }
  table->file_ = std::fopen(path.c_str(), "ab");
  if (!table->file_) return Error{name + ": cannot append to it: " + std::strerror(errno)};
  if (resumed && !header.empty() && (std::fputs(header.c_str(), table->file_) < 0 || std::fflush(table->file_) != 0))
    return Error{name + ": cannot write: " + std::strerror(errno)};
  return table;
}

SweepTable::~SweepTable() {
  if (file_) std::fclose(file_);
}

std::vector<int> SweepTable::pending() const {
  std::vector<int> points;
  for (int k = 0; k < point_count_; ++k)
    if (!done_[std::size_t(k)]) points.push_back(k);
  return points;
}

Status SweepTable::append(const SweepRow& row) {
  if (row.index < 0 || row.index >= point_count_ || int(row.values.size()) + 2 != column_count_)
    return Error{path_.string() + ": a row that is not this sweep's (point " + std::to_string(row.index) + ", " +
                 std::to_string(row.values.size() + 2) + " fields for " + std::to_string(column_count_) + " columns)"};
  if (done_[std::size_t(row.index)]) return Ok{};  // a retried point's second result: the first stands
  const std::string line = row_line(row);
  // One write per row, flushed: a sweep killed at any moment leaves whole rows and at
  // most one half-written last line, which resuming cuts off.
  if (std::fwrite(line.data(), 1, line.size(), file_) != line.size() || std::fflush(file_) != 0)
    return Error{path_.string() + ": cannot write: " + std::strerror(errno)};
  done_[std::size_t(row.index)] = true;
  ++done_count_;
  return Ok{};
}

}  // namespace nudge
