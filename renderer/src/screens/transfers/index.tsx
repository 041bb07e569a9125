/** Transfers: move funds between own accounts, main ↔ sub and sub ↔ sub; the last result; history. */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useDeskEvent } from '../../lib/desk';
import { applyTransferMovement } from '../../lib/eventCache';
import { PageHeader } from '../../ui';
import { TransferForm } from './TransferForm';
import { TransferHistory } from './TransferHistory';
import { type LastTransfer, TransferResult } from './TransferResult';
import './transfers.css';

const TransfersScreen = () => {
  const [last, setLast] = useState<LastTransfer | undefined>(undefined);
  const client = useQueryClient();
  // Every journal change of a transfer carries the movement: its history row goes in as main would
  // build it (lib/eventCache.ts), without reading the history again.
  useDeskEvent('activity.movementChanged', (movement) => applyTransferMovement(client, movement));
  return (
    <div className="transfers-screen">
      <PageHeader
        title="Transfers"
        subtitle="Move funds between your own accounts and your sub-accounts. Every transfer is journaled and never sent twice."
      />
      <div className="transfers-layout">
        <section aria-labelledby="new-transfer-heading" className="panel">
          <h2 id="new-transfer-heading">New transfer</h2>
          <TransferForm onResult={(result) => setLast((prev) => ({ ...result, seq: (prev?.seq ?? 0) + 1 }))} />
        </section>
        {last ? <TransferResult key={last.seq} last={last} /> : null}
      </div>
      <TransferHistory />
    </div>
  );
};

export default TransfersScreen;
