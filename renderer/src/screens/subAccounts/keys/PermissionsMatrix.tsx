/**
 * The permission matrix of a key: every group with none / read-only / read-write as a radio group,
 * so the whole set is always explicit (the platform clears permissions that are not sent).
 */
import { memo, useId } from 'react';
import type { PermAccess, PermissionGroup, PermMatrix } from '../../../../../shared/contract/keys';
import { FieldError } from '../../../ui';
import { ACCESS_TEXT, GROUP_TEXT, GROUPS } from './permissions';

const ACCESSES: readonly PermAccess[] = ['none', 'read', 'write'];

export interface PermissionsMatrixProps {
  readonly value: PermMatrix;
  readonly onChange: (next: PermMatrix) => void;
  readonly error?: string | undefined;
}

// Memoised: the key form re-renders on every keystroke in its name and address fields, and this
// table of 30-odd radios (with their accessible names) is most of what it would draw again.
export const PermissionsMatrix = memo(function PermissionsMatrix({ value, onChange, error }: PermissionsMatrixProps) {
  const radioName = useId();
  const set = (group: PermissionGroup, access: PermAccess) => onChange({ ...value, [group]: access });
  return (
    <fieldset className="perm-matrix" data-testid="permissions-matrix">
      <legend>Permissions</legend>
      <table className="table table-compact">
        <caption className="sr-only">Access per permission group</caption>
        <thead>
          <tr>
            <th scope="col">Group</th>
            {ACCESSES.map((access) => (
              <th scope="col" key={access} className="center">
                {ACCESS_TEXT[access]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {GROUPS.map((group) => {
            const current = value[group] ?? 'none';
            return (
              <tr key={group}>
                <th scope="row">
                  {GROUP_TEXT[group].name}
                  <div className="muted small">{GROUP_TEXT[group].covers}</div>
                </th>
                {ACCESSES.map((access) => (
                  <td key={access} className="center">
                    <input
                      type="radio"
                      name={`${radioName}-${group}`}
                      value={access}
                      checked={current === access}
                      onChange={() => set(group, access)}
                      aria-label={`${GROUP_TEXT[group].name}: ${ACCESS_TEXT[access]}`}
                    />
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
      <FieldError message={error} />
    </fieldset>
  );
});
