/**
 * The team URL a shell was started with: `--team <url>` / `--team=<url>`, else TREASURY_DESK_TEAM_URL.
 * Both shells read it here and pass it to the core as `team.url` (the core reads no environment).
 */
export const teamUrlArgument = (
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): string | undefined => {
  const index = argv.findIndex((a) => a === '--team' || a.startsWith('--team='));
  if (index < 0) return env.TREASURY_DESK_TEAM_URL || undefined;
  const arg = argv[index]!;
  return (arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[index + 1]) || undefined;
};
