#!/usr/bin/env bash
# Installs the greenhouse gateway as a systemd appliance on a Raspberry Pi: Raspberry Pi OS bookworm
# (Debian 12) or trixie (Debian 13), 32 or 64 bit, on a Zero 2 W, 3, 4 or 5. Safe to run again: every
# step checks before it changes anything. docs/hardware.md tells the whole story.
#
#   sudo scripts/install-pi.sh RELEASE.tar.gz   install or upgrade from a release (a file or an http(s) URL)
#   sudo scripts/install-pi.sh                  from an unpacked release: install the release it is in
#   sudo scripts/install-pi.sh --rollback       back to the previous release (kept by every upgrade)
#   sudo scripts/install-pi.sh --from-source    fallback: build on the Pi from this checkout (slow, 1 GB+)
#   scripts/install-pi.sh --dry-run ...         print the steps, change nothing (no root needed)
#   options: --no-start (install, do not start), --watchdog / --no-watchdog (hardware watchdog)
#
# A release (npm run release on a PC: docs/hardware.md, Releases) carries the compiled server, the built
# dashboard and node_modules cross-compiled for the Pi: nothing is built here but pigpio's small addon.
# An upgrade unpacks beside the running gateway, stops it, keeps the previous release and a copy of the
# database, starts the new one and rolls back by itself when it does not become healthy within
# HEALTH_TIMEOUT_S seconds.
#
# Node.js: the release's addons are built for one Node.js major (release.json); Debian's apt has it on
# trixie (20.19), NodeSource's apt repository on bookworm. The pigpio C library comes from apt when it
# has both the library and pigpiod, else from its release source (python3-setuptools first, so its
# `make install` does not stop halfway; `ldconfig` always run; a half-installed pigpio is mended on a
# re-run); if that fails too, the install goes on without the servo and the water level sensor.
#
# Why the service runs as root: pigpio (servo PWM, HC-SR04 timing) maps /dev/mem and refuses to start
# otherwise. A dedicated user would lose the servo and the ultrasonic sensor. Instead the unit confines
# that root: read-only system (writable: the state dir, /run, /sys/class/gpio), only the GPIO/I2C
# devices, CAP_SYS_RAWIO as its only capability (see systemd/greenhouse-gateway.service).
set -euo pipefail

APP_NAME=greenhouse-gateway
# Every path the script writes under; tests run a whole install into a temporary root.
INSTALL_ROOT=${INSTALL_ROOT:-}
APP_DIR=$INSTALL_ROOT/opt/$APP_NAME
PREVIOUS_DIR=$APP_DIR.previous
CONFIG_DIR=$INSTALL_ROOT/etc/$APP_NAME
CONFIG_FILE=$CONFIG_DIR/config.json
DATA_DIR=$INSTALL_ROOT/var/lib/$APP_NAME
DOWNLOAD_DIR=$INSTALL_ROOT/var/cache/$APP_NAME
UNIT_FILE=$INSTALL_ROOT/etc/systemd/system/$APP_NAME.service
# Its OnFailure= unit: tells the grower, through the notification channels, when systemd gives up on the gateway.
FAILURE_UNIT_FILE=$INSTALL_ROOT/etc/systemd/system/$APP_NAME-failure.service
WATCHDOG_DROPIN=$INSTALL_ROOT/etc/systemd/system.conf.d/60-$APP_NAME-watchdog.conf
NODE_MIN=20.19
# NodeSource's LTS line for --from-source when apt's Node.js is older than NODE_MIN; a release names its own.
NODESOURCE_MAJOR=22
# How long a new release has to answer /api/health with a working database before it is rolled back.
HEALTH_TIMEOUT_S=${HEALTH_TIMEOUT_S:-120}
NODESOURCE_LIST=/etc/apt/sources.list.d/nodesource.list
NODESOURCE_KEYRING=/etc/apt/keyrings/nodesource.gpg
# pigpio's last release (joan2937/pigpio), built only when apt has no complete pigpio.
PIGPIO_RELEASE=79
PIGPIO_SOURCE_URL=https://github.com/joan2937/pigpio/archive/refs/tags/v$PIGPIO_RELEASE.tar.gz
PORT=${PORT:-8080}
SRC_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# What the script reads about the machine (overridable for the script's own tests, which fake them).
BOOT_CONFIG_CANDIDATES=${BOOT_CONFIG_CANDIDATES:-/boot/firmware/config.txt /boot/config.txt}
OS_RELEASE=${OS_RELEASE:-/etc/os-release}
DEVICE_MODEL=${DEVICE_MODEL:-/proc/device-tree/model}
GPIO_SYSFS=${GPIO_SYSFS:-/sys/class/gpio}

