#!/usr/bin/env bash
# Builds the guest of the virtio-gpu VM test: Debian's kernel as an ELF vmlinux
# (QEMU boots it through PVH, skipping the bzImage's XZ decompression, which
# takes seconds under TCG) and a busybox initramfs holding the virtio-gpu
# modules, the scene, the Duet driver, the Vulkan loader, a manifest naming
# the driver's path inside the guest, and the shared libraries all of these
# need (ldd closure) with the ELF loader.
#
#   build_guest.sh SCENE LIBDUET_VK WORK_DIR OUT_DIR
#
# The kernel comes from the Debian package linux-image-amd64 depends on,
# fetched with `apt-get download` into WORK_DIR/kernel and unpacked with
# dpkg -x (never installed); the vmlinux and the needed modules stay cached
# there across runs. Writes OUT_DIR/vmlinux (a link
# into the cache) and OUT_DIR/initramfs.cpio.
# Env: KPKG=linux-image-<version>-amd64  another kernel package
#      INITRD_COMPRESS=none|gzip         (default none: the kernel unpacks an
#                                         uncompressed archive faster under TCG)
# Exit: 0 built, 77 a prerequisite is missing (no tool, kernel not
# downloadable; the reason is printed), 1 other failures.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[[ $# == 4 ]] || { echo "usage: $0 SCENE LIBDUET_VK WORK_DIR OUT_DIR" >&2; exit 2; }
SCENE=$(realpath "$1"); DRIVER=$(realpath "$2"); WORK=$3; OUT=$4
skip() { echo "SKIP: $*" >&2; exit 77; }
mkdir -p "$WORK" "$OUT"
WORK=$(realpath "$WORK"); OUT=$(realpath "$OUT")
NICE="nice -n 10"

for tool in busybox cpio depmod modprobe dpkg apt-get apt-cache python3 ldd; do
  command -v "$tool" >/dev/null || skip "$tool is not installed (packages: busybox-static cpio kmod dpkg apt python3)"
done
[[ -f $SCENE ]] || { echo "no scene binary $SCENE" >&2; exit 1; }
[[ -f $DRIVER ]] || { echo "no driver $DRIVER" >&2; exit 1; }

# --- 1. the guest kernel (cached) ---------------------------------------------------------
K=$WORK/kernel
mkdir -p "$K/dl"
is_root() { [[ $(id -u) == 0 ]]; }
updated=0
apt_update_once() {   # true when the lists were refreshed now
  ((updated == 0)) && is_root || return 1
  updated=1
  echo "build_guest: apt-get update (no usable package lists)" >&2
  apt-get update -qq >&2 || return 1
}
kernel_package() {
  apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-/{print $2; exit}'
}
# The cache keeps the vmlinux and the few modules the guest loads
# (modules.list, in dependency order), not the 400 MB package tree.
if [[ ! -f $K/.complete ]] || [[ -n ${KPKG:-} && $KPKG != "$(cat "$K/package" 2>/dev/null)" ]]; then
  rm -f "$K/.complete"
  KPKG=${KPKG:-$(kernel_package)}
  if [[ -z $KPKG ]] && apt_update_once; then KPKG=$(kernel_package); fi
  [[ -n $KPKG ]] || skip "cannot tell which kernel linux-image-amd64 depends on (no apt package lists; run apt-get update)"
  download() { (cd "$K/dl" && rm -f "$KPKG"_*.deb && apt-get download "$KPKG" 2>&1 | grep -v -i unsandboxed >&2); ls "$K/dl/$KPKG"_*.deb >/dev/null 2>&1; }
  if ! download; then
    { apt_update_once && download; } || skip "cannot download the guest kernel package $KPKG (apt-get download failed)"
  fi
  T=$K/unpacked
  rm -rf "$T" "$K/modules"
  $NICE dpkg -x "$K/dl/$KPKG"_*.deb "$T"
  KVER=$(ls "$T/lib/modules" | head -1)
  depmod -b "$T" "$KVER"   # the .deb ships no modules.dep
  # ELF vmlinux out of the bzImage's XZ payload (booted through PVH).
  python3 - "$T/boot/vmlinuz-$KVER" "$K/vmlinux.tmp" <<'PY'
import lzma, sys
d = open(sys.argv[1], 'rb').read()
i = d.find(b'\xfd7zXZ\x00')
if i < 0:
    sys.exit('no XZ payload in the bzImage (another compression?)')
open(sys.argv[2], 'wb').write(lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(d[i:]))
PY
  mv "$K/vmlinux.tmp" "$K/vmlinux"
  mkdir -p "$K/modules"
  : >"$K/modules.list"
  for path in $(modprobe -d "$T" -S "$KVER" -a --show-depends virtio_pci virtio-gpu | awk '$1=="insmod"{print $2}'); do
    name=$(basename "$path"); name=${name%%.ko*}
    grep -qx "$name" "$K/modules.list" && continue
    case $path in
      *.ko.xz) xz -dc "$path" >"$K/modules/$name.ko" ;;
      *.ko.zst) zstd -qdc "$path" >"$K/modules/$name.ko" ;;
      *.ko.gz) gzip -dc "$path" >"$K/modules/$name.ko" ;;
      *) cp "$path" "$K/modules/$name.ko" ;;
    esac
    echo "$name" >>"$K/modules.list"
  done
  grep -qxE "virtio[-_]gpu" "$K/modules.list" || { echo "build_guest: kernel $KVER has no virtio-gpu module" >&2; exit 1; }
  echo "$KVER" >"$K/version"
  echo "$KPKG" >"$K/package"
  rm -rf "$T" "$K/dl/"*.deb
  touch "$K/.complete"
