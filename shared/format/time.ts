/**
 * Times as the person reads them, in the display time zone they chose (Settings): the screens and
 * main's exports write them the same way. Pure Intl: no DOM, no Node.
 */

export const DISPLAY_TIME_ZONES = ['local', 'UTC', 'UTC+8'] as const;
export type DisplayTimeZone = (typeof DISPLAY_TIME_ZONES)[number];

// UTC+8 is the platform's day boundary; Asia/Shanghai has had no daylight saving since 1991.
const IANA: Record<DisplayTimeZone, string | undefined> = { local: undefined, UTC: 'UTC', 'UTC+8': 'Asia/Shanghai' };

const partsFormatter = new Map<DisplayTimeZone, Intl.DateTimeFormat>();
const formatterFor = (zone: DisplayTimeZone): Intl.DateTimeFormat => {
  let formatter = partsFormatter.get(zone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone: IANA[zone],
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    partsFormatter.set(zone, formatter);
  }
  return formatter;
};

/** "UTC", "UTC+8", or the local offset at that instant ("UTC+01:00"). */
export const zoneLabel = (zone: DisplayTimeZone, atMs: number = Date.now()): string => {
  if (zone !== 'local') return zone;
  const minutes = -new Date(atMs).getTimezoneOffset();
  if (minutes === 0) return 'UTC';
  const sign = minutes > 0 ? '+' : '-';
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
};

export interface TimeFormat {
  /** Leave out the date (for today's activity in dense tables). */
  readonly timeOnly?: boolean;
  /** Append the zone label, e.g. "2026-01-02 03:04:05 UTC+8". */
  readonly withZone?: boolean;
}

/**
 * Formats epoch milliseconds as "YYYY-MM-DD HH:mm:ss" in the display time zone. The platform
 * sends seconds in many places: convert with `* 1000` at the API edge, not here.
 */
export const formatTime = (epochMs: number, zone: DisplayTimeZone, format: TimeFormat = {}): string => {
  if (!Number.isFinite(epochMs)) throw new RangeError(`Not a time: ${epochMs}`);
  const parts: Record<string, string> = {};
  for (const part of formatterFor(zone).formatToParts(new Date(epochMs))) parts[part.type] = part.value;
  const time = `${parts.hour}:${parts.minute}:${parts.second}`;
  const text = format.timeOnly ? time : `${parts.year}-${parts.month}-${parts.day} ${time}`;
  return format.withZone ? `${text} ${zoneLabel(zone, epochMs)}` : text;
};

/** "2026-01-02T03:04:05+08:00" in the display zone. */
export const isoInZone = (epochMs: number, zone: DisplayTimeZone): string => {
  const [date, time] = formatTime(epochMs, zone).split(' ');
  const label = zoneLabel(zone, epochMs);
  const offset =
    label === 'UTC'
      ? 'Z'
      : label
          .replace('UTC', '')
          .replace(/^([+-])(\d)$/, '$10$2:00')
          .replace(/^([+-]\d\d)$/, '$1:00');
  return `${date}T${time}${offset}`;
};

/** Column title of a time column: states the zone ("Time (UTC+8)"). */
export const timeHeader = (title: string, zone: DisplayTimeZone): string => `${title} (${zoneLabel(zone)})`;

/**
 * The instant a calendar day ("YYYY-MM-DD") starts in the display zone, epoch ms; undefined for a
 * text that is not a real date.
 */
export const startOfDayInZone = (date: string, zone: DisplayTimeZone): number | undefined => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return undefined;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const utc = Date.UTC(y, m - 1, d);
  const check = new Date(utc);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) return undefined;
  if (zone === 'UTC') return utc;
  if (zone === 'UTC+8') return utc - 8 * 3_600_000;
  return new Date(y, m - 1, d).getTime();
};
