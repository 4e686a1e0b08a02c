// Entry point of duet_integration_tests: points the loader at the build
// tree's ICD manifest before any test (or gtest itself) touches the loader,
// so running the binary by hand tests this build's driver.
#include <gtest/gtest.h>

#include "vk_fixture.h"

int main(int argc, char** argv) {
  duet_test::SetUpLoaderEnvironment();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
