/**
 * The amounts rule, checked (docs/architecture.md, "Amounts"): every amount a screen shows goes
 * through the one formatter — formatMoney ("1,000 USDT"), <Amount>, or formatAmount in a table cell
 * whose row names the currency. This scans renderer/src/**\/*.tsx for the ways an amount slips past
 * it and lists each as file:line:
 *
 *   raw-child      a JSX child {x.amount} / {available} / {fee} … printed as it came
 *   raw-template   `${x.total}` … in a template string, unformatted
 *   raw-with-unit  an unformatted value followed by its unit: `${x} ${currency}`, {x} {pair.quote}
 *   number-then-unit  formatAmount(…) followed by the unit: that is formatMoney(…, unit)
 *
 * It reads Biome-formatted code (the project's formatter): JSX containers are written `{x}`, object
 * literals `{ x }`, which is how a printed child is told from a shorthand property.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the samples are source text with template holes in it
import { describe, expect, it } from 'vitest';

interface Finding {
  readonly file: string;
  readonly line: number;
  readonly rule: 'raw-child' | 'raw-template' | 'raw-with-unit' | 'number-then-unit';
  readonly text: string;
}

/** Names whose value is an amount when printed (the last segment of a path: b.available, fee). */
const AMOUNT_NAME =
  /^(amount|balance|available|total|fee|debit|net|locked|filled|volume|price|borrowed|minimum|maximum)$|(Amount|Balance|Available|Fee|Volume|Price|Debit|Minimum|Maximum)$/;
