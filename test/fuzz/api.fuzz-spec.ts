/*
 * Fuzzes every operation of openapi.json against the application started in-process: requests valid by the document,
 * then mutated, with no token, as the administrator, and as an integration holding one permission. Per answer: no 5xx;
 * a 4xx is a problem document (an RFC 6749 error at the OAuth endpoints) and leaves the database as it was; every
 * answer matches the document (test/support/openapi-contract.ts).
 *
 * FUZZ_SEED (default random) seeds the run; FUZZ_SECONDS (default 180) bounds it, shared out among the operations.
 * A failure prints the line that replays its case: FUZZ_ONLY=<operationId>:<principal> FUZZ_REPLAY=<seed>:<path>
 * (fast-check's seed and path of that case).
 */
import fc from 'fast-check';
import { VariantProduction } from '@file-fields/nest/testing';
import { formatViolation, takeViolations } from '../support/openapi-contract.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { loadDocument, operationsOf, type Operation } from './operations.js';
import { caseArbitrary, type FuzzCase } from './requests.js';
import { changedTables, snapshot, tablesOf, type Snapshot } from './snapshot.js';
import { send, type WireResponse } from './wire.js';
import { poolOf, World } from './world.js';

const PRINCIPALS = ['anonymous', 'admin', 'scoped'] as const;
type Principal = (typeof PRINCIPALS)[number];

const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
const budgetMs = Number(process.env.FUZZ_SECONDS || 180) * 1000;
const [onlyOperation, onlyPrincipal] = (process.env.FUZZ_ONLY ?? '').split(':');
/** `<fast-check seed>:<path>` of one case, as a failure prints it. */
const [replaySeed, replayPath] = process.env.FUZZ_REPLAY
  ? [Number(process.env.FUZZ_REPLAY.split(':')[0]), process.env.FUZZ_REPLAY.split(':').slice(1).join(':')]
  : [undefined, undefined];
/** Runs per fast-check seed: the first runs of a seed favour small values, later ones larger. */
const BATCH = 5;
/** One request may wait this long for its answer; longer is a failure (a hung request). */
const ANSWER_TIMEOUT_MS = 20_000;

const document = loadDocument();
const operations = operationsOf(document).filter((op) => !onlyOperation || op.id === onlyOperation);
const principals = PRINCIPALS.filter((p) => !onlyPrincipal || p === onlyPrincipal);

const out = (text: string) => process.stdout.write(`${text}\n`);

/** A seed of its own per operation and principal, so that one case replays without the others. */
function seedOf(op: Operation, principal: Principal): number {
  let hash = seed >>> 0;
  for (const char of `${op.id}:${principal}`) hash = (Math.imul(hash ^ char.charCodeAt(0), 16_777_619) >>> 0) % 2 ** 31;
  return hash;
}

function describeRequest(c: FuzzCase): string {
  const { method, target, headers, body } = c.request;
  const shown = (text: string) => JSON.stringify(text.length > 300 ? `${text.slice(0, 300)}…(${text.length})` : text);
  return [
    `${c.label}: ${method} ${shown(target)}`,
    ...headers.map(([name, value]) => `  ${name}: ${shown(value)}`),
    ...(body ? [`  body (${body.length} bytes): ${shown(body.toString('utf8'))}`] : []),
  ].join('\n');
}

/** Why a 4xx answer is not the refusal it should be; undefined when it is. */
/**
 * The file field's refusals of an upload's bytes (its type, its size, a full field, a broken image, the entity gone)
 * end the upload, as documented (docs/resumable-uploads.md; the draft says `Upload-Complete: ?1`): its row goes.
 */
const UPLOAD_ENDING = new Set([
  'unsupported-media-type',
  'file-too-large',
  'field-full',
  'image-too-large',
  'image-not-decodable',
  'entity-not-found',
]);

