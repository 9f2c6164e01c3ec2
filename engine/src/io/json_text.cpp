// JSON text below the level of a scene (json_text.h): the scan of the raw text, the
// parser's errors, JSON paths, the words of messages and the pretty writer.
#include "io/json_text.h"

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "io/marker_csv.h"

namespace nudge::scene_io {

namespace {

constexpr int kMaxNesting = 64;  // a valid scene nests 5 deep

}  // namespace

// Shortest text that reads back as the same double ("2", "0.1", "inf").
std::string number_text(double x) {
  char buffer[32];
  return std::string(buffer, std::to_chars(buffer, buffer + sizeof buffer, x).ptr);
}

std::string range_text(long long lo, long long hi) {
  return "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
}

// ---- Pass 1: the raw text --------------------------------------------------------

namespace {

std::string line_column(int line, std::size_t column) {
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// Whether a JSON number token overflows a double. from_chars reports underflow
// (1e-999) the same way, so look at where the leading digit sits: overflow only
// happens far above 10^0, underflow far below.
bool overflows_double(std::string_view token) {
  double value = 0;
  if (std::from_chars(token.data(), token.data() + token.size(), value).ec != std::errc::result_out_of_range)
    return false;
  const std::size_t exponent_at = token.find_first_of("eE");
  const std::string_view mantissa = token.substr(0, exponent_at);
  long long exponent = 0;
  if (exponent_at != std::string_view::npos) {
    std::string_view digits = token.substr(exponent_at + 1);
    const bool negative = !digits.empty() && digits.front() == '-';
    if (!digits.empty() && (digits.front() == '-' || digits.front() == '+')) digits.remove_prefix(1);
    for (char d : digits) {
      if (d < '0' || d > '9') break;
      exponent = std::min(exponent * 10 + (d - '0'), 1'000'000'000LL);  // clamped: only the sign matters
    }
    if (negative) exponent = -exponent;
  }
  const std::size_t point = std::min(mantissa.find('.'), mantissa.size());
  const std::size_t first = mantissa.find_first_of("123456789");
  if (first == std::string_view::npos) return false;  // zero never overflows
  const long long magnitude =
      first < point ? static_cast<long long>(point - first) - 1 : -static_cast<long long>(first - point);
  return magnitude + exponent > 0;
}

}  // namespace

// Catches what the parser would handle badly or explain obscurely: nesting too deep
// for any scene (before a DOM is built), NaN and Infinity (not JSON), comments (not
// JSON), numbers too large for a double and stray bytes. Skips strings; all other
// syntax is left to the parser.
std::optional<RawTextProblem> scan_raw_text(std::string_view text) {
  int depth = 0;
  int line = 1;
  std::size_t line_start = 0;
  const auto is_letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  const auto is_number_char = [](char c) {
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
  };
  const std::size_t start = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;  // the parser skips a byte order mark
  for (std::size_t i = start; i < text.size(); ++i) {
    const char c = text[i];
    const auto problem = [&](const std::string& what) {
      return RawTextProblem{i, line_column(line, i - line_start + 1) + ": " + what};
    };
    if (c == '\n') {
      ++line;
      line_start = i + 1;
    } else if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\') ++i;
        if (i < text.size() && text[i] == '\n') {  // invalid in JSON, but keep positions right
          ++line;
          line_start = i + 1;
        }
      }
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxNesting)
        return problem("found more than " + std::to_string(kMaxNesting) +
                       " nested arrays or objects; expected at most " + std::to_string(kMaxNesting) +
                       " (a scene needs 5)");
    } else if (c == ']' || c == '}') {
      if (depth > 0) --depth;
    } else if (c == '/') {
      return problem("found '/', the start of a comment; expected JSON, which has no comments (use \"description\")");
    } else if (is_letter(c) || (c == '-' && i + 1 < text.size() && is_letter(text[i + 1]))) {
      std::size_t end = i + 1;
      while (end < text.size() && is_letter(text[end])) ++end;
      std::string word(text.substr(i, end - i));
      std::string lower = word;
      for (char& ch : lower) ch = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
      if (lower.starts_with('-')) lower.erase(0, 1);
      if (lower == "nan" || lower == "infinity" || lower == "inf")
        return problem("found " + word + ", which is not JSON; expected a finite number");
      i = end - 1;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      std::size_t end = i + 1;
      while (end < text.size() && is_number_char(text[end])) ++end;
      const std::string_view token = text.substr(i, end - i);
      if (overflows_double(token))
        return problem("found " + printable_excerpt(token, 40) +
                       ", a number too large for a double; expected a finite number");
      i = end - 1;
    } else if (c != ' ' && c != '\t' && c != '\r' && c != ':' && c != ',') {
      // Also NUL, which the parser would take for the end of the input.
      return problem("JSON syntax error: found the byte " + printable_excerpt(std::string_view(&text[i], 1)) +
                     ", which cannot appear in JSON outside a string");
    }
  }
  return std::nullopt;
}

