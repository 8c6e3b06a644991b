#!/bin/bash
# Pi in a box, the guest's side: what a builder does on a fresh Raspberry Pi OS, step by step.
#
# Run at each boot by the image's showdown-vm-boot service (see tests/vm/guest-boot.sh) from the
# host's read-only share (/mnt/host: src/ the checkout, wheels/ the Python packages, since the
# guest has no network). What to do this boot comes from the kernel command line:
#
#   showdown_vm.stage=main     install (with --event-host: Mosquitto under systemd, the event
#                              host's service), then every check of a running install, then
#                              hand over to the power cuts (the host cuts while the service
#                              scores and a simulated table on the host sends the event entries
#                              through QEMU's forwarded port); showdown_vm.serial=0 leaves out
#                              the udev and serial checks (the harness's shorter set)
#   showdown_vm.stage=verify   after a power cut: export the journal for the host's comparison
#   showdown_vm.stage=starved  one emulated core, and a CPU hog started before the service
#                              (showdown_vm.hog=1): how long the service took to send READY=1,
#                              against its TimeoutStartSec, and what took long; then power off
#   showdown_vm.stage=final    after the last cut: export both journals (the table's, and the
#                              event's once the host says its table has sent everything), then
#                              uninstall and compare the system
#
# Results go two ways: "@@VM key value" lines on the serial console (ttyS0), which the host reads
# as they come, and files in /mnt/out (a writable share) for the bulky ones (the exports).
# Every check prints its evidence before its verdict, so a failing run's console log says why.
set -uo pipefail

OUT=/mnt/out
SRC_COPY=/root/uno-showdown
# The guest has no Pi: the service plays on the simulated unit, whose games go to the simulator's
# own journal beside the table's (docs/session.md), and that is the journal the cuts check.
DB=/var/lib/showdown/showdown-simulated.db
SNAPSHOT_BEFORE=/var/local/showdown-vm-before.txt
EVENT_DIR=/var/lib/showdown-event
EVENT_DB=$EVENT_DIR/event.db
ENVIRONMENT=/etc/showdown/environment

arg() { sed -n "s/.*showdown_vm\.$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
say() { printf '@@VM %s\n' "$*"; }
STAGE=$(arg stage)
BOOT=$(arg boot)
DUELS=$(arg duels)
SERIAL=$(arg serial)

trap 'say stage_end "$?"' EXIT
mkdir -p "$OUT"
mount -t 9p -o trans=virtio,version=9p2000.L out "$OUT"
say boot "$BOOT" stage "$STAGE" uptime "$(cut -d' ' -f1 /proc/uptime)"
# After a power cut the export needs only the disk: no waiting for the rest of the boot. A
# starved boot waits for the service alone: its CPU hog starves Debian's nice-19 housekeeping
# (e2scrub_reap), which can keep the boot "starting" for most of an hour under emulation.
[[ $STAGE == verify || $STAGE == starved ]] || systemctl is-system-running --wait >/dev/null
say system_up "$(cut -d' ' -f1 /proc/uptime)"

# What the filesystem holds, for "uninstall leaves the guest as it was". Left out: the kernel's
# and systemd's volatile trees, logs, caches, apt's lists, and /root (where the checkout lives).
snapshot() {
    find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /run -o -path /tmp \
        -o -path /mnt -o -path /var/log -o -path /var/tmp -o -path /var/cache -o -path /var/lib/apt \
        -o -path /var/lib/systemd -o -path /var/lib/dpkg -o -path /root -o -path /var/local \) \
        -prune -o -printf '%p %y %m %u:%g\n' | LC_ALL=C sort
}

wait_active() { # wait_active SECONDS: until showdown.service is active (READY=1 arrived)
    local i
    for ((i = 0; i < $1; i++)); do
        [[ $(systemctl show -p ActiveState --value showdown) == active ]] && return 0
        sleep 1
    done
    return 1
}

