/** The line README quotes and the log keeps; the banner frames the same words. */
export function setupCodeLine(code: string): string {
  return `This server has no owner yet. Owner setup code: ${code}`;
}

/**
 * The owner setup code as a plain framed box, for a terminal or `docker logs` where the JSON log
 * line is easy to miss. ASCII only, so every console and log collector shows it as drawn.
 */
export function setupCodeBanner(code: string, file: string): string {
  const lines = [
    setupCodeLine(code),
    '',
    // Lines short enough for an 80-column terminal, so the frame is never broken by wrapping.
    'Sign in, open Settings and enter it under "Claim this server"',
    'to become the Super Admin. Codes printed before this one no longer work.',
    `The code is also in ${file}`,
  ];
  const width = Math.max(...lines.map((line) => line.length));
  const rule = `+${'-'.repeat(width + 4)}+`;
  const body = lines.map((line) => `|  ${line.padEnd(width)}  |`);
  return `\n${[rule, ...body, rule].join('\n')}\n\n`;
}
