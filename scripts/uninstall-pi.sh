#!/usr/bin/env bash
# Removes the greenhouse gateway's service and application. Keeps the data (/var/lib/greenhouse-gateway:
# readings, accounts, backups) and the config (/etc/greenhouse-gateway) unless --purge is given.
#
#   sudo scripts/uninstall-pi.sh [--purge]
#   scripts/uninstall-pi.sh --dry-run [--purge]
set -euo pipefail

APP_NAME=greenhouse-gateway
DRY_RUN=0
PURGE=0
for arg in "$@"; do
  case "$arg" in
    --dry-run) DRY_RUN=1 ;;
    --purge) PURGE=1 ;;
    -h | --help)
      sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "uninstall-pi.sh: unknown option: $arg (try --help)" >&2
      exit 64
      ;;
  esac
done

run() {
  if [ "$DRY_RUN" = 1 ]; then printf '    would run: %s\n' "$*"; else "$@"; fi
}

if [ "$DRY_RUN" = 0 ] && [ "$(id -u)" -ne 0 ]; then
  echo "uninstall-pi.sh: run as root: sudo $0" >&2
  exit 1
fi

echo "==> Stopping the service (outputs go to their safe state on SIGTERM)"
if systemctl list-unit-files "$APP_NAME.service" >/dev/null 2>&1; then
  run systemctl disable --now "$APP_NAME.service" || true
fi
echo "==> Removing the unit and the application"
run rm -f "/etc/systemd/system/$APP_NAME.service" "/etc/systemd/system/$APP_NAME-failure.service"
run systemctl daemon-reload
run rm -rf "/opt/$APP_NAME"
if [ "$PURGE" = 1 ]; then
  echo "==> --purge: removing data and config"
  run rm -rf "/var/lib/$APP_NAME" "/etc/$APP_NAME"
else
  echo "Kept /var/lib/$APP_NAME (data) and /etc/$APP_NAME (config); --purge removes them."
fi
# A dtparam=strict_gpiod line an older installer added stays in config.txt: harmless (it only affects libgpiod users).
