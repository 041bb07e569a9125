/**
 * One format, enforced (docs/architecture.md, "Amounts"): every screen, each of its tabs, rendered
 * with a working day's data (lib/testing/scene.ts), shows no number that the one formatter
 * (shared/format/money.ts, times: shared/format/time.ts) did not write, and no value written two
 * ways (2.5 beside 2.50000000, 64,974.5 beside 64,974.50, 1,000 beside 1000).
 *
 * How: the formatter's functions are wrapped to remember every text they return; then each text of
 * the page is read, and each number in it must lie inside one of those texts. Identifiers are not
 * numbers to format: text inside <code>, <time>, a long id (.long-id) or an element marked
 * data-identifier is skipped. Small whole numbers (counts: "3 of 3", "24 h") are not checked.
 */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import Decimal from 'decimal.js';
import type { ContextType } from 'react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { contract, type DeskOperation } from '../../../shared/contract';
import * as money from '../../../shared/format/money';
import * as time from '../../../shared/format/time';
import { lookupOperation } from '../../../shared/ipc/define';
import { App } from '../App';
import { formatMoney } from '../lib/format';
import { useInFlight } from '../lib/inFlight';
import { goTo } from '../lib/navigation';
import { type Answers, installFakeDesk } from '../lib/testing/fakeDesk';
import { SCENE_NOW, sceneAnswers } from '../lib/testing/scene';
import { ChartFactory } from '../screens/trade/market/CandleChart';
import { SCREENS } from './screens';

/** Every text the formatter returned while the file ran. */
const written = new Set<string>();

/**
 * Wraps each formatting function of the module, where the app reads it (the module's exports), so that
 * every text it returns is remembered; restored after the file (the worker's next files share modules).
 */
const rememberTexts = <M extends object>(module: M, names: readonly (keyof M & string)[]) => {
  for (const name of names) {
    const format = module[name] as (...args: unknown[]) => string;
    vi.spyOn(module, name as never).mockImplementation(((...args: unknown[]) => {
      const text = format(...args);
      written.add(text);
      return text;
    }) as never);
  }
};

beforeAll(() => {
  rememberTexts(money, [
    'formatAmount',
    'formatMoney',
    'formatAmountOrText',
    'formatMoneyOrText',
    'formatPercent',
    'formatChange',
    'formatValue',
    'formatPrice',
    'formatBase',
    'formatShare',
  ]);
  rememberTexts(time, ['formatTime', 'isoInZone']);
});
afterAll(() => {
  vi.restoreAllMocks();
});

/**
 * lightweight-charts draws on a canvas, which happy-dom lacks: a stand-in keeps every option the
 * screen gives it, so the axes' formatters can be checked like the page's text.
 */
const chartOptions: Record<string, unknown>[] = [];
const keepOptions = (options: Record<string, unknown>) => {
  chartOptions.push(options);
};
const scale = { applyOptions: keepOptions };
const series = () => ({ setData: () => undefined, applyOptions: keepOptions, priceScale: () => scale });
const chartStandIn = ((_container: unknown, options: Record<string, unknown>) => {
  keepOptions(options);
  return {
    addSeries: (_type: unknown, options: Record<string, unknown>) => {
      keepOptions(options);
      return series();
    },
    priceScale: () => scale,
    timeScale: () => scale,
    applyOptions: keepOptions,
    subscribeCrosshairMove: () => undefined,
    remove: () => undefined,
  };
}) as unknown as ContextType<typeof ChartFactory>;

// --- reading numbers off the page ---------------------------------------------------------------

/**
 * A number as people read it: digits with separators and a fraction, not part of a word ("TRC20",
 * "v0.1"), and not an account's user id (the app writes those "UID 10000003").
 */
