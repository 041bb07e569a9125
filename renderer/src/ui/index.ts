/** The shared UI kit: every screen builds from these so the app looks and behaves as one. */
export { Amount, alignedAmounts, alignmentOf } from './Amount';
export { AmountField, type AmountFieldProps, amountProblem, amountValue } from './AmountField';
export { Badge, type Tone } from './Badge';
export { Button, type ButtonProps } from './Button';
export { abbreviate, ChainId, ChainIdCell, type ChainIdProps, IdCell } from './ChainId';
export { Checkbox } from './Checkbox';
export { Choice } from './Choice';
export { CopyButton, copyText } from './CopyButton';
export { Countdown, RetryCountdown, secondsLeft } from './Countdown';
export { type Detail, DetailsList } from './DetailsList';
export { ConfirmDialog, type ConfirmDialogProps, Dialog, type DialogProps } from './Dialog';
export { EmptyState } from './EmptyState';
export { ErrorNotice } from './ErrorNotice';
export { ExplorerLink, type ExplorerLinkProps } from './ExplorerLink';
export { type CsvFile, ExportCsvButton } from './ExportCsvButton';
export { FieldError } from './FieldError';
export { FourEyesNotice, FourEyesStatus } from './FourEyesNotice';
export {
  CurrencySelect,
  detailsColumn,
  HistoryFilterBar,
  type HistoryFilters,
  matchesState,
  recordColumns,
  StateSelect,
  statusColumn,
  useHistoryFilters,
} from './HistoryFilters';
export { Loading } from './Loading';
export { groupsOf, LongId, type LongIdProps } from './LongId';
export { Notice, type NoticeProps } from './Notice';
export { PageHeader } from './PageHeader';
export { PeriodSelect } from './PeriodSelect';
export { type QueryLike, QueryStatus } from './QueryStatus';
export { Select, type SelectOption } from './Select';
export { StatusTimeline, type StatusTimelineProps } from './StatusTimeline';
export {
  type Column,
  DataTable,
  type SortState,
  Table,
  TBody,
  Td,
  THead,
  Th,
  Tr,
  useSortedRows,
} from './Table';
export { type TabItem, Tabs } from './Tabs';
export { TextField, type TextFieldProps } from './TextField';
export { Time, TimeHeader } from './Time';
export { Uid } from './Uid';
export { forgetOtherProfile, useProfileSwitch } from './useProfileSwitch';
export { VirtualTable, type VirtualTableProps } from './VirtualTable';
