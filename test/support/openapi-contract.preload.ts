/*
 * Loaded with `node --import` into a service process started by a suite (service-process.ts) when the response
 * contract is checked: every response of the process is checked as in the test process, and its violations are
 * appended to OPENAPI_RESPONSE_LOG, which the test process reads (readViolationLog).
 */
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { appendViolationLog, checkAgainstCommittedDocument, observe } from './openapi-contract.js';

const log = process.env.OPENAPI_RESPONSE_LOG;
if (log) {
  // Published for every request a server of this process receives, before its 'request' listeners run.
  subscribe('http.server.request.start', (message) => {
    const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
    observe(request, response, (exchange) => appendViolationLog(log, checkAgainstCommittedDocument(exchange)));
  });
}