const NUMBER = /(?<![\p{L}\d_.,-]|UID )[+−-]?\d[\d,]*(?:\.\d+)?(?![\p{L}\d_])/gu;
/** Whether a number is worth checking: a fraction, a separator or four digits and more (not a count). */
const worthChecking = (token: string): boolean => /[.,]/.test(token) || token.replace(/\D/g, '').length >= 4;
/**
 * Not numbers to check: identifiers (code, long ids, marked elements), times (<time>, checked by the
 * time formatter), text a person typed (marked data-verbatim: "Invoice 4411 checked"), options of a
 * select, and the hidden span recharts measures label widths in.
 */
const SKIP =
  'code, time, .long-id, [data-identifier], [data-verbatim], script, style, option, #recharts_measurement_span';

interface Found {
  readonly token: string;
  readonly text: string;
  readonly where: string;
}

const describeElement = (el: Element | null): string => {
  if (!el) return '?';
  const id = el.closest('[data-testid]')?.getAttribute('data-testid');
  return id ? `[data-testid=${id}]` : `<${el.tagName.toLowerCase()}>`;
};

/** Every number worth checking in the page's text, outside identifiers. */
const numbersOnPage = (): Found[] => {
  const found: Found[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest(SKIP)) continue;
    const text = node.nodeValue ?? '';
    for (const match of text.matchAll(NUMBER)) {
      if (worthChecking(match[0])) found.push({ token: match[0], text, where: describeElement(parent) });
    }
  }
  return found;
};

/** Whether the formatter wrote this number: a text it returned holds it, and holds or lies inside the node's text. */
const writtenByFormatter = ({ token, text }: Found): boolean => {
  const node = text.trim();
  for (const out of written) {
    if (!out.includes(token)) continue;
    const tokens: readonly string[] = out.match(NUMBER) ?? [];
    if (!tokens.includes(token)) continue;
    if (node.includes(out) || out.includes(node)) return true;
  }
  return false;
};

/** The value a number stands for, without sign or separators (2.50 and 2.5 are one value). */
const numericValue = (token: string): string => new Decimal(token.replace(/[,+−-]/g, '')).toFixed();

/** What must not differ between two renderings of one value: its decimals and its separators. */
const shapeOf = (token: string): string => token.replace(/^[+−-]/, '');

/** How many numbers each view showed (a view that shows none was not checked with data). */
const counted = new Map<string, number>();

const problemsOnPage = (view: string): string[] => {
  const problems: string[] = [];
  // The scene answers every read: a failure on screen means a view was not checked with data.
  for (const notice of screen.queryAllByTestId('error-notice')) {
    problems.push(`${view}: shows an error instead of data: “${(notice.textContent ?? '').slice(0, 80)}”`);
  }
  const numbers = numbersOnPage();
  counted.set(view, numbers.length);
  for (const n of numbers) {
    if (!writtenByFormatter(n)) {
      const text = n.text.trim().replace(/\s+/g, ' ');
      problems.push(
        `${view}: “${n.token}” in “${text.length > 60 ? `${text.slice(0, 60)}…` : text}” ${n.where} is not the formatter’s`,
      );
    }
  }
  const shapes = new Map<string, Set<string>>();
  for (const n of numbers) {
    const value = numericValue(n.token);
    if (new Decimal(value).isZero()) continue;
    const set = shapes.get(value) ?? new Set<string>();
    set.add(shapeOf(n.token));
    shapes.set(value, set);
  }
  for (const [value, set] of shapes) {
    if (set.size > 1) problems.push(`${view}: ${value} is written ${[...set].map((s) => `“${s}”`).join(' and ')}`);
  }
  return problems;
};

// --- the app on a working day -------------------------------------------------------------------

/** Checks every answer against the operation's output schema: the scene is what main can send. */
const checkedAnswers = (answers: Answers, badAnswers: string[]): Answers =>
  Object.fromEntries(
    Object.entries(answers).map(([name, answer]) => [
      name,
      async (input: unknown) => {
        const value = await (answer as (i: unknown) => unknown)(input);
        const parsed = lookupOperation(contract, name)?.output.safeParse(value);
        if (parsed && !parsed.success) badAnswers.push(`${name}: ${parsed.error.message}`);
        return value;
      },
    ]),
  );

