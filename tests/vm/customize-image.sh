#!/usr/bin/env bash
# mmdebstrap's customize hook for the Pi-in-a-box guest: called with the new root as $1.
# What a Raspberry Pi OS image would have, less the network, plus the harness's boot hook.
set -euo pipefail
ROOT=$1
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

echo pi-in-a-box > "$ROOT/etc/hostname"
# Checked by systemd-fsck at each boot: after a power cut too.
echo "/dev/vda / ext4 defaults,errors=remount-ro 0 1" > "$ROOT/etc/fstab"
# Offline: apt has no sources, so install.sh's apt-get finds its packages already installed.
rm -f "$ROOT/etc/apt/sources.list" "$ROOT"/etc/apt/sources.list.d/*

# The Pi on the venue's LAN, as far as the box has one: QEMU's user network (restricted: it
# reaches nothing but the ports the host forwards to it) at its fixed address, so a table on
# the host reaches the event's broker. systemd-networkd, no DHCP to wait for.
mkdir -p "$ROOT/etc/systemd/network"
cat > "$ROOT/etc/systemd/network/10-lan.network" <<'EOT'
[Match]
Name=en* eth*

[Network]
Address=10.0.2.15/24
Gateway=10.0.2.2
EOT
chroot "$ROOT" systemctl enable systemd-networkd.service

# The serial console is the host's only window: journald forwards every log line there, the
# service's "journal entry on disk" lines included.
mkdir -p "$ROOT/etc/systemd/journald.conf.d"
cat > "$ROOT/etc/systemd/journald.conf.d/console.conf" <<'EOT'
[Journal]
ForwardToConsole=yes
TTYPath=/dev/ttyS0
MaxLevelConsole=info
EOT

# The harness's one hook in the image: mount the host's share and run this boot's checks.
install -m 0755 "$HERE/guest-boot.sh" "$ROOT/usr/local/sbin/showdown-vm-boot"
cat > "$ROOT/etc/systemd/system/showdown-vm-boot.service" <<'EOT'
[Unit]
Description=Pi-in-a-box harness: the host's checks for this boot

[Service]
Type=simple
ExecStart=/usr/local/sbin/showdown-vm-boot
StandardOutput=tty
StandardError=tty
TTYPath=/dev/ttyS0

[Install]
WantedBy=multi-user.target
EOT
chroot "$ROOT" systemctl enable showdown-vm-boot.service
# Nothing that would compete with the checks for the CPU, or wait for a login.
chroot "$ROOT" systemctl mask getty@tty1.service serial-getty@ttyS0.service apt-daily.timer \
    apt-daily-upgrade.timer e2scrub_all.timer fstrim.timer man-db.timer