DRY_RUN=0
SKIP_START=0
MODE=release
RELEASE_SOURCE=""
WATCHDOG=ask
for arg in "$@"; do
  case "$arg" in
    --dry-run) DRY_RUN=1 ;;
    --no-start) SKIP_START=1 ;;
    --from-source) MODE=source ;;
    --rollback) MODE=rollback ;;
    --watchdog) WATCHDOG=yes ;;
    --no-watchdog) WATCHDOG=no ;;
    -h | --help)
      awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
      exit 0
      ;;
    -*)
      echo "install-pi.sh: unknown option: $arg (try --help)" >&2
      exit 64
      ;;
    *)
      [ -z "$RELEASE_SOURCE" ] || { echo "install-pi.sh: one release at a time, got '$RELEASE_SOURCE' and '$arg'" >&2; exit 64; }
      RELEASE_SOURCE=$arg
      ;;
  esac
done

step() { printf '\n==> %s\n' "$*"; }
note() { printf '    %s\n' "$*"; }
warn() { printf '    WARNING: %s\n' "$*" >&2; }
die() {
  printf 'install-pi.sh: %s\n' "$*" >&2
  exit 1
}
# Runs a command, or only shows it in a dry run.
run() {
  if [ "$DRY_RUN" = 1 ]; then
    printf '    would run: %s\n' "$*"
  else
    "$@"
  fi
}
# The same for a shell pipeline.
run_sh() {
  if [ "$DRY_RUN" = 1 ]; then
    printf '    would run: %s\n' "$1"
  else
    sh -c "$1"
  fi
}

# True when version $1 >= $2 (dotted numbers).
version_at_least() {
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" = "$2" ]
}

# The version apt would install for package $1 (upstream part only: "18.19.0+dfsg-6~deb12u2" -> 18.19.0),
# empty when apt has none.
apt_candidate() {
  local candidate
  candidate=$(apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ { print $2; exit }')
  case "$candidate" in "" | "(none)") return 0 ;; esac
  printf '%s\n' "$candidate" | sed -E 's/^[0-9]+://; s/[+~-].*$//'
}

# The firmware config of this OS: /boot/firmware/config.txt since bookworm, /boot/config.txt before.
boot_config() {
  local candidate
  for candidate in $BOOT_CONFIG_CANDIDATES; do
    if [ -f "$candidate" ]; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

APT_UPDATED=0
apt_install() {
  if [ "$APT_UPDATED" = 0 ]; then
    run apt-get update
    APT_UPDATED=1
  fi
  run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@"
}

BOARD_MODEL=""
PI5=0
check_system() {
  step "Checking the system"
  if [ "$DRY_RUN" = 0 ] && [ -z "$INSTALL_ROOT" ] && [ "$(id -u)" -ne 0 ]; then
    die "run as root: sudo $0"
  fi
  if [ -r "$DEVICE_MODEL" ]; then BOARD_MODEL=$(tr -d '\0' <"$DEVICE_MODEL"); fi
  if [[ "$BOARD_MODEL" == *"Raspberry Pi"* ]]; then
    note "board: $BOARD_MODEL"
  elif [ "$DRY_RUN" = 1 ]; then
    note "board: not a Raspberry Pi (dry run continues)"
  else
    die "this is not a Raspberry Pi (no 'Raspberry Pi' in $DEVICE_MODEL); use simulator mode (npm start) instead"
  fi
  if [[ "$BOARD_MODEL" =~ Raspberry\ Pi\ (5|Compute\ Module\ 5) ]]; then
    PI5=1
    warn "Pi 5: pigpio and node-dht-sensor cannot drive its RP1 chip. The gateway starts, the relays work,"
    warn "the servo, the HC-SR04 and the DHT11 are reported unavailable (GET /api/health, docs/hardware.md)."
  fi
  local codename="" pretty="unknown" id="" id_like=""
  if [ -r "$OS_RELEASE" ]; then
    codename=$(sed -n 's/^VERSION_CODENAME=//p' "$OS_RELEASE" | tr -d '"')
    pretty=$(sed -n 's/^PRETTY_NAME=//p' "$OS_RELEASE" | tr -d '"')
    id=$(sed -n 's/^ID=//p' "$OS_RELEASE" | tr -d '"')
    id_like=$(sed -n 's/^ID_LIKE=//p' "$OS_RELEASE" | tr -d '"')
  fi
  note "OS: $pretty, $(dpkg --print-architecture 2>/dev/null || uname -m)"
  case "$id:$id_like" in
    debian:* | raspbian:* | *:*debian*) ;;
    *) warn "not Raspberry Pi OS / Debian: the steps below use apt-get and raspi-config" ;;
  esac
  case "$codename" in
    bookworm | trixie) ;;
    *) warn "tested on Raspberry Pi OS bookworm and trixie, not '${codename:-unknown}': going on" ;;
  esac
}


