#!/usr/bin/env bash
# Compile deploy/launcher.c as VENV/bin/showdown, in place of the script pip writes, where a C
# compiler is present; otherwise pip's script stays and one line says why. The launcher holds
# the stop signals back while the interpreter starts (see launcher.c), which no Python script can.
#   deploy/build-launcher.sh VENV
set -euo pipefail

if [[ $# -ne 1 || ! -x $1/bin/python ]]; then
    echo "usage: $0 VENV (a virtual environment with showdown installed)" >&2
    exit 2
fi
venv=$(cd "$1" && pwd)
source=$(cd "$(dirname "$0")" && pwd)/launcher.c
cc=${CC:-cc}
built=$(mktemp "$venv/bin/.showdown-launcher.XXXXXX")
trap 'rm -f "$built"' EXIT
if ! command -v "$cc" >/dev/null 2>&1; then
    echo "showdown launcher: the script pip wrote (no C compiler '$cc')"
    exit 0
fi
if ! "$cc" -O2 -Wall -Werror -DPYTHON="\"$venv/bin/python\"" -o "$built" "$source" 2>/dev/null; then
    echo "showdown launcher: the script pip wrote (the C compiler '$cc' failed on launcher.c)"
    exit 0
fi
chmod 0755 "$built"
mv -f "$built" "$venv/bin/showdown"
trap - EXIT
echo "showdown launcher: compiled (the stop signals are held back while Python starts)"
