#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need. Quick when they
# are all present already (dpkg-query only); otherwise apt-get update +
# install, through sudo when not root.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

packages=(
  build-essential cmake ninja-build ccache python3 pkg-config binutils
  libvulkan-dev vulkan-tools vulkan-validationlayers mesa-vulkan-drivers
  vkd3d-demos
  spirv-headers spirv-tools glslang-tools
  libgtest-dev valgrind
  libpng-dev libastcenc-dev libxxhash-dev libxcb1-dev libxcb-shm0-dev libx11-dev libwayland-dev wayland-protocols libdrm-dev
  xvfb weston
  clang libclang-rt-14-dev
  qemu-system-x86 busybox-static cpio kmod
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ $status == "install ok installed" ]] || missing+=("$p")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "setup: not root and no sudo; install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update
"${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
