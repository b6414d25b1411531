import type { LoggerService } from '@nestjs/common';
import type { Level, Logger } from 'pino';
import { requestInProgress } from './request-log.js';

/** A stack trace as Nest's exception handlers pass it, in place of an error. */
const STACK = /\n\s*at /;

/**
 * Nest's logger interface over pino: `new Logger('Context').error({ err, ... }, 'message')` writes one line with
 * the context, the fields and the message; a line written while a request is handled also carries that request
 * (`req`: its id, method and URL).
 */
export class AppLogger implements LoggerService {
  constructor(private readonly pino: Logger) {}

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  /** Nest passes the context last; what comes between the message and it is the message's arguments. */
  private write(level: Level, message: unknown, params: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = {};
    const req = requestInProgress();
    if (req) fields.req = req;
    let args = params;
    if (params.length > 0) {
      fields.context = params.at(-1);
      args = params.slice(0, -1);
    }
    if (typeof message === 'object') {
      if (message instanceof Error) fields.err = message;
      else Object.assign(fields, message);
      Reflect.apply(this.pino[level], this.pino, [fields, ...args]);
    } else if (level === 'error' && typeof message === 'string' && args.length === 1 && isStack(args[0])) {
      const err = new Error(message);
      err.stack = args[0];
      fields.err = err;
      this.pino.error(fields);
    } else {
      Reflect.apply(this.pino[level], this.pino, [fields, message, ...args]);
    }
  }
}

function isStack(value: unknown): value is string {
  return typeof value === 'string' && STACK.test(value);
}
