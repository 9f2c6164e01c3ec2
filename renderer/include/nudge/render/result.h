// The renderer's own error type. It does not use the engine's (the renderer never includes
// engine headers): fallible creation returns Expected<T>, and the message says which call
// failed and why (for Vulkan, the function and the VkResult name).
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace nudge::render {

struct Error {
  std::string message;
};

// A value or an Error; callers must look at it.
template <class T>
class [[nodiscard]] Expected {
public:
  Expected(T value) : data_(std::move(value)) {}
  Expected(Error error) : data_(std::move(error)) {}

  bool ok() const { return data_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(data_); }
  const T& value() const& { return std::get<0>(data_); }
  T&& value() && { return std::get<0>(std::move(data_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  const Error& error() const { return std::get<1>(data_); }

private:
  std::variant<T, Error> data_;
};

// For operations that return nothing on success.
struct Ok {};
using Status = Expected<Ok>;

}  // namespace nudge::render