# --- The release -------------------------------------------------------------------------------------
# What a release says about itself (release.json, written by scripts/release.mjs): one "key": value a line.
release_field() {
  sed -n "s/^[[:space:]]*\"$1\":[[:space:]]*\"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}[[:space:]]*$/\1/p" | head -n 1
}

TARBALL=""
RELEASE_JSON=""
RELEASE_VERSION=""
NODE_MAJOR_WANTED=""
locate_release() {
  step "The release"
  local arch
  arch=$(dpkg --print-architecture 2>/dev/null || uname -m)
  if [ -n "$RELEASE_SOURCE" ]; then
    case "$RELEASE_SOURCE" in
      http://* | https://*)
        TARBALL=$DOWNLOAD_DIR/$(basename "${RELEASE_SOURCE%%\?*}")
        note "downloading $RELEASE_SOURCE"
        run mkdir -p "$DOWNLOAD_DIR"
        run curl -fL --retry 3 -o "$TARBALL" "$RELEASE_SOURCE"
        ;;
      *)
        [ -f "$RELEASE_SOURCE" ] || die "no such release file: $RELEASE_SOURCE"
        TARBALL=$(cd "$(dirname "$RELEASE_SOURCE")" && pwd)/$(basename "$RELEASE_SOURCE")
        ;;
    esac
    if [ -f "$TARBALL" ]; then
      RELEASE_JSON=$(tar -xzOf "$TARBALL" --wildcards '*/release.json' 2>/dev/null) || die "$TARBALL is not a gateway release (no release.json inside)"
    fi
  elif [ -f "$SRC_DIR/release.json" ]; then
    RELEASE_JSON=$(cat "$SRC_DIR/release.json")
  else
    die "no release given and $SRC_DIR is not an unpacked release: sudo $0 greenhouse-gateway-<version>-linux-$arch.tar.gz (npm run release on a PC makes it), or --from-source to build here (slow; docs/hardware.md)"
  fi
  if [ -z "$RELEASE_JSON" ]; then
    # A dry run does not download: the name says what it would be.
    RELEASE_VERSION=$(basename "$TARBALL" | sed -n 's/^greenhouse-gateway-\(.*\)-linux-[a-z0-9]*\.tar\.gz$/\1/p')
    note "release ${RELEASE_VERSION:-?} (its release.json is read once downloaded)"
    return 0
  fi
  RELEASE_VERSION=$(printf '%s\n' "$RELEASE_JSON" | release_field version)
  NODE_MAJOR_WANTED=$(printf '%s\n' "$RELEASE_JSON" | release_field nodeMajor)
  local release_arch
  release_arch=$(printf '%s\n' "$RELEASE_JSON" | release_field arch)
  note "release $RELEASE_VERSION for $release_arch, native addons for Node.js $NODE_MAJOR_WANTED"
  if [ "$release_arch" != "$arch" ]; then
    die "this release is for $release_arch but this system is $arch (32-bit Raspberry Pi OS is armhf, 64-bit is arm64): take the $arch tarball"
  fi
}

