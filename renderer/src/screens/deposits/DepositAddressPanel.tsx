/**
 * Where to send a deposit: per currency and network the address and memo, each with a copy button
 * and a QR code, a loud warning where a memo is required, the minimum deposit and the confirmations
 * after which it is credited. Suspended networks are shown and explained, never offered.
 */
import { useMemo, useState } from 'react';
import { useDeskQuery } from '../../lib/desk';
import { formatMoney } from '../../lib/format';
import { useNavigation } from '../../lib/navigation';
import {
  Badge,
  Button,
  Choice,
  CopyButton,
  EmptyState,
  ErrorNotice,
  ExplorerLink,
  Loading,
  LongId,
  Notice,
  Select,
} from '../../ui';
import { QrCode } from './QrCode';

export function DepositAddressPanel() {
  const initial = useNavigation((s) => s.params.currency);
  const [currency, setCurrency] = useState(initial ?? '');
  const [chainName, setChainName] = useState('');
  const rules = useDeskQuery(['funding.withdrawRules', {}], { staleTime: 60_000 });
  const chains = useDeskQuery(['funding.chains', { currency }], { enabled: currency !== '', staleTime: 60_000 });
  const address = useDeskQuery(['funding.depositAddress', { currency }], { enabled: currency !== '' });

  const options = useMemo(
    () => [
      { value: '', label: 'Choose a currency' },
      ...[...(rules.data ?? [])]
        .map((r) => r.currency)
        .sort()
        .map((c) => ({ value: c, label: c })),
    ],
    [rules.data],
  );

  // Networks: the platform's chain list (state, memo) joined with the address list.
  const networks = (chains.data ?? []).map((c) => ({
    info: c,
    address: address.data?.chains.find((a) => a.chain === c.chain),
  }));
  for (const a of address.data?.chains ?? []) {
    if (!networks.some((n) => n.info.chain === a.chain)) {
      networks.push({
        info: {
          chain: a.chain,
          nameEn: '',
          nameCn: '',
          disabled: false,
          depositDisabled: false,
          withdrawDisabled: false,
          usesMemo: a.memo !== undefined,
        },
        address: a,
      });
    }
  }
  const chosen = networks.find((n) => n.info.chain === chainName);
  const memo = chosen?.address?.memo;
  const memoName = chosen?.address?.memoName ?? 'Memo';
  const memoRequired = chosen !== undefined && (chosen.info.usesMemo || memo !== undefined);

  if (rules.isPending) return <Loading label="Loading currencies…" />;
  if (rules.isError) return <ErrorNotice error={rules.error} onRetry={() => void rules.refetch()} />;

  return (
    <div className="stack">
      <Select
        label="Currency"
        value={currency}
        options={options}
        onChange={(c) => {
          setCurrency(c);
          setChainName('');
        }}
      />
      {currency !== '' && (chains.isPending || address.isPending) ? (
        <Loading label="Loading deposit addresses…" />
      ) : null}
      {chains.isError ? <ErrorNotice error={chains.error} onRetry={() => void chains.refetch()} /> : null}
      {address.isError ? <ErrorNotice error={address.error} onRetry={() => void address.refetch()} /> : null}
      {currency !== '' && chains.isSuccess && address.isSuccess && networks.length === 0 ? (
        <EmptyState title={`No deposit network for ${currency}`}>The platform offers no way to deposit it.</EmptyState>
      ) : null}
      {networks.length > 0 ? (
        <fieldset className="field-group">
          <legend>Network</legend>
          <div className="choice-list" role="radiogroup" aria-label="Network">
            {networks.map(({ info, address: a }) => {
              const why = info.disabled
                ? 'This network is disabled by the platform.'
                : info.depositDisabled
                  ? 'Deposits on this network are suspended: do not send on it now.'
                  : a === undefined
                    ? 'No address on this network.'
                    : undefined;
              return (
                <Choice
                  key={info.chain}
                  name="deposit-chain"
                  value={info.chain}
                  checked={chainName === info.chain}
                  why={why}
                  onChoose={() => setChainName(info.chain)}
                  testId={`deposit-chain-${info.chain}`}
                  title={
                    <>
                      {info.chain}{' '}
                      {info.nameEn && info.nameEn !== info.chain ? (
                        <span className="muted">({info.nameEn})</span>
                      ) : null}
                    </>
                  }
                >
                  {info.usesMemo || a?.memo ? <Badge tone="warn">Memo required</Badge> : null}
                </Choice>
              );
            })}
          </div>
        </fieldset>
      ) : null}

      {chosen?.address?.obtainFailed ? (
        <Notice tone="warn" role="status">
          The platform could not create an address on {chosen.info.chain} yet.{' '}
          <Button size="sm" onClick={() => void address.refetch()}>
            Try again
          </Button>
        </Notice>
      ) : null}

      {chosen?.address && !chosen.address.obtainFailed ? (
        <section className="card deposit-address" aria-label={`${currency} deposit address on ${chosen.info.chain}`}>
          {memoRequired ? (
            <Notice tone="bad" className="memo-banner" role="alert" data-testid="memo-required-banner">
              <strong>
                {memoName.toUpperCase()} REQUIRED — send the {memoName.toLowerCase()} below together with the address.
              </strong>{' '}
              A deposit without the right {memoName.toLowerCase()} cannot be credited automatically and may be lost.
            </Notice>
          ) : null}
          <div className="qr-pair">
            <div className="stack">
              <h2>Address</h2>
              <p>
                <LongId value={chosen.address.address} className="address-full" testId="deposit-address" />{' '}
                <CopyButton value={chosen.address.address} label="Copy address" testId="copy-address" />{' '}
                <ExplorerLink
                  chain={chosen.info.chain}
                  target="address"
                  id={chosen.address.address}
                  testId="deposit-address-explorer"
                />
              </p>
              <QrCode
                value={chosen.address.address}
                label={`QR code of the ${currency} address on ${chosen.info.chain}`}
              />
            </div>
            {memo !== undefined ? (
              <div className="stack">
                <h2>{memoName}</h2>
                <p>
                  <code className="memo-value" data-testid="deposit-memo">
                    {memo}
                  </code>{' '}
                  <CopyButton value={memo} label={`Copy ${memoName.toLowerCase()}`} testId="copy-memo" />
                </p>
                <QrCode value={memo} label={`QR code of the ${memoName.toLowerCase()}`} />
              </div>
            ) : memoRequired ? (
              <Notice tone="bad" role="status">
                The platform did not return a {memoName.toLowerCase()} for this network: do not deposit until it does.
              </Notice>
            ) : null}
          </div>
          <dl className="facts">
            <dt>Minimum deposit</dt>
            <dd data-testid="deposit-minimum">
              {address.data?.minDepositAmount
                ? `${formatMoney(address.data.minDepositAmount, currency)} — smaller deposits are not credited`
                : 'not stated by the platform'}
            </dd>
            <dt>Confirmations</dt>
            <dd data-testid="deposit-confirmations">
              {chosen.address.minConfirmations !== undefined
                ? `Credited after ${chosen.address.minConfirmations} network confirmation${chosen.address.minConfirmations === 1 ? '' : 's'}`
                : 'not stated by the platform'}
            </dd>
            {chosen.info.contractAddress ? (
              <>
                <dt>Token contract</dt>
                <dd>
                  <code className="break-all">{chosen.info.contractAddress}</code>
                </dd>
              </>
            ) : null}
          </dl>
          <p className="muted">
            Send only {currency} on the {chosen.info.chain} network to this address.
          </p>
        </section>
      ) : null}
    </div>
  );
}
