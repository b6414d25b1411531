import type { UnitOfWork } from '../../database/unit-of-work.js';
import { WebhookAttemptRecorder } from '../webhook-attempt-recorder.js';
import type { WebhookDispatcher } from '../webhook-dispatcher.js';
import { WebhookEndpointHealth } from '../webhook-endpoint-health.js';
import { WebhookEventCatalog } from '../webhook-event-catalog.js';
import { WebhookEvents } from '../webhook-events.service.js';
import type { WebhooksConfig } from '../webhooks.config.js';
import {
  asReal,
  FakeClock,
  FakeUnitOfWork,
  FakeWebhookAttemptsRepository,
  FakeWebhookDeliveriesRepository,
  FakeWebhookEndpointsRepository,
  FakeWebhookEventsRepository,
  testConfig,
} from './in-memory-repositories.js';

/** The instance every spec runs as, so leases it takes can be told from another instance's. */
export const THIS_INSTANCE = 'instance-a';

/** One webhooks module over in-memory tables: the parts under test are built on these, so they see each other. */
export interface WebhookFakes {
  clock: FakeClock;
  config: WebhooksConfig;
  unitOfWork: UnitOfWork;
  endpoints: FakeWebhookEndpointsRepository;
  deliveries: FakeWebhookDeliveriesRepository;
  attempts: FakeWebhookAttemptsRepository;
  eventRows: FakeWebhookEventsRepository;
}

/** Empty tables, a stopped clock and the default settings with `env` on top. */
export function webhookFakes(env: Record<string, string> = {}): WebhookFakes {
  return {
    clock: new FakeClock(),
    config: testConfig(env),
    unitOfWork: asReal<UnitOfWork>(new FakeUnitOfWork()),
    endpoints: new FakeWebhookEndpointsRepository(),
    deliveries: new FakeWebhookDeliveriesRepository(),
    attempts: new FakeWebhookAttemptsRepository(),
    eventRows: new FakeWebhookEventsRepository(),
  };
}

/** The recorder of this instance, with the jitter pinned to the middle so retry times are exact. */
export function attemptRecorder(fakes: WebhookFakes): WebhookAttemptRecorder {
  const { unitOfWork, deliveries, attempts, endpoints, config, clock } = fakes;
  return new WebhookAttemptRecorder(
    unitOfWork,
    asReal(deliveries),
    asReal(attempts),
    new WebhookEndpointHealth(asReal(endpoints), config),
    config,
    THIS_INSTANCE,
    () => 0.5,
    clock,
  );
}

/** The outbox, and the catalog it checks kinds against, with the file events registered as their publisher would. */
export function outbox(
  fakes: WebhookFakes,
  dispatcher: WebhookDispatcher,
): { events: WebhookEvents; catalog: WebhookEventCatalog } {
  const catalog = new WebhookEventCatalog();
  catalog.register(['file.created', 'file.deleted']);
  const { clock, eventRows, endpoints, deliveries } = fakes;
  const events = new WebhookEvents(
    clock,
    dispatcher,
    catalog,
    asReal(eventRows),
    asReal(endpoints),
    asReal(deliveries),
  );
  return { events, catalog };
}