install_node() {
  local want=">= $NODE_MIN"
  [ -n "$NODE_MAJOR_WANTED" ] && want="$want, major $NODE_MAJOR_WANTED: the release's addons are built for it"
  step "Node.js ($want)"
  local installed="" candidate="" major_ok
  # A release's native addons load only in the Node.js major they were compiled for (its ABI).
  major_ok() { [ -z "$NODE_MAJOR_WANTED" ] || [ "${1%%.*}" = "$NODE_MAJOR_WANTED" ]; }
  if command -v node >/dev/null 2>&1; then installed=$(node -p 'process.versions.node' 2>/dev/null || true); fi
  if [ -n "$installed" ] && version_at_least "$installed" "$NODE_MIN" && major_ok "$installed"; then
    note "Node.js $installed is installed: kept"
    return 0
  fi
  [ -n "$installed" ] && note "Node.js $installed is installed but does not fit: replacing it"
  candidate=$(apt_candidate nodejs)
  if [ -n "$candidate" ] && version_at_least "$candidate" "$NODE_MIN" && major_ok "$candidate"; then
    note "installing Node.js $candidate from Debian's apt (nodejs, npm)"
    apt_install --allow-downgrades nodejs npm
  else
    local major=${NODE_MAJOR_WANTED:-$NODESOURCE_MAJOR}
    note "apt offers Node.js ${candidate:-none} (not $want): installing Node.js $major.x"
    note "from NodeSource's apt repository (https://deb.nodesource.com/node_$major.x, signed; $NODESOURCE_LIST)"
    apt_install ca-certificates curl gnupg
    run install -d -m 0755 /etc/apt/keyrings
    if [ ! -s "$NODESOURCE_KEYRING" ]; then
      run_sh "curl -fsSL https://deb.nodesource.com/gpgkey/nodesource-repo.gpg.key | gpg --dearmor -o $NODESOURCE_KEYRING"
    fi
    local line="deb [signed-by=$NODESOURCE_KEYRING] https://deb.nodesource.com/node_$major.x nodistro main"
    if [ "$(cat "$NODESOURCE_LIST" 2>/dev/null)" != "$line" ]; then
      run_sh "echo '$line' > $NODESOURCE_LIST"
    fi
    APT_UPDATED=0
    # NodeSource's nodejs package carries npm.
    apt_install --allow-downgrades nodejs
  fi
  if [ "$DRY_RUN" = 0 ]; then
    installed=$(node -p 'process.versions.node')
    version_at_least "$installed" "$NODE_MIN" || die "Node.js $installed is too old: the gateway needs >= $NODE_MIN"
    major_ok "$installed" || die "Node.js $installed is not the $NODE_MAJOR_WANTED.x this release was built for"
    note "Node.js $installed"
  fi
}