unit_show() { systemctl show -p "$1" --value showdown; }

first_name() { # first_name GLOB...: the base name of the first match that exists, else nothing
    local path
    for path in "$@"; do
        if [[ -e $path ]]; then basename "$path"; return; fi
    done
}

listening() { # listening PORT: something listens on this TCP port (no ss in a minimal image)
    local hex
    hex=$(printf '%04X' "$1")
    awk -v port=":$hex" 'substr($2, length($2) - 4) == port && $4 == "0A"' \
        /proc/net/tcp /proc/net/tcp6 2>/dev/null | grep -q .
}

# The starved boots' CPU hog: a busy loop at nice 0, started before the service on the boots whose
# kernel command line says showdown_vm.hog=1 (a Pi whose one free core something else wants).
# Installed before the first snapshot, so the uninstall's comparison counts it as the system's.
install_hog() {
    cat > /etc/systemd/system/showdown-vm-hog.service <<'EOT'
[Unit]
Description=Pi-in-a-box harness: a CPU hog beside the service (starved boots only)
ConditionKernelCommandLine=showdown_vm.hog=1
Before=showdown.service

[Service]
ExecStart=/bin/sh -c 'while :; do :; done'

[Install]
WantedBy=multi-user.target
EOT
    systemctl enable showdown-vm-hog.service 2>/dev/null
}

uptime_stamp() { # each line of stdin with the guest's uptime in front, as it arrives
    local line up _
    while IFS= read -r line; do
        read -r up _ < /proc/uptime
        printf '[%8s] %s\n' "$up" "$line"
    done
}

# -- 1. install, as the README says: sudo deploy/install.sh ------------------------------------
install_product() {
    install_hog
    snapshot > "$SNAPSHOT_BEFORE"
    rm -rf "$SRC_COPY"
    cp -a /mnt/host/src "$SRC_COPY"
    cd "$SRC_COPY" || return 1
    # The builder's edit before the install (install.sh keeps an event.env that is there): the
    # event's page on 8081, so the table's page has 8080 (both give up the built-in port quietly
    # when the other took it first).
    mkdir -p /etc/showdown
    echo 'SHOWDOWN_EVENT_ARGS="--format free --tables 4 --name Game-night --no-mdns --http 0.0.0.0:8081"' \
        > /etc/showdown/event.env
    # No network: pip takes every package (and the build's setuptools) from the wheel folder.
    # Each line of the log carries the guest's uptime, so the log times every step.
    local started=$SECONDS
    PIP_NO_INDEX=1 PIP_FIND_LINKS=/mnt/host/wheels bash deploy/install.sh --event-host 2>&1 \
        | uptime_stamp > /root/install.log
    local rc=${PIPESTATUS[0]}
    say install_s "$((SECONDS - started))"
    cp /root/install.log "$OUT/install.log"
    if [[ $rc -ne 0 ]]; then tail -n 40 /root/install.log; fi
    say install_rc "$rc"
    cd / || return 1
}

# -- 2. the unit: Type=notify reaches active (READY=1), STATUS= is shown -----------------------
check_notify() {
    wait_active 120
    systemctl status showdown --no-pager --lines=5 | tee "$OUT/status.txt"
    say unit_type "$(unit_show Type)"
    say unit_state "$(unit_show ActiveState)"
    local status
    status=$(unit_show StatusText)
    say unit_status_text "${status:-<none>}"
    if grep -q '^ *Status: "' "$OUT/status.txt"; then say status_line_shown 1; else say status_line_shown 0; fi
    # the first start, at the install's restart: how long, and where the time went
    say first_start "$(journalctl -u showdown --no-pager -o cat | grep 'started in' | head -n1)"
    # showdown check, as the builder runs it after install: it reads the installed settings
    # (/etc/showdown/showdown.toml). There is no GPIO chip in the box, so it must say so in
    # one line and name the file it read, never a traceback.
    # As the README's quick start runs it: the service's user, LG_WD for lgpio's pipes (run as
    # root from / without it, lgpio leaves a .lgd-nfy0 FIFO behind in the working directory).
    runuser -u showdown -- env LG_WD=/tmp showdown check --config /etc/showdown/showdown.toml \
        --no-launcher --timeout 0.2 > "$OUT/check.txt" 2>&1
    say check_rc $?
    cat "$OUT/check.txt"
    if grep -q Traceback "$OUT/check.txt"; then say check_traceback 1; else say check_traceback 0; fi
}