// ---- Pass 2: the parser ------------------------------------------------------------

std::string member_path(const std::string& path, std::string_view key) {
  const bool identifier =
      !key.empty() && !(key.front() >= '0' && key.front() <= '9') && std::all_of(key.begin(), key.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
      });
  if (identifier) return path + "." + std::string(key);
  return path + "[\"" + printable_excerpt(key) + "\"]";
}

std::string element_path(const std::string& path, std::size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

// nlohmann: "[json.exception.parse_error.101] parse error at line 3, column 5: syntax
// error while parsing value - invalid literal; last read: 'x'"
// becomes "line 3, column 5: JSON syntax error: invalid literal; last read: 'x'".
// The position is recomputed from the byte offset: the parser counts the character
// that ended a token, often a newline ("line 6, column 0"); the token itself is clearer.
std::string describe_parse_error(const Json::parse_error& e, std::string_view text) {
  const std::string_view what = e.what();
  std::string_view detail = what;
  if (const std::size_t at = what.find(": ", what.find("parse error")); at != std::string_view::npos)
    detail = what.substr(at + 2);
  if (const std::size_t dash = detail.find(" - "); detail.starts_with("syntax error") && dash != detail.npos)
    detail.remove_prefix(dash + 3);

  std::size_t offset = std::min<std::size_t>(e.byte, text.size());  // e.byte counts from 1
  offset = offset > 0 ? offset - 1 : 0;
  while (offset > 0 && std::string_view(" \t\r\n").find(text[offset]) != std::string_view::npos) --offset;
  const std::size_t line_start = offset == 0 ? 0 : text.rfind('\n', offset - 1) + 1;  // npos + 1 == 0
  const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n');
  return line_column(static_cast<int>(line), offset - line_start + 1) +
         ": JSON syntax error: " + printable_excerpt(detail, 200);
}

// ---- Pass 3: the DOM ------------------------------------------------------------

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// What a value is, for "found ...": numbers as written (shortest round trip), strings quoted.
std::string describe(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return value.get<bool>() ? "true" : "false";
    case Json::value_t::string: {
      const std::string& s = value.get_ref<const std::string&>();
      return s.empty() ? "an empty string" : "\"" + printable_excerpt(s) + "\"";
    }
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float: return value.dump();
    case Json::value_t::object: return value.empty() ? "an empty object" : "an object";
    case Json::value_t::array:
      return value.empty() ? "an empty array"
                           : "an array of " + std::to_string(value.size()) + (value.size() == 1 ? " value" : " values");
    default: return "an unsupported value";
  }
}

// ---- Writing ---------------------------------------------------------------------

OrderedJson rows(const std::vector<double>& flat, int cols) {
  OrderedJson out = OrderedJson::array();
  for (std::size_t at = 0; at + static_cast<std::size_t>(cols) <= flat.size() && cols > 0; at += cols)
    out.push_back(std::vector<double>(flat.begin() + static_cast<std::ptrdiff_t>(at),
                                      flat.begin() + static_cast<std::ptrdiff_t>(at + cols)));
  return out;
}

OrderedJson vec3_json(const double* v) { return OrderedJson::array({v[0], v[1], v[2]}); }

namespace {

std::string compact(const OrderedJson& value) {
  return value.dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
}

}  // namespace

// Indented JSON, but an array of plain values stays on one line, so that a file of
// positions reads as one [x, y, z] row per line.
void write_pretty(std::string& out, const OrderedJson& value, int indent) {
  const std::string inner(static_cast<std::size_t>(indent) + 2, ' ');
  const auto is_container = [](const OrderedJson& v) { return v.is_array() || v.is_object(); };
  if (value.is_object() && !value.empty()) {
    out += "{\n";
    bool first = true;
    for (const auto& [key, member] : value.items()) {
      out += (first ? "" : ",\n") + inner + compact(OrderedJson(key)) + ": ";
      write_pretty(out, member, indent + 2);
      first = false;
    }
    out += "\n" + std::string(static_cast<std::size_t>(indent), ' ') + "}";
  } else if (value.is_array() && std::any_of(value.begin(), value.end(), is_container)) {
    out += "[\n";
    for (std::size_t i = 0; i < value.size(); ++i) {
      out += (i ? ",\n" : "") + inner;
      write_pretty(out, value[i], indent + 2);
    }
    out += "\n" + std::string(static_cast<std::size_t>(indent), ' ') + "]";
  } else if (value.is_array()) {
    out += "[";
    for (std::size_t i = 0; i < value.size(); ++i) out += (i ? ", " : "") + compact(value[i]);
    out += "]";
  } else {
    out += compact(value);
  }
}

}  // namespace nudge::scene_io
