import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express, Response } from 'express';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { JsonBytes, markSendsJsonBytes, toJson } from './json-text.js';

/**
 * Nest's Express adapter, with an HTTP server that creates each request and response with Express's prototypes
 * already in place, and `res.json` writing the JSON text kept for shared values (see json-text.ts).
 *
 * Express gives every request and response its application's prototypes with `Object.setPrototypeOf`, on arrival.
 * On Node.js 22's V8 every property stored on such an object afterwards (Express, Nest, the router and pino-http store
 * about twenty per request) goes down a slow path. A small Express app spent 66 µs of CPU per request that way and
 * 18 µs with this server; with pino-http, 102 against 21. An object that already has the prototype is left as it is
 * by that call. Node.js 24's V8 does not have the problem; there this changes nothing.
 */
export class ServiceExpressAdapter extends ExpressAdapter {
  constructor() {
    super();
    const app = this.getInstance<Express>();
    const json = app.response.json;
    // Express's own res.json, with toJson for JSON.stringify; its settings (a replacer, spaces, escaping) are not
    // used by the service, and when one is set Express's own is used. A body already written (JsonBytes) is sent as
    // Express sends a string: the same Content-Type, charset included.
    app.response.json = function (this: Response, body: unknown) {
      if (body instanceof JsonBytes) {
        if (!this.get('Content-Type')) this.set('Content-Type', 'application/json; charset=utf-8');
        return this.send(body.bytes);
      }
      if (app.get('json replacer') || app.get('json spaces') || app.get('json escape')) return json.call(this, body);
      if (!this.get('Content-Type')) this.set('Content-Type', 'application/json');
      return this.send(toJson(body));
    };
    markSendsJsonBytes(app.response.json);
  }

  override initHttpServer(options: NestApplicationOptions): void {
    // Options this service does not use, left to Nest's own server.
    if (options.httpsOptions || options.return503OnClosing || options.forceCloseConnections) {
      super.initHttpServer(options);
      return;
    }
    const app = this.getInstance<Express>();
    this.httpServer = createServer(
      {
        IncomingMessage: withPrototype<typeof IncomingMessage>(IncomingMessage, app.request),
        ServerResponse: withPrototype<typeof ServerResponse>(ServerResponse, app.response),
      },
      app,
    );
  }
}

/** A constructor of `base`'s objects whose prototype is `prototype` from the start. */
function withPrototype<T extends abstract new (...args: never[]) => object>(base: T, prototype: object): T {
  function Constructor(...args: unknown[]): object {
    return Reflect.construct(base, args, Constructor) as object;
  }
  Constructor.prototype = prototype;
  return Constructor as unknown as T;
}
