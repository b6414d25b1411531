/** A count with its noun, as a person writes it: "no users", "1 user", "2 users". */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  if (count === 0) return `no ${plural}`;
  return `${count.toLocaleString('en')} ${count === 1 ? singular : plural}`;
}
