/**
 * "Export CSV" of any table: builds the file (maybe by asking main), saves it through main
 * (lib/csv: the save dialog in Electron, the Downloads folder in the Chromium shell) and says
 * where. While it runs the button is busy; a failure to build the file shows under it.
 */
import { type ReactNode, useState } from 'react';
import { downloadCsv } from '../lib/csv';
import { Button } from './Button';
import { ErrorNotice } from './ErrorNotice';

export interface CsvFile {
  readonly fileName: string;
  /** RFC 4180 text; a BOM is added when saving. */
  readonly csv: string;
}

export const ExportCsvButton = ({
  build,
  disabled = false,
  testId,
  children = 'Export CSV',
}: {
  readonly build: () => CsvFile | Promise<CsvFile>;
  readonly disabled?: boolean;
  readonly testId?: string;
  readonly children?: ReactNode;
}) => {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  return (
    <>
      <Button
        busy={busy}
        disabled={disabled}
        data-testid={testId}
        onClick={async () => {
          setBusy(true);
          setError(undefined);
          try {
            const file = await build();
            await downloadCsv(file.fileName, file.csv);
          } catch (failure) {
            setError(failure);
          } finally {
            setBusy(false);
          }
        }}
      >
        {children}
      </Button>
      {error ? <ErrorNotice error={error} compact /> : null}
    </>
  );
};
