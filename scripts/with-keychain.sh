#!/bin/sh
# Runs a command inside a private D-Bus session with an unlocked gnome-keyring (Secret Service), so
# the OS-keychain tests run against a real keychain on a headless machine. A fresh, temporary
# XDG_DATA_HOME keeps the keyring away from the user's own.
#   scripts/with-keychain.sh npx vitest run core/keychain
set -eu
if [ "$#" -eq 0 ]; then
  echo "usage: scripts/with-keychain.sh <command> [args…]" >&2
  exit 2
fi
for tool in dbus-run-session gnome-keyring-daemon; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "with-keychain: $tool is missing (Debian: sudo apt-get install -y dbus gnome-keyring)" >&2
    exit 127
  fi
done
XDG_DATA_HOME=$(mktemp -d)
export XDG_DATA_HOME
trap 'rm -rf "$XDG_DATA_HOME"' EXIT INT TERM
# "$@" is passed through dbus-run-session's own argv, so arguments keep their quoting.
dbus-run-session -- sh -c 'echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec "$@"' with-keychain "$@"