fi
KVER=$(cat "$K/version")
ln -sf "$K/vmlinux" "$OUT/vmlinux"

# --- 2. the initramfs tree -------------------------------------------------------------------
R=$OUT/initramfs
rm -rf "$R"
mkdir -p "$R"/{bin,dev,proc,sys,tmp,etc,lib/modules,opt/duet,extra,usr/share/vulkan/icd.d}
cp "$(command -v busybox)" "$R/bin/busybox"
ln -s busybox "$R/bin/sh"
# /dev/console must exist before devtmpfs is mounted: init's stdio. cpio -R 0:0
# records the nodes, so this needs no root: mknod, else a cpio spec line.
DEVNODES=""
if mknod -m 600 "$R/dev/console" c 5 1 2>/dev/null && mknod -m 666 "$R/dev/null" c 1 3 2>/dev/null; then :; else
  rm -f "$R/dev/console" "$R/dev/null"; DEVNODES=yes
fi
cp "$HERE/guest_init" "$R/init"
chmod 755 "$R/init"

cp "$K/modules.list" "$R/etc/modules.list"
cp "$K"/modules/*.ko "$R/lib/modules/"

cp "$SCENE" "$R/opt/duet/virtio_gpu_scene"
# Debug info is most of the driver's size; the guest does not need it.
if command -v strip >/dev/null; then
  strip --strip-debug -o "$R/opt/duet/libduet_vk.so" "$DRIVER"
else
  cp "$DRIVER" "$R/opt/duet/libduet_vk.so"
fi
api_version=1.3.239
manifest=$(dirname "$DRIVER")/../duet_icd.json   # build/icd/libduet_vk.so -> build/duet_icd.json
if [[ -f $manifest ]]; then
  v=$(sed -n 's/.*"api_version" *: *"\([0-9.]*\)".*/\1/p' "$manifest" | head -1)
  [[ -n $v ]] && api_version=$v
fi
cat >"$R/usr/share/vulkan/icd.d/duet_icd.json" <<EOF
{
    "file_format_version": "1.0.0",
    "ICD": {
        "library_path": "/opt/duet/libduet_vk.so",
        "api_version": "$api_version"
    }
}
EOF

# Shared libraries: the ldd closure of the programs and the driver (the
# loader dlopen()s the driver, so ldd of the scene does not see its needs),
# at their host paths, plus the ELF loader.
libs=()
for elf in "$SCENE" "$DRIVER" "$(command -v busybox)"; do
  while read -r lib; do libs+=("$lib"); done < <(ldd "$elf" 2>/dev/null | awk '/=> \//{print $3} /^\t\/.*ld-linux/{print $1}')
done
for lib in $(printf '%s\n' "${libs[@]}" | sort -u); do
  mkdir -p "$R/$(dirname "$lib")"
  cp -L "$lib" "$R/$lib"
done
grep -q 'libvulkan.so.1' <(printf '%s\n' "${libs[@]}") || { echo "build_guest: the scene does not link libvulkan.so.1" >&2; exit 1; }

cat >"$R/extra/run.sh" <<'EOS'
#!/bin/sh
# The scene on the Duet driver; stderr (driver log, DUET_STATS line) goes to
# the serial console with stdout.
export VK_ICD_FILENAMES=/usr/share/vulkan/icd.d/duet_icd.json HOME=/tmp XDG_RUNTIME_DIR=/tmp
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu
export DUET_STATS=1 DUET_LOG=info
export ASAN_OPTIONS=detect_leaks=0   # sanitizer builds: the loader's leaks are not the test's
stty -echo 2>/dev/null   # the host's answers are not echoed into the log
echo "SCENE-START uptime=$(cut -d' ' -f1 /proc/uptime)"
/opt/duet/virtio_gpu_scene $SCENE_ARGS
EOS
chmod 755 "$R/extra/run.sh"

# --- 3. the archive ---------------------------------------------------------------------------
case ${INITRD_COMPRESS:-none} in
  none) ZIP="cat" ;;
  gzip) ZIP="$NICE gzip -1" ;;
  *) echo "INITRD_COMPRESS must be none or gzip" >&2; exit 2 ;;
esac
{
  (cd "$R" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet)
} | $ZIP >"$OUT/initramfs.cpio"
if [[ -n $DEVNODES ]]; then
  # Without mknod (not root): append the two device nodes as a second archive
  # made by python (the kernel reads concatenated newc archives).
  python3 - "$OUT/initramfs.cpio" "${INITRD_COMPRESS:-none}" <<'PY'
import gzip, sys
def entry(name, mode, major, minor, ino):
    name_b = name.encode() + b'\0'
    hdr = b'070701' + b''.join(b'%08X' % v for v in (ino, mode, 0, 0, 1, 0, 0, 0, 0, major, minor, len(name_b), 0))
    data = hdr + name_b
    return data + b'\0' * (-len(data) % 4)
blob = entry('dev/console', 0o20600, 5, 1, 900001) + entry('dev/null', 0o20666, 1, 3, 900002) + entry('TRAILER!!!', 0, 0, 0, 0)
blob += b'\0' * (-len(blob) % 512)
with open(sys.argv[1], 'ab') as f:
    f.write(gzip.compress(blob, 1) if sys.argv[2] == 'gzip' else blob)
PY
fi
echo "build_guest: kernel $KVER; modules: $(tr '\n' ' ' <"$R/etc/modules.list")"
echo "build_guest: initramfs $(du -sh "$R" | cut -f1) tree, $(stat -c %s "$OUT/initramfs.cpio") bytes (${INITRD_COMPRESS:-none})"
