#!/usr/bin/env bash
# Installs the greenhouse gateway as a systemd appliance on a Raspberry Pi (Raspberry Pi OS, Debian 13
# "trixie", or 12 with a Node.js >= 20.19). Safe to run again: every step checks before it changes.
#
#   sudo scripts/install-pi.sh            install or upgrade from this checkout
#   scripts/install-pi.sh --dry-run       print the steps, change nothing (no root needed)
#   sudo scripts/install-pi.sh --no-start install and enable, but do not start it now
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
PORT=${PORT:-8080}
SRC_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Where the firmware config may live, first match wins (overridable for the script's own tests).
BOOT_CONFIG_CANDIDATES=${BOOT_CONFIG_CANDIDATES:-/boot/firmware/config.txt /boot/config.txt}

DRY_RUN=0
SKIP_START=0
for arg in "$@"; do
  case "$arg" in
    --dry-run) DRY_RUN=1 ;;
    --no-start) SKIP_START=1 ;;
    -h | --help)
      sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
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

# True when version $1 >= $2 (dotted numbers).
version_at_least() {
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" = "$2" ]
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

check_system() {
  step "Checking the system"
  if [ "$DRY_RUN" = 0 ] && [ "$(id -u)" -ne 0 ]; then
    die "run as root: sudo $0"
  fi
  local model=""
  if [ -r /proc/device-tree/model ]; then model=$(tr -d '\0' </proc/device-tree/model); fi
  if [[ "$model" == *"Raspberry Pi"* ]]; then
    note "board: $model"
  elif [ "$DRY_RUN" = 1 ]; then
    note "board: not a Raspberry Pi (dry run continues)"
  else
    die "this is not a Raspberry Pi (no 'Raspberry Pi' in /proc/device-tree/model); use simulator mode (npm start) instead"
  fi
  if [[ "$model" =~ Raspberry\ Pi\ (5|Compute\ Module\ 5) ]]; then
    warn "Pi 5: pigpio and node-dht-sensor cannot drive its RP1 chip. The gateway starts, the relays work,"
    warn "the servo, the HC-SR04 and the DHT11 are reported unavailable (GET /api/health, docs/hardware.md)."
  fi
  if [ -r /etc/os-release ]; then
    # shellcheck disable=SC1091
    . /etc/os-release
    note "OS: ${PRETTY_NAME:-unknown}"
    case "${ID:-}:${ID_LIKE:-}" in
      debian:* | raspbian:* | *:*debian*) ;;
      *) warn "not Raspberry Pi OS / Debian: the steps below use apt-get and raspi-config" ;;
    esac
  fi
}

install_packages() {
  step "Installing Node.js (>= $NODE_MIN) and the build tools for the native modules"
  local node_version=""
  if command -v node >/dev/null 2>&1; then node_version=$(node -p 'process.versions.node'); fi
  local wanted=()
  if [ -z "$node_version" ] || ! version_at_least "$node_version" "$NODE_MIN"; then wanted+=(nodejs npm); fi
  # node-gyp builds better-sqlite3, i2c-bus, onoff's epoll, pigpio and node-dht-sensor from source.
  command -v make >/dev/null 2>&1 && command -v g++ >/dev/null 2>&1 || wanted+=(build-essential)
  command -v python3 >/dev/null 2>&1 || wanted+=(python3)
  # The pigpio npm module links the pigpio C library; i2c-tools gives `i2cdetect -y 1` for wiring checks.
  [ -e /usr/include/pigpio.h ] || wanted+=(libpigpio-dev)
  command -v i2cdetect >/dev/null 2>&1 || wanted+=(i2c-tools)
  if [ ${#wanted[@]} -gt 0 ]; then
    run apt-get update
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${wanted[@]}"
  else
    note "already installed"
  fi
  if [ "$DRY_RUN" = 0 ]; then
    node_version=$(node -p 'process.versions.node')
    version_at_least "$node_version" "$NODE_MIN" || die "Node.js $node_version is too old: the gateway needs >= $NODE_MIN"
    note "Node.js $node_version"
  fi
}

install_app() {
  step "Copying the application to $APP_DIR"
  run mkdir -p "$APP_DIR"
  # Source only: no checkout-local dependencies, builds, data or git history.
  local excludes=(--exclude=/node_modules --exclude=/web/dist --exclude=/data --exclude=/.git)
  if [ "$DRY_RUN" = 1 ]; then
    note "would copy $SRC_DIR -> $APP_DIR (without node_modules, web/dist, data, .git)"
  elif command -v rsync >/dev/null 2>&1; then
    # --delete: an upgrade must not keep files the new version removed.
    rsync -a --delete "${excludes[@]}" "$SRC_DIR/" "$APP_DIR/"
  else
    find "$APP_DIR" -mindepth 1 -maxdepth 1 ! -name node_modules -exec rm -rf {} +
    tar -C "$SRC_DIR" --exclude=./node_modules --exclude=./web/dist --exclude=./data --exclude=./.git -cf - . |
      tar -C "$APP_DIR" -xf -
  fi
  step "Installing dependencies (npm ci: package.json's allowScripts approves the native builds)"
  run env -C "$APP_DIR" npm ci --no-audit --no-fund
  step "Building the dashboard"
  run env -C "$APP_DIR" npm run build
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

  step "Releasing GPIO lines when the process exits (dtparam=strict_gpiod)"
  # Without it the kernel keeps a dead process's output levels: a pump relay stays energised after a
  # crash until the gateway restarts. With it the lines return to their default (input) state.
  local config_txt
  if ! config_txt=$(boot_config); then
    warn "no /boot/firmware/config.txt or /boot/config.txt: add 'dtparam=strict_gpiod' to the firmware config yourself"
  elif grep -Eq '^[[:space:]]*dtparam=strict_gpiod([[:space:]]|$)' "$config_txt"; then
    note "already set in $config_txt"
  elif [ "$DRY_RUN" = 1 ]; then
    note "would append dtparam=strict_gpiod to $config_txt (takes effect after a reboot)"
  else
    printf '\n# greenhouse-gateway: release GPIO lines (relays) when the process dies\ndtparam=strict_gpiod\n' >>"$config_txt"
    note "added to $config_txt: takes effect after the next reboot"
    NEEDS_REBOOT=1
  fi
  for group in gpio i2c; do
    getent group "$group" >/dev/null 2>&1 || warn "group '$group' is missing (the unit's SupplementaryGroups= names it)"
  done
}

install_unit() {
  step "Installing and starting the systemd unit"
  run install -m 0644 "$SRC_DIR/systemd/$APP_NAME.service" "$UNIT_FILE"
  run systemctl daemon-reload
  run systemctl enable "$APP_NAME.service"
  if [ "$SKIP_START" = 1 ]; then
    note "--no-start: not starting it"
    return 0
  fi
  # restart, not start: a re-run after an upgrade must load the new code.
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
install_packages
install_app
write_config
configure_board
install_unit
first_run
if [ "$NEEDS_REBOOT" = 1 ]; then
  echo
  echo "Reboot once (sudo reboot) so strict_gpiod and I2C take effect."
fi
