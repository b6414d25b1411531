const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses a duration such as `500ms`, `15s`, `5m`, `2h` or `1d` into milliseconds; undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  const match = /^\s*(\d{1,9})\s*(ms|s|m|h|d)\s*$/.exec(text);
  return match ? Number(match[1]) * UNITS[match[2]] : undefined;
}

/** Parses a comma-separated list of durations; undefined when any is malformed or the list is empty. */
export function parseDurationList(text: string): number[] | undefined {
  const parts = text.split(',').map(parseDuration);
  return parts.length > 0 && parts.every((part) => part !== undefined) ? parts : undefined;
}
