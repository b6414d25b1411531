/*
 * One operation's requests: valid by the document (path parameters naming the world's entities), then mutated in
 * their path, query, headers, body, content type or credentials.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { GIF, PDF, PNG } from '../support/fixtures.js';
import {
  boundaryValues,
  hostileHeaderValue,
  hostileNumber,
  hostileString,
  validValue,
  wrongValue,
  type Hints,
} from './arbitraries.js';
import type { Document, Operation, Parameter, Schema } from './operations.js';
import { deref } from './operations.js';
import type { WireRequest } from './wire.js';
import { poolOf, type World } from './world.js';

export interface FuzzCase {
  /** `valid`, or the mutations applied. */
  label: string;
  request: WireRequest;
}

type Mutation = 'path' | 'query' | 'header' | 'body' | 'content-type' | 'auth';

/** The request headers of the resumable upload protocols (tus 1.0.0 and the IETF draft) the fuzz sends hostile. */
const RESUMABLE_HEADERS = [
  'Tus-Resumable',
  'Upload-Offset',
  'Upload-Length',
  'Upload-Metadata',
  'Upload-Checksum',
  'Upload-Defer-Length',
  'Upload-Complete',
  'Upload-Draft-Interop-Version',
];
const OTHER_HEADERS = [
  'Content-Disposition',
  'Range',
  'If-Range',
  'If-None-Match',
  'If-Match',
  'If-Modified-Since',
  'Accept',
  'Accept-Encoding',
  'Accept-Charset',
  'Content-Encoding',
  'X-Forwarded-For',
  'X-HTTP-Method-Override',
  'Origin',
  'Cookie',
  'Expect',
  'Prefer',
  'Idempotency-Key',
];

/** Hostile values that a header's parser may not expect, by header. */
const HEADER_VALUES: Record<string, string[]> = {
  'Tus-Resumable': ['1.0.0', '0.2.2', '1.0.0, 1.0.0', '', '1.0', '2.0.0'],
  'Upload-Offset': ['0', '-1', '1', '1.5', '99999999999999999999', '0x10', '+0', '00', '', '9007199254740993'],
  'Upload-Length': ['0', '-1', '68', '1e3', '99999999999999999999', 'abc', '', '52428801'],
  'Upload-Metadata': [
    'filename',
    'filename ###',
    'filename ZnV6ei5wbmc=,filename ZnV6ei5wbmc=',
    'filetype aW1hZ2UvcG5n',
    ',,,',
    ' filename ZnV6ei5wbmc=',
    `filename ${Buffer.from('a\u0000b.png').toString('base64')}`,
    `filename ${Buffer.from('../../x').toString('base64')}`,
    'x'.repeat(10_000),
  ],
  'Upload-Checksum': ['sha1', 'sha1 ###', 'md5 AAAA', 'sha1 2jmj7l5rSw0yVb/vlWAYkK/YBwk=', 'crc32 AAAA', 'sha256 x y'],
  'Upload-Defer-Length': ['1', '0', '2', 'true', ''],
  'Upload-Complete': ['?1', '?0', '?2', '1', 'true', '?1;a=b', '', '?1, ?0'],
  'Upload-Draft-Interop-Version': ['8', '7', '3', '0', '-1', 'x', '99999999999999999999', '8, 8'],
  'Content-Disposition': [
    'inline; filename="a.png"',
    "attachment; filename*=UTF-8''%E2%82%AC.png",
    'inline; filename=',
    'x',
  ],
  Range: [
    'bytes=0-0',
    'bytes=-1',
    'bytes=5-1',
    'bytes=0-0,0-0,0-0',
    'bytes=99999999999999999999-',
    'items=0-1',
    'bytes=',
  ],
  'If-Range': ['"x"', 'Wed, 21 Oct 2015 07:28:00 GMT', 'garbage'],
  'If-None-Match': ['*', '"x"', 'W/"x"', 'garbage'],
  'If-Modified-Since': ['Wed, 21 Oct 2015 07:28:00 GMT', 'garbage', '0'],
  Accept: ['application/xml', '*/*', 'text/html', 'application/problem+json;q=0', ''],
  'Content-Encoding': ['gzip', 'br', 'deflate', 'identity', 'x-unknown'],
  'X-Forwarded-For': ['1.2.3.4', 'garbage', '::1, 127.0.0.1'],
  'X-HTTP-Method-Override': ['DELETE', 'PUT', 'TRACE'],
  Expect: ['100-continue', 'garbage'],
};

