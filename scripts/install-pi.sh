#!/usr/bin/env bash
# Installs the greenhouse gateway as a systemd appliance on a Raspberry Pi: Raspberry Pi OS bookworm
# (Debian 12) or trixie (Debian 13), 32 or 64 bit, on a Zero 2 W, 3, 4 or 5. Safe to run again: every
# step checks before it changes anything, and an upgrade stops the service first and starts it after.
#
#   sudo scripts/install-pi.sh            install or upgrade from this checkout
#   scripts/install-pi.sh --dry-run       print the steps, change nothing (no root needed)
#   sudo scripts/install-pi.sh --no-start install and enable, but do not start it now
#
# Node.js >= 20.19 comes from Debian's apt when it has one (trixie: 20.19), else from NodeSource's apt
# repository (bookworm's apt has 18). The pigpio C library comes from apt when it has both the library
# and pigpiod (the pigpio npm module builds a stub without them), else it is built from its release
# source; if that fails too, the install goes on without the servo and the water level sensor.
#
# Why the service runs as root: pigpio (servo PWM, HC-SR04 timing) maps /dev/mem and refuses to start
# otherwise. A dedicated user would lose the servo and the ultrasonic sensor. Instead the unit confines
# that root: read-only system (writable: the state dir, /run, /sys/class/gpio), only the GPIO/I2C
# devices, CAP_SYS_RAWIO as its only capability (see systemd/greenhouse-gateway.service).
set -euo pipefail

APP_NAME=greenhouse-gateway
APP_DIR=/opt/$APP_NAME
CONFIG_DIR=/etc/$APP_NAME
CONFIG_FILE=$CONFIG_DIR/config.json
UNIT_FILE=/etc/systemd/system/$APP_NAME.service
NODE_MIN=20.19
# NodeSource's current LTS line, used only when apt's Node.js is older than NODE_MIN.
NODESOURCE_MAJOR=22
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

DRY_RUN=0
SKIP_START=0
for arg in "$@"; do
  case "$arg" in
    --dry-run) DRY_RUN=1 ;;
    --no-start) SKIP_START=1 ;;
    -h | --help)
      sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "install-pi.sh: unknown option: $arg (try --help)" >&2
      exit 64
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
  if [ "$DRY_RUN" = 0 ] && [ "$(id -u)" -ne 0 ]; then
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

install_node() {
  step "Node.js (>= $NODE_MIN)"
  local installed="" candidate=""
  if command -v node >/dev/null 2>&1; then installed=$(node -p 'process.versions.node' 2>/dev/null || true); fi
  if [ -n "$installed" ] && version_at_least "$installed" "$NODE_MIN"; then
    note "Node.js $installed is installed: kept"
    return 0
  fi
  candidate=$(apt_candidate nodejs)
  if [ -n "$candidate" ] && version_at_least "$candidate" "$NODE_MIN"; then
    note "installing Node.js $candidate from Debian's apt (nodejs, npm)"
    apt_install nodejs npm
  else
    note "apt offers Node.js ${candidate:-none} (older than $NODE_MIN): installing Node.js $NODESOURCE_MAJOR.x"
    note "from NodeSource's apt repository (https://deb.nodesource.com/node_$NODESOURCE_MAJOR.x, signed; $NODESOURCE_LIST)"
    apt_install ca-certificates curl gnupg
    run install -d -m 0755 /etc/apt/keyrings
    if [ ! -s "$NODESOURCE_KEYRING" ]; then
      run_sh "curl -fsSL https://deb.nodesource.com/gpgkey/nodesource-repo.gpg.key | gpg --dearmor -o $NODESOURCE_KEYRING"
    fi
    local line="deb [signed-by=$NODESOURCE_KEYRING] https://deb.nodesource.com/node_$NODESOURCE_MAJOR.x nodistro main"
    if [ "$(cat "$NODESOURCE_LIST" 2>/dev/null)" != "$line" ]; then
      run_sh "echo '$line' > $NODESOURCE_LIST"
    fi
    APT_UPDATED=0
    # NodeSource's nodejs package carries npm.
    apt_install nodejs
  fi
  if [ "$DRY_RUN" = 0 ]; then
    installed=$(node -p 'process.versions.node')
    version_at_least "$installed" "$NODE_MIN" || die "Node.js $installed is too old: the gateway needs >= $NODE_MIN"
    note "Node.js $installed"
  fi
}