# -- 2b. the installed command is the compiled launcher (deploy/launcher.c): a stop signal while
# the interpreter starts waits for showdown's own handler, and the command ends in one line
check_launcher() {
    local command head compiled=0 trials=0 clean=0 stopped=0 signal delay rc err
    local signals=(TERM INT HUP)
    command=$(readlink -f "$(command -v showdown)")
    head=$(head -c 4 "$command" | od -An -c | tr -d ' ')
    if [[ $head == 177ELF ]] && grep -q 'showdown launcher: compiled' /root/install.log; then
        compiled=1
    fi
    say launcher_command "$command" "$head"
    : > "$OUT/launcher.txt"
    # each signal 0.1-0.6 s after the start: under emulation the interpreter's own start alone
    # takes longer, so most come before showdown's first line (sooner, it could come before the
    # launcher's first instruction, which nothing can help); a quick one may find the command
    # done (timeout runs it in the foreground: a SIGINT is not ignored, as in a background job)
    for delay in 0.1 0.15 0.2 0.3 0.4 0.6; do
        signal=${signals[trials % 3]}
        timeout --preserve-status -s "$signal" "$delay" \
            showdown export --list --db "$DB" > /dev/null 2> /tmp/launcher.err
        rc=$?
        err=$(cat /tmp/launcher.err)
        trials=$((trials + 1))
        printf 'SIG%s after %s s: exit %s, stderr: %s\n' "$signal" "$delay" "$rc" "$err" >> "$OUT/launcher.txt"
        if [[ $rc -eq 0 && -z $err ]]; then
            clean=$((clean + 1))
        elif [[ $rc -gt 128 && $err == "showdown: stopped by SIG$signal" ]]; then
            clean=$((clean + 1))
            stopped=$((stopped + 1))
        fi
    done
    cat "$OUT/launcher.txt"
    say launcher_compiled "$compiled"
    say launcher_trials "$trials" clean "$clean" stopped "$stopped"
}

# -- 2c. the phone pages, from outside: QEMU forwards a loopback port of the host to the table's
# page (8080) and one to the event's (8081); the host fetches both, then says so
check_page() {
    local i table=0 event=0
    for ((i = 0; i < 300; i++)); do # the pages' processes may still be starting
        if listening 8080; then table=1; fi
        if listening 8081; then event=1; fi
        [[ $table -eq 1 && $event -eq 1 ]] && break
        sleep 1
    done
    journalctl -u showdown -u showdown-event --no-pager -o cat | grep -iE 'page' | tail -n 4
    say page_listening "$table" "$event"
    for ((i = 0; i < 600; i++)); do
        [[ -e $OUT/page-fetched ]] && break
        sleep 1
    done
}

# -- 3. the watchdog: freeze the main loop, systemd restarts it, the game resumes ---------------
check_watchdog() {
    local before pid restarted=0 i
    before=$(unit_show NRestarts)
    pid=$(unit_show MainPID)
    say watchdog_freeze pid "$pid" restarts_before "$before" at "$(cut -d' ' -f1 /proc/uptime)"
    kill -USR2 "$pid"
    for ((i = 0; i < 120; i++)); do
        sleep 1
        if [[ $(unit_show NRestarts) -gt $before && $(unit_show MainPID) != "$pid" ]]; then
            restarted=1
            break
        fi
    done
    say watchdog_restarted "$restarted"
    if wait_active 120; then say watchdog_active_again 1; else say watchdog_active_again 0; fi
    journalctl -u showdown --no-pager -o cat | grep -iE 'watchdog|resum|freez' | tail -n 8 > "$OUT/watchdog.txt"
    cat "$OUT/watchdog.txt"
    say watchdog_restarts "$(($(unit_show NRestarts) - before))"
    if journalctl -u showdown --no-pager -o cat _PID="$(unit_show MainPID)" | grep -q 'resuming game'; then
        say watchdog_resumed 1
    else
        say watchdog_resumed 0
    fi
}

