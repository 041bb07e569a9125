/**
 * A QR code drawn locally (the `qrcode` package renders SVG text; no network, no canvas needed),
 * shown as a data-URL image so it fits the renderer's strict content policy.
 */
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';

export function QrCode({
  value,
  label,
  size = 168,
}: {
  readonly value: string;
  readonly label: string;
  readonly size?: number;
}) {
  const [src, setSrc] = useState<string | undefined>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    setSrc(undefined);
    setFailed(false);
    QRCode.toString(value, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 })
      .then((svg) => {
        if (live) setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
      })
      .catch(() => {
        if (live) setFailed(true);
      });
    return () => {
      live = false;
    };
  }, [value]);
  if (failed) return <p className="muted">QR code unavailable; copy the text instead.</p>;
  if (!src) return <div className="qr-placeholder" style={{ width: size, height: size }} aria-hidden="true" />;
  return <img className="qr-code" src={src} alt={label} width={size} height={size} data-testid="qr-code" />;
}
