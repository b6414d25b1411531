import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { unwrap, type Schemas } from '../../../api/client';
import { listQuery, type ListParams } from '../../../components/lists/use-list-params';
import { useApi } from '../../../context';

export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookAttempt = Schemas['WebhookAttempt'];
export type SignatureScheme = Schemas['WebhookSignatureScheme'];
export type DeliveryStatus = WebhookDelivery['status'];
/** Which deliveries the log shows: those in a state, of an event kind, of one event (as the API names them). */
export interface DeliveryFilter {
  status?: DeliveryStatus;
  event?: string;
  event_id?: string;
}
/** A page of the delivery log, and which deliveries it shows. */
export type DeliveryPage = DeliveryFilter & { offset: number };

/** Subscribing to this "event" means every kind, also those added later. */
export const ALL_EVENTS = '*';
export const DELIVERIES_PER_PAGE = 20;
const WEBHOOKS_PER_PAGE = 20;
/** How often the delivery log is read again while one of its deliveries is still pending. */
export const PENDING_POLL_MS = 3000;

export const webhookKeys = {
  all: ['webhooks'] as const,
  list: ['webhooks', 'list'] as const,
  listPage: (params: ListParams) => ['webhooks', 'list', params] as const,
  one: (id: number) => ['webhooks', id] as const,
  deliveries: (id: number) => ['webhooks', id, 'deliveries'] as const,
  deliveryPage: (id: number, page: DeliveryPage) => ['webhooks', id, 'deliveries', page] as const,
  eventTypes: ['webhook-event-types'] as const,
  signingKeys: ['webhook-signing-keys'] as const,
};

/** One page of the endpoint list, searched and sorted as `params` say (the previous page shown meanwhile). */
export function useWebhooks(params: ListParams) {
  const api = useApi();
  return useQuery({
    queryKey: webhookKeys.listPage(params),
    queryFn: () =>
      unwrap(
        api.GET('/api/webhooks', {
          params: { query: listQuery<Schemas['WebhookEndpointSort']>(params, WEBHOOKS_PER_PAGE) },
        }),
      ),
    placeholderData: keepPreviousData,
  });
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
export function useWebhookDeliveries(id: number, page: DeliveryPage) {
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

/** An endpoint as the cache keeps it: never with its secret, which is shown once and then forgotten. */
export function withoutSecret({ secret: _secret, ...endpoint }: WebhookEndpoint): WebhookEndpoint {
  return endpoint;
}
