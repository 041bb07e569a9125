import './LongId.css';

/**
 * An account's user id (UID): an identifier, not a quantity — never grouped ("10,000,003" would read
 * as an amount), in fixed-width digits, never broken across lines.
 */
export const Uid = ({ value }: { readonly value: number | string }) => (
  <span className="uid" data-identifier>
    {value}
  </span>
);
