/**
 * The second contract: what the core asks of the shell it runs under (the process that owns the
 * window and the desktop), the other way round from `contract`. The same `operation()` pairs of
 * schemas, served by the same machinery (core/ipc/dispatcher.ts `createContractServer`):
 * the shell parses every input and every answer. Each shell implements what it offers (`shell:` of
 * startRemoteCore in electron/main/index.ts and shell/shell.ts; the test key store is the
 * supervisor's own, core/host/remoteCore.ts); the core (core/host/coreProcess.ts)
 * turns each offered one into the core option it stands for.
 *
 * Adding a capability: one entry here, one implementation per shell, and the core option it feeds.
 */
import { z } from 'zod';
import { operation } from '../ipc/define';

/** What the trusted confirmation shows: plain data, rendered as text (never as HTML). */
/** At most this many amounts to type in one confirmation (a batch's currencies; a movement has one). */
export const MAX_TYPED_AMOUNTS = 32;

/**
 * The amounts typed, as a shell takes them from its confirmation page (whatever the page sent):
 * strings only, each cut at 100 characters, at most MAX_TYPED_AMOUNTS; nothing else is kept.
 */
export const typedAmountsOf = (raw: unknown): string[] | undefined =>
  Array.isArray(raw)
    ? raw.slice(0, MAX_TYPED_AMOUNTS).map((t) => (typeof t === 'string' ? t.slice(0, 100) : ''))
    : undefined;

export const ConfirmView = z
  .object({
    action: z.enum([
      'withdrawal',
      'push',
      'transfer',
      'batch',
      'keyCreate',
      'keyDelete',
      'policy',
      'endpoint',
      'control',
      'approve',
      'auditAcknowledge',
      'liftLockout',
    ]),
    /** One line: "Withdraw 250 USDT". */
    title: z.string(),
    /** Label → value, in order: amount, destination, network, fee, profile, operator, … */
    rows: z
      .array(
        z
          .object({
            label: z.string(),
            value: z.string(),
            /** An identifier to compare character by character: shown in groups of this many characters. */
            group: z.number().int().positive().optional(),
          })
          .strict(),
      )
      .readonly(),
    /** When set, the person must type each amount (a movement's; a batch's total per currency); the core compares them. */
    typedAmounts: z
      .array(z.object({ amount: z.string(), currency: z.string() }).strict())
      .max(MAX_TYPED_AMOUNTS)
      .readonly()
      .optional(),
    /** A line shown above the buttons (e.g. "This needs an approver before it is sent"). */
    note: z.string().optional(),
    /** The button's words ("Withdraw", "Approve and send", "Delete key"). */
    confirmLabel: z.string(),
  })
  .strict();

/** What the shell's own page shows of a new API key: its secrets, there and nowhere else. */
export const SecretView = z
  .object({
    /** One line: "New API key for sub-account 10000003". */
    title: z.string(),
    /** What they belong to: the key id, its name, its permissions. */
    rows: ConfirmView.shape.rows,
    /** The secrets themselves (one per new key): shown there, never returned to the app's window. */
    secrets: z.array(z.object({ label: z.string(), value: z.string() }).strict()).readonly(),
    note: z.string().optional(),
  })
  .strict();

/** A key as the key store keeps it (the core's StoredKey). */
const StoredKey = z.object({ key: z.string(), secret: z.string(), host: z.string().optional() }).strict();

export const OsNotification = z.object({ title: z.string(), body: z.string() }).strict();

export const shellContract = {
  shell: {
    chooseSavePath: operation(
      'Asks the person where to save an export (the native save dialog, or the shell’s save page); no path when they cancel.',
      z.object({ suggestedName: z.string().min(1).max(255) }).strict(),
      z.object({ path: z.string().min(1).optional() }).strict(),
    ),
    openExternal: operation(
      'Opens an explorer link (already checked by the core; each shell checks it again) in the system browser.',
      z.object({ url: z.string().max(2048) }).strict(),
      z.object({ opened: z.boolean() }).strict(),
    ),
    confirm: operation(
      'Shows the trusted confirmation the core built from the intent, in a window the renderer cannot script, and answers what the person did.',
      z.object({ view: ConfirmView }).strict(),
      z
        .object({
          accepted: z.boolean(),
          typedAmounts: z.array(z.string().max(100)).max(MAX_TYPED_AMOUNTS).readonly().optional(),
        })
        .strict(),
    ),
    showSecret: operation(
      'Shows a new API key’s secret once, in the shell’s own page (never the app’s window); answers whether it was on screen. The secret crosses from the core to the shell’s process only, and is never logged.',
      z.object({ view: SecretView }).strict(),
      z.object({ shown: z.boolean() }).strict(),
    ),
    notify: operation(
      'Shows one OS notification of a funding change (words only: never an address, txid or key).',
      z.object({ notification: OsNotification }).strict(),
      z.object({}).strict(),
    ),
    keyStore: operation(
      'Tests only (`keyStore: "memory"`): the key store held by the shell’s process, so that — as the OS keychain would — it outlives a core that dies and is restarted.',
      z.discriminatedUnion('op', [
        z.object({ op: z.literal('get'), entry: z.string() }).strict(),
        z.object({ op: z.literal('set'), entry: z.string(), value: StoredKey }).strict(),
        z.object({ op: z.literal('delete'), entry: z.string() }).strict(),
      ]),
      z.object({ value: StoredKey.optional(), removed: z.boolean().optional() }).strict(),
    ),
  },
};

export type ShellContract = typeof shellContract;
