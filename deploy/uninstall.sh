#!/usr/bin/env bash
# Remove what deploy/install.sh installed.
#
#   sudo deploy/uninstall.sh            stop and remove the service, the program and the udev rule
#                                       (and --event-host's units and Mosquitto configuration);
#                                       keep the configuration, the data and the service user
#   sudo deploy/uninstall.sh --purge    also remove /etc/showdown, /var/lib/showdown (and the
#                                       event's /var/lib/showdown-event) and the user
#   deploy/uninstall.sh --dry-run       print every path and command; change nothing
#   deploy/uninstall.sh --root DIR      remove under DIR (a staging tree); print the commands
set -euo pipefail

readonly SERVICE_USER=showdown
readonly APP_DIR=/opt/showdown
readonly CONF_DIR=/etc/showdown
readonly DATA_DIR=/var/lib/showdown
readonly EVENT_DATA_DIR=/var/lib/showdown-event
readonly UNIT_PATH=/etc/systemd/system/showdown.service
readonly UDEV_PATH=/etc/udev/rules.d/99-showdown-unit.rules
readonly LINK_PATH=/usr/local/bin/showdown
readonly UNIT_DIR=/etc/systemd/system
readonly EVENT_UNITS=(showdown-event.service showdown-broker-reload.path showdown-broker-reload.service)
readonly MOSQUITTO_CONF=/etc/mosquitto/conf.d/showdown.conf
readonly MOSQUITTO_DROP_IN=/etc/systemd/system/mosquitto.service.d/showdown.conf

DRY_RUN=0
PURGE=0
ROOT=""

usage() {
    sed -n '2,11s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

while [[ $# -gt 0 ]]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --purge) PURGE=1 ;;
        --root)
            [[ $# -ge 2 ]] || { echo "uninstall.sh: --root needs a directory" >&2; exit 2; }
            ROOT=$(cd "$2" 2>/dev/null && pwd) || { echo "uninstall.sh: no such directory: $2" >&2; exit 2; }
            shift
            ;;
        -h | --help) usage; exit 0 ;;
        *) echo "uninstall.sh: unknown option: $1 (try --help)" >&2; exit 2 ;;
    esac
    shift
done

if [[ $DRY_RUN -eq 0 && -z $ROOT && $(id -u) -ne 0 ]]; then
    echo "uninstall.sh: run as root (sudo), or try --dry-run" >&2
    exit 1
fi

prefix() { if [[ $DRY_RUN -eq 1 ]]; then printf 'would '; fi; }

run() {
    if [[ $DRY_RUN -eq 1 ]]; then
        echo "would run: $*"
    elif [[ -n $ROOT ]]; then
        echo "skip (--root): $*"
    else
        echo "run: $*"
        "$@"
    fi
}

remove() { # remove PATH: a file, a link or a whole directory, if it is there
    if [[ -e $ROOT$1 || -L $ROOT$1 ]]; then
        echo "$(prefix)remove $1"
        if [[ $DRY_RUN -eq 0 ]]; then rm -rf -- "$ROOT$1"; fi
    fi
}

keep() { echo "keep $1 (use --purge to remove it)"; }

# --event-host's part: the event host and the broker's reload, then Mosquitto back to Debian's
# own configuration (the package stays: apt installed it, as it did the libraries).
if [[ -e $ROOT$UNIT_DIR/showdown-event.service ]]; then
    run systemctl disable --now showdown-event.service showdown-broker-reload.path
    for unit in "${EVENT_UNITS[@]}"; do remove "$UNIT_DIR/$unit"; done
fi
if [[ -e $ROOT$MOSQUITTO_DROP_IN ]]; then
    remove "$MOSQUITTO_DROP_IN"
    if [[ $DRY_RUN -eq 0 ]]; then
        rmdir --ignore-fail-on-non-empty "$ROOT$(dirname "$MOSQUITTO_DROP_IN")"
    fi
fi
if [[ -e $ROOT$MOSQUITTO_CONF ]]; then
    remove "$MOSQUITTO_CONF"
    run systemctl daemon-reload
    run systemctl try-restart mosquitto.service
fi
run systemctl disable --now showdown.service
remove "$UNIT_PATH"
remove "$UDEV_PATH"
remove "$LINK_PATH"
remove "$APP_DIR"
run systemctl daemon-reload
run udevadm control --reload
# Without the rule the board's tty loses its /dev/showdown-unit name at the next event: now.
run udevadm trigger --subsystem-match=tty --action=change

if [[ $PURGE -eq 1 ]]; then
    remove "$CONF_DIR"
    remove "$DATA_DIR"
    remove "$EVENT_DATA_DIR"
    if getent passwd "$SERVICE_USER" >/dev/null; then run userdel "$SERVICE_USER"; fi
else
    keep "$CONF_DIR"
    keep "$DATA_DIR"
    if [[ -e $ROOT$EVENT_DATA_DIR ]]; then keep "$EVENT_DATA_DIR"; fi
fi

if [[ $DRY_RUN -eq 1 ]]; then echo "dry run: nothing was changed"; else echo "done"; fi