const AUTHORIZATION_VALUES = [
  'Bearer',
  'Bearer ',
  'Bearer garbage',
  'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIiwic2NvcGUiOiIqIn0.',
  'Basic !!!',
  `Basic ${Buffer.from('a:b').toString('base64')}`,
  `Basic ${Buffer.from('administration:').toString('base64')}`,
  'Negotiate abc',
  `Bearer ${'x'.repeat(20_000)}`,
  'bearer x.y.z',
];

const HOSTILE_CONTENT_TYPES = [
  'text/plain',
  'application/xml',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json; charset=bogus',
  'application/json;charset="UTF-8"',
  'APPLICATION/JSON',
  'application/merge-patch+json',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=iso-8859-1',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'application/octet-stream',
  'application/offset+octet-stream',
  'application/partial-upload',
  'application/json, text/plain',
  '*/*',
  'application/json; charset=utf-8; charset=latin1',
  '',
  'garbage',
];

interface Context {
  document: Document;
  world: World;
  hints: Hints;
  /** The principal's token; undefined: no credentials. */
  token: string | undefined;
}

export function caseArbitrary(op: Operation, document: Document, world: World, token: string | undefined) {
  const context: Context = { document, world, hints: world.hints(), token };
  const applicable: Mutation[] = ['path', 'query', 'header', 'body', 'content-type', 'auth'].filter(
    (kind) => kind !== 'path' || op.parameters.some((p) => p.in === 'path'),
  ) as Mutation[];
  const mutations = fc.oneof(
    { arbitrary: fc.constant<Mutation[]>([]), weight: 1 },
    { arbitrary: fc.subarray(applicable, { minLength: 1, maxLength: 2 }), weight: 3 },
  );
  return mutations.chain((kinds) => {
    const has = (kind: Mutation) => kinds.includes(kind);
    return fc
      .record({
        path: pathArbitrary(op, context, has('path')),
        query: queryArbitrary(op, context, has('query')),
        content: contentArbitrary(op, context, has('body'), has('content-type')),
        extraHeaders: has('header')
          ? fc.array(
              fc.tuple(fc.constantFrom(...RESUMABLE_HEADERS, ...OTHER_HEADERS), fc.boolean(), hostileHeaderValue),
              {
                minLength: 1,
                maxLength: 4,
              },
            )
          : fc.constant([] as Array<[string, boolean, string]>),
        authorization: has('auth')
          ? fc.oneof(
              fc.constantFrom(...AUTHORIZATION_VALUES),
              hostileHeaderValue.map((value) => `Bearer ${value}`),
              fc.constant(token ? `Bearer ${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}` : 'Bearer x'),
              fc.constant(world.basicAuthorization() ?? 'Basic x'),
            )
          : fc.constant(token ? `Bearer ${token}` : undefined),
        repeatAuthorization: has('auth') ? fc.boolean() : fc.constant(false),
      })
      .map(({ path, query, content, extraHeaders, authorization, repeatAuthorization }): FuzzCase => {
        const headers: Array<[string, string]> = [];
        if (authorization !== undefined) headers.push(['Authorization', authorization]);
        if (repeatAuthorization && token) headers.push(['Authorization', `Bearer ${token}`]);
        headers.push(...content.headers);
        for (const [name, known, hostile] of extraHeaders) {
          const values = HEADER_VALUES[name];
          headers.push([name, known && values ? values[hostile.length % values.length] : hostile]);
        }
        const target = query.length > 0 ? `${path}?${query.join('&')}` : path;
        return {
          label: kinds.length === 0 ? 'valid' : kinds.join('+'),
          request: { method: op.method, target, headers, body: content.body },
        };
      });
  });
}

/**
 * Percent-encodes the UTF-8 bytes of `text` but the unreserved characters; unlike encodeURIComponent it takes lone
 * surrogates too (as U+FFFD).
 */
