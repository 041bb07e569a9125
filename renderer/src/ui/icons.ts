/**
 * The app's icons (lucide), each imported from its own module. `import { X } from 'lucide-react'`
 * loads the package's one entry with all of its ~1,700 icons: Vite's build drops the unused ones,
 * but every Vitest worker compiled and ran that 1.3 MB file (≈ 0.25 s of CPU each) for 23 icons.
 * The names are lucide's; an icon lucide renamed points at its file under the new name
 * (CandlestickChart is chart-candlestick, History is rotate-ccw-clock), as lucide's own entry does.
 * Add an icon here, with its file under node_modules/lucide-react/dist/esm/icons/.
 */
export type { LucideIcon } from 'lucide-react';
export { default as ArrowDownToLine } from 'lucide-react/icons/arrow-down-to-line';
export { default as ArrowLeftRight } from 'lucide-react/icons/arrow-left-right';
export { default as ArrowUpFromLine } from 'lucide-react/icons/arrow-up-from-line';
export { default as Bell } from 'lucide-react/icons/bell';
export { default as CandlestickChart } from 'lucide-react/icons/chart-candlestick';
export { default as Check } from 'lucide-react/icons/check';
export { default as Circle } from 'lucide-react/icons/circle';
export { default as CircleCheck } from 'lucide-react/icons/circle-check';
export { default as CircleDot } from 'lucide-react/icons/circle-dot';
export { default as CircleMinus } from 'lucide-react/icons/circle-minus';
export { default as CircleX } from 'lucide-react/icons/circle-x';
export { default as Copy } from 'lucide-react/icons/copy';
export { default as ExternalLink } from 'lucide-react/icons/external-link';
export { default as Layers } from 'lucide-react/icons/layers';
export { default as Lock } from 'lucide-react/icons/lock';
export { default as Network } from 'lucide-react/icons/network';
export { default as PanelLeftClose } from 'lucide-react/icons/panel-left-close';
export { default as PanelLeftOpen } from 'lucide-react/icons/panel-left-open';
export { default as History } from 'lucide-react/icons/rotate-ccw-clock';
export { default as Settings } from 'lucide-react/icons/settings';
export { default as ShieldCheck } from 'lucide-react/icons/shield-check';
export { default as Wallet } from 'lucide-react/icons/wallet';
export { default as X } from 'lucide-react/icons/x';
