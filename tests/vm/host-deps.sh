#!/usr/bin/env bash
# The host's tools for the Pi-in-a-box test, from Debian's packages:
#   mmdebstrap       builds the guest's Debian bookworm from the mirror apt uses here
#   qemu-system-x86  boots it (KVM when /dev/kvm works, plain emulation otherwise)
#   e2fsprogs        mkfs.ext4 -d turns the tree into a disk image without root mounts
# Installs what is missing when it can (root and apt-get), else says exactly what to install.
set -euo pipefail
declare -A PACKAGE_OF=([mmdebstrap]=mmdebstrap [qemu-system-x86_64]=qemu-system-x86 [mkfs.ext4]=e2fsprogs)
missing=()
for tool in "${!PACKAGE_OF[@]}"; do
    command -v "$tool" >/dev/null || missing+=("${PACKAGE_OF[$tool]}")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0
if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    echo "vm: installing ${missing[*]} (apt-get)"
    apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null \
        || { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null; }
    exit 0
fi
echo "vm: missing Debian packages: ${missing[*]} (as root: apt-get install ${missing[*]})" >&2
exit 1
