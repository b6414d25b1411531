import { CatalogedError, type ErrorCatalog } from '@file-fields/nest';

export enum WebhooksErrorCode {
  EndpointNotFound = 'webhook-not-found',
  DeliveryNotFound = 'delivery-not-found',
  UnsafeUrl = 'unsafe-webhook-url',
  SchemeChangeNeedsRotation = 'signature-scheme-change-needs-rotation',
  RecoveryRunning = 'webhook-recovery-running',
  EndpointDisabled = 'webhook-disabled',
  TooManyPings = 'too-many-webhook-pings',
}

const WEBHOOKS_ERRORS: ErrorCatalog<WebhooksErrorCode> = {
  [WebhooksErrorCode.EndpointNotFound]: [404, 'Webhook endpoint not found'],
  [WebhooksErrorCode.DeliveryNotFound]: [404, 'Delivery not found'],
  [WebhooksErrorCode.UnsafeUrl]: [400, 'Webhook URL refused'],
  [WebhooksErrorCode.SchemeChangeNeedsRotation]: [409, 'The signature scheme changes only with a new secret'],
  [WebhooksErrorCode.RecoveryRunning]: [409, 'A recovery of this endpoint is running'],
  [WebhooksErrorCode.EndpointDisabled]: [409, 'Webhook endpoint disabled'],
  [WebhooksErrorCode.TooManyPings]: [429, 'Too many pings of this endpoint'],
};

/** An error of the webhooks admin API. */
export class WebhooksError extends CatalogedError<WebhooksErrorCode> {
  constructor(code: WebhooksErrorCode, detail: string) {
    super(WEBHOOKS_ERRORS, code, detail);
  }
}
