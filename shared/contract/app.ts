import { z } from 'zod';
import { operation } from '../ipc/define';
import { externalUrlProblem, MAX_EXTERNAL_URL } from '../platform/explorers';

/** Longest file name the app suggests (well under every OS's 255-byte limit, even in UTF-8). */
export const MAX_FILE_NAME = 120;
/** Largest file the renderer may hand to main in one call (characters; CSV exports are far smaller). */
export const MAX_SAVED_FILE_CHARS = 32 * 1024 * 1024;

/** The file types the app saves, with the extension each must carry. */
export const SAVE_FILE_TYPES = { 'text/csv': '.csv' } as const;
export type SaveFileType = keyof typeof SAVE_FILE_TYPES;

// Path separators, characters Windows refuses in names, and control characters.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what must go.
const UNSAFE_CHARS = /[/\\:*?"<>|\u0000-\u001f\u007f]+/g;
/** Device names Windows reserves whatever the extension ("CON.csv" cannot be created). */
const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

/**
 * A suggested file name made safe to create in a folder: a plain name, never a path. Separators and
 * unsafe characters become "-", leading/trailing dots and spaces go (no hidden files, no ".."),
 * the type's extension is ensured and the length is bounded. Pure, so the renderer and main agree.
 */
export const sanitizeFileName = (raw: string, type: SaveFileType = 'text/csv'): string => {
  const extension = SAVE_FILE_TYPES[type];
  let name = raw.normalize('NFC').replace(UNSAFE_CHARS, '-').replace(/\s+/g, ' ');
  name = name.replace(/^[\s.-]+|[\s.]+$/g, '');
  if (name.toLowerCase().endsWith(extension)) name = name.slice(0, -extension.length).replace(/[\s.]+$/g, '');
  if (name === '') name = 'export';
  if (RESERVED.test(name)) name = `_${name}`;
  // Cut by code points (never half a surrogate pair), then tidy the cut end.
  const stem = Array.from(name)
    .slice(0, MAX_FILE_NAME - extension.length)
    .join('')
    .replace(/[\s.]+$/g, '');
  return `${stem || 'export'}${extension}`;
};

export const SaveFileInput = z
  .object({
    /** Any text: it is turned into a safe plain file name (see sanitizeFileName). */
    suggestedName: z.string().min(1).max(1_000),
    content: z.string().max(MAX_SAVED_FILE_CHARS, 'The file is too large to save.'),
    mimeType: z.enum(Object.keys(SAVE_FILE_TYPES) as [SaveFileType, ...SaveFileType[]]),
  })
  .strict()
  .transform((input) => ({ ...input, suggestedName: sanitizeFileName(input.suggestedName, input.mimeType) }));

export const SaveFileResult = z.union([
  /** Written: where (the person's own folder; shown to them). */
  z.object({ path: z.string() }).strict(),
  /** The person closed the save dialog: nothing was written. */
  z.object({ cancelled: z.literal(true) }).strict(),
]);
export type SaveFileResult = z.infer<typeof SaveFileResult>;

/**
 * The lock: while locked, main holds no signing secret and refuses every operation but the few that
 * unlock or sign in (code LOCKED). `locking`: waiting for money movements in flight to settle before
 * it locks. Signed out (no operator, e.g. at start) is locked too, with reason `signedOut`.
 */
export const LockState = z.object({
  state: z.enum(['unlocked', 'locking', 'locked']),
  /** Why it locked (shown on the lock screen, also after a reload of the window). */
  reason: z.enum(['idle', 'manual', 'signedOut']).optional(),
  /** The operator whose passphrase unlocks it (absent when nobody is signed in). */
  operator: z.string().optional(),
  /** Wrong passphrases in a row have made unlocking wait until then (Unix ms). */
  retryAfter: z.number().optional(),
  /** When it locked (or started locking), Unix ms. */
  since: z.number().optional(),
});
export type LockState = z.infer<typeof LockState>;

/**
 * OS notifications of deposit, withdrawal and UID-push changes, decided and shown by main (so they
 * arrive even when the window is hidden). On by default; each kind can be muted.
 */
export const NotificationSettings = z
  .object({
    enabled: z.boolean(),
    deposits: z.boolean(),
    withdrawals: z.boolean(),
    pushes: z.boolean(),
    /** Profiles whose changes are never notified. Absent in settings stored before it existed: none. */
    mutedProfiles: z.array(z.string().min(1).max(128)).max(1000).default([]),
    /**
     * Per currency (upper case), the smallest amount worth a notification; smaller changes stay
     * quiet. A currency without an entry always notifies. Absent in older stored settings: none.
     */
    minAmounts: z
      .record(
        z
          .string()
          .max(32)
          .regex(/^[A-Z0-9_.-]{1,32}$/, 'Currency names are upper-case letters, digits, "_", "-" or "."'),
        z
          .string()
          .max(61)
          .regex(/^\d{1,30}(\.\d{1,30})?$/, 'A minimum amount is a plain decimal number such as 0.5'),
      )
      .refine((r) => Object.keys(r).length <= 500, 'At most 500 currencies')
      .default({}),
  })
  .strict();
export type NotificationSettings = z.infer<typeof NotificationSettings>;

export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  enabled: true,
  deposits: true,
  withdrawals: true,
  pushes: true,
  mutedProfiles: [],
  minAmounts: {},
};

