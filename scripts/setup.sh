#!/usr/bin/env bash
# One-time (and idempotent) set-up: system packages the fallback shell and the tests need, then
# the npm dependencies. `npm run setup` runs this; so does CI (.ci/run) on a fresh machine.
#
#   chromium         the fallback shell and the end-to-end tests (no browser is downloaded)
#   xvfb             a virtual display: `xvfb-run npm start` on a machine without a screen
#   gnome-keyring,   the OS keychain (Secret Service over D-Bus) for API secrets and its tests
#   dbus, libsecret-tools
#   libnotify-bin    optional: notify-send, for OS notifications in the fallback shell (the app works without)
#   postgresql       the server the team-mode tests start as a throwaway cluster on loopback (docs/team.md);
#                    the app itself never runs one: a team uses the firm's own PostgreSQL
#   build-essential, python3   only when better-sqlite3 has to be compiled (no prebuilt binary)
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

# --- Node ---------------------------------------------------------------------------------------
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -lt 20 ]; then
  say "Node.js 20.19 or newer is required (found: $(node -v 2>/dev/null || echo none))."
  exit 1
fi

# --- System packages ----------------------------------------------------------------------------
chrome_found() {
  [ -n "${CHROME_PATH:-}" ] && [ -x "${CHROME_PATH}" ] && return 0
  for p in /usr/lib/chromium/chromium /usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome-stable \
    /usr/bin/google-chrome "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome" \
    "/Applications/Chromium.app/Contents/MacOS/Chromium"; do
    [ -x "$p" ] && return 0
  done
  return 1
}

missing=()
optional=()
if [ "$(uname -s)" = "Linux" ]; then
  command -v notify-send >/dev/null 2>&1 || optional+=(libnotify-bin)
  chrome_found || missing+=(chromium)
  command -v xvfb-run >/dev/null 2>&1 || missing+=(xvfb)
  command -v gnome-keyring-daemon >/dev/null 2>&1 || missing+=(gnome-keyring)
  command -v dbus-run-session >/dev/null 2>&1 || missing+=(dbus)
  command -v secret-tool >/dev/null 2>&1 || missing+=(libsecret-tools)
  compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null || missing+=(postgresql)
  # better-sqlite3 compiles from source where its prebuilt binary cannot be downloaded.
  if [ ! -f node_modules/better-sqlite3/build/Release/better_sqlite3.node ]; then
    { command -v make >/dev/null 2>&1 && command -v g++ >/dev/null 2>&1; } || missing+=(build-essential)
    command -v python3 >/dev/null 2>&1 || missing+=(python3)
  fi
else
  chrome_found || say "No Chrome or Chromium found. Install Google Chrome, or set CHROME_PATH to a Chromium executable."
  command -v postgres >/dev/null 2>&1 || [ -n "${TREASURY_DESK_PG_BIN:-}" ] ||
    say "Optional: a PostgreSQL server for the team-mode tests (macOS: brew install postgresql@15), or set TREASURY_DESK_PG_BIN; without it they are skipped."
fi

if [ "${#missing[@]}" -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1; then
    sudo_cmd=()
    if [ "$(id -u)" -ne 0 ]; then
      if command -v sudo >/dev/null 2>&1; then sudo_cmd=(sudo); else
        say "Missing system packages: ${missing[*]}. Install them as root: apt-get install ${missing[*]}"
        exit 1
      fi
    fi
    say "Installing system packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    "${sudo_cmd[@]}" apt-get update -qq
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    if [ "${#optional[@]}" -gt 0 ]; then
      "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${optional[@]}" >/dev/null ||
        say "Optional packages not installed (${optional[*]}): the fallback shell shows no OS notifications."
      optional=()
    fi
  else
    say "Missing system packages: ${missing[*]}, and apt-get is not available here."
    say "Install the equivalents with your package manager (Fedora: dnf install chromium xorg-x11-server-Xvfb gnome-keyring dbus-daemon libsecret postgresql-server;"
    say "Arch: pacman -S chromium xorg-server-xvfb gnome-keyring dbus libsecret postgresql), or set CHROME_PATH to a Chrome/Chromium executable;"
    say "for the team tests, set TREASURY_DESK_PG_BIN to the folder holding PostgreSQL's postgres, initdb and pg_ctl."
    # The app itself only needs a Chromium (or Electron); carry on if there is one.
    chrome_found || exit 1
  fi
fi
# Optional packages never fail the set-up: installed when we are root, otherwise only mentioned.
if [ "${#optional[@]}" -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    say "Installing optional system packages: ${optional[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${optional[@]}" >/dev/null 2>&1 ||
      say "Could not install ${optional[*]}: the fallback shell shows no OS notifications (the app works without)."
  else
    say "Optional: apt-get install ${optional[*]} for OS notifications in the fallback shell (the app works without)."
  fi
fi

# --- npm dependencies ---------------------------------------------------------------------------
# Never a browser download: the system Chromium is used. Electron's binary is fetched lazily (and
# may be unavailable); the install does not depend on it.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "Installing npm dependencies (npm ci)…"
  npm ci --no-audit --no-fund
else
  say "npm dependencies are up to date."
fi
# The layer checker (dependency-cruiser) has its own small install: it parses TypeScript with the
# compiler API of TypeScript 6, which the app's TypeScript 7 no longer ships (docs/decisions.md).
# `npm install` at the root does it too (postinstall); this catches a lock file changed alone.
if [ ! -f tools/depcruise/node_modules/.package-lock.json ] ||
  [ tools/depcruise/package-lock.json -nt tools/depcruise/node_modules/.package-lock.json ]; then
  say "Installing the layer checker (tools/depcruise, npm ci)…"
  npm ci --prefix tools/depcruise --no-audit --no-fund
fi
say "Ready."