function endsUpload(op: Operation, res: WireResponse): boolean {
  if (op.path !== '/files/uploads/{uploadId}') return false;
  try {
    const { type } = JSON.parse(res.body.toString('utf8')) as { type?: unknown };
    return typeof type === 'string' && UPLOAD_ENDING.has(type.replace(/^\/problems\//, ''));
  } catch {
    return false;
  }
}

/** Takes one row fewer in resumable_uploads, and nothing else, as no change: the upload that was refused ended. */
function allowUploadEnded(before: Snapshot, after: Snapshot): void {
  const [was, now] = [before.get('resumable_uploads'), after.get('resumable_uploads')];
  if (was && now && now.rows === was.rows - 1) after.set('resumable_uploads', was);
}

function refusalProblem(op: Operation, res: WireResponse): string | undefined {
  const type = res.headers['content-type'] ?? '';
  const body = res.body.toString('utf8');
  const parsed = (): Record<string, unknown> | undefined => {
    try {
      return JSON.parse(body) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  };
  // What Node.js refuses before routing (a header too large, an unknown Expect) cannot know the endpoint's format: a
  // problem document there too. Which format each status of the endpoint has is the contract check's to say.
  if (op.oauth && op.path !== '/api/oauth/authorize' && !/^application\/problem\+json/.test(type)) {
    const error = parsed();
    if (!/^application\/json/.test(type) || typeof error?.error !== 'string') {
      return `not an RFC 6749 error (${type || 'no content type'}): ${body.slice(0, 200)}`;
    }
    if (error.error_description !== undefined && typeof error.error_description !== 'string') {
      return 'error_description is not a string';
    }
    return undefined;
  }
  // The sign-in page shows what went wrong.
  if (op.path === '/api/oauth/authorize' && /^text\/html/.test(type)) return undefined;
  if (!/^application\/problem\+json/.test(type))
    return `not a problem document (${type || 'no content type'}): ${body.slice(0, 200)}`;
  if (op.method === 'HEAD') return undefined;
  const problem = parsed();
  if (!problem) return `a problem document that is not JSON: ${body.slice(0, 200)}`;
  if (typeof problem.type !== 'string' || typeof problem.title !== 'string')
    return `problem without type or title: ${body.slice(0, 200)}`;
  if (problem.status !== res.status) return `problem status ${String(problem.status)} in a ${res.status} answer`;
  return undefined;
}

/** The path parameters a request named, by matching its target against the operation's template. */
function pathValues(op: Operation, target: string): Map<string, string> {
  const names: string[] = [];
  const pattern = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    names.push(name);
    return '([^/?]+)';
  });
  const match = new RegExp(`^${pattern}(?:\\?|$)`).exec(target);
  const values = new Map<string, string>();
  names.forEach((name, index) => {
    try {
      if (match) values.set(name, decodeURIComponent(match[index + 1]));
    } catch {
      // A deliberately broken escape names no entity.
    }
  });
  return values;
}

describe('fuzz: every operation of openapi.json', () => {
  let t: TestApp;
  let world: World;
  let tables: string[];
  let port: number;
  let variants: VariantProduction;
  const startedAt = Date.now();
  let fuzzStartedAt = 0;
  const requests = new Map<string, Record<Principal, number>>();
  const statuses = new Map<number, number>();
  const labels = new Map<string, number>();
  const undocumented = new Map<string, number>();

  beforeAll(async () => {
    out(`fuzz: seed ${seed} (FUZZ_SEED=${seed}), ${budgetMs / 1000} s for ${operations.length} operations`);
    t = await startTestApp({
      // Deliveries would leave the machine; the fuzz checks the API, not the sending.
      WEBHOOK_DISPATCHER: 'off',
      // Webhook URLs on 127.0.0.1 only, which the address checks refuse otherwise.
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      // The limits would answer 429 to most of the fuzz's requests before they reach what they test.
      TOKEN_FAILURES_PER_MINUTE: '1000000',
      TOKEN_FAILURES_PER_ACCOUNT: '1000000',
      TOKEN_FAILURES_PER_IP: '1000000',
      OPEN_UPLOADS_PER_PRINCIPAL: '1000000',
      // No sweep deletes records between the two snapshots of a request.
      ORPHAN_SWEEP_INTERVAL: '24h',
    });
    port = Number(new URL(t.url).port);
    world = new World(t);
    await world.build();
    tables = await tablesOf(t.dataSource);
    variants = t.app.get(VariantProduction);
    takeViolations();
    fuzzStartedAt = Date.now();
  }, 180_000);

  afterAll(async () => {
    const total = [...statuses.values()].reduce((sum, n) => sum + n, 0);
    out(`fuzz: ${operations.length} operations, ${total} requests, seed ${seed}`);
    out(`  operation: ${principals.join(' / ')}`);
    for (const [id, counts] of requests) out(`  ${id}: ${principals.map((p) => counts[p]).join(' / ')}`);
    out(
      `  statuses: ${[...statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${status}×${n}`)
        .join(' ')}`,
    );
    out(
      `  cases: ${[...labels]
        .sort(([, a], [, b]) => b - a)
        .map(([label, n]) => `${label}×${n}`)
        .join(' ')}`,
    );
    if (undocumented.size > 0) {
      const list = [...undocumented].map(([key, n]) => `${key} (×${n})`).join(', ');
      out(`  refusals with a status the document does not list for the operation: ${list}`);
    }
    if (world?.shortfalls.length) out(`  entities not replaced: ${world.shortfalls.join('; ')}`);
    out(
      `  duration: ${((Date.now() - fuzzStartedAt) / 1000).toFixed(1)} s fuzzing, ${((Date.now() - startedAt) / 1000).toFixed(1)} s in all`,
    );
    await t?.close({ destroy: true });
  });

  operations.forEach((op, index) => {
    it(
      `${op.id}: ${op.method} ${op.path}`,
      async () => {
        const left = operations.length - index;
        const sliceMs = Math.max(300, (budgetMs - (Date.now() - fuzzStartedAt)) / left);
        const counts = { anonymous: 0, admin: 0, scoped: 0 };
        requests.set(op.id, counts);
        const failures: string[] = [];

        for (const principal of principals) {
          const token =
            principal === 'admin'
              ? world.principals.admin
              : principal === 'scoped'
                ? world.principals.scoped.get(op.scopes[0] ?? 'product:write')
                : undefined;
          const property = fc.asyncProperty(caseArbitrary(op, document, world, token), async (c) => {
            // Image variants are made after the upload's answer: they are the upload's changes, not this request's.
            await variants.settled();
            const before = await snapshot(t.dataSource, tables);
            let res: WireResponse;
            try {
              res = await send(port, c.request, ANSWER_TIMEOUT_MS);
            } catch (error) {
              throw new Error(`no answer: ${(error as Error).message}`);
            }
            counts[principal] += 1;
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
            labels.set(c.label, (labels.get(c.label) ?? 0) + 1);
            const problems: string[] = [];
            for (const violation of takeViolations()) {
              // A refusal the document does not list for the operation: a gap in the document, counted and shown at the end.
              if (violation.status < 500 && /^status \d+ not documented/.test(violation.message)) {
                const key = `${violation.operation ?? op.id} ${violation.status}`;
                undocumented.set(key, (undocumented.get(key) ?? 0) + 1);
              } else problems.push(`contract: ${formatViolation(violation)}`);
            }
            if (res.status >= 500) problems.push(`${res.status}: ${res.body.toString('utf8').slice(0, 300)}`);
            if (res.status >= 400 && res.status < 500) {
              const refusal = refusalProblem(op, res);
              if (refusal) problems.push(`${res.status} ${refusal}`);
              const after = await snapshot(t.dataSource, tables);
              if (endsUpload(op, res)) allowUploadEnded(before, after);
              const changed = changedTables(before, after);
              if (changed.length > 0) problems.push(`${res.status}, yet the database changed: ${changed.join(', ')}`);
            }
            if (problems.length > 0) throw new Error(problems.join('\n'));
            // A deleted entity of the world is replaced, so that later requests still reach one.
            if (op.method === 'DELETE' && res.status < 300) {
              for (const [name, value] of pathValues(op, c.request.target)) {
                const pool = poolOf(op.path, name);
                if (pool) await world.replace(pool, value);
              }
            }
          });
          // Runs in batches of fresh seeds until the principal's share of time is spent: fast-check's own time limit
          // abandons a run midway, and a request still under way would overlap the next one's snapshots.
          const deadline = Date.now() + sliceMs / principals.length;
          let details: fc.RunDetails<[FuzzCase]>;
          let caseSeed = replaySeed ?? seedOf(op, principal);
          for (;;) {
            details = await fc.check(property, {
              seed: caseSeed,
              path: replayPath,
              numRuns: replayPath ? 1 : BATCH,
              endOnFailure: true,
            });
            if (details.failed || replayPath || Date.now() >= deadline) break;
            caseSeed = (caseSeed + 1) % 2 ** 31;
          }
          if (details.failed) {
            const c = details.counterexample?.[0];
            const message = [
              `${op.id} as ${principal}: ${(details.errorInstance as Error | null)?.message ?? fc.defaultReportMessage(details)}`,
              ...(c ? [describeRequest(c)] : []),
              `replay: FUZZ_ONLY=${op.id}:${principal} FUZZ_REPLAY=${caseSeed}:${details.counterexamplePath} npm run test:fuzz` +
                ` (run seed ${seed}; fast-check seed ${caseSeed}, path ${details.counterexamplePath})`,
            ].join('\n');
            out(`fuzz failure: ${message}`);
            failures.push(message);
          }
        }
        expect(failures).toEqual([]);
      },
      budgetMs + 120_000,
    );
  });
});
