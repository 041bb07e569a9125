import { formatTime, isoUtc, type TimeFormat, zoneLabel } from '../lib/format';
import { usePrefs } from '../lib/prefs';
import './Amount.css';

/** A moment in the person's display time zone; the tooltip gives the zone and the UTC instant. */
export const Time = ({ ms, ...format }: TimeFormat & { readonly ms: number }) => {
  const zone = usePrefs((s) => s.timeZone);
  return (
    <time className="time" dateTime={isoUtc(ms)} title={`${zoneLabel(zone, ms)} · ${isoUtc(ms)}`}>
      {formatTime(ms, zone, format)}
    </time>
  );
};
