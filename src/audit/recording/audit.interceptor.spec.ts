import { jest } from '@jest/globals';
import { Controller, Logger, NotFoundException, type CallHandler, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { lastValueFrom, of, throwError } from 'rxjs';
import { CatalogedError, type ErrorCatalog } from '@file-fields/nest';
import { AuditInterceptor } from './audit.interceptor.js';
import { AuditTrail } from './audit-trail.service.js';
import { Audited } from './audited.decorator.js';
import { asReal, FakeAuditEventsRepository, FakeClock } from '../testing/in-memory-audit-events.js';

@Controller()
class ThingsController {
  @Audited('thing.create', 'thing')
  create(): void {}

  @Audited('thing.update', 'thing')
  update(): void {}

  notAudited(): void {}
}

class RefusedError extends CatalogedError<'privilege-escalation'> {
  constructor() {
    const catalog: ErrorCatalog<'privilege-escalation'> = { 'privilege-escalation': [403, 'Permissions not held'] };
    super(catalog, 'privilege-escalation', 'missing: *');
  }
}

function contextFor(handler: keyof ThingsController, request: Record<string, unknown>): ExecutionContext {
  return {
    getType: () => 'http',
    getHandler: () => ThingsController.prototype[handler],
    getClass: () => ThingsController,
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
}

const answering = (body: unknown): CallHandler => ({ handle: () => of(body) });
const failing = (error: unknown): CallHandler => ({ handle: () => throwError(() => error) });

describe('AuditInterceptor', () => {
  let events: FakeAuditEventsRepository;
  let interceptor: AuditInterceptor;
  const request = (fields: Record<string, unknown> = {}) => ({
    method: 'POST',
    params: {},
    body: {},
    user: { subject: 'user:1', clientId: 'administration', scopes: ['*'] },
    id: 'req-42',
    ip: '127.0.0.1',
    ...fields,
  });

  beforeEach(() => {
    events = new FakeAuditEventsRepository();
    interceptor = new AuditInterceptor(new Reflector(), new AuditTrail(asReal(events), new FakeClock()));
  });
  afterEach(() => jest.restoreAllMocks());

  it('records a creation after it succeeded, with the id of the answer, and answers unchanged', async () => {
    const answer = { id: 9, secret_access_key: 'ffsk_top-secret' };
    const result = await lastValueFrom(
      interceptor.intercept(contextFor('create', request({ body: { label: 'x', secret: 'nope' } })), answering(answer)),
    );

    expect(result).toBe(answer);
    expect(events.rows).toEqual([
      expect.objectContaining({
        actor: 'user:1',
        clientId: 'administration',
        action: 'thing.create',
        targetType: 'thing',
        targetId: '9',
        outcome: 'success',
        requestId: 'req-42',
        sourceIp: '127.0.0.1',
        details: null,
      }),
    ]);
    expect(JSON.stringify(events.rows)).not.toMatch(/top-secret|nope/);
  });

  it('records the :id of an update and the names, never the values, of the fields sent', async () => {
    await lastValueFrom(
      interceptor.intercept(
        contextFor(
          'update',
          request({ method: 'PATCH', params: { id: '3' }, body: { role: 'r', password: 'hunter22' } }),
        ),
        answering({ id: 3 }),
      ),
    );

    expect(events.rows[0]).toMatchObject({ targetId: '3', details: '{"fields":["password","role"]}' });
    expect(JSON.stringify(events.rows)).not.toContain('hunter22');
  });

  it('records a refusal with 403 as denied and passes the very same error on', async () => {
    const refusal = new RefusedError();
    const call = lastValueFrom(
      interceptor.intercept(contextFor('update', request({ params: { id: '3' } })), failing(refusal)),
    );

    await expect(call).rejects.toBe(refusal);
    expect(events.rows[0]).toMatchObject({
      action: 'thing.update',
      outcome: 'denied',
      targetId: '3',
      details: '{"problem":"privilege-escalation"}',
    });
  });

  it('records nothing for another error, which changed nothing', async () => {
    const missing = new NotFoundException();
    await expect(
      lastValueFrom(interceptor.intercept(contextFor('update', request({ params: { id: '3' } })), failing(missing))),
    ).rejects.toBe(missing);
    expect(events.rows).toEqual([]);
  });

  it('records nothing for a handler without @Audited', async () => {
    await lastValueFrom(interceptor.intercept(contextFor('notAudited', request()), answering({ id: 1 })));
    expect(events.rows).toEqual([]);
  });

  it('answers unchanged, and logs, when the event cannot be written', async () => {
    events.failWith = new Error('database is down');
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const answer = { id: 5 };

    await expect(
      lastValueFrom(interceptor.intercept(contextFor('create', request()), answering(answer))),
    ).resolves.toBe(answer);
    expect(logged).toHaveBeenCalled();

    const refusal = new RefusedError();
    await expect(lastValueFrom(interceptor.intercept(contextFor('update', request()), failing(refusal)))).rejects.toBe(
      refusal,
    );
  });
});
