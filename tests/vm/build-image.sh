#!/usr/bin/env bash
# Build the guest: a small Debian bookworm with systemd and udev, as under Raspberry Pi OS.
#
#   tests/vm/build-image.sh CACHE_DIR
#
# Writes CACHE_DIR/{rootfs.raw,vmlinuz,initrd.img,image.stamp}; does nothing when the stamp
# matches these scripts (the image depends on nothing else: the product comes in at run time).
# Packages come from the Debian mirror this machine's apt uses. The guest has no network, so
# everything deploy/install.sh asks apt for is installed here already, and apt in the guest
# has no sources: its `apt-get install` finds them installed, as on a Pi that has them.
set -euo pipefail

CACHE=${1:?usage: build-image.sh CACHE_DIR}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
STAMP_VALUE=$(sha256sum "$HERE/build-image.sh" "$HERE/customize-image.sh" "$HERE/guest-boot.sh" | sha256sum | cut -c1-16)
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
# checks, the Debian kernel, and deploy/install.sh's own list (keep in step with APT_PACKAGES,
# and mosquitto, gcc and libc6-dev for its --event-host: the client-id plugin is compiled there).
PACKAGES=(
    systemd systemd-sysv udev dbus kmod e2fsprogs procps usbutils
    linux-image-amd64 initramfs-tools
    python3 python3-venv python3-pip sqlite3
    libsdl2-2.0-0 libsdl2-ttf-2.0-0 libsdl2-image-2.0-0 libsdl2-mixer-2.0-0
    libgbm1 libegl1 libdrm2 fonts-noto-cjk
    mosquitto gcc libc6-dev
)

WORK=$CACHE/build.tmp
# A build killed half-way leaves mmdebstrap's /proc, /sys and /dev mounts in its tree: unmount
# them (deepest first) before removing it, and never cross into another file system.
clean_work() {
    if [[ -d $WORK ]]; then
        # (grep finds nothing after a build that ended well: not a failure under pipefail)
        findmnt -rn -o TARGET | { grep -F "$WORK/" || true; } | sort -r | while read -r target; do
            umount -l "$target" || true
        done
        rm -rf --one-file-system "$WORK"
    fi
}
clean_work
mkdir -p "$WORK"
trap clean_work EXIT
echo "vm image: mmdebstrap bookworm from $MIRROR (the first build downloads the packages)"
started=$SECONDS
mmdebstrap --quiet --variant=minbase --mode=root --format=directory \
    --include="$(IFS=,; echo "${PACKAGES[*]}")" \
    --customize-hook="'$HERE/customize-image.sh' \"\$1\"" \
    bookworm "$WORK/root" "$MIRROR"
cp "$WORK"/root/boot/vmlinuz-* "$WORK/vmlinuz"
cp "$WORK"/root/boot/initrd.img-* "$WORK/initrd.img"
rm -f "$WORK/rootfs.raw"
mkfs.ext4 -q -L pi-in-a-box -d "$WORK/root" "$WORK/rootfs.raw" 4G
mv "$WORK/rootfs.raw" "$WORK/vmlinuz" "$WORK/initrd.img" "$CACHE/"
echo "$STAMP_VALUE" > "$CACHE/image.stamp"
echo "vm image: built in $((SECONDS - started)) s ($(du -sh --apparent-size "$CACHE/rootfs.raw" | cut -f1) disk, $(du -sh "$CACHE/rootfs.raw" | cut -f1) used)"
