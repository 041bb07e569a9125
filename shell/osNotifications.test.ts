import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  appleScriptString,
  createShellNotifications,
  findOnPath,
  notifySendCommand,
  osascriptCommand,
  runTool,
  type ToolCommand,
} from './osNotifications';

const hostile = {
  title: '--help $(touch pwned) `id`; "quoted" \\ & | > out',
  body: 'memo: a"b\\c\n-e do shell script "touch /tmp/pwned"\r\u0007',
};

describe('notify-send arguments', () => {
  it('are an array: options first, then `--`, then the texts as single arguments', () => {
    const { command, args } = notifySendCommand(hostile, '/usr/bin/notify-send');
    expect(command).toBe('/usr/bin/notify-send');
    expect(args).toHaveLength(4);
    expect(args[0]).toBe('--app-name=Treasury Desk');
    expect(args[1]).toBe('--');
    // The title stays one argument even though it starts with "--" and carries shell syntax.
    expect(args[2]).toBe('--help $(touch pwned) `id`; "quoted" \\ & | > out');
    // Control characters (newlines included) become spaces: one line, nothing hidden.
    expect(args[3]).toBe('memo: a"b\\c -e do shell script "touch /tmp/pwned"');
  });

  it('bound the length of what they show', () => {
    const { args } = notifySendCommand({ title: 'x'.repeat(1000), body: 'y'.repeat(5000) });
    expect(Array.from(args[2] ?? '').length).toBe(200);
    expect(Array.from(args[3] ?? '').length).toBe(500);
  });
});

describe('osascript arguments', () => {
  it('escape quotes and backslashes so the texts stay AppleScript strings', () => {
    expect(appleScriptString('a"b\\c', 100)).toBe('"a\\"b\\\\c"');
    const { command, args } = osascriptCommand(hostile);
    expect(command).toBe('/usr/bin/osascript');
    expect(args).toHaveLength(2);
    expect(args[0]).toBe('-e');
    const script = args[1] ?? '';
    expect(script).toBe(
      'display notification "memo: a\\"b\\\\c -e do shell script \\"touch /tmp/pwned\\"" with title "--help $(touch pwned) `id`; \\"quoted\\" \\\\ & | > out"',
    );
    // Every double quote inside the literals is escaped: the script holds exactly the two literals.
    const unescapedQuotes = script.replace(/\\\\/g, '').match(/(?<!\\)"/g) ?? [];
    expect(unescapedQuotes).toHaveLength(4);
  });
});

describe('the shell capability', () => {
  const notification = { title: 'Deposit 5 USDT · Local sandbox', body: 'Done (DONE)' };

  it('runs notify-send on Linux when it is installed', () => {
    const ran: ToolCommand[] = [];
    const capability = createShellNotifications({
      platform: 'linux',
      notifySendPath: '/usr/bin/notify-send',
      run: (command) => ran.push(command),
    });
    expect(capability.unavailableReason).toBeUndefined();
    capability.showOsNotification(notification);
    expect(ran).toEqual([notifySendCommand(notification, '/usr/bin/notify-send')]);
  });

  it('does nothing on Linux without notify-send, and says why once', () => {
    const ran: ToolCommand[] = [];
    const logged: string[] = [];
    const capability = createShellNotifications({
      platform: 'linux',
      notifySendPath: undefined,
      run: (command) => ran.push(command),
      log: (line) => logged.push(line),
    });
    capability.showOsNotification(notification);
    capability.showOsNotification(notification);
    expect(ran).toEqual([]);
    expect(capability.unavailableReason).toMatch(/libnotify-bin/);
    expect(logged).toHaveLength(1);
  });

  it('uses osascript on macOS and nothing on Windows', () => {
    const ran: ToolCommand[] = [];
    const mac = createShellNotifications({ platform: 'darwin', run: (command) => ran.push(command) });
    mac.showOsNotification(notification);
    expect(ran.map((c) => c.command)).toEqual(['/usr/bin/osascript']);
    const windows = createShellNotifications({ platform: 'win32', run: (command) => ran.push(command), log: () => {} });
    windows.showOsNotification(notification);
    expect(ran).toHaveLength(1);
    expect(windows.unavailableReason).toMatch(/win32/);
  });

  it('logs only the first failure of the tool', () => {
    const logged: string[] = [];
    const capability = createShellNotifications({
      platform: 'linux',
      notifySendPath: '/usr/bin/notify-send',
      run: (_command, onFailure) => onFailure('notify-send ended with exit code 1'),
      log: (line) => logged.push(line),
    });
    capability.showOsNotification(notification);
    capability.showOsNotification(notification);
    expect(logged).toEqual(['OS notifications: notify-send ended with exit code 1; further failures are not logged']);
  });
});

describe('findOnPath', () => {
  it('finds an executable file and ignores a non-executable one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'path-'));
    const other = mkdtempSync(join(tmpdir(), 'path-'));
    writeFileSync(join(other, 'notify-send'), '');
    chmodSync(join(other, 'notify-send'), 0o644);
    writeFileSync(join(dir, 'notify-send'), '#!/bin/sh\n');
    chmodSync(join(dir, 'notify-send'), 0o755);
    expect(findOnPath('notify-send', `${other}:${dir}`)).toBe(join(dir, 'notify-send'));
    expect(findOnPath('notify-send', other)).toBeUndefined();
  });
});

describe('runTool', () => {
  it('hands each text to the tool as one argument, with no shell in between', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'notify-'));
    const out = join(dir, 'args.txt');
    const tool = join(dir, 'notify-send');
    // A stand-in notify-send that writes each argument it receives on its own line.
    writeFileSync(
      tool,
      `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > "${out}.tmp" && mv "${out}.tmp" "${out}"\n`,
    );
    chmodSync(tool, 0o755);
    const failures: string[] = [];
    runTool(notifySendCommand(hostile, tool), (why) => failures.push(why));
    await expect.poll(() => existsSync(out), { timeout: 5_000 }).toBe(true);
    expect(readFileSync(out, 'utf8').split('\n').slice(0, -1)).toEqual(notifySendCommand(hostile, tool).args);
    expect(existsSync(join(dir, 'pwned'))).toBe(false);
    expect(failures).toEqual([]);
  });
});
