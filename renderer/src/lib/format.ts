/**
 * Display formatting. Amounts: the one formatter and parser live in shared/format/money.ts
 * (formatMoney writes "1,000 USDT", parseAmountInput reads what people type); see
 * docs/architecture.md, "Amounts". Times are shown in the display time zone the person chose in
 * Settings.
 */
export {
  AMOUNT_FORMAT_MESSAGE,
  type AmountFormat,
  type AmountScale,
  currencyPrecision,
  decimalPlaces,
  formatAmount,
  formatAmountOrText,
  formatBase,
  formatChange,
  formatMoney,
  formatMoneyOrText,
  formatPercent,
  formatPrice,
  formatShare,
  formatValue,
  isDecimalString,
  type MoneyFormat,
  type ParsedAmount,
  type PriceScale,
  parseAmountInput,
  type Rounding,
  valueFormat,
} from '../../../shared/format/money';

export {
  DISPLAY_TIME_ZONES,
  type DisplayTimeZone,
  formatTime,
  isoInZone,
  type TimeFormat,
  zoneLabel,
} from '../../../shared/format/time';

/** The full instant in UTC, ISO 8601, for tooltips ("shown in UTC+8; UTC is …"). */
export const isoUtc = (epochMs: number): string => new Date(epochMs).toISOString();
