#!/usr/bin/env bash
# Open the built bundle (dist/ClearNote, `make bundle`) on a bare Debian: a debootstrap'd
# bookworm (minbase) chroot, the window shown on an Xvfb of the host, screenshots taken.
# Needs root, debootstrap, Xvfb, ImageMagick's `import` and a Debian mirror; a manual check
# (issue 27), not run by the tests.
#
#   sudo installer/bare_debian.sh ROOT_DIR SCREENS_DIR
#
# Steps: (1) the bundle on the bare system must say which system libraries it lacks and the
# apt-get line, not fail in Qt; (2) with exactly that line installed (X client and GL
# libraries; no libxcb-icccm4, -keysyms1, -cursor0 ...: the bundle carries those) the window
# opens and draws its text (the bundle's DejaVu Sans: the system has no fonts); (3) the
# engine works there (--smoke-test).
set -euo pipefail
ROOT=${1:?chroot folder}
SCREENS=${2:?screenshot folder}
DISPLAY_NUMBER=${DISPLAY_NUMBER:-27}
cd "$(dirname "$0")/.."
test -x dist/ClearNote/ClearNote || { echo "build the bundle first: make bundle" >&2; exit 1; }
mkdir -p "$SCREENS"
if [ ! -x "$ROOT/bin/sh" ]; then
  debootstrap --variant=minbase bookworm "$ROOT" http://deb.debian.org/debian
fi
rm -rf "$ROOT/opt/ClearNote" && mkdir -p "$ROOT/opt" && cp -a dist/ClearNote "$ROOT/opt/"
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"

Xvfb ":$DISPLAY_NUMBER" -screen 0 1400x900x24 -nolisten tcp &
xvfb=$!
mkdir -p "$ROOT/proc" "$ROOT/dev" "$ROOT/tmp/.X11-unix"
mount -t proc proc "$ROOT/proc"
mount --bind /dev "$ROOT/dev"
mount --bind /tmp/.X11-unix "$ROOT/tmp/.X11-unix"
cleanup() {
  umount "$ROOT/tmp/.X11-unix" "$ROOT/dev" "$ROOT/proc" || true
  kill "$xvfb" 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM  # through the EXIT trap: no mounts left behind
sleep 2

in_root() { chroot "$ROOT" env -i HOME=/root PATH=/usr/bin:/bin LANG=C.UTF-8 "$@"; }

echo "== 1. bare: the bundle names what it lacks"
set +e
in_root DISPLAY=":$DISPLAY_NUMBER" timeout 30 /opt/ClearNote/ClearNote \
  > "$SCREENS/bare-debian-first-run.log" 2>&1
echo "exit status $? (1 while libraries are missing; 124: it ran until the timeout)"
set -e
cat "$SCREENS/bare-debian-first-run.log"
line=$(sed -n 's/.*apt-get install -y //p' "$SCREENS/bare-debian-first-run.log")
if [ -n "$line" ]; then
  echo "== installing what it asked for: $line"
  in_root apt-get update -qq
  # shellcheck disable=SC2086 - the package names are words
  in_root DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $line
fi

echo "== 2. the window"
in_root DISPLAY=":$DISPLAY_NUMBER" timeout 40 /opt/ClearNote/ClearNote &
app=$!
sleep 20
import -display ":$DISPLAY_NUMBER" -window root "$SCREENS/bare-debian-start-page.png"
wait "$app" || true  # the timeout ends it (not `wait` alone: Xvfb never ends)

echo "== 3. the engine"
in_root QT_QPA_PLATFORM=offscreen timeout 300 /opt/ClearNote/ClearNote --smoke-test
echo "screenshot: $SCREENS/bare-debian-start-page.png"
