import { noPermissionMessage } from '../permission-words';

/** An RFC 9457 problem detail, an RFC 6749 error body, or something else an API call answered with. */
export interface ProblemBody {
  title?: string;
  detail?: string;
  status?: number;
  errors?: Array<{ field?: string; message?: string; messages?: string[] }>;
  error?: string;
  error_description?: string;
  /** The permission a refused request needed (the service's insufficient-scope problem). */
  required_permission?: string;
}

/** A refused or failed API call, with a message a person can read (never the raw JSON). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ProblemBody | undefined,
    /** The answer's Retry-After in seconds, when it gave one (429, 503). */
    readonly retryAfterSeconds?: number,
  ) {
    super(describeProblem(status, body));
    this.name = 'ApiError';
  }

  /** The message of each invalid field, by field name, for forms. */
  get fieldErrors(): Record<string, string> {
    const errors: Record<string, string> = {};
    for (const violation of this.body?.errors ?? []) {
      if (violation.field) errors[violation.field] = violationMessage(violation);
    }
    return errors;
  }
}

/** Retry-After in seconds (RFC 9110 §10.2.3: delay-seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(header)) return Number(header);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

const violationMessage = (violation: { message?: string; messages?: string[] }) =>
  violation.message ?? violation.messages?.join('; ') ?? 'is invalid';

/** One readable sentence or two from a problem document (or an OAuth error, or nothing usable). */
export function describeProblem(status: number, body: ProblemBody | undefined): string {
  if (status === 0) return 'The service cannot be reached. Check your connection and try again.';
  if (body?.error_description) return body.error_description;
  const needed = status === 403 ? requiredPermissionOf(body) : undefined;
  if (needed) return noPermissionMessage(needed);
  const title = body?.title ?? (status >= 500 ? 'The service failed' : `Request refused (${status})`);
  const parts = [body?.detail && body.detail !== title ? `${title}: ${body.detail}` : title];
  for (const violation of body?.errors ?? []) {
    const message = violationMessage(violation);
    // The service's detail already lists its violations ("field: message"): say each once.
    if (body?.detail?.includes(message)) continue;
    parts.push(violation.field && !message.startsWith(violation.field) ? `${violation.field} ${message}` : message);
  }
  if (status === 403 && !body?.detail)
    parts.push("Your role doesn't allow this. Ask an administrator for a role that does.");
  return parts.join('. ').replace(/\.\./g, '.');
}

/** Any thrown value as a message (ApiErrors carry theirs). */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
}

/** The permission an insufficient-scope refusal names, in its extension member or, failing that, its detail. */
function requiredPermissionOf(body: ProblemBody | undefined): string | undefined {
  if (typeof body?.required_permission === 'string') return body.required_permission;
  return /needs the permission "([^"]+)"/.exec(body?.detail ?? '')?.[1];
}