/** Waits until nothing is loading and no call is waiting for main. */
const settled = async () => {
  await waitFor(
    () => {
      expect(useInFlight.getState().pending).toEqual([]);
      expect(screen.queryAllByTestId('loading')).toHaveLength(0);
    },
    { timeout: 5_000 },
  );
};

describe('one format on every screen', () => {
  const badAnswers: string[] = [];
  const unanswered = new Set<string>();

  let layout: { mockRestore: () => void }[] = [];
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: SCENE_NOW });
    // happy-dom lays nothing out: every element gets the size of a 1000 × 600 px box, so the long
    // lists (VirtualTable) draw their rows and the responsive charts draw their axes.
    layout = [
      vi
        .spyOn(HTMLElement.prototype, 'getBoundingClientRect')
        .mockReturnValue(DOMRect.fromRect({ width: 1000, height: 600 })),
      vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(600),
      vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockReturnValue(1000),
      vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(600),
      vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1000),
    ];
    installFakeDesk(checkedAnswers(sceneAnswers(), badAnswers), {
      unanswered: (operation: DeskOperation) => {
        unanswered.add(operation);
        return { code: 'PRECONDITION', message: `The scene does not answer ${operation}.` };
      },
    });
  });
  afterAll(() => {
    cleanup();
    vi.useRealTimers();
    for (const spy of layout) spy.mockRestore();
  });

  it('writes every number with the formatter, one way per value', async () => {
    render(
      <ChartFactory.Provider value={chartStandIn}>
        <App />
      </ChartFactory.Provider>,
    );
    const problems: string[] = [];
    for (const entry of SCREENS) {
      await act(async () => goTo(entry.id));
      const main = await screen.findByTestId(`screen-${entry.id}`);
      await settled();
      problems.push(...problemsOnPage(entry.label));
      const tabs = [...main.querySelectorAll<HTMLElement>('[role=tab]')];
      for (const tab of tabs.slice(1)) {
        // A click event only: the tab is the way to the numbers here, not what is tested (user-event's
        // pointer sequence is a dozen events, each flushed through the whole app).
        fireEvent.click(tab);
        await settled();
        problems.push(...problemsOnPage(`${entry.label} → ${tab.textContent ?? ''}`));
      }
    }
    // The candle chart draws on a canvas: its axes' formatters are the app's.
    const localization = chartOptions.find((o) => 'localization' in o)?.localization as
      | { priceFormatter: (price: number) => string }
      | undefined;
    const axisPrice = localization?.priceFormatter(64_974.5);
    expect(axisPrice).toBe('64,974.5');
    expect(written.has(axisPrice ?? '')).toBe(true);
    expect(badAnswers, 'scene answers that main could not send').toEqual([]);
    expect([...unanswered], 'reads the scene does not answer').toEqual([]);
    expect([...new Set(problems)]).toEqual([]);
  }, 120_000);
});

describe('the checker', () => {
  afterAll(cleanup);

  it('catches a number printed without the formatter and a value written two ways', () => {
    written.clear();
    // A screen that writes one balance with the formatter and prints the platform's text beside it.
    const balance = formatMoney('2.5', 'BTC');
    render(
      <div>
        <p>{balance}</p>
        <p>Total 2.50000000</p>
        <p>Last 65052.0</p>
        <code>10000003</code>
      </div>,
    );
    expect(problemsOnPage('Sample')).toEqual([
      'Sample: “2.50000000” in “Total 2.50000000” <p> is not the formatter’s',
      'Sample: “65052.0” in “Last 65052.0” <p> is not the formatter’s',
      'Sample: 2.5 is written “2.5” and “2.50000000”',
    ]);
  });
});