function percentEncode(text: string): string {
  let encoded = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    encoded += /[A-Za-z0-9\-_.~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}

// ---- Path ---------------------------------------------------------------------------------------------------------

function pathArbitrary(op: Operation, context: Context, mutate: boolean): fc.Arbitrary<string> {
  const parameters = op.parameters.filter((p) => p.in === 'path');
  if (parameters.length === 0) return fc.constant(op.path);
  const valid = parameters.map((p) => validPathValue(op, p, context).map(percentEncode));
  const values = mutate
    ? fc
        .nat({ max: parameters.length - 1 })
        .chain((broken) =>
          fc.tuple(...valid.map((arbitrary, index) => (index === broken ? hostilePathValue : arbitrary))),
        )
    : fc.tuple(...valid);
  return values.map((list) =>
    parameters.reduce((path, parameter, index) => path.replace(`{${parameter.name}}`, list[index]), op.path),
  );
}

function validPathValue(op: Operation, parameter: Parameter, context: Context): fc.Arbitrary<string> {
  const pool = poolOf(op.path, parameter.name);
  const known = pool ? context.world.values(pool).filter((value) => !context.world.isProtected(pool, value)) : [];
  const fromSchema = validValue(context.document, parameter.schema, {})
    .map((value) => String(value))
    .filter((value) => value.length > 0 && !(pool && context.world.isProtected(pool, value)));
  if (known.length === 0) return fromSchema;
  return fc.oneof({ arbitrary: fc.constantFrom(...known), weight: 6 }, { arbitrary: fromSchema, weight: 1 });
}

/** Already encoded: some deliberately not (a bare `%`, a broken escape). */
const hostilePathValue: fc.Arbitrary<string> = fc.oneof(
  hostileString.filter((value) => value.length > 0).map(percentEncode),
  hostileNumber.map((value) => percentEncode(String(value))),
  fc.constantFrom(
    '%',
    '%zz',
    '%E0%A4%A',
    '%C0%AF',
    '%ED%A0%80',
    '%FF',
    '..',
    '.',
    '%2e%2e',
    '%2F',
    'a%2Fb',
    '%00',
    '1%00',
    '%20',
    '+',
  ),
);

// ---- Query --------------------------------------------------------------------------------------------------------

function queryArbitrary(op: Operation, context: Context, mutate: boolean): fc.Arbitrary<string[]> {
  const parameters = op.parameters.filter((p) => p.in === 'query');
  const valid = fc
    .tuple(
      ...parameters.map((p) => {
        const value = validValue(context.document, p.schema, context.hints, p.name).map((v) => queryPair(p.name, v));
        return p.required
          ? value.map((pair) => [pair])
          : fc.option(value, { nil: undefined }).map((pair) => (pair ? [pair] : []));
      }),
    )
    .map((lists) => lists.flat());
  if (!mutate) return valid;
  const names = [...parameters.map((p) => p.name), 'limit', 'offset', 'sort', 'q'];
  const hostilePair = fc.oneof(
    fc.tuple(fc.constantFrom(...names), wrongValue).map(([name, value]) => queryPair(name, value)),
    fc.tuple(fc.constantFrom(...names), hostileString).map(([name, value]) => queryPair(name, value)),
    fc.constantFrom(...names).map((name) => `${name}[]=1&${name}[]=2`),
    fc.constantFrom(...names).map((name) => `${name}[$gt]=1`),
    fc.constantFrom(...names).map((name) => `${name}=1&${name}=2`),
    fc.constantFrom('__proto__[admin]=1', 'constructor[prototype][admin]=1', '__proto__=x', 'a[__proto__][b]=1'),
    fc.constantFrom('%', '%zz=1', 'limit=%00', '=', '&&&', `x=${'y'.repeat(20_000)}`, 'limit=1e2', 'offset=-0'),
  );
  return fc
    .tuple(valid, fc.array(hostilePair, { minLength: 1, maxLength: 3 }))
    .map(([pairs, hostile]) => [...pairs, ...hostile]);
}

function queryPair(name: string, value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `${percentEncode(name)}=${percentEncode(text ?? '')}`;
}

// ---- Headers and body ---------------------------------------------------------------------------------------------

interface Content {
  headers: Array<[string, string]>;
  body?: Buffer;
}

const isUpload = (op: Operation) => 'multipart/form-data' in op.bodies;
const isResumableResource = (op: Operation) => op.path === '/files/uploads/{uploadId}';

function contentArbitrary(
  op: Operation,
  context: Context,
  mutateBody: boolean,
  mutateType: boolean,
): fc.Arbitrary<Content> {
  let content: fc.Arbitrary<Content>;
  if (isUpload(op)) content = uploadContent(op, mutateBody);
  else if (isResumableResource(op)) content = resumableContent(op, mutateBody);
  else if (Object.keys(op.bodies).length > 0) content = schemaBodyContent(op, context, mutateBody);
  else content = mutateBody ? strayBody : fc.constant<Content>({ headers: [] });
  if (!mutateType) return content;
  return fc.tuple(content, fc.constantFrom(...HOSTILE_CONTENT_TYPES)).map(([{ headers, body }, type]) => ({
    headers: [
      ...headers.filter(([name]) => name.toLowerCase() !== 'content-type'),
      ['Content-Type', type] as [string, string],
    ],
    body: body ?? Buffer.from('{}'),
  }));
}

/** A body where the operation takes none. */
const strayBody: fc.Arbitrary<Content> = fc
  .tuple(wrongValue, fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded'))
  .map(([value, type]) => ({ headers: [['Content-Type', type]], body: Buffer.from(JSON.stringify(value) ?? 'null') }));

function schemaBodyContent(op: Operation, context: Context, mutate: boolean): fc.Arbitrary<Content> {
  const types = Object.keys(op.bodies);
  return fc.constantFrom(...types).chain((type) => {
    const schema = op.bodies[type];
    const valid = validValue(context.document, schema, context.hints);
    const form = type === 'application/x-www-form-urlencoded';
    const encode = (value: unknown) => (form ? encodeForm(value) : JSON.stringify(value));
    const withType = (text: string | Buffer): Content => ({
      headers: [['Content-Type', type]],
      body: Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'),
    });
    if (!mutate) return valid.map((value) => withType(encode(value)));
    const properties = propertiesOf(context.document, schema);
    const keys = Object.keys(properties);
    const wrongFor = (key: string) => {
      const bounds = boundaryValues(context.document, properties[key]);
      return bounds.length > 0 ? fc.oneof(wrongValue, fc.constantFrom(...bounds)) : wrongValue;
    };
    return fc.oneof(
      // A property of the wrong type, hostile content, or just past its bounds.
      fc
        .tuple(
          valid,
          fc.constantFrom(...keys).chain((key) => fc.tuple(fc.constant(key), wrongFor(key))),
        )
        .map(([value, [key, wrong]]) => withType(encode(withProperty(value, key, wrong)))),
      // A required property left out.
      fc.tuple(valid, fc.constantFrom(...keys)).map(([value, key]) => withType(encode(withoutProperty(value, key)))),
      // The whole body of another type.
      wrongValue.map((wrong) => withType(JSON.stringify(wrong) ?? 'null')),
      // Prototype keys and repeated keys, which only the raw text can carry.
      fc
        .tuple(valid, fc.constantFrom('__proto__', 'constructor', 'prototype'), wrongValue)
        .map(([value, key, wrong]) =>
          withType(
            form
              ? `${encodeForm(value)}&${key}[admin]=1`
              : prepend(JSON.stringify(value), key, { admin: true, permissions: ['*'], wrong }),
          ),
        ),
      fc
        .tuple(valid, fc.constantFrom(...keys), wrongValue)
        .map(([value, key, wrong]) =>
          withType(
            form
              ? `${encodeForm(value)}&${percentEncode(key)}=${percentEncode(JSON.stringify(wrong) ?? '')}`
              : prepend(JSON.stringify(value), key, wrong),
          ),
        ),
      // Text that does not parse, or nests too deep.
      fc
        .constantFrom(
          '',
          '{',
          '{"a":1,}',
          "{'a':1}",
          '\uFEFF{}',
          'NaN',
          '{"a":NaN}',
          'a=1&&=&%zz',
          '[]',
          `${'['.repeat(5000)}${']'.repeat(5000)}`,
          `{"a":"${'\\u0000'.repeat(3)}"}`,
          '{"a":"\\ud800"}',
        )
        .map((text) => withType(text)),
      // The body in another encoding than it says.
      valid.map((value) => withType(Buffer.from(encode(value), 'utf16le'))),
    );
  });
}

/** The properties of a body schema and of its variants; one stand-in when it has none. */
function propertiesOf(document: Document, schema: Schema): Record<string, Schema> {
  const node = deref(document, schema);
  const variants = [node, ...(node.oneOf ?? []), ...(node.allOf ?? [])].map((part) => deref(document, part));
  const properties = Object.assign({}, ...variants.map((part) => part.properties ?? {})) as Record<string, Schema>;
  return Object.keys(properties).length > 0 ? properties : { x: {} };
}

function withProperty(value: unknown, key: string, wrong: unknown): unknown {
  return value && typeof value === 'object' && !Array.isArray(value) ? { ...value, [key]: wrong } : { [key]: wrong };
}

function withoutProperty(value: unknown, key: string): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const copy = { ...(value as Record<string, unknown>) };
  delete copy[key];
  return copy;
}

/** `{"key": value, ...}`: a key JSON.stringify would not write (`__proto__`) or one already there (a repeat). */
function prepend(json: string, key: string, value: unknown): string {
  const member = `${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}`;
  if (!json.startsWith('{')) return `{${member}}`;
  return json === '{}' ? `{${member}}` : `{${member},${json.slice(1)}`;
}

function encodeForm(value: unknown): string {
  if (!value || typeof value !== 'object') return percentEncode(JSON.stringify(value) ?? '');
  const pairs: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    const items = Array.isArray(item) ? item : [item];
    for (const one of items)
      pairs.push(`${percentEncode(key)}=${percentEncode(typeof one === 'string' ? one : JSON.stringify(one))}`);
  }
  return pairs.join('&');
}