# -- 4. udev: the rule names the board's serial port ---------------------------------------------
check_udev() {
    local tty
    lsusb | tee "$OUT/lsusb.txt"
    tty=$(first_name /sys/bus/usb-serial/drivers/ftdi_sio/ttyUSB*)
    say ftdi_tty "${tty:-none}"
    udevadm test "/sys/class/tty/$tty" > "$OUT/udevadm-test-ftdi.txt" 2>&1
    grep -E 'showdown|LINK|MODE|GROUP' "$OUT/udevadm-test-ftdi.txt" | tail -n 8
    ls -l /dev/showdown-unit
    say ftdi_named "$(readlink -f /dev/showdown-unit) $(stat -L -c '%G %a' /dev/showdown-unit 2>/dev/null)"
    check_pico_ids
}

# The Pico's own ids (2e8a:0005): a USB gadget made by the guest's kernel (dummy_hcd +
# configfs, CDC ACM like MicroPython's), enumerated by the real cdc_acm driver as /dev/ttyACM*.
check_pico_ids() {
    local g=/sys/kernel/config/usb_gadget/pico tty
    if ! modprobe dummy_hcd 2>/dev/null || ! modprobe libcomposite 2>/dev/null; then
        say pico_named "no-dummy-hcd"
        return
    fi
    mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
    mkdir -p "$g/strings/0x409" "$g/configs/c.1" "$g/functions/acm.usb0"
    echo 0x2e8a > "$g/idVendor"
    echo 0x0005 > "$g/idProduct"
    echo "MicroPython" > "$g/strings/0x409/manufacturer"
    echo "Board in FS mode" > "$g/strings/0x409/product"
    ln -sf "$g/functions/acm.usb0" "$g/configs/c.1/"
    # the FTDI adapter would claim the same name: take the rule's view of the Pico alone
    first_name /sys/class/udc/* > "$g/UDC"
    local i
    for ((i = 0; i < 60; i++)); do # enumeration takes a moment, more so in plain emulation
        tty=$(first_name /sys/bus/usb/drivers/cdc_acm/*/tty/ttyACM*)
        [[ -n $tty ]] && break
        sleep 1
    done
    udevadm settle
    say pico_tty "${tty:-none}"
    if [[ -n $tty ]]; then
        udevadm test "/sys/class/tty/$tty" > "$OUT/udevadm-test-pico.txt" 2>&1
        grep -E 'showdown|LINK|MODE|GROUP|ID_MM' "$OUT/udevadm-test-pico.txt" | tail -n 8
        udevadm info "/dev/$tty" | grep -E 'ID_VENDOR_ID|ID_MODEL_ID|DEVLINKS|ID_MM' || true
        say pico_named "$(stat -c '%G %a' "/dev/$tty") $(udevadm info -q symlink "/dev/$tty" | tr ' ' '\n' | grep -c '^showdown-unit$')"
    fi
    echo "" > "$g/UDC"
    rm -f "$g/configs/c.1/acm.usb0"
    rmdir "$g/configs/c.1" "$g/functions/acm.usb0" "$g/strings/0x409" "$g" 2>/dev/null
    udevadm trigger --subsystem-match=tty --action=change
    udevadm settle
    ls -l /dev/showdown-unit
}

