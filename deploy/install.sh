#!/usr/bin/env bash
# Install the UNO Showdown controller on Raspberry Pi OS as a systemd service.
#
#   sudo deploy/install.sh              install or update (safe to run again)
#   deploy/install.sh --dry-run         print every file, directory and command; change nothing
#   deploy/install.sh --root DIR        write the files under DIR (a staging tree); print, but do
#                                       not run, the commands that would change this machine
#   deploy/install.sh --event-host      also make this Pi an event's host (docs/event.md): Debian's
#                                       Mosquitto under systemd (persistence on), the event host
#                                       service, and a path unit that reloads the broker
#
# What it does: apt packages (lgpio, SDL, CJK fonts), a service user in the gpio, dialout, video,
# render and input groups, a virtual environment with --system-site-packages in /opt/showdown
# (the rules engine compiled by mypyc there when gcc and python3-dev are installed),
# the configuration in /etc/showdown (an edited showdown.toml is never overwritten), data in
# /var/lib/showdown, the systemd unit and the udev rule, then it enables and (re)starts the service.
set -euo pipefail

readonly SERVICE_USER=showdown
readonly GROUPS_NEEDED=(gpio dialout video render input)
readonly APP_DIR=/opt/showdown
readonly VENV=/opt/showdown/venv
readonly CONF_DIR=/etc/showdown
readonly DATA_DIR=/var/lib/showdown
readonly UNIT_PATH=/etc/systemd/system/showdown.service
readonly UDEV_PATH=/etc/udev/rules.d/99-showdown-unit.rules
readonly LINK_PATH=/usr/local/bin/showdown
readonly APT_PACKAGES=(
    python3 python3-venv python3-pip
    libsdl2-2.0-0 libsdl2-ttf-2.0-0 libsdl2-image-2.0-0 libsdl2-mixer-2.0-0
    libgbm1 libegl1 libdrm2
    fonts-noto-cjk
)
# lgpio comes from the Raspberry Pi OS archive; elsewhere pip installs the PyPI wheel instead.
readonly APT_LGPIO=(python3-lgpio liblgpio1)

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DRY_RUN=0
ROOT=""
EVENT_HOST=0
readonly EVENT_DIR=/var/lib/showdown-event