// ---- Uploads ------------------------------------------------------------------------------------------------------

const FILES: Array<[string, string, Buffer]> = [
  ['photo.png', 'image/png', PNG],
  ['anim.gif', 'image/gif', GIF],
  ['report.pdf', 'application/pdf', PDF],
];

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** A multipart upload, a tus creation, or an IETF draft creation, to one of the file fields' upload routes. */
function uploadContent(op: Operation, mutate: boolean): fc.Arbitrary<Content> {
  const file = fc.constantFrom(...FILES);
  const multipart = fc
    .tuple(file, fc.constantFrom('----fuzzBoundary7MA4YWxkTrZu0gW', 'x'))
    .map(([[name, type, bytes], boundary]) =>
      multipartContent(boundary, [{ field: 'file', filename: name, type, bytes }]),
    );
  const tus = fc.tuple(file, fc.boolean()).map(([[name, type, bytes], withBody]): Content => ({
    headers: [
      ['Tus-Resumable', '1.0.0'],
      ['Upload-Length', String(bytes.length)],
      ['Upload-Metadata', `filename ${b64(name)},filetype ${b64(type)}`],
      ...(withBody ? ([['Content-Type', 'application/offset+octet-stream']] as Array<[string, string]>) : []),
    ],
    body: withBody ? bytes : undefined,
  }));
  const draft = fc.tuple(file, fc.constantFrom('?1', '?0')).map(([[name, , bytes], complete]): Content => ({
    headers: [
      ['Upload-Draft-Interop-Version', '8'],
      ['Upload-Complete', complete],
      ['Content-Disposition', `inline; filename="${name}"`],
      ...(complete === '?0' ? ([['Upload-Length', String(bytes.length)]] as Array<[string, string]>) : []),
    ],
    body: bytes,
  }));
  const valid = fc.oneof(
    { arbitrary: multipart, weight: 4 },
    { arbitrary: tus, weight: 1 },
    { arbitrary: draft, weight: 1 },
  );
  if (!mutate) return valid;
  const boundary = '----fuzzBoundary';
  const part = fc.record({
    field: fc.oneof(fc.constant('file'), fc.constantFrom('files', 'file[]', '__proto__', ''), hostileString),
    filename: fc.oneof(
      fc.constantFrom('photo.png', '', '../../etc/passwd', 'a\u0000b.png', '😀.png', 'x'.repeat(1000)),
      hostileString,
    ),
    type: fc.oneof(
      fc.constantFrom('image/png', 'application/pdf', 'text/html', 'application/x-msdownload', ''),
      hostileHeaderValue,
    ),
    bytes: fc.oneof(
      fc.constantFrom(PNG, GIF, PDF, Buffer.alloc(0), Buffer.from('MZ\x90\x00'), Buffer.from('<svg onload=alert(1)>')),
      fc.uint8Array({ maxLength: 200 }).map(Buffer.from),
    ),
  });
  return fc.oneof(
    // Parts in the wrong number, names, types or contents.
    fc.array(part, { minLength: 0, maxLength: 4 }).map((parts) => multipartContent(boundary, parts)),
    // Broken framing: the declared boundary is not the one used, or the closing one is missing.
    fc
      .tuple(file, fc.constantFrom('other', '', '"quoted"', 'x'.repeat(200)))
      .map(([[name, type, bytes], declared]): Content => {
        const { body } = multipartContent(boundary, [{ field: 'file', filename: name, type, bytes }]);
        return { headers: [['Content-Type', `multipart/form-data; boundary=${declared}`]], body };
      }),
    fc.tuple(file, fc.nat({ max: 200 })).map(([[name, type, bytes], cut]): Content => {
      const { headers, body } = multipartContent(boundary, [{ field: 'file', filename: name, type, bytes }]);
      return { headers, body: body!.subarray(0, Math.max(0, body!.length - cut)) };
    }),
    // Many small text fields next to the file.
    fc.nat({ max: 300 }).map((count) =>
      multipartContent(boundary, [
        ...Array.from({ length: count }, (_, i) => ({
          field: `f${i}`,
          filename: undefined,
          type: undefined,
          bytes: Buffer.from('v'),
        })),
        { field: 'file', filename: 'photo.png', type: 'image/png', bytes: PNG },
      ]),
    ),
    // A resumable creation with hostile protocol headers.
    fc
      .tuple(
        valid,
        fc.array(
          fc.tuple(
            fc.constantFrom(...RESUMABLE_HEADERS, 'Content-Disposition'),
            fc.oneof(hostileHeaderValue, fc.constantFrom('1.0.0', '8', '?1', '0')),
          ),
          { minLength: 1, maxLength: 4 },
        ),
      )
      .map(([content, hostile]): Content => ({
        headers: [...content.headers.filter(([name]) => !hostile.some(([h]) => h === name)), ...hostile],
        body: content.body,
      })),
  );
}

