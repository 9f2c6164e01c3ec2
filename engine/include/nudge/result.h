// Recoverable errors: bad files, bad values, a rollout that blew up. They are reported
// to the user and leave everything as it was; programmer errors are assertions instead.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace nudge {

struct Error {
  std::string message;  // complete, user-facing: says what, where, and what was expected
};

// A value or an Error. Fallible creation returns one and callers must look at it.
template <class T>
class [[nodiscard]] Result {
public:
  Result(T value) : data_(std::move(value)) {}
  Result(Error error) : data_(std::move(error)) {}

  bool ok() const { return data_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(data_); }
  const T& value() const& { return std::get<0>(data_); }
  T&& value() && { return std::get<0>(std::move(data_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  const Error& error() const { return std::get<1>(data_); }

private:
  std::variant<T, Error> data_;
};

// For operations that return nothing on success.
struct Ok {};
using Status = Result<Ok>;

}  // namespace nudge