/** Paths that hold a message about an amount, not an amount (errors.total, problems.amount). */
const MESSAGE_PATH = /^(errors|problems|problem|error)(\?\.|\.)/;
/** Names whose value is a unit. */
const UNIT_NAME = /^(currency|base|quote|unit)$|Currency$/;
/** Calls that are the formatter (or decide themselves how to show a value). */
const FORMATTED = /^(formatMoney|formatMoneyOrText)\(/;

const lastSegment = (path: string): string =>
  path
    .split(/\?\.|\.|!/)
    .filter(Boolean)
    .pop() ?? '';
const isPath = (text: string): boolean => /^[A-Za-z_$][\w$]*((\?\.|\.)[A-Za-z_$][\w$]*|!)*$/.test(text);
const isAmountPath = (text: string): boolean =>
  isPath(text) && !MESSAGE_PATH.test(text) && AMOUNT_NAME.test(lastSegment(text));
const isUnit = (text: string): boolean => {
  const t = text.trim();
  if (isPath(t)) return UNIT_NAME.test(lastSegment(t));
  // pair.split('_')[1] and the like
  return /\b(currency|base|quote)\b/i.test(t) || /split\('_'\)\[[01]\]/.test(t);
};

/** Comments blanked out (line breaks kept, so line numbers stay right). */
const withoutComments = (source: string): string =>
  source
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '))
    .replace(/(^|[^:'"`\\])\/\/[^\n]*/g, (c, before: string) => before + ' '.repeat(c.length - before.length));

/** Every finding in one .tsx source. */
const findUnformattedAmounts = (file: string, source: string): Finding[] => {
  const text = withoutComments(source);
  const findings: Finding[] = [];
  const lineAt = (index: number) => text.slice(0, index).split('\n').length;
  const add = (index: number, rule: Finding['rule'], snippet: string) =>
    findings.push({ file, line: lineAt(index), rule, text: snippet.trim().slice(0, 120) });

  // {x.amount} as a JSX child: not an attribute value (`=`), not a template hole (`$`).
  for (const m of text.matchAll(/\{([A-Za-z_$][\w$.?!]*)\}/g)) {
    const before = text.slice(0, m.index).trimEnd().slice(-1);
    if (before === '=' || before === '$') continue;
    if (isAmountPath(m[1] as string)) add(m.index, 'raw-child', m[0]);
  }

  // Template holes.
  for (const m of text.matchAll(/\$\{([^{}`]+)\}/g)) {
    const hole = (m[1] as string).trim();
    if (isAmountPath(hole)) add(m.index, 'raw-template', m[0]);
  }

  // A value and then its unit, in a template (`${x} ${currency}`, `${x} USDT`) or in JSX ({x} {currency}).
  const pairs = [
    /\$\{([^{}`]+)\} \$\{([^{}`]+)\}/g,
    /\{([^{}]+)\}(?:\s|\{' '\})*\{([A-Za-z_$][\w$.?!]*)\}/g,
    /\$\{([^{}`]+)\} (USDT|USDC|BTC|ETH|GT)\b/g,
  ];
  for (const pattern of pairs) {
    for (const m of text.matchAll(pattern)) {
      const value = (m[1] as string).trim();
      const unit = m[2] as string;
      if (!isUnit(unit) && !/^[A-Z]{2,5}$/.test(unit)) continue;
      if (pattern !== pairs[0] && pattern !== pairs[2]) {
        // JSX: `attr={x} {…}` is not a child; the value must be printed.
        const before = text.slice(0, m.index).trimEnd().slice(-1);
        if (before === '=' || before === '$') continue;
      }
      if (FORMATTED.test(value) || isUnit(value)) continue;
      if (/^formatAmount(OrText)?\(/.test(value)) add(m.index, 'number-then-unit', m[0]);
      else if (isAmountPath(value) || /^[\w$.?!]+$/.test(value)) add(m.index, 'raw-with-unit', m[0]);
    }
  }

  const seen = new Set<string>();
  return findings
    .filter((f) => {
      const key = `${f.line}|${f.text}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => a.line - b.line);
};

/**
 * Files that write numbers their own way, on purpose. The order book formats its fixed-point columns
 * from integer units in its view (shared/trade/book.ts) for speed; its column headers name the units.
 */
const EXEMPT: Readonly<Record<string, string>> = {
  'renderer/src/screens/trade/book/BookRow.tsx': 'order book: fixed-point columns from shared/trade/book.ts',
  'renderer/src/screens/trade/book/OrderBook.tsx': 'order book: fixed-point columns from shared/trade/book.ts',
};

// The renderer's screens, as text (Vite's glob: no Node in renderer tests, see .dependency-cruiser.cjs).
const SOURCES = import.meta.glob<string>(['../**/*.tsx', '!../**/*.test.tsx', '!../**/testing/**'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

describe('amounts are written with the one formatter', () => {
  it('finds no amount rendered without it in renderer/src', () => {
    expect(Object.keys(SOURCES).length).toBeGreaterThan(50);
    const findings = Object.entries(SOURCES).flatMap(([path, source]) => {
      const file = path.replace(/^\.\.\//, 'renderer/src/');
      return EXEMPT[file] ? [] : findUnformattedAmounts(file, source);
    });
    const report = findings.map((f) => `${f.file}:${f.line} ${f.rule}: ${f.text}`);
    expect(report, 'Use formatMoney(amount, currency) / <Amount> (shared/format/money.ts)').toEqual([]);
  });

  it('fails on a screen that prints amounts itself', () => {
    const sample = [
      'export const Row = ({ b, rules, q }: Props) => (', // 1
      '  <div>', // 2
      '    <dd>{b.available}</dd>', // 3
      '    <p>At least {rules.minAmount} per withdrawal</p>', // 4
      '    <p title={`Fee ${q.fee}`}>{q.net}</p>', // 5
      '    <p>{`${q.debit} ${rules.currency}`}</p>', // 6
      '    <p>', // 7
      '      {formatAmount(q.net)} {rules.currency}', // 8
      '    </p>', // 9
      '    <p>{`this order needs ${needs} USDT`}</p>', // 10
      '    <dd>{`${account.quote.available} ${pair.quote}`}</dd>', // 11
      '    <dd>{fee ? `≈ ${fee.amount} ${fee.currency}` : null}</dd>', // 12
      '    <dd>Available: {formatAmount(available)} {draft.currency}</dd>', // 13
      '    <p>{`Send ${input.amount} ${input.currency}`}</p>', // 14
      '  </div>', // 15
      ');', // 16
    ].join('\n');
    const found = findUnformattedAmounts('Sample.tsx', sample).map((f) => `${f.line} ${f.rule}`);
    expect(found).toEqual([
      '3 raw-child',
      '4 raw-child',
      '5 raw-child',
      '5 raw-template',
      '6 raw-template',
      '6 raw-with-unit',
      '8 number-then-unit',
      '10 raw-with-unit',
      '11 raw-template',
      '11 raw-with-unit',
      '12 raw-template',
      '12 raw-with-unit',
      '13 number-then-unit',
      '14 raw-template',
      '14 raw-with-unit',
    ]);
  });

  it('lets the formatter, attributes, shorthand objects, counts and comments through', () => {
    const sample = [
      'const x = { amount };', // shorthand property (Biome spaces it)
      '<Amount value={b.available} currency={b.currency} />', // attributes
      '<dd>{formatMoney(q.fee, rules.currency)}</dd>',
      '<div role="alert">{errors.total}</div>',
      '<p>{`Fetching ${progress.windowsTotal} windows`}</p>',
      '<dd>{`Available: ${formatMoney(available, currency)}`}</dd>',
      '<p>{rows.length} rows</p>',
      '// <p>{b.available}</p>',
      '{/* {q.total} */}',
      'cell: alignedAmounts(rows, (r) => r.amount),',
    ].join('\n');
    expect(findUnformattedAmounts('Fine.tsx', sample)).toEqual([]);
  });
});
