// A vector of at most N elements kept inside its owner: state whose counts
// the device's limits bound (a pipeline's viewports, vertex bindings and
// attributes, colour attachments). Copies, per draw too, never touch the
// heap, and a pipeline's state needs no host allocation of its own.
// Elements past N are dropped: only an application exceeding the limits
// the device reports gives more, and it must not write past the array.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>

namespace duet {

template <typename T, size_t N>
class InlineVector {
 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  InlineVector() = default;
  InlineVector(std::initializer_list<T> items) { assign(items.begin(), items.end()); }

  static constexpr size_t capacity() { return N; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return items_.data(); }
  const T* data() const { return items_.data(); }
  T* begin() { return items_.data(); }
  T* end() { return items_.data() + size_; }
  const T* begin() const { return items_.data(); }
  const T* end() const { return items_.data() + size_; }
  T& operator[](size_t i) { return items_[i]; }
  const T& operator[](size_t i) const { return items_[i]; }
  T& back() { return items_[size_ - 1]; }
  const T& back() const { return items_[size_ - 1]; }

  void clear() { size_ = 0; }
  void push_back(const T& item) {
    if (size_ < N) items_[size_++] = item;
  }
  template <std::input_iterator Iterator>
  void assign(Iterator first, Iterator last) {
    size_ = 0;
    for (; first != last && size_ < N; ++first) items_[size_++] = *first;
  }
  void assign(size_t count, const T& item) {
    size_ = static_cast<uint32_t>(std::min(count, N));
    std::fill_n(items_.begin(), size_, item);
  }
  void resize(size_t count, const T& item = T{}) {
    count = std::min(count, N);
    for (size_t i = size_; i < count; ++i) items_[i] = item;
    size_ = static_cast<uint32_t>(count);
  }

 private:
  std::array<T, N> items_{};
  uint32_t size_ = 0;
};

}  // namespace duet
