/** One sub-account: state, type, unified mode, balances, freeze/unfreeze and its API keys. */
import { useState } from 'react';
import { useDeskMutation, useDeskQuery } from '../../lib/desk';
import { goTo } from '../../lib/navigation';
import {
  Amount,
  Badge,
  Button,
  ConfirmDialog,
  EmptyState,
  ErrorNotice,
  Loading,
  Table,
  TBody,
  Td,
  THead,
  Th,
  Time,
  Tr,
} from '../../ui';
import { KeysPanel } from './keys/KeysPanel';
import { STATE_TEXT, TYPE_TEXT, unifiedModeText } from './labels';

export const SubAccountDetail = ({ userId }: { readonly userId: number }) => {
  const detail = useDeskQuery(['subAccounts.get', { userId }]);
  const [confirming, setConfirming] = useState<'lock' | 'unlock' | undefined>(undefined);
  const invalidates = ['subAccounts.list', 'subAccounts.get', 'keys.list'] as const;
  const lock = useDeskMutation('subAccounts.lock', { invalidates });
  const unlock = useDeskMutation('subAccounts.unlock', { invalidates });
  const toggle = confirming === 'unlock' ? unlock : lock;

  if (detail.isPending) return <Loading label="Loading sub-account…" />;
  if (detail.error) return <ErrorNotice error={detail.error} onRetry={() => detail.refetch()} />;
  const { account, spot, futures, margin, crossMargin, unified } = detail.data;
  const frozen = account.state === 'frozen';
  const spotRows = Object.entries(spot).sort(([a], [b]) => a.localeCompare(b));

  return (
    <article className="panel" aria-labelledby="subaccount-heading" data-testid="subaccount-detail">
      <header className="section-header">
        <div>
          <h2 id="subaccount-heading">
            {account.loginName} <span className="muted">· UID {account.userId}</span>
          </h2>
          <div className="row-actions">
            <Badge tone={STATE_TEXT[account.state].tone} testId="subaccount-state">
              {STATE_TEXT[account.state].text}
            </Badge>
            <Badge>{TYPE_TEXT[account.type]}</Badge>
            <Badge tone="info">{unifiedModeText(unified?.mode)}</Badge>
          </div>
        </div>
        <div className="row-actions">
          <Button onClick={() => goTo('transfers', { subUserId: String(userId) })} data-testid="transfer-funds">
            Transfer funds
          </Button>
          {frozen ? (
            <Button variant="primary" onClick={() => setConfirming('unlock')} data-testid="unfreeze">
              Unfreeze
            </Button>
          ) : (
            <Button variant="danger" onClick={() => setConfirming('lock')} data-testid="freeze">
              Freeze
            </Button>
          )}
        </div>
      </header>
      <dl className="facts">
        {account.remark ? (
          <>
            <dt>Remark</dt>
            <dd>{account.remark}</dd>
          </>
        ) : null}
        {account.email ? (
          <>
            <dt>E-mail</dt>
            <dd>{account.email}</dd>
          </>
        ) : null}
        {account.createdAt !== undefined ? (
          <>
            <dt>Created</dt>
            <dd>
              <Time ms={account.createdAt * 1000} />
            </dd>
          </>
        ) : null}
      </dl>

      <section aria-labelledby="sub-balances" className="stack">
        <h3 id="sub-balances">Balances</h3>
        {spotRows.length === 0 && futures.length === 0 && margin.length === 0 && crossMargin.length === 0 ? (
          <EmptyState title="No funds in this sub-account">Use Transfers to move funds into it.</EmptyState>
        ) : (
          <Table caption="Balances of this sub-account" testId="subaccount-balances">
            <THead>
              <Tr>
                <Th>Account</Th>
                <Th>Currency</Th>
                <Th numeric>Available</Th>
                <Th numeric>In orders</Th>
                <Th numeric>Borrowed</Th>
              </Tr>
            </THead>
            <TBody>
              {spotRows.map(([currency, amount]) => (
                <Tr key={`spot-${currency}`}>
                  <Td>Spot</Td>
                  <Td>{currency}</Td>
                  <Td numeric>
                    <Amount value={amount} />
                  </Td>
                  <Td numeric>—</Td>
                  <Td numeric>—</Td>
                </Tr>
              ))}
              {[
                ...margin.map((row) => ({
                  ...row,
                  key: `margin-${row.pair}-${row.currency}`,
                  label: `Isolated margin · ${row.pair}`,
                })),
                ...crossMargin.map((row) => ({ ...row, key: `cross-${row.currency}`, label: 'Cross margin' })),
              ].map((row) => (
                <Tr key={row.key}>
                  <Td>{row.label}</Td>
                  <Td>{row.currency}</Td>
                  <Td numeric>
                    <Amount value={row.available} />
                  </Td>
                  <Td numeric>
                    <Amount value={row.locked} />
                  </Td>
                  <Td numeric>
                    <Amount value={row.borrowed} />
                  </Td>
                </Tr>
              ))}
              {futures.map((row) => (
                <Tr key={`futures-${row.settle}`}>
                  <Td>Perpetual futures</Td>
                  <Td>{row.settle.toUpperCase()}</Td>
                  <Td numeric>
                    <Amount value={row.available} />
                  </Td>
                  <Td numeric>—</Td>
                  <Td numeric>—</Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
      </section>

      <KeysPanel userId={userId} frozen={frozen} />

      <ConfirmDialog
        open={confirming !== undefined}
        title={confirming === 'unlock' ? `Unfreeze ${account.loginName}?` : `Freeze ${account.loginName}?`}
        tone={confirming === 'unlock' ? 'primary' : 'danger'}
        confirmLabel={confirming === 'unlock' ? 'Unfreeze' : 'Freeze'}
        busy={toggle.isPending}
        error={toggle.error}
        testId="freeze-confirm"
        onCancel={() => {
          toggle.reset();
          setConfirming(undefined);
        }}
        onConfirm={() => toggle.mutate({ userId }, { onSuccess: () => setConfirming(undefined) })}
      >
        {confirming === 'unlock' ? (
          <p>The sub-account and its API keys work again, and transfers to and from it are accepted.</p>
        ) : (
          <p>
            While frozen, the sub-account cannot log in, its API keys are refused and transfers to and from it fail. Its
            funds stay where they are. You can unfreeze it at any time.
          </p>
        )}
      </ConfirmDialog>
    </article>
  );
};
