// InlineVector: vector operations within a fixed capacity; what goes past it
// is dropped, never written beyond the array.
#include <gtest/gtest.h>

#include <span>
#include <vector>

#include "util/inline_vector.h"

namespace duet {
namespace {

TEST(InlineVector, BehavesAsAVectorWithinItsCapacity) {
  InlineVector<int, 4> v;
  EXPECT_TRUE(v.empty());
  v.push_back(1);
  v.push_back(2);
  EXPECT_EQ(v.size(), 2u);
  EXPECT_EQ(v[1], 2);
  EXPECT_EQ(v.back(), 2);
  v.resize(4, 9);
  EXPECT_EQ(std::vector<int>(v.begin(), v.end()), (std::vector<int>{1, 2, 9, 9}));
  v.resize(1);
  EXPECT_EQ(std::vector<int>(v.begin(), v.end()), (std::vector<int>{1}));
  const std::vector<int> source = {5, 6, 7};
  v.assign(source.begin(), source.end());
  const std::span<const int> view(v);
  EXPECT_EQ(std::vector<int>(view.begin(), view.end()), source);
  v.assign(2, 8);
  EXPECT_EQ(std::vector<int>(v.begin(), v.end()), (std::vector<int>{8, 8}));
  InlineVector<int, 4> copy = v;
  v.clear();
  EXPECT_TRUE(v.empty());
  EXPECT_EQ(copy.size(), 2u);
}

TEST(InlineVector, ElementsPastTheCapacityAreDropped) {
  struct Guarded {
    InlineVector<int, 3> v;
    int after = 12345;  // what an overflow would overwrite
  } g;
  for (int i = 0; i < 10; ++i) g.v.push_back(i);
  EXPECT_EQ(g.v.size(), 3u);
  const std::vector<int> many(100, 7);
  g.v.assign(many.begin(), many.end());
  EXPECT_EQ(g.v.size(), 3u);
  g.v.assign(size_t{1} << 40, 1);
  EXPECT_EQ(g.v.size(), 3u);
  g.v.resize(~size_t{0});
  EXPECT_EQ(g.v.size(), 3u);
  EXPECT_EQ(g.after, 12345);
}

}  // namespace
}  // namespace duet
