/** The shared UI kit: every screen builds from these so the app looks and behaves as one. */
export { Amount } from './Amount';
export { AmountField, type AmountFieldProps, amountProblem } from './AmountField';
export { Badge, type Tone } from './Badge';
export { Button, type ButtonProps } from './Button';
export { CopyButton, copyText } from './CopyButton';
export { ConfirmDialog, type ConfirmDialogProps, Dialog, type DialogProps } from './Dialog';
export { EmptyState } from './EmptyState';
export { ErrorNotice } from './ErrorNotice';
export { type CsvFile, ExportCsvButton } from './ExportCsvButton';
export { Loading } from './Loading';
export { PageHeader } from './PageHeader';
export { type QueryLike, QueryStatus } from './QueryStatus';
export { Select, type SelectOption } from './Select';
export { type Column, DataTable, Table, TBody, Td, THead, Th, Tr } from './Table';
export { type TabItem, Tabs } from './Tabs';
export { TextField, type TextFieldProps } from './TextField';
export { Time } from './Time';
