import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import type { AppConfig } from '../config/environment.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Parameters whose values are credentials wherever they appear (query strings, the token endpoint's and the admin
 * API's request and response bodies): never written to a log.
 */
export const SECRET_PARAMETERS = [
  'access_token',
  'refresh_token',
  'id_token',
  'code',
  'client_secret',
  'password',
  // Admin API answers: an integration's client secret, a webhook endpoint's signing secret.
  'secret_access_key',
  'secret',
];
const SECRET_IN_URL = new RegExp(`([?&](?:${SECRET_PARAMETERS.join('|')})=)[^&#]*`, 'gi');

/** The URL with the value of every credential parameter replaced, e.g. `?access_token=[REDACTED]`. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_IN_URL, '$1[REDACTED]');
}

/** Structured JSON logs with one request id per request, taken from X-Request-Id when sane and echoed back. */
export function loggerParams(config: AppConfig): Params {
  return {
    pinoHttp: {
      level: config.logLevel,
      genReqId: (req: IncomingMessage, res: ServerResponse) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      // Credentials are ignored in a URL (bearer tokens are read from the header only), but a client may still send
      // them there; bodies are not logged, and these paths cover them should a serializer ever add them.
      redact: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        ...SECRET_PARAMETERS.flatMap((name) => [
          `req.query.${name}`,
          `req.body.${name}`,
          `res.body.${name}`,
          `body.${name}`,
        ]),
      ],
      serializers: {
        req: (req: { url?: string }) => (typeof req.url === 'string' ? { ...req, url: redactUrl(req.url) } : req),
      },
      customLogLevel: (_req, res, err) =>
        err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
    },
  };
}
