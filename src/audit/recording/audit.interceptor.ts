import {
  HttpException,
  Injectable,
  Logger,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { catchError, mergeMap, type Observable } from 'rxjs';
import { CatalogedError } from '@file-fields/nest';
import { clientAddress } from '../../common/http/client-address.js';
import type { AuditOutcome } from '../audit-event.entity.js';
import { AuditTrail, type AuditOrigin, type AuditRecord } from './audit-trail.service.js';

/** The metadata key that `@Audited()` sets on a handler. */
export const AUDITED = 'audit:action';

/** What an audited handler does: the action recorded and the kind of record it acts on. */
export interface AuditedAction {
  action: string;
  targetType: string;
}

/** At most this many changed field names are recorded (the DTOs have fewer). */
const MAX_FIELDS = 20;

/** The request id (set by RequestLog from X-Request-Id or a new UUID) and the client's address of a request. */
export function originOf(request: Request): AuditOrigin {
  const id = (request as { id?: unknown }).id;
  return {
    requestId: typeof id === 'string' || typeof id === 'number' ? String(id) : null,
    sourceIp: clientAddress(request) ?? null,
  };
}

/**
 * Records a handler marked with `@Audited()` once it has answered: `success` after it succeeded, `denied` when it
 * was refused with 403 (e.g. a privilege escalation). Other errors changed nothing and are not recorded. The answer,
 * or the error, goes out unchanged whatever happens to the record.
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  private readonly logger = new Logger(AuditInterceptor.name);

  constructor(
    private readonly reflector: Reflector,
    private readonly trail: AuditTrail,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const audited = this.reflector.get<AuditedAction | undefined>(AUDITED, context.getHandler());
    if (!audited || context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<Request>();
    return next.handle().pipe(
      mergeMap(async (body: unknown) => {
        await this.record(() => this.eventOf(audited, request, 'success', body));
        return body;
      }),
      catchError(async (error: unknown) => {
        if (statusOf(error) === 403) {
          await this.record(() => this.eventOf(audited, request, 'denied', undefined, problemOf(error)));
        }
        throw error;
      }),
    );
  }

  /** Never throws: an event that cannot even be built is logged, and the answer stands. */
  private async record(build: () => AuditRecord): Promise<void> {
    try {
      await this.trail.record(build());
    } catch (error) {
      this.logger.error({ err: error }, 'Could not record an audit event');
    }
  }

  private eventOf(
    audited: AuditedAction,
    request: Request,
    outcome: AuditOutcome,
    body: unknown,
    problem?: string,
  ): AuditRecord {
    const details: Record<string, unknown> = {};
    const fields = changedFields(request);
    if (fields) details.fields = fields;
    const params = otherParams(request);
    if (params) details.params = params;
    if (problem) details.problem = problem;
    return {
      actor: request.user?.subject ?? 'anonymous',
      clientId: request.user?.clientId ?? null,
      action: audited.action,
      targetType: audited.targetType,
      targetId: targetIdOf(request, body),
      outcome,
      ...originOf(request),
      ...(Object.keys(details).length > 0 ? { details } : {}),
    };
  }
}

/** The `:id` route parameter, else the `id` (or a key's `kid`) of the answer (a creation). */
function targetIdOf(request: Request, body: unknown): string | null {
  const param = (request.params as Record<string, string | undefined> | undefined)?.id;
  if (typeof param === 'string') return param;
  const answer = typeof body === 'object' && body !== null ? (body as { id?: unknown; kid?: unknown }) : undefined;
  const id = answer?.id ?? answer?.kid;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : null;
}

/** The names (never the values) of the fields a PATCH sent; the validation pipe refused any unknown name. */
function changedFields(request: Request): string[] | undefined {
  if (request.method !== 'PATCH') return undefined;
  const body: unknown = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  return Object.keys(body)
    .slice(0, MAX_FIELDS)
    .map((name) => name.slice(0, 64))
    .sort();
}

/** Route parameters besides `id` (e.g. the `deliveryId` of a redelivery): ids, never secrets. */
function otherParams(request: Request): Record<string, string> | undefined {
  const entries = Object.entries((request.params ?? {}) as Record<string, string>).filter(([name]) => name !== 'id');
  return entries.length > 0
    ? Object.fromEntries(entries.map(([name, value]) => [name, value.slice(0, 64)]))
    : undefined;
}

function statusOf(error: unknown): number | undefined {
  if (error instanceof CatalogedError) return error.status;
  if (error instanceof HttpException) return error.getStatus();
  return undefined;
}

function problemOf(error: unknown): string | undefined {
  return error instanceof CatalogedError ? String(error.code) : undefined;
}