# -- 5. the serial back end: the service plays showdowns through /dev/showdown-unit ------------
check_serial() {
    # The builder's edit: the unit is behind a microcontroller on USB.
    sed -i 's/^\[unit\]$/[unit]\nbackend = "serial"/' /etc/showdown/showdown.toml
    systemctl restart showdown
    wait_active 120
    local i opened=""
    for ((i = 0; i < 60; i++)); do # the link's handshake names the port it opened
        opened=$(journalctl -u showdown --no-pager -o cat _PID="$(unit_show MainPID)" \
            | sed -n 's/.*serial link up on \([^:]*\):.*/\1/p' | tail -n1)
        [[ -n $opened ]] && break
        sleep 1
    done
    journalctl -u showdown --no-pager -o cat -n 20 | grep -E 'back end|link' | tail -n 4
    say serial_opened "${opened:-none}" is "$(readlink -f /dev/showdown-unit)"
    say serial_ready "$(unit_show ActiveState)"
    # the host plays DUELS showdowns on the simulated microcontroller; wait for the verdicts
    local seen=0
    for ((i = 0; i < 60 * 10; i++)); do
        seen=$(journalctl -u showdown --no-pager -o cat | grep -c 'won, but the unit was not told who played' || true)
        [[ $seen -ge $DUELS ]] && break
        [[ -e $OUT/serial-done ]] && break
        sleep 1
    done
    say serial_verdicts "$seen"
    systemctl stop showdown
    # showdown check through the board, chosen by the installed configuration as for the
    # service: lights and sound over the real link, each input reported missing
    # (it asks whether each light and sound came: "y" to every question; nobody presses)
    yes y | runuser -u showdown -- env LG_WD=/tmp showdown check \
        --config /etc/showdown/showdown.toml --no-launcher --timeout 0.5 \
        > "$OUT/check-serial.txt" 2>&1
    say check_serial_rc $?
    tail -n 20 "$OUT/check-serial.txt"
    sed -i '/^backend = "serial"$/d' /etc/showdown/showdown.toml
    sync
}

# -- 6. power cuts: the simulated table at a fast pace, each acknowledged entry on the console ---
start_cuts() {
    cat > "$ENVIRONMENT" <<'EOT'
SHOWDOWN_RUN_OPTIONS=--sim --fast --speed 20
SHOWDOWN_STORAGE__LOG_ENTRIES=true
EOT
    # On disk before the first cut: an edit still in the page cache is lost with the power
    # (an empty file after the reboot), as on a Pi unplugged right after editing.
    sync
    systemctl restart showdown
    wait_active 120
    say cuts_ready 1
}

# -- 7. the event host: Mosquitto and showdown-event under systemd; the host's table joins -----
start_event() {
    # One table (the host's simulated one), a code valid all run long; the builder's edit.
    cat > /etc/showdown/event.env <<'EOT'
SHOWDOWN_EVENT_ARGS="--format free --tables 1 --name Pi-in-a-box --no-mdns --code-minutes 600 --http 0.0.0.0:8081"
EOT
    # install.sh started the default event: this one needs an empty folder (docs/event.md).
    # The broker is PartOf= the host (deploy/mosquitto-showdown.service.conf): it stops with it,
    # and nothing listens on 1883 until the host starts again (and with it, the broker).
    systemctl stop showdown-event
    local port_open=0
    if listening 1883; then port_open=1; fi
    say broker_after_host_stop "$(systemctl is-active mosquitto)" listening "$port_open"
    rm -f "$EVENT_DIR"/event.db* "$EVENT_DIR/join-code"
    sync
    systemctl start showdown-event
    local i
    for ((i = 0; i < 600; i++)); do # its start takes minutes under plain emulation on a busy host
        [[ -s $EVENT_DIR/join-code ]] && break
        sleep 1
    done
    say mosquitto_state "$(systemctl is-active mosquitto)" enabled "$(systemctl is-enabled mosquitto)"
    if listening 1883; then port_open=1; else port_open=0; fi
    say broker_after_host_start "$(systemctl is-active mosquitto)" listening "$port_open"
    say mosquitto_persistence "$(grep -rhs '^persistence true' /etc/mosquitto/ | head -n1 | tr ' ' '_')"
    say event_state "$(systemctl is-active showdown-event)"
    journalctl -u showdown-event -u mosquitto --no-pager -o cat | tail -n 12
    # The code only, for the host's table (it joins at the address QEMU forwards).
    if [[ -s $EVENT_DIR/join-code ]]; then
        cut -d@ -f1 "$EVENT_DIR/join-code" > "$OUT/join-code"
        say event_ready 1
    else
        say event_ready 0
    fi
    sync
}