install_build_tools() {
  step "Build tools for the native modules"
  local wanted=()
  # node-gyp builds better-sqlite3, i2c-bus, onoff's epoll, unix-dgram, pigpio and node-dht-sensor.
  command -v make >/dev/null 2>&1 && command -v g++ >/dev/null 2>&1 || wanted+=(build-essential)
  command -v python3 >/dev/null 2>&1 || wanted+=(python3)
  # `i2cdetect -y 1` for wiring checks; rsync for the copy below.
  command -v i2cdetect >/dev/null 2>&1 || wanted+=(i2c-tools)
  command -v rsync >/dev/null 2>&1 || wanted+=(rsync)
  if [ ${#wanted[@]} -gt 0 ]; then apt_install "${wanted[@]}"; else note "already installed"; fi
}

PIGPIO_OK=1
install_pigpio() {
  step "pigpio C library (servo PWM, HC-SR04 timing)"
  if [ "$PI5" = 1 ]; then
    PIGPIO_OK=0
    note "not on a Pi 5 (pigpio cannot drive it): servo and water level unavailable"
    return 0
  fi
  # The pigpio npm module compiles against the library only when `pigpiod` is on the PATH too.
  if command -v pigpiod >/dev/null 2>&1 && { [ -e /usr/include/pigpio.h ] || [ -e /usr/local/include/pigpio.h ]; }; then
    note "already installed ($(command -v pigpiod))"
  elif [ -n "$(apt_candidate libpigpio-dev)" ] && [ -n "$(apt_candidate pigpiod)" ]; then
    note "from apt (libpigpio-dev, pigpiod)"
    apt_install libpigpio-dev pigpiod
  else
    note "apt has no complete pigpio (library and pigpiod): building release $PIGPIO_RELEASE from source"
    local build_dir=/usr/local/src/pigpio-$PIGPIO_RELEASE
    if ! run_sh "set -e; rm -rf $build_dir; mkdir -p $build_dir; curl -fsSL $PIGPIO_SOURCE_URL | tar -xz --strip-components=1 -C $build_dir; make -C $build_dir -j2; make -C $build_dir install; ldconfig"; then
      PIGPIO_OK=0
      warn "could not build the pigpio C library: servo and water level unavailable. The install goes on;"
      warn "the gateway reports them in GET /api/health. Re-run this script once the network is back."
    fi
  fi
  # A running pigpiod daemon would hold the hardware the gateway's own pigpio needs (one user at a time).
  if systemctl list-unit-files pigpiod.service 2>/dev/null | grep -q '^pigpiod\.service'; then
    run systemctl disable --now pigpiod.service
    note "pigpiod.service disabled: the gateway drives pigpio itself"
  fi
}

# The new version is copied, installed and built beside the running one (which keeps controlling the
# greenhouse meanwhile: npm ci builds native modules for minutes on a Pi Zero), then swapped in.
STAGE_DIR=$APP_DIR.new
prepare_app() {
  step "Copying the application to $STAGE_DIR (owned by root)"
  run rm -rf "$STAGE_DIR"
  run mkdir -p "$STAGE_DIR"
  # Source only: no checkout-local dependencies, builds, data or git history.
  local excludes=(--exclude=/node_modules --exclude=/web/dist --exclude=/dist --exclude=/data --exclude=/.git)
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
    run rm -rf "$APP_DIR.old"
    run mv "$APP_DIR" "$APP_DIR.old"
  fi
  run mv "$STAGE_DIR" "$APP_DIR"
  run rm -rf "$APP_DIR.old"
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

install_unit() {
  step "Installing and starting the systemd unit"
  # The unit's ExecStopPost (scripts/relays-off.mjs) drives every relay off after any exit of the
  # gateway, crash and SIGKILL included: relays on sysfs keep their level when a process dies.
  run install -m 0644 "$SRC_DIR/systemd/$APP_NAME.service" "$UNIT_FILE"
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

first_run() {
  step "First run"
  if [ "$DRY_RUN" = 1 ] || [ "$SKIP_START" = 1 ]; then
    note "would wait for http://127.0.0.1:$PORT/api/health and print the dashboard's address"
    return 0
  fi
  local i
  for i in $(seq 1 60); do
    if curl -fsS "http://127.0.0.1:$PORT/api/health" >/dev/null 2>&1; then break; fi
    sleep 1
  done
  if [ "$i" -ge 60 ]; then
    warn "the gateway did not answer within 60 s: journalctl -u $APP_NAME -e"
    return 1
  fi
  echo
  echo "The greenhouse dashboard is up. Open it from a phone or laptop on the same network:"
  local ip
  for ip in $(hostname -I); do
    case "$ip" in *:*) echo "    http://[$ip]:$PORT" ;; *) echo "    http://$ip:$PORT" ;; esac
  done
  echo "The first account you create becomes the admin. Logs: journalctl -u $APP_NAME -f"
}

NEEDS_REBOOT=0
[ "$DRY_RUN" = 1 ] && echo "Dry run: nothing will be changed."
check_system
install_node
install_build_tools
install_pigpio
prepare_app
switch_app
write_config
configure_board
install_unit
first_run
if [ "$PIGPIO_OK" = 0 ]; then
  echo
  echo "Installed without pigpio: the servo (roof window) and the HC-SR04 (water level) are unavailable."
fi
if [ "$NEEDS_REBOOT" = 1 ]; then
  echo
  echo "Reboot once (sudo reboot) so I2C takes effect."
fi