export const NotificationSettingsView = z.object({
  settings: NotificationSettings,
  /** Whether this shell can show OS notifications at all (e.g. `notify-send` missing on Linux). */
  available: z.boolean(),
  /** Why not, in words, when unavailable. */
  unavailableReason: z.string().optional(),
});
export type NotificationSettingsView = z.infer<typeof NotificationSettingsView>;

/**
 * A link to open in the person's browser: only https pages of the block explorers the app knows
 * (shared/platform/explorers.ts). Checked here (the dispatcher parses every input in main), again by
 * the handler with a URL parser, and once more by the shell that opens it.
 */
export const OpenExternalInput = z
  .object({
    url: z
      .string()
      .max(MAX_EXTERNAL_URL)
      .superRefine((url, ctx) => {
        const problem = externalUrlProblem(url);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
  })
  .strict();

export const OpenExternalResult = z.union([
  /** Handed to the system's browser. */
  z.object({ opened: z.literal(true) }).strict(),
  /**
   * This shell cannot open a browser (e.g. a headless run) or the system refused: the renderer copies
   * the link instead and says so.
   */
  z.object({ opened: z.literal(false), reason: z.string() }).strict(),
]);
export type OpenExternalResult = z.infer<typeof OpenExternalResult>;

/** The app itself: liveness, version, files, the lock; settings that are not tied to a profile. */
export const app = {
  ping: operation(
    'Round trip through the IPC bridge; echoes the text with the time main saw it.',
    z.object({ text: z.string().max(200) }).strict(),
    z.object({ text: z.string(), receivedAt: z.number() }),
  ),
  info: operation(
    'Version and runtime of the app (Electron or the Chromium fallback shell).',
    z.object({}).strict(),
    z.object({
      name: z.string(),
      version: z.string(),
      shell: z.enum(['electron', 'chromium']),
      platform: z.string(),
    }),
  ),
  saveFile: operation(
    'Saves a file the person exported: Electron asks where with the native save dialog; the Chromium shell writes into the Downloads folder under a new name (never overwriting).',
    SaveFileInput,
    SaveFileResult,
  ),
  lock: operation(
    'Locks the app: waits for money movements in flight to settle, then forgets the signing secrets in main and refuses every other operation until unlocked.',
    z.object({ reason: z.enum(['idle', 'manual']) }).strict(),
    LockState,
  ),
  unlock: operation(
    'Unlocks the app with the operator’s passphrase (checked in main; repeated wrong ones make the next attempt wait), then reads the active profile’s key again from the keychain. With another operator’s name it switches operator.',
    z
      .object({
        /** Another operator's name: switch to them (absent: the operator who locked). */
        operator: z.string().trim().min(1).max(40).optional(),
        passphrase: z.string().min(1, 'Enter the passphrase').max(256),
      })
      .strict(),
    LockState,
  ),
  lockState: operation(
    'Whether the app is locked (e.g. after the window was reloaded).',
    z.object({}).strict(),
    LockState,
  ),
  notificationSettings: operation(
    'The OS-notification settings (on/off, per-kind mute, per-profile mute, per-currency minimum amount) and whether this shell can show them.',
    z.object({}).strict(),
    NotificationSettingsView,
  ),
  setNotificationSettings: operation(
    'Changes the OS-notification settings (the whole set: on/off, each kind, muted profiles, minimum amounts); answers the new view.',
    NotificationSettings,
    NotificationSettingsView,
  ),
  openExternal: operation(
    'Opens a block-explorer page in the system browser (https, explorer hosts only; the window itself never navigates away). Answers whether it was opened; where it cannot be (headless), the renderer copies the link.',
    OpenExternalInput,
    OpenExternalResult,
  ),
};
