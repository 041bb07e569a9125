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
# The command's exit status is the script's: removing the folder must not change it (the keyring
# daemon can still be writing there as the session ends, and a failing command in an EXIT trap under
# `set -e` would make a passed run exit 1).
cleanup() { rm -rf "$XDG_DATA_HOME" 2>/dev/null || true; }
trap cleanup EXIT INT TERM
# Inside the session: start the unlocked keyring, then wait until it owns the Secret Service name
# before running the command. A client that asked first would make D-Bus start a second, locked
# daemon without the login collection. NameHasOwner does not start anything.
# "$@" is passed through dbus-run-session's own argv, so arguments keep their quoting.
dbus-run-session -- sh -c '
  echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  tries=0
  until dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
      org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q "boolean true"; do
    tries=$((tries + 1))
    if [ "$tries" -gt 100 ]; then echo "with-keychain: the keyring did not start within 10 s" >&2; exit 1; fi
    sleep 0.1
  done
  exec "$@"' with-keychain "$@"
