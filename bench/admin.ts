/**
 * The administrator every benchmark's app signs in as. Its own file, so that a benchmark timing the
 * shell's start can name it without loading the shell's sources (bench/app.ts imports them).
 */
export const BENCH_ADMIN = { name: 'Bench admin', passphrase: 'bench admin passphrase 1' } as const;