usage() {
    sed -n '2,16s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

while [[ $# -gt 0 ]]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --event-host) EVENT_HOST=1 ;;
        --root)
            [[ $# -ge 2 ]] || { echo "install.sh: --root needs a directory" >&2; exit 2; }
            ROOT=$(cd "$2" 2>/dev/null && pwd) || { echo "install.sh: no such directory: $2" >&2; exit 2; }
            shift
            ;;
        -h | --help) usage; exit 0 ;;
        *) echo "install.sh: unknown option: $1 (try --help)" >&2; exit 2 ;;
    esac
    shift
done

if [[ $DRY_RUN -eq 0 && -z $ROOT && $(id -u) -ne 0 ]]; then
    echo "install.sh: run as root (sudo), or try --dry-run" >&2
    exit 1
fi

prefix() { if [[ $DRY_RUN -eq 1 ]]; then printf 'would '; fi; }

# Commands that change this machine rather than files: run them, or only print them.
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

make_dir() { # make_dir PATH MODE
    echo "$(prefix)dir $1"
    if [[ $DRY_RUN -eq 0 ]]; then install -d -m "$2" "$ROOT$1"; fi
}

write_file() { # write_file SOURCE PATH MODE
    echo "$(prefix)write $2"
    if [[ $DRY_RUN -eq 0 ]]; then install -D -m "$3" "$1" "$ROOT$2"; fi
}

# The configuration is the builder's: create it once, then leave it alone.
write_config() { # write_config SOURCE PATH
    if [[ -e $ROOT$2 ]]; then
        echo "keep $2 (already there; the shipped example is $2.example)"
    else
        write_file "$1" "$2" 0644
    fi
}

make_link() { # make_link TARGET PATH
    echo "$(prefix)link $2 -> $1"
    if [[ $DRY_RUN -eq 0 ]]; then
        install -d "$ROOT$(dirname "$2")"
        ln -sfn "$1" "$ROOT$2"
    fi
}

apt_available() { apt-cache show "$1" >/dev/null 2>&1; }

# 1. Packages.
run apt-get update
run apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"
LGPIO_FROM_PIP=1
if [[ $DRY_RUN -eq 1 || -n $ROOT ]]; then
    # Not asking apt here (slow, and about this machine rather than the target): say both ways.
    LGPIO_FROM_PIP=0
    run apt-get install -y --no-install-recommends "${APT_LGPIO[@]}"
    echo "  (if the archive has no python3-lgpio: pip install lgpio into the venv instead)"
elif apt_available python3-lgpio; then
    LGPIO_FROM_PIP=0
    run apt-get install -y --no-install-recommends "${APT_LGPIO[@]}"
fi

# 2. The service user and its device groups.
for group in "${GROUPS_NEEDED[@]}"; do
    if ! getent group "$group" >/dev/null; then run groupadd --system "$group"; fi
done
if ! getent passwd "$SERVICE_USER" >/dev/null; then
    run useradd --system --user-group --home-dir "$DATA_DIR" --shell /usr/sbin/nologin "$SERVICE_USER"
fi
run usermod --append --groups "$(IFS=,; echo "${GROUPS_NEEDED[*]}")" "$SERVICE_USER"

# The translations: the .mo catalogues are built, not kept in git (make catalogues does it in a
# checkout), so compile the installed package's .po files with the venv's own pybabel.
compile_catalogues() {
    local locale="<the installed showdown/locale>"
    if [[ $DRY_RUN -eq 0 && -z $ROOT ]]; then
        locale=$("$VENV/bin/python" -c \
            'import pathlib, showdown; print(pathlib.Path(showdown.__file__).parent / "locale")')
    fi
    run "$VENV/bin/pybabel" -q compile --domain showdown --directory "$locale"
}

# 3. Directories and files.
make_dir "$APP_DIR" 0755
make_dir "$CONF_DIR" 0755
make_dir "$DATA_DIR" 0750
run chown "$SERVICE_USER:$SERVICE_USER" "$DATA_DIR"
write_file "$SRC/README.md" "$APP_DIR/README.md" 0644
# The documents the README links to, so its links work on the Pi too.
while IFS= read -r -d '' doc; do
    write_file "$SRC/$doc" "$APP_DIR/$doc" 0644
done < <(cd "$SRC" && find docs -type f ! -name '*.py' -print0 | sort -z)
write_file "$SRC/deploy/showdown.toml" "$CONF_DIR/showdown.toml.example" 0644
write_config "$SRC/deploy/showdown.toml" "$CONF_DIR/showdown.toml"
write_file "$SRC/deploy/showdown.service" "$UNIT_PATH" 0644
write_file "$SRC/deploy/99-showdown-unit.rules" "$UDEV_PATH" 0644

# 4. The virtual environment: system site packages so the apt lgpio is importable.
if [[ ! -x $ROOT$VENV/bin/python ]]; then
    run python3 -m venv --system-site-packages "$VENV"
fi
run "$VENV/bin/python" -m pip install --quiet --upgrade "$SRC"
# Again, the engine compiled by mypyc where a C compiler and the Python headers are present (else
# pure Python); one line says which and why. A compile that fails (a Pi short of memory for the
# compiler) leaves the pure-Python engine installed rather than no service.
run "$VENV/bin/python" "$SRC/build_engine.py" --install "$SRC" --fallback
# The showdown command compiled (deploy/launcher.c) where a C compiler is present, so that a stop
# signal while Python starts waits for showdown's own handler; else pip's script, saying so.
run "$SRC/deploy/build-launcher.sh" "$VENV"
compile_catalogues
if [[ $LGPIO_FROM_PIP -eq 1 ]]; then
    run "$VENV/bin/python" -m pip install --quiet "lgpio>=0.2"
fi
make_link "$VENV/bin/showdown" "$LINK_PATH"

# 5. Hand it to udev and systemd.
run udevadm control --reload
run udevadm trigger --subsystem-match=tty --action=change
run systemctl daemon-reload
run systemctl enable showdown.service
run systemctl restart showdown.service

# 6. The event host (--event-host): Mosquitto under systemd, reading the files the host writes.
if [[ $EVENT_HOST -eq 1 ]]; then
    run apt-get install -y --no-install-recommends mosquitto gcc libc6-dev
    # Mosquitto's client-id check (showdown/tournament/client_id_plugin.py), compiled here: no join
    # code can then take the host's or a table's client id and knock it off the broker.
    run "$VENV/bin/python" -m showdown.tournament.client_id_plugin "$APP_DIR/mosquitto-client-ids.so"
    # The folder hands its group down (setgid): the host's files are readable by mosquitto. It
    # sits beside /var/lib/showdown, not in it: that one is 0750 and Mosquitto (its own user)
    # could not reach inside it.
    make_dir "$EVENT_DIR" 2750
    run chown "$SERVICE_USER:mosquitto" "$EVENT_DIR"
    for file in passwords acl; do  # empty until the host starts: nobody can connect before
        if [[ ! -e $ROOT$EVENT_DIR/$file ]]; then
            write_file /dev/null "$EVENT_DIR/$file" 0640
            run chown "$SERVICE_USER:mosquitto" "$EVENT_DIR/$file"
        fi
    done
    write_file "$SRC/deploy/mosquitto-showdown.conf" /etc/mosquitto/conf.d/showdown.conf 0644
    write_file "$SRC/deploy/mosquitto-showdown.service.conf" \
        /etc/systemd/system/mosquitto.service.d/showdown.conf 0644
    write_file "$SRC/deploy/showdown-event.service" /etc/systemd/system/showdown-event.service 0644
    write_file "$SRC/deploy/showdown-broker-reload.path" \
        /etc/systemd/system/showdown-broker-reload.path 0644
    write_file "$SRC/deploy/showdown-broker-reload.service" \
        /etc/systemd/system/showdown-broker-reload.service 0644
    write_config "$SRC/deploy/event.env" "$CONF_DIR/event.env"
    run systemctl daemon-reload
    run systemctl enable mosquitto.service showdown-broker-reload.path showdown-event.service
    run systemctl restart mosquitto.service
    run systemctl start showdown-broker-reload.path
    run systemctl restart showdown-event.service
fi

if [[ $DRY_RUN -eq 1 ]]; then
    echo "dry run: nothing was changed"
else
    echo "done: edit $CONF_DIR/showdown.toml, run 'showdown check', then 'systemctl status showdown'"
fi
