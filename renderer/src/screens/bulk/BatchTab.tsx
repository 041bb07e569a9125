import { useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, useState } from 'react';
import type { BatchPreview, BatchSource, BatchSummary } from '../../../../shared/contract/bulk';
import { downloadCsv } from '../../lib/csv';
import { call, useDeskEvent, useDeskQuery } from '../../lib/desk';
import { Button, ErrorNotice, Notice, TextField } from '../../ui';
import { BatchProgress } from './BatchProgress';
import { PreviewTable } from './PreviewTable';
import { readBatchFile } from './readFile';

const rowsOf = (counts: { readonly total: number }): string => {
  const n = counts.total;
  return n === 1 ? '1 row' : `${n} rows`;
};

/** A batch's state in words. */
const BATCH_STATE_WORDS: Record<BatchSummary['state'], string> = {
  ready: 'ready to start',
  approval: 'waiting for approval',
  running: 'running',
  paused: 'paused',
  cancelled: 'cancelled',
  finished: 'finished',
};

/** Import a CSV file or paste rows → preview with every problem → create → run → report. */
export const BatchTab = () => {
  const client = useQueryClient();
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState<string | undefined>();
  const [name, setName] = useState('');
  const [preview, setPreview] = useState<BatchPreview | undefined>();
  const [fileProblem, setFileProblem] = useState<string | undefined>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [batchId, setBatchId] = useState<string | undefined>();
  const list = useDeskQuery(['bulk.list', {}]);
  // A batch's state changes while it runs: the list of recent batches follows (never "running" after it ended).
  useDeskEvent('bulk.batchChanged', () => void client.invalidateQueries({ queryKey: ['bulk.list', {}] }));

  const source = (): BatchSource => ({ source: 'csv', text, ...(fileName ? { fileName } : {}) });

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    setPreview(undefined);
    setFileProblem(undefined);
    if (!file) return;
    const read = await readBatchFile(file);
    if (!read.ok) {
      setFileProblem(read.message);
      return;
    }
    setText(read.text);
    setFileName(file.name);
    if (!name) setName(file.name.replace(/\.[^.]+$/, ''));
  };

  const check = async () => {
    setBusy(true);
    setError(undefined);
    try {
      setPreview(await call('bulk.preview', source()));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const create = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const answer = await call(
        'bulk.create',
        { name: name.trim() || 'Batch', kind: 'csv', batch: source() },
        { action: true },
      );
      if (answer.created) {
        setBatchId(answer.batch.id);
        setPreview(undefined);
        setFileProblem(undefined);
        await client.invalidateQueries({ queryKey: ['bulk.list', {}] });
      } else setPreview(answer.preview);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const example = async () => {
    const file = await call('bulk.exampleCsv', {});
    await downloadCsv(file.name, file.content);
  };

  const ready =
    preview !== undefined && preview.fileProblems.length === 0 && preview.errorCount === 0 && preview.rows.length > 0;
  return (
    <div className="bulk-tab">
      <p className="muted">
        Columns: <code>type,currency,amount,from,to,chain,memo,reference</code> — type is transfer, push or withdrawal;
        accounts are written <code>spot</code>, <code>margin:BTC_USDT</code>, <code>futures:usdt</code>,{' '}
        <code>sub:10002</code> or <code>sub:10002/futures</code>. At most 2 MB and 5,000 rows.{' '}
        <Button variant="ghost" size="sm" onClick={() => void example()} data-testid="bulk-example">
          Download the example file
        </Button>
      </p>
      <div className="form-row">
        <label className="file-pick">
          <span>CSV file</span>
          <input
            type="file"
            accept=".csv,.txt,text/csv,text/plain"
            onChange={(e) => void onFile(e)}
            data-testid="bulk-file"
          />
        </label>
        <TextField label="Batch name" value={name} onChange={setName} />
      </div>
      {fileProblem ? (
        <Notice tone="bad" role="alert" data-testid="bulk-file-refused">
          {fileProblem}
        </Notice>
      ) : null}
      <label className="field">
        <span className="field-label">Rows (a CSV file’s text, or rows pasted from a spreadsheet)</span>
        <textarea
          className="bulk-paste mono"
          rows={8}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setFileName(undefined);
            setPreview(undefined);
            // A problem with the file read before is no longer about these rows.
            setFileProblem(undefined);
          }}
          data-testid="bulk-paste"
          spellCheck={false}
        />
      </label>
      <div className="button-row">
        <Button onClick={() => void check()} busy={busy} disabled={text.trim() === ''} data-testid="bulk-check">
          Check rows
        </Button>
        <Button variant="primary" onClick={() => void create()} busy={busy} disabled={!ready} data-testid="bulk-create">
          Create batch
        </Button>
      </div>
      {error ? <ErrorNotice error={error} /> : null}
      {preview ? <PreviewTable preview={preview} /> : null}
      {batchId ? <BatchProgress id={batchId} /> : null}
      {list.data && list.data.batches.length > 0 ? (
        <section aria-label="Recent batches">
          <h2>Recent batches</h2>
          <ul className="bulk-batches">
            {list.data.batches.slice(0, 10).map((b) => (
              <li key={b.id}>
                <Button variant="ghost" size="sm" onClick={() => setBatchId(b.id)}>
                  {`${b.name} · ${BATCH_STATE_WORDS[b.state]} · ${b.counts.done} of ${rowsOf(b.counts)} accepted by the platform`}
                </Button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
};
