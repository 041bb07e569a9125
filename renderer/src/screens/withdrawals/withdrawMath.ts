/** The withdrawal rules live in the contract so main enforces exactly what the screen checks. */
export {
  amountProblem,
  FEE_MODE,
  type FeeMode,
  feeFor,
  needsTypedConfirmation,
  quote,
  typedAmountMatches,
  type WithdrawQuote,
} from '../../../../shared/contract/funding';
