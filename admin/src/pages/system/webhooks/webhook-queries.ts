import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { unwrap, type Schemas } from '../../../api/client';
import { ApiError } from '../../../api/problems';
import { useApi } from '../../../context';

export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookAttempt = Schemas['WebhookAttempt'];
export type SignatureScheme = Schemas['WebhookSignatureScheme'];
export type DeliveryStatus = WebhookDelivery['status'];

/** Subscribing to this "event" means every kind, also those added later. */
export const ALL_EVENTS = '*';
export const DELIVERIES_PER_PAGE = 20;
/** How often the delivery log is read again while one of its deliveries is still pending. */
export const PENDING_POLL_MS = 3000;

export const webhookKeys = {
  all: ['webhooks'] as const,
  list: ['webhooks', 'list'] as const,
  one: (id: number) => ['webhooks', id] as const,
  deliveries: (id: number) => ['webhooks', id, 'deliveries'] as const,
  deliveryPage: (id: number, page: { offset: number; status?: DeliveryStatus }) =>
    ['webhooks', id, 'deliveries', page] as const,
  eventTypes: ['webhook-event-types'] as const,
};

export function useWebhooks() {
  const api = useApi();
  return useQuery({ queryKey: webhookKeys.list, queryFn: () => unwrap(api.GET('/api/webhooks')) });
}

export function useWebhook(id: number) {
  const api = useApi();
  return useQuery({
    queryKey: webhookKeys.one(id),
    queryFn: () => unwrap(api.GET('/api/webhooks/{id}', { params: { path: { id } } })),
    enabled: Number.isInteger(id) && id > 0,
  });
}

/** The event catalog: what an endpoint can subscribe to. */
export function useWebhookEventTypes() {
  const api = useApi();
  return useQuery({
    queryKey: webhookKeys.eventTypes,
    queryFn: () => unwrap(api.GET('/api/webhooks/event-types')),
    staleTime: 5 * 60_000,
  });
}

/** One page of an endpoint's delivery log, read again every few seconds while a delivery on it is pending. */
export function useWebhookDeliveries(id: number, page: { offset: number; status?: DeliveryStatus }) {
  const api = useApi();
  return useQuery({
    queryKey: webhookKeys.deliveryPage(id, page),
    queryFn: () =>
      unwrap(
        api.GET('/api/webhooks/{id}/deliveries', {
          params: { path: { id }, query: { limit: DELIVERIES_PER_PAGE, ...page } },
        }),
      ),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.items.some((delivery) => delivery.status === 'pending') ? PENDING_POLL_MS : false,
  });
}

/** "All events" for `*`, the kinds otherwise. */
export function describeEvents(events: string[]): string {
  return events.includes(ALL_EVENTS) ? 'All events' : events.join(', ');
}

/** The `type` of a problem detail without its path ("/problems/unsafe-webhook-url" → "unsafe-webhook-url"). */
export function problemCode(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const type = (error.body as { type?: unknown } | undefined)?.type;
  return typeof type === 'string' ? type.split('/').pop() : undefined;
}

/** An endpoint as the cache keeps it: never with its secret, which is shown once and then forgotten. */
export function withoutSecret({ secret: _secret, ...endpoint }: WebhookEndpoint): WebhookEndpoint {
  return endpoint;
}