interface Part {
  field: string;
  filename: string | undefined;
  type: string | undefined;
  bytes: Buffer;
}

function multipartContent(boundary: string, parts: Part[]): Content {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const filename = part.filename === undefined ? '' : `; filename="${part.filename.replace(/["\r\n]/g, '_')}"`;
    const type = part.type === undefined ? '' : `\r\nContent-Type: ${part.type.replace(/[\r\n]/g, '')}`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.field.replace(/["\r\n]/g, '_')}"${filename}${type}\r\n\r\n`,
      ),
      part.bytes,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { headers: [['Content-Type', `multipart/form-data; boundary=${boundary}`]], body: Buffer.concat(chunks) };
}

/** HEAD, PATCH, DELETE of a resumable upload: tus or the IETF draft. */
function resumableContent(op: Operation, mutate: boolean): fc.Arbitrary<Content> {
  const patch = op.method === 'PATCH';
  const tus = fc
    .tuple(fc.constantFrom(PNG.subarray(0, 10), PNG, Buffer.alloc(0)), fc.boolean())
    .map(([bytes, checksum]): Content => ({
      headers: [
        ['Tus-Resumable', '1.0.0'],
        ...(patch
          ? ([
              ['Upload-Offset', '0'],
              ['Content-Type', 'application/offset+octet-stream'],
              ...(checksum ? [['Upload-Checksum', `sha1 ${createHash('sha1').update(bytes).digest('base64')}`]] : []),
            ] as Array<[string, string]>)
          : []),
      ],
      body: patch ? bytes : undefined,
    }));
  const draft = fc.constantFrom('?1', '?0').map((complete): Content => ({
    headers: [
      ['Upload-Draft-Interop-Version', '8'],
      ...(patch
        ? ([
            ['Upload-Offset', '0'],
            ['Upload-Complete', complete],
            ['Content-Type', 'application/partial-upload'],
          ] as Array<[string, string]>)
        : []),
    ],
    body: patch ? PNG : undefined,
  }));
  const valid = fc.oneof(tus, draft);
  if (!mutate) return valid;
  const names = [...RESUMABLE_HEADERS, 'Content-Type'];
  return fc
    .tuple(
      valid,
      fc.array(
        fc.tuple(
          fc.constantFrom(...names),
          fc.oneof(
            hostileHeaderValue,
            fc.constantFrom(...RESUMABLE_HEADERS.flatMap((name) => HEADER_VALUES[name] ?? [])),
          ),
          fc.boolean(),
        ),
        { minLength: 1, maxLength: 4 },
      ),
      fc.oneof(fc.constant<Buffer | undefined>(undefined), fc.uint8Array({ maxLength: 300 }).map(Buffer.from)),
    )
    .map(([content, hostile, bytes]) => ({
      // Replaces the protocol's header, or repeats it when `repeat`.
      headers: [
        ...content.headers.filter(([name]) => !hostile.some(([h, , repeat]) => h === name && !repeat)),
        ...hostile.map(([name, value]) => [name, value] as [string, string]),
      ],
      body: bytes ?? content.body,
    }));
}
