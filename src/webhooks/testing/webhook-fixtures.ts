import type { AuditRecord, AuditTrail } from '../../audit/index.js';
import type { UnitOfWork } from '@file-fields/nest';
import { WebhookAttemptRecorder } from '../delivery/webhook-attempt-recorder.js';
import type { WebhookDispatcher } from '../delivery/webhook-dispatcher.js';
import type { SubjectPermissions } from '../../common/auth/subject-permissions.js';
import { WebhookEndpointAccess } from '../endpoints/webhook-endpoint-access.js';
import { WebhookEndpointNotices } from '../delivery/webhook-endpoint-notices.js';
import { WebhookEndpointHealth } from '../delivery/webhook-endpoint-health.js';
import { WebhookEventCatalog } from '../events/webhook-event-catalog.js';
import { WebhookEventWriter } from '../events/webhook-event-writer.js';
import { WebhookEvents } from '../events/webhook-events.service.js';
import type { WebhooksConfig } from '../webhooks.config.js';
import {
  asReal,
  FakeClock,
  FakeUnitOfWork,
  FakeWebhookAttemptsRepository,
  FakeWebhookDeliveriesRepository,
  FakeWebhookDeliveryLeasesRepository,
  FakeWebhookEndpointsRepository,
  FakeWebhookEventsRepository,
  testConfig,
} from './in-memory-repositories.js';

/** The instance every spec runs as, so leases it takes can be told from another instance's. */
export const THIS_INSTANCE = 'instance-a';

/** The attachment types the specs' file events can be about. */
const TEST_ATTACHMENT_TYPES = ['article', 'product'];

/** One webhooks module over in-memory tables: the parts under test are built on these, so they see each other. */
export interface WebhookFakes {
  clock: FakeClock;
  config: WebhooksConfig;
  unitOfWork: UnitOfWork;
  endpoints: FakeWebhookEndpointsRepository;
  deliveries: FakeWebhookDeliveriesRepository;
  /** The leases on `deliveries`' rows. */
  leases: FakeWebhookDeliveryLeasesRepository;
  attempts: FakeWebhookAttemptsRepository;
  eventRows: FakeWebhookEventsRepository;
  /** The kinds, with the file events registered as their publisher would (about `data.file.attachment_type`). */
  catalog: WebhookEventCatalog;
  /** What was recorded in the audit trail. */
  audit: AuditRecord[];
}

/** Empty tables, a stopped clock and the default settings with `env` on top. */
export function webhookFakes(env: Record<string, string> = {}): WebhookFakes {
  const catalog = new WebhookEventCatalog();
  const attachmentTypeOf = (data: Record<string, unknown>) =>
    (data.file as { attachment_type?: string } | undefined)?.attachment_type;
  catalog.register(
    ['file.created', 'file.deleted'].map((kind) => ({ kind, description: kind, dataSchema: {}, attachmentTypeOf })),
  );
  catalog.registerAttachmentTypes(() => TEST_ATTACHMENT_TYPES);
  const deliveries = new FakeWebhookDeliveriesRepository();
  const eventRows = new FakeWebhookEventsRepository();
  [deliveries.events, eventRows.deliveries] = [eventRows, deliveries];
  return {
    clock: new FakeClock(),
    config: testConfig(env),
    unitOfWork: asReal<UnitOfWork>(new FakeUnitOfWork()),
    endpoints: new FakeWebhookEndpointsRepository(),
    deliveries,
    leases: new FakeWebhookDeliveryLeasesRepository(deliveries),
    attempts: new FakeWebhookAttemptsRepository(),
    eventRows,
    catalog,
    audit: [],
  };
}

/** The fan-out of events to endpoints, over the fakes' tables. */
export function eventWriter(fakes: WebhookFakes): WebhookEventWriter {
  const { clock, catalog, eventRows, endpoints, deliveries } = fakes;
  return new WebhookEventWriter(clock, catalog, asReal(eventRows), asReal(endpoints), asReal(deliveries));
}

/** What tells the other endpoints, the log and the audit trail (here `fakes.audit`) that one was disabled. */
function disabledNotice(fakes: WebhookFakes): WebhookEndpointNotices {
  const trail = { record: (record: AuditRecord) => Promise.resolve(void fakes.audit.push(record)) };
  return new WebhookEndpointNotices(eventWriter(fakes), trail as AuditTrail, fakes.catalog);
}

/** The endpoints' health rules, over the fakes' tables. */
export function endpointHealth(fakes: WebhookFakes): WebhookEndpointHealth {
  return new WebhookEndpointHealth(asReal(fakes.endpoints), disabledNotice(fakes), fakes.config);
}

/** The recorder of this instance, with the jitter pinned to the middle so retry times are exact. */
export function attemptRecorder(fakes: WebhookFakes): WebhookAttemptRecorder {
  const { unitOfWork, leases, attempts, config, clock } = fakes;
  return new WebhookAttemptRecorder(
    unitOfWork,
    asReal(leases),
    asReal(attempts),
    endpointHealth(fakes),
    config,
    THIS_INSTANCE,
    () => 0.5,
    clock,
  );
}

/** The outbox, and the catalog it checks kinds against. */
export function outbox(
  fakes: WebhookFakes,
  dispatcher: WebhookDispatcher,
): { events: WebhookEvents; catalog: WebhookEventCatalog } {
  return { events: new WebhookEvents(dispatcher, eventWriter(fakes), fakes.catalog), catalog: fakes.catalog };
}

/** Who may receive what, with each subject's current permissions as given (none for a subject not listed). */
export function endpointAccess(
  fakes: WebhookFakes,
  permissions: Record<string, readonly string[]> = {},
): WebhookEndpointAccess {
  const subjects: SubjectPermissions = { of: (subject) => Promise.resolve(permissions[subject] ?? []) };
  return new WebhookEndpointAccess(fakes.catalog, subjects);
}
