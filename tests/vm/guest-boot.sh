#!/bin/sh
# Pi-in-a-box: the only harness file baked into the guest image (as /usr/local/sbin/showdown-vm-boot,
# run once per boot by showdown-vm-boot.service). It mounts the host's read-only share (the
# checkout and the wheels) and runs the checks of this boot from there, so the checks can change
# without rebuilding the image. Nothing of it is part of the product.
set -eu
modprobe 9pnet_virtio
mkdir -p /mnt/host
mount -t 9p -o trans=virtio,version=9p2000.L,ro host /mnt/host
exec /bin/bash /mnt/host/src/tests/vm/guest.sh
