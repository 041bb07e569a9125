import type { SubAccountView } from '../../../../shared/contract/subAccounts';
import { Badge, Checkbox, type Column, Uid, VirtualTable } from '../../ui';

/** A selection of sub-accounts (hundreds: only the rows in view are drawn). */
export const SubAccountPicker = ({
  accounts,
  selected,
  onChange,
}: {
  readonly accounts: readonly SubAccountView[];
  readonly selected: ReadonlySet<number>;
  readonly onChange: (next: ReadonlySet<number>) => void;
}) => {
  const toggle = (id: number, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    onChange(next);
  };
  const columns: readonly Column<SubAccountView>[] = [
    {
      id: 'pick',
      header: '',
      width: '3rem',
      cell: (a) => (
        <Checkbox
          label={`Select ${a.loginName}`}
          hideLabel
          checked={selected.has(a.userId)}
          onChange={(on) => toggle(a.userId, on)}
          testId={`bulk-pick-${a.userId}`}
        />
      ),
    },
    { id: 'name', header: 'Sub-account', cell: (a) => a.loginName },
    { id: 'uid', header: 'UID', cell: (a) => <Uid value={a.userId} />, numeric: true },
    {
      id: 'state',
      header: 'State',
      cell: (a) => <Badge tone={a.state === 'normal' ? 'good' : 'warn'}>{a.state}</Badge>,
    },
  ];
  return (
    <section aria-label="Sub-accounts">
      <p>
        {selected.size} of {accounts.length} selected{' '}
        <button
          type="button"
          className="link"
          onClick={() => onChange(new Set(accounts.map((a) => a.userId)))}
          data-testid="bulk-pick-all"
        >
          Select all
        </button>{' '}
        <button type="button" className="link" onClick={() => onChange(new Set())}>
          Clear
        </button>
      </p>
      <VirtualTable
        caption="Sub-accounts to include"
        columns={columns}
        rowCount={accounts.length}
        rowAt={(i) => accounts[i]}
        rowKey={(a) => String(a.userId)}
        maxHeight="16rem"
        estimateRowHeight={40}
      />
    </section>
  );
};