# After a cut: the broker and the event host came back by themselves (enabled units).
event_back() {
    local i
    for ((i = 0; i < 120; i++)); do
        [[ $(systemctl is-active showdown-event) == active && $(systemctl is-active mosquitto) == active ]] && break
        sleep 1
    done
    say event_back "$(systemctl is-active mosquitto) $(systemctl is-active showdown-event)"
}

# The event journal, read back once the host's table has sent every entry (the host touches
# $OUT/event-drained when its table's outbox is empty, or gives up): each row's table, journal
# and sequence number, and SQLite's integrity.
export_event() {
    local dir=$OUT/boot-$BOOT i
    mkdir -p "$dir"
    for ((i = 0; i < 600; i++)); do
        [[ -e $OUT/event-drained ]] && break
        sleep 1
    done
    systemctl stop showdown-event
    sqlite3 -separator ' ' "$EVENT_DB" 'SELECT table_id, journal, seq, kind FROM entries ORDER BY table_id, journal, seq' \
        > "$dir/event-entries.txt" 2> "$dir/event-export.err"
    sqlite3 "$EVENT_DB" 'PRAGMA integrity_check' > "$dir/event-integrity.txt" 2>&1
    say event_integrity "$(head -n1 "$dir/event-integrity.txt")"
    say event_exported "$(wc -l < "$dir/event-entries.txt")" entries
}

# What the service had written, read back through `showdown export`: the games the host names
# in $OUT/export-games (those with entries acknowledged since the last check), else all of them.
export_journal() {
    local dir=$OUT/boot-$BOOT game wanted=""
    mkdir -p "$dir"
    runuser -u showdown -- showdown export --db "$DB" --list > "$dir/games.tsv" 2> "$dir/export.err"
    if [[ -f $OUT/export-games ]]; then wanted=$(cat "$OUT/export-games"); fi
    cut -f1 "$dir/games.tsv" | while read -r game; do
        if [[ -n $wanted && " $wanted " != *" $game "* ]]; then continue; fi
        runuser -u showdown -- showdown export --db "$DB" --game "$game" \
            > "$dir/game-$game.json" 2>> "$dir/export.err"
    done
    runuser -u showdown -- sqlite3 "$DB" 'PRAGMA integrity_check' > "$dir/integrity.txt" 2>&1
    say integrity "$(head -n1 "$dir/integrity.txt")"
    say exported "$(wc -l < "$dir/games.tsv")" games
}