install_tools() {
  step "Tools"
  local wanted=()
  # curl for the health check; `i2cdetect -y 1` for wiring checks.
  command -v curl >/dev/null 2>&1 || wanted+=(curl)
  command -v i2cdetect >/dev/null 2>&1 || wanted+=(i2c-tools)
  # A kernel without sysfs GPIO: the unit's ExecStopPost drives the relays off with gpioset instead.
  [ -e "$GPIO_SYSFS/export" ] || command -v gpioset >/dev/null 2>&1 || wanted+=(gpiod)
  if [ "$MODE" = source ]; then
    # node-gyp builds better-sqlite3, i2c-bus, onoff's epoll, unix-dgram, pigpio and node-dht-sensor.
    command -v make >/dev/null 2>&1 && command -v g++ >/dev/null 2>&1 || wanted+=(build-essential)
    command -v python3 >/dev/null 2>&1 || wanted+=(python3)
    command -v rsync >/dev/null 2>&1 || wanted+=(rsync)
  fi
  if [ ${#wanted[@]} -gt 0 ]; then apt_install "${wanted[@]}"; else note "already installed"; fi
}

# --- pigpio ------------------------------------------------------------------------------------------
PIGPIO_OK=1
# Where pigpio may be installed: apt puts it under /usr, its source build under /usr/local.
PIGPIO_PREFIXES=${PIGPIO_PREFIXES:-/usr /usr/local}
pigpio_has() {
  local prefix
  for prefix in $PIGPIO_PREFIXES; do [ -e "$prefix/$1" ] && return 0; done
  return 1
}
pigpio_in_linker_cache() { ldconfig -p 2>/dev/null | grep -q 'libpigpio\.so\.1 '; }

install_pigpio() {
  step "pigpio C library (servo PWM, HC-SR04 timing)"
  if [ "$PI5" = 1 ]; then
    PIGPIO_OK=0
    note "not on a Pi 5 (pigpio cannot drive it): servo and water level unavailable"
    return 0
  fi
  local lib=0 header=0 daemon=0 cached=0
  pigpio_has lib/libpigpio.so.1 && lib=1
  pigpio_has include/pigpio.h && header=1
  { command -v pigpiod >/dev/null 2>&1 || pigpio_has bin/pigpiod; } && daemon=1
  pigpio_in_linker_cache && cached=1
  # The pigpio npm module compiles against the library only when `pigpiod` is on the PATH too.
  if [ "$lib$header$daemon$cached" = 1111 ]; then
    note "already installed"
  elif [ "$lib$header$daemon" = 111 ]; then
    # pigpio's `make install` runs `python3 setup.py install` after installing the library and before
    # ldconfig: without setuptools it stops there, and the addon then fails with "libpigpio.so.1: cannot
    # open shared object file".
    note "half-installed pigpio found (the library is not in the linker cache: its make install stopped before ldconfig): mending"
    run ldconfig
  elif [ -n "$(apt_candidate libpigpio-dev)" ] && [ -n "$(apt_candidate pigpiod)" ]; then
    note "from apt (libpigpio-dev, pigpiod)"
    apt_install libpigpio-dev pigpiod
    run ldconfig
  else
    if [ "$lib$header$daemon" != 000 ]; then
      note "half-installed pigpio found (library $lib, header $header, pigpiod $daemon): building it again"
    fi
    note "apt has no complete pigpio (library and pigpiod): building release $PIGPIO_RELEASE from source"
    local wanted=()
    command -v make >/dev/null 2>&1 && command -v gcc >/dev/null 2>&1 || wanted+=(build-essential)
    command -v curl >/dev/null 2>&1 || wanted+=(curl)
    # Its make install also installs a Python module; with setuptools that step succeeds.
    wanted+=(python3 python3-setuptools)
    apt_install "${wanted[@]}" || warn "could not install ${wanted[*]}: building pigpio anyway"
    local build_dir=/usr/local/src/pigpio-$PIGPIO_RELEASE
    if ! run_sh "set -e; rm -rf $build_dir; mkdir -p $build_dir; curl -fsSL $PIGPIO_SOURCE_URL | tar -xz --strip-components=1 -C $build_dir; make -C $build_dir -j2"; then
      PIGPIO_OK=0
    elif ! run make -C "$build_dir" install; then
      # Only its Python module comes after the library, header and pigpiod: the C side is in place.
      warn "pigpio's make install stopped (its Python module); the C library is installed, ldconfig follows"
    fi
    # Always: make install's own ldconfig comes last and is skipped when any step before it fails.
    run ldconfig
  fi
  if [ "$DRY_RUN" = 0 ] && [ "$PIGPIO_OK" = 1 ] && ! pigpio_in_linker_cache; then PIGPIO_OK=0; fi
  if [ "$PIGPIO_OK" = 0 ]; then
    warn "no working pigpio C library: servo and water level unavailable. The install goes on;"
    warn "the gateway reports them in GET /api/health. Re-run this script once the network is back."
  fi
  # A running pigpiod daemon would hold the hardware the gateway's own pigpio needs (one user at a time).
  if systemctl list-unit-files pigpiod.service 2>/dev/null | grep -q '^pigpiod\.service'; then
    run systemctl disable --now pigpiod.service
    note "pigpiod.service disabled: the gateway drives pigpio itself"
  fi
}

# --- The new version beside the running one -----------------------------------------------------------
# Unpacked (or built) beside the running gateway, which keeps controlling the greenhouse meanwhile, then
# swapped in with the service stopped.
STAGE_DIR=$APP_DIR.new
stage_release() {
  step "Unpacking the release into $STAGE_DIR (owned by root)"
  run rm -rf "$STAGE_DIR"
  run mkdir -p "$STAGE_DIR"
  if [ -n "$TARBALL" ]; then
    run tar -xzf "$TARBALL" -C "$STAGE_DIR" --strip-components=1 --no-same-owner
  else
    run cp -a "$SRC_DIR/." "$STAGE_DIR/"
  fi
  run chown -R root:root "$STAGE_DIR"
  run chmod -R go-w "$STAGE_DIR"
}

# The release's pigpio addon is a stub (the C library cannot be had on the PC that builds releases):
# it is compiled here, one C++ file, against the library installed above.
build_pigpio_addon() {
  step "pigpio's Node.js addon (compiled here against the pigpio C library)"
  if [ "$PIGPIO_OK" = 0 ]; then
    note "skipped: no pigpio C library"
    return 0
  fi
  local wanted=()
  command -v g++ >/dev/null 2>&1 && command -v make >/dev/null 2>&1 || wanted+=(build-essential)
  command -v npm >/dev/null 2>&1 || wanted+=(npm)
  # Debian's nodejs keeps its headers in libnode-dev (NodeSource's nodejs carries them).
  [ -e /usr/include/node/node.h ] || wanted+=(libnode-dev)
  if [ ${#wanted[@]} -gt 0 ]; then apt_install "${wanted[@]}"; fi
  if ! run env -C "$STAGE_DIR" npm rebuild pigpio --nodedir=/usr --no-audit --no-fund; then
    PIGPIO_OK=0
    warn "could not compile pigpio's addon: servo and water level unavailable (GET /api/health says so)"
  fi
}

# Fallback: build on the Pi (a Pi Zero 2 W runs out of memory in `vite build`, and better-sqlite3 alone
# compiles for a quarter of an hour there).
prepare_from_source() {
  step "Copying the application to $STAGE_DIR (owned by root)"
  warn "building on the Pi: needs about 1 GB of memory (swap on a Zero 2 W) and tens of minutes; a release is quicker"
  run rm -rf "$STAGE_DIR"
  run mkdir -p "$STAGE_DIR"
  # Source only: no checkout-local dependencies, builds, data or git history.
  local excludes=(--exclude=/node_modules --exclude=/web/dist --exclude=/dist --exclude=/data --exclude=/.git --exclude=/.cache --exclude=/release)
  if [ "$DRY_RUN" = 1 ]; then
    note "would copy $SRC_DIR -> $STAGE_DIR (without node_modules, builds, data, .git)"
  else
    # --chown: the code root runs must not stay writable by the checkout's owner.
    rsync -a --chown=root:root "${excludes[@]}" "$SRC_DIR/" "$STAGE_DIR/"
  fi
  run chown -R root:root "$STAGE_DIR"
  run chmod -R go-w "$STAGE_DIR"
  step "Installing dependencies (npm ci: package.json's allowScripts approves the native builds)"
  run env -C "$STAGE_DIR" npm ci --no-audit --no-fund
  step "Building the dashboard and compiling the server (npm run build)"
  run env -C "$STAGE_DIR" npm run build
}

write_config() {
  step "Configuration in $CONFIG_FILE"
  run mkdir -p "$CONFIG_DIR"
  if [ -f "$CONFIG_FILE" ]; then
    note "kept the existing $CONFIG_FILE"
  else
    # Mode 0640: it may hold the SMTP password once alerts are mailed.
    run install -m 0640 "$SRC_DIR/scripts/config.example.json" "$CONFIG_FILE"
    note "wrote the documented defaults; edit pins and calibration as docs/hardware.md explains"
  fi
}

configure_board() {
  step "Enabling I2C (ADS1115)"
  if command -v raspi-config >/dev/null 2>&1; then
    run raspi-config nonint do_i2c 0
  else
    warn "raspi-config not found: enable I2C yourself (dtparam=i2c_arm=on)"
  fi
  local config_txt
  if config_txt=$(boot_config) && ! grep -Eq '^[[:space:]]*dtparam=i2c(_arm)?=on' "$config_txt"; then
    NEEDS_REBOOT=1
  fi
  for group in gpio i2c; do
    getent group "$group" >/dev/null 2>&1 || warn "group '$group' is missing (the unit's SupplementaryGroups= names it)"
  done
}

offer_watchdog() {
  step "Hardware watchdog (RuntimeWatchdogSec)"
  note "With it, systemd keeps the SoC's watchdog fed: if the whole system hangs (kernel, SD card, a brown-out)"
  note "the Pi reboots by itself within 15 s and the gateway starts with every output off. The unit's"
  note "WatchdogSec restarts a hung gateway either way; this covers the machine under it."
  if [ -f "$WATCHDOG_DROPIN" ]; then
    note "already enabled ($WATCHDOG_DROPIN)"
    return 0
  fi
  local enable=$WATCHDOG
  if [ "$enable" = ask ]; then
    if [ "$DRY_RUN" = 0 ] && [ -t 0 ]; then
      local answer=""
      read -r -p "    Enable the hardware watchdog? [y/N] " answer || true
      case "$answer" in y | Y | yes) enable=yes ;; *) enable=no ;; esac
    else
      note "not enabled (re-run with --watchdog to enable it)"
      return 0
    fi
  fi
  if [ "$enable" = no ]; then
    note "not enabled"
    return 0
  fi
  run mkdir -p "$(dirname "$WATCHDOG_DROPIN")"
  # 15 s: the longest the Pi's bcm2835 watchdog can count.
  run_sh "printf '[Manager]\nRuntimeWatchdogSec=15s\nRebootWatchdogSec=2min\n' > $WATCHDOG_DROPIN"
  run systemctl daemon-reexec
  note "enabled: $WATCHDOG_DROPIN"
}

DATABASE=$DATA_DIR/greenhouse.db
DATABASE_COPY=$DATA_DIR/greenhouse.db.before-upgrade
WAS_ACTIVE=0
switch_app() {
  step "Stopping the running gateway and switching $APP_DIR to the new version"
  if systemctl is-active --quiet "$APP_NAME.service" 2>/dev/null; then
    WAS_ACTIVE=1
    # SIGTERM: outputs to their safe state first, then ExecStopPost drives every relay off.
    run systemctl stop "$APP_NAME.service"
  else
    note "the gateway is not running"
  fi
  if [ -d "$APP_DIR" ]; then
    # A copy of the database as the old version left it: a new version may migrate it forward, and a
    # rollback must hand the old version a database it knows.
    if [ -f "$DATABASE" ]; then
      run cp -p "$DATABASE" "$DATABASE_COPY"
      note "database copied to $DATABASE_COPY"
    fi
    run rm -rf "$PREVIOUS_DIR"
    run mv "$APP_DIR" "$PREVIOUS_DIR"
    note "the previous version is kept in $PREVIOUS_DIR (sudo $0 --rollback)"
  fi
  run mv "$STAGE_DIR" "$APP_DIR"
}

install_unit() {
  step "Installing and starting the systemd unit"
  # The unit's ExecStopPost (scripts/relays-off.mjs) drives every relay off after any exit of the
  # gateway, crash and SIGKILL included: relays on sysfs keep their level when a process dies.
  run mkdir -p "$(dirname "$UNIT_FILE")"
  run install -m 0644 "$APP_DIR/systemd/$APP_NAME.service" "$UNIT_FILE"
  run install -m 0644 "$APP_DIR/systemd/$APP_NAME-failure.service" "$FAILURE_UNIT_FILE"
  run systemctl daemon-reload
  run systemctl enable "$APP_NAME.service"
  if [ "$SKIP_START" = 1 ]; then
    if [ "$WAS_ACTIVE" = 1 ]; then
      note "--no-start: the gateway was stopped for the update and stays stopped (systemctl start $APP_NAME)"
    else
      note "--no-start: not starting it"
    fi
    return 0
  fi
  # restart, not start: a re-run must load the new code even if something started it meanwhile.
  run systemctl restart "$APP_NAME.service"
}

# Healthy: /api/health answers and the database works. A degraded status (a sensor not wired yet, the
# clock not synchronised) is the greenhouse's state, not the release's fault.
wait_healthy() {
  local i
  for i in $(seq 1 "$HEALTH_TIMEOUT_S"); do
    if curl -fsS "http://127.0.0.1:$PORT/api/health" 2>/dev/null | grep -q '"database":{"ok":true'; then return 0; fi
    sleep 1
  done
  return 1
}

# Back to the kept version, and to the database as it left it when `restore_database` is 1.
roll_back() {
  local restore_database=$1
  run systemctl stop "$APP_NAME.service"
  run rm -rf "$APP_DIR.failed"
  run mv "$APP_DIR" "$APP_DIR.failed"
  run mv "$PREVIOUS_DIR" "$APP_DIR"
  if [ "$restore_database" = 1 ] && [ -f "$DATABASE_COPY" ]; then
    run mv "$DATABASE" "$DATABASE.failed-upgrade"
    run rm -f "$DATABASE-wal" "$DATABASE-shm"
    run cp -p "$DATABASE_COPY" "$DATABASE"
  fi
  run install -m 0644 "$APP_DIR/systemd/$APP_NAME.service" "$UNIT_FILE"
  run install -m 0644 "$APP_DIR/systemd/$APP_NAME-failure.service" "$FAILURE_UNIT_FILE"
  run systemctl daemon-reload
  run systemctl start "$APP_NAME.service"
}

verify_or_roll_back() {
  step "Health check"
  if [ "$DRY_RUN" = 1 ] || [ "$SKIP_START" = 1 ]; then
    note "would wait up to $HEALTH_TIMEOUT_S s for http://127.0.0.1:$PORT/api/health with a working database;"
    note "if it does not come, would stop it, move $APP_DIR to $APP_DIR.failed, put $PREVIOUS_DIR back"
    note "with the database copy, and start the previous version"
    return 0
  fi
  if wait_healthy; then
    print_addresses
    return 0
  fi
  warn "the new version did not become healthy within $HEALTH_TIMEOUT_S s: journalctl -u $APP_NAME -e"
  if [ ! -d "$PREVIOUS_DIR" ]; then
    die "no previous version to roll back to; the new one stays installed (it is kept in $APP_DIR)"
  fi
  warn "rolling back to the previous version (the failed one is kept in $APP_DIR.failed)"
  roll_back 1
  if wait_healthy; then
    echo
    echo "Rolled back: the previous version runs again, with the database as it left it."
    exit 2
  fi
  die "the previous version does not answer either: journalctl -u $APP_NAME -e"
}

print_addresses() {
  echo
  echo "The greenhouse dashboard is up. Open it from a phone or laptop on the same network:"
  local ip
  for ip in $(hostname -I 2>/dev/null); do
    case "$ip" in *:*) echo "    http://[$ip]:$PORT" ;; *) echo "    http://$ip:$PORT" ;; esac
  done
  echo "The first account you create becomes the admin. Logs: journalctl -u $APP_NAME -f"
}

