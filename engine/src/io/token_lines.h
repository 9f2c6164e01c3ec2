// Line-by-line reading of whitespace-separated text formats (TetGen's .node/.ele, Gmsh's
// .msh): each meaningful line as tokens, with its line number for error messages.
#pragma once

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "io/marker_csv.h"  // printable_excerpt
#include "nudge/result.h"

namespace nudge {

class TokenLines {
public:
  // `comment` starts a comment that runs to the end of the line ('\0' for none).
  TokenLines(std::string_view text, std::string label, char comment)
      : text_(text), label_(std::move(label)), comment_(comment) {
    if (text_.starts_with("\xEF\xBB\xBF")) text_.remove_prefix(3);  // a UTF-8 byte order mark
  }

  // Moves to the next line with at least one token; false at the end of the text.
  bool next() {
    while (position_ < text_.size()) {
      const std::size_t end = std::min(text_.find('\n', position_), text_.size());
      line_ = text_.substr(position_, end - position_);
      position_ = end + 1;
      ++line_number_;
      std::string_view rest = line_;
      if (comment_ != '\0') rest = rest.substr(0, rest.find(comment_));
      tokens_.clear();
      for (std::string_view token = next_token(rest); !token.empty(); token = next_token(rest))
        tokens_.push_back(token);
      if (!tokens_.empty()) return true;
    }
    line_ = {};
    tokens_.clear();
    line_number_ = ended_at();
    return false;
  }

  const std::vector<std::string_view>& tokens() const { return tokens_; }
  std::size_t size() const { return tokens_.size(); }
  std::string_view operator[](std::size_t i) const { return tokens_[i]; }
  const std::string& label() const { return label_; }
  int line() const { return line_number_; }

  // "file:line: what" at the current line (after the end: the line past the last).
  Error error(const std::string& what) const {
    return Error{label_ + ":" + std::to_string(line_number_) + ": " + what};
  }
  // "file:line: found '<the line>'; expected <expected>".
  Error expected(const std::string& expected) const {
    return error("found '" + printable_excerpt(trimmed(line_), 60) + "'; expected " + expected);
  }

  // Integers and finite numbers, or nothing when the token is not one (a leading '+',
  // which some writers emit, is accepted).
  static std::optional<long long> integer(std::string_view token) {
    token = without_plus(token);
    long long value = 0;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (token.empty() || ec != std::errc() || end != token.data() + token.size()) return std::nullopt;
    return value;
  }
  static std::optional<double> finite(std::string_view token) {
    token = without_plus(token);
    double value = 0;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (token.empty() || ec != std::errc() || end != token.data() + token.size() || !std::isfinite(value))
      return std::nullopt;
    return value;
  }

private:
  static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
  static std::string_view next_token(std::string_view& s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    std::size_t length = 0;
    while (length < s.size() && !is_space(s[length])) ++length;
    const std::string_view token = s.substr(0, length);
    s.remove_prefix(length);
    return token;
  }
  static std::string_view trimmed(std::string_view s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
  }
  static std::string_view without_plus(std::string_view token) {
    if (token.size() > 1 && token.front() == '+' && token[1] != '-' && token[1] != '+') token.remove_prefix(1);
    return token;
  }
  // The number of the line past the last (a final newline ends the last line).
  int ended_at() const {
    int lines = 0;
    for (char c : text_) lines += c == '\n';
    return lines + (text_.empty() || text_.back() == '\n' ? 1 : 2);
  }

  std::string_view text_;
  std::string label_;
  char comment_;
  std::size_t position_ = 0;
  int line_number_ = 0;
  std::string_view line_;
  std::vector<std::string_view> tokens_;
};

}  // namespace nudge
