/** Whose token it is: `integration:<id>` or `user:<id>`. */
export type Subject = { kind: 'integration' | 'user'; id: number };

export function subjectOf(kind: Subject['kind'], id: number): string {
  return `${kind}:${id}`;
}

export function parseSubject(sub: string): Subject | undefined {
  const match = /^(integration|user):([1-9]\d{0,9})$/.exec(sub);
  return match ? { kind: match[1] as Subject['kind'], id: Number(match[2]) } : undefined;
}