manual_rollback() {
  step "Rolling back $APP_DIR to $PREVIOUS_DIR"
  [ -d "$PREVIOUS_DIR" ] || die "there is no previous version in $PREVIOUS_DIR"
  # Swapped, so the version rolled back from stays at hand; the database is kept as it is (it may hold
  # weeks of readings since the upgrade).
  run systemctl stop "$APP_NAME.service"
  run mv "$APP_DIR" "$APP_DIR.rolled-back"
  run mv "$PREVIOUS_DIR" "$APP_DIR"
  run mv "$APP_DIR.rolled-back" "$PREVIOUS_DIR"
  run install -m 0644 "$APP_DIR/systemd/$APP_NAME.service" "$UNIT_FILE"
  run install -m 0644 "$APP_DIR/systemd/$APP_NAME-failure.service" "$FAILURE_UNIT_FILE"
  run systemctl daemon-reload
  run systemctl start "$APP_NAME.service"
  if [ "$DRY_RUN" = 0 ]; then
    wait_healthy || die "the previous version does not answer: journalctl -u $APP_NAME -e"
    print_addresses
  fi
}

NEEDS_REBOOT=0
[ "$DRY_RUN" = 1 ] && echo "Dry run: nothing will be changed."
check_system
case "$MODE" in
  rollback)
    manual_rollback
    exit 0
    ;;
  release)
    locate_release
    install_node
    install_tools
    install_pigpio
    stage_release
    build_pigpio_addon
    ;;
  source)
    install_node
    install_tools
    install_pigpio
    prepare_from_source
    ;;
esac
write_config
configure_board
offer_watchdog
switch_app
install_unit
verify_or_roll_back
if [ "$PIGPIO_OK" = 0 ]; then
  echo
  echo "Installed without pigpio: the servo (roof window) and the HC-SR04 (water level) are unavailable."
fi
if [ "$NEEDS_REBOOT" = 1 ]; then
  echo
  echo "Reboot once (sudo reboot) so I2C takes effect."
fi
