/**
 * OS notifications for the Chromium fallback shell, which has no Electron `Notification`: the OS's
 * own tool is run directly, always with an argument array and never through a shell, so nothing in
 * a currency code, profile name or status can become a command.
 * - Linux: `notify-send` (package libnotify-bin) when it is on PATH;
 * - macOS: `osascript -e 'display notification "…" with title "…"'`, the texts escaped as
 *   AppleScript string literals;
 * - Windows, or no tool: nothing is shown; the reason is logged once and shown in Settings.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { OsNotification, OsNotificationCapability } from '../core/notifications/notifier';

const APP_NAME = 'Treasury Desk';
const MAX_TITLE = 200;
const MAX_BODY = 500;
/** A notification tool that does not return by then is stopped (no daemon, a stuck D-Bus). */
const TOOL_TIMEOUT_MS = 10_000;

export interface ToolCommand {
  readonly command: string;
  readonly args: readonly string[];
}

/** One line of plain text: control characters (newlines included) become spaces; length bounded. */
export const plainText = (text: string, max: number): string => {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what must go.
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  const chars = Array.from(flat);
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join('')}…`;
};

/** notify-send's arguments: `--` ends the options, so a title starting with "-" stays a title. */
export const notifySendCommand = (notification: OsNotification, path = 'notify-send'): ToolCommand => ({
  command: path,
  args: [
    `--app-name=${APP_NAME}`,
    '--',
    plainText(notification.title, MAX_TITLE),
    plainText(notification.body, MAX_BODY),
  ],
});

/** An AppleScript string literal: backslashes and double quotes escaped, one line. */
export const appleScriptString = (text: string, max: number): string =>
  `"${plainText(text, max).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

export const osascriptCommand = (notification: OsNotification): ToolCommand => ({
  command: '/usr/bin/osascript',
  args: [
    '-e',
    `display notification ${appleScriptString(notification.body, MAX_BODY)} with title ${appleScriptString(notification.title, MAX_TITLE)}`,
  ],
});

/** The first executable `name` on PATH (no `which`, no shell). */
export const findOnPath = (name: string, path = process.env.PATH ?? ''): string | undefined => {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
};

export type RunTool = (command: ToolCommand, onFailure: (why: string) => void) => void;

/** Runs the tool detached from our stdio, with a timeout; never throws. */
export const runTool: RunTool = (command, onFailure) => {
  try {
    const child = spawn(command.command, [...command.args], {
      stdio: 'ignore',
      shell: false,
      timeout: TOOL_TIMEOUT_MS,
      windowsHide: true,
    });
    child.on('error', (error) => onFailure(`${command.command} could not run (${error.message})`));
    child.on('exit', (code, signal) => {
      if (code !== 0) onFailure(`${command.command} ended with ${signal ?? `exit code ${code}`}`);
    });
    child.unref();
  } catch (error) {
    onFailure(`${command.command} could not run (${String(error)})`);
  }
};

export interface ShellNotificationsOptions {
  readonly platform?: NodeJS.Platform;
  /** Where notify-send is (default: looked up on PATH). */
  readonly notifySendPath?: string | undefined;
  readonly run?: RunTool;
  readonly log?: (line: string) => void;
}

/** The Chromium shell's OS-notification capability for this machine. */
export const createShellNotifications = (options: ShellNotificationsOptions = {}): OsNotificationCapability => {
  const platform = options.platform ?? process.platform;
  const run = options.run ?? runTool;
  const log = options.log ?? (() => {});
  let failureLogged = false;
  const onFailure = (why: string) => {
    if (failureLogged) return;
    failureLogged = true;
    log(`OS notifications: ${why}; further failures are not logged`);
  };
  const unavailable = (reason: string): OsNotificationCapability => {
    log(`OS notifications off: ${reason}`);
    return { showOsNotification: () => {}, unavailableReason: reason };
  };

  if (platform === 'linux') {
    const path = 'notifySendPath' in options ? options.notifySendPath : findOnPath('notify-send');
    if (path === undefined) {
      return unavailable('notify-send is not installed (Debian/Ubuntu package libnotify-bin).');
    }
    return { showOsNotification: (notification) => run(notifySendCommand(notification, path), onFailure) };
  }
  if (platform === 'darwin') {
    return { showOsNotification: (notification) => run(osascriptCommand(notification), onFailure) };
  }
  return unavailable(`the Chromium fallback shell cannot show OS notifications on ${platform}; the Electron app can.`);
};