# -- 8. a starved Pi: one core, a CPU hog started before the service. When did READY=1 come,
# against TimeoutStartSec, and what took the time (the service's own start-up line, systemd's
# view of the boot)? Then a clean power-off: the next boot is the host's to choose.
starved_start() {
    local i state hog
    for ((i = 0; i < 900; i++)); do # a start that times out is restarted: wait for a verdict
        state=$(unit_show ActiveState)
        [[ $state == active || $state == failed ]] && break
        sleep 2
    done
    hog=$(systemctl show -p ActiveState --value showdown-vm-hog)
    say starved_unit "$(systemctl show showdown -p ActiveState -p Result -p NRestarts \
        -p TimeoutStartUSec -p InactiveExitTimestampMonotonic -p ExecMainStartTimestampMonotonic \
        -p ActiveEnterTimestampMonotonic | tr '\n' ' ')"
    say starved_hog "$hog" "$(systemctl show -p ActiveEnterTimestampMonotonic --value showdown-vm-hog)" \
        cpus "$(nproc)" load "$(cut -d' ' -f1-3 /proc/loadavg)"
    journalctl -u showdown -b --no-pager -o short-monotonic > "$OUT/starved-$BOOT-journal.txt"
    say starved_line "$(journalctl -u showdown -b --no-pager -o cat | grep 'started in' | tail -n1)"
    # systemd's view of the boot needs the boot finished: waited for a while, then what is still
    # starting is named instead (the hog starves nice-19 units such as e2scrub_reap)
    timeout 300 systemctl is-system-running --wait > /dev/null
    say starved_jobs "$(systemctl list-jobs --no-legend | awk '{print $2}' | tr '\n' ' ')"
    systemd-analyze time > "$OUT/starved-$BOOT-analyze.txt" 2>&1
    systemd-analyze blame 2>&1 | head -n 12 >> "$OUT/starved-$BOOT-analyze.txt"
    cat "$OUT/starved-$BOOT-analyze.txt"
    say starved_boot "$(head -n1 "$OUT/starved-$BOOT-analyze.txt")"
    # the same Python work here and on the host: how much slower this starved guest is
    say starved_python_s "$(python3 -c 'import time; t = time.perf_counter(); sum(i * i for i in range(1_000_000)); print(round(time.perf_counter() - t, 3))')"
    # the same Python work as on the host (the share's probe.py), the hog still running
    say starved_python_s "$(python3 /mnt/host/probe.py)"
    # the stop, against TimeoutStopSec, the hog still running; a watchdog restart meanwhile
    # (WatchdogSec) would show in NRestarts
    local restarts began
    restarts=$(unit_show NRestarts)
    began=$(cut -d' ' -f1 /proc/uptime)
    systemctl stop showdown
    say starved_stop "$(awk -v a="$began" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { print b - a }')" \
        result "$(unit_show Result)" restarts "$restarts" limit "$(unit_show TimeoutStopUSec)"
    systemctl stop showdown-vm-hog
    sync
}

uninstall_product() {
    bash "$SRC_COPY/deploy/uninstall.sh" > "$OUT/uninstall.log" 2>&1
    say uninstall_rc $?
    udevadm settle
    snapshot > /var/local/showdown-vm-after.txt
    diff "$SNAPSHOT_BEFORE" /var/local/showdown-vm-after.txt > "$OUT/uninstall-diff.txt"
    cat "$OUT/uninstall-diff.txt"
    say unit_known "$(systemctl list-unit-files showdown.service --no-legend | wc -l)"
    say process_left "$(pgrep -u showdown -c || true)"
    if [[ -e /dev/showdown-unit ]]; then say dev_link_left 1; else say dev_link_left 0; fi
    if [[ -s $DB ]]; then say journal_kept 1; else say journal_kept 0; fi
    say event_unit_known "$(systemctl list-unit-files showdown-event.service --no-legend | wc -l)"
}

case $STAGE in
    main)
        install_product
        check_notify
        check_launcher
        check_page
        check_watchdog
        if [[ $SERIAL != 0 ]]; then
            check_udev
            check_serial
        fi
        start_cuts
        start_event
        ;;
    verify)
        # The service came up by itself and scores on; it pauses (a clean stop) while the
        # export runs, so each cut's check stays small under plain emulation, then goes on.
        systemctl stop showdown
        export_journal
        systemctl start showdown
        event_back
        say verified 1
        ;;
    starved)
        starved_start
        say starved_done 1
        systemctl poweroff
        ;;
    final)
        systemctl stop showdown
        export_journal
        event_back
        export_event
        uninstall_product
        say "done" 1
        sync
        systemctl poweroff
        ;;
    *) say unknown_stage "$STAGE" ;;
esac
