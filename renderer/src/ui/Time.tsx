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

/** A time column's header naming the display zone: "Time (UTC)", "Last sign-in (UTC+08:00)". */
export const TimeHeader = ({ children }: { readonly children: string }) => {
  const zone = usePrefs((s) => s.timeZone);
  return <>{`${children} (${zoneLabel(zone)})`}</>;
};
