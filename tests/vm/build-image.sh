#!/usr/bin/env bash
# Build the guest: a small Debian bookworm with systemd and udev, as under Raspberry Pi OS.
#
#   tests/vm/build-image.sh CACHE_DIR
#
# Writes CACHE_DIR/{rootfs.raw,vmlinuz,initrd.img,image.stamp}; does nothing when the stamp
# matches this script (the image depends on nothing else: the product comes in at run time).
# Packages come from the Debian mirror this machine's apt uses. The guest has no network, so
# everything deploy/install.sh asks apt for is installed here already, and apt in the guest
# has no sources: its `apt-get install` finds them installed, as on a Pi that has them.
set -euo pipefail

CACHE=${1:?usage: build-image.sh CACHE_DIR}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
STAMP_VALUE=$(sha256sum "$HERE/build-image.sh" "$HERE/guest-boot.sh" | sha256sum | cut -c1-16)
if [[ -f $CACHE/image.stamp && $(cat "$CACHE/image.stamp") == "$STAMP_VALUE" \
      && -f $CACHE/rootfs.raw && -f $CACHE/vmlinuz && -f $CACHE/initrd.img ]]; then
    echo "vm image: cached in $CACHE"
    exit 0
fi

# The mirror: the first deb.debian.org-style URI apt is configured with here.
MIRROR=$(grep -hoE '^(URIs:|deb)\s+[^ ]+' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list \
    2>/dev/null | awk '{print $2}' | grep -m1 -E '/debian/?$' || true)
MIRROR=${MIRROR:-http://deb.debian.org/debian}

# Guest packages: the base a Raspberry Pi OS Lite has (systemd, udev, python3), sqlite3 for the
# checks, the Debian kernel, and deploy/install.sh's own list (keep in step with APT_PACKAGES).
PACKAGES=(
    systemd systemd-sysv udev dbus kmod e2fsprogs procps usbutils
    linux-image-amd64 initramfs-tools
    python3 python3-venv python3-pip sqlite3
    libsdl2-2.0-0 libsdl2-ttf-2.0-0 libsdl2-image-2.0-0 libsdl2-mixer-2.0-0
    libgbm1 libegl1 libdrm2 fonts-noto-cjk
)

WORK=$CACHE/build.tmp
rm -rf "$WORK"
mkdir -p "$WORK"
trap 'rm -rf "$WORK"' EXIT
echo "vm image: mmdebstrap bookworm from $MIRROR (the first build downloads the packages)"
started=$SECONDS
mmdebstrap --quiet --variant=minbase --mode=root --format=directory \
    --include="$(IFS=,; echo "${PACKAGES[*]}")" \
    --customize-hook="cp '$HERE/guest-boot.sh' \"\$1/usr/local/sbin/showdown-vm-boot\"" \
    --customize-hook='chmod 0755 "$1/usr/local/sbin/showdown-vm-boot"' \
    --customize-hook='echo pi-in-a-box > "$1/etc/hostname"' \
    --customize-hook='printf "/dev/vda / ext4 defaults,errors=remount-ro 0 1\n" > "$1/etc/fstab"' \
    --customize-hook='rm -f "$1"/etc/apt/sources.list "$1"/etc/apt/sources.list.d/*' \
    --customize-hook='passwd --root "$1" --delete root' \
    --customize-hook='mkdir -p "$1/etc/systemd/journald.conf.d"' \
    --customize-hook='printf "[Journal]\nForwardToConsole=yes\nTTYPath=/dev/ttyS0\nMaxLevelConsole=info\n" > "$1/etc/systemd/journald.conf.d/console.conf"' \
    --customize-hook='printf "[Unit]\nDescription=Pi-in-a-box harness: the host'"'"'s checks for this boot\n[Service]\nType=simple\nExecStart=/usr/local/sbin/showdown-vm-boot\nStandardOutput=tty\nStandardError=tty\nTTYPath=/dev/ttyS0\n[Install]\nWantedBy=multi-user.target\n" > "$1/etc/systemd/system/showdown-vm-boot.service"' \
    --customize-hook='chroot "$1" systemctl enable showdown-vm-boot.service' \
    --customize-hook='chroot "$1" systemctl mask getty@tty1.service serial-getty@ttyS0.service apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer fstrim.timer' \
    bookworm "$WORK/root" "$MIRROR"
cp "$WORK"/root/boot/vmlinuz-* "$WORK/vmlinuz"
cp "$WORK"/root/boot/initrd.img-* "$WORK/initrd.img"
rm -f "$WORK/rootfs.raw"
mkfs.ext4 -q -L pi-in-a-box -d "$WORK/root" "$WORK/rootfs.raw" 4G
mv "$WORK/rootfs.raw" "$WORK/vmlinuz" "$WORK/initrd.img" "$CACHE/"
echo "$STAMP_VALUE" > "$CACHE/image.stamp"
echo "vm image: built in $((SECONDS - started)) s ($(du -sh --apparent-size "$CACHE/rootfs.raw" | cut -f1) disk, $(du -sh "$CACHE/rootfs.raw" | cut -f1) used)"
