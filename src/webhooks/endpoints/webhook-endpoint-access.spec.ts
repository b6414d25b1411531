import type { EntityManager } from 'typeorm';
import type { Principal } from '../../common/auth/principal.js';
import { asReal } from '../testing/in-memory-repositories.js';
import {
  attemptRecorder,
  endpointAccess,
  eventWriter,
  THIS_INSTANCE,
  webhookFakes,
} from '../testing/webhook-fixtures.js';
import { WebhookDeliveryClaimer } from '../delivery/webhook-delivery-claimer.js';
import type { WebhookDeliverySender } from '../sending/webhook-delivery-sender.js';
import { WebhookDispatcher } from '../delivery/webhook-dispatcher.js';
import { WebhookClaimReader } from '../delivery/webhook-claim-reader.js';
import type { SendResult } from '../sending/webhook-sender.js';

const INTEGRATION = 'integration:7';
const product = (id: number) => ({ file: { id, attachment_type: 'product', original_name: 'secret.pdf' } });
const article = (id: number) => ({ file: { id, attachment_type: 'article' } });

/** The webhooks module's parts over fakes; `roles` is what each subject's role grants now. */
function setup(roles: Record<string, readonly string[]> = {}) {
  const fakes = webhookFakes();
  const { clock, config, unitOfWork, leases, endpoints, eventRows } = fakes;
  const access = endpointAccess(fakes, roles);
  const sent: string[] = [];
  const deliverySender = {
    send: (endpoint, event) => {
      sent.push(`${event.id}->${endpoint.id}`);
      return Promise.resolve<SendResult>({ statusCode: 200, durationMs: 1 });
    },
  } as WebhookDeliverySender;
  const dispatcher = new WebhookDispatcher(
    config,
    new WebhookDeliveryClaimer(unitOfWork, asReal(leases), config, THIS_INSTANCE, clock),
    deliverySender,
    attemptRecorder(fakes),
    new WebhookClaimReader(asReal(endpoints), asReal(eventRows), access),
    clock,
  );
  const write = (kind: string, data: Record<string, unknown>) =>
    eventWriter(fakes).write({} as EntityManager, kind, data);
  return { ...fakes, access, dispatcher, sent, write };
}

describe('Webhook endpoints deliver only what their creator may read', () => {
  it('fans an event out only to endpoints whose creator’s token scope grants <type>:read', async () => {
    const { endpoints, deliveries, write } = setup();
    const hooksOnly = endpoints.add({ createdBy: INTEGRATION, creatorScopes: ['webhook:write'] });
    const products = endpoints.add({ createdBy: INTEGRATION, creatorScopes: ['webhook:write', 'product:read'] });
    const everything = endpoints.add({ createdBy: 'user:1', creatorScopes: ['*'] });
    const legacy = endpoints.add();

    const productEvent = await write('file.created', product(1));
    const articleEvent = await write('file.created', article(2));

    const receivers = (eventId: string) =>
      deliveries.rows.filter((row) => row.eventId === eventId).map((row) => row.endpointId);
    expect(receivers(productEvent)).toEqual([products.id, everything.id, legacy.id]);
    expect(receivers(articleEvent)).toEqual([everything.id, legacy.id]);
    expect(receivers(productEvent)).not.toContain(hooksOnly.id);
  });

  it('checks the creator’s current role again when sending: a delivery it may no longer read is skipped', async () => {
    const { endpoints, deliveries, dispatcher, sent, write } = setup({ [INTEGRATION]: ['webhook:write'] });
    const endpoint = endpoints.add({ createdBy: INTEGRATION, creatorScopes: ['webhook:write', 'product:read'] });
    const eventId = await write('file.created', product(1));

    dispatcher.wake();
    await dispatcher.onApplicationShutdown();

    expect(sent).toEqual([]);
    const [delivery] = deliveries.rows.filter((row) => row.endpointId === endpoint.id && row.eventId === eventId);
    expect(delivery).toMatchObject({ status: 'skipped', attempts: 0, leaseOwner: null });
    expect(delivery.lastError).toContain('product:read');
  });

  it('a manual redelivery is skipped too once the creator may no longer read the event', async () => {
    const { endpoints, deliveries, dispatcher, sent, write } = setup({ [INTEGRATION]: [] });
    endpoints.add({ createdBy: INTEGRATION, creatorScopes: ['*'] });
    await write('file.created', product(1));
    const [delivery] = deliveries.rows;

    await dispatcher.sendNow(delivery.id);

    expect(sent).toEqual([]);
    expect(deliveries.byId(delivery.id)).toMatchObject({ status: 'skipped', attempts: 0 });
  });

  it('sends when both the token scope and the current role grant it', async () => {
    const { endpoints, dispatcher, sent, write } = setup({ [INTEGRATION]: ['webhook:write', 'product:read'] });
    endpoints.add({ createdBy: INTEGRATION, creatorScopes: ['*'] });
    const eventId = await write('file.created', product(1));

    dispatcher.wake();
    await dispatcher.onApplicationShutdown();

    expect(sent).toEqual([`${eventId}->1`]);
  });

  describe('changing an endpoint needs every permission its events need', () => {
    const actor = (...scopes: string[]): Principal => ({ subject: 'integration:9', clientId: 'c', scopes });

    it('lists the <type>:read of every attachment type the endpoint may receive, as its creator’s scope allows', () => {
      const { access } = setup();
      const all = { events: ['*'], filter: null, createdBy: null, creatorScopes: null };
      // The setup registers the file events and webhook.endpoint.disabled (which needs webhook:write).
      expect(access.neededToManage(all)).toEqual(['article:read', 'product:read', 'webhook:write']);
      const products = { ...all, events: ['file.created'], filter: { attachment_types: ['product'] } };
      expect(access.neededToManage(products)).toEqual(['product:read']);
      const creator = { createdBy: INTEGRATION, creatorScopes: ['webhook:write', 'article:read'] };
      expect(access.neededToManage({ ...all, ...creator })).toEqual(['article:read', 'webhook:write']);
      expect(access.neededToManage({ ...all, ...creator, creatorScopes: ['webhook:write'] })).toEqual([
        'webhook:write',
      ]);
    });

    it('refuses an actor lacking one, naming what is missing', () => {
      const { access } = setup();
      const endpoint = { events: ['*'], filter: null, createdBy: null, creatorScopes: null };
      expect(() => access.assertMayManage(actor('webhook:write'), [endpoint], 'change webhook 1')).toThrow(
        expect.objectContaining({
          status: 403,
          code: 'privilege-escalation',
          extensions: { missing_permissions: ['article:read', 'product:read'] },
        }),
      );
      expect(() =>
        access.assertMayManage(actor('webhook:write', 'product:read', 'article:read'), [endpoint], 'change'),
      ).not.toThrow();
    });
  });
});
