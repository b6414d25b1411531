import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { Request, Response } from 'express';
import type { EntityMetadata } from 'typeorm';
import type { Principal } from '../../auth/principal.js';
import type { Public } from '../../common/testing/fakes.js';
import { FileEventPublisher, type FileEvent } from '../events/file-event-publisher.js';
import type { FileFieldDefinition } from '../fields/file-field.decorator.js';
import type { AttachableEntity, FileFieldRegistry } from '../fields/file-field.registry.js';
import { FileStorage, type ByteRange, type StoredObject } from '../../storage/file-storage.js';
import type { MultipartReceiver, ReceiveOptions } from '../transports/multipart/multipart-receiver.js';
import type { StoredPart } from '../intake/inspection/upload-inspection.js';

/* eslint-disable @typescript-eslint/require-await -- the fakes answer at once, with the real signatures */

/** Keeps bytes in memory, and what was deleted and whether it was closed. */
export class FakeFileStorage extends FileStorage {
  readonly objects = new Map<string, Buffer>();
  readonly deleted: string[] = [];
  closed = false;

  async put(key: string, body: Readable): Promise<void> {
    this.objects.set(key, await buffer(body));
  }
  async get(key: string, range?: ByteRange): Promise<Readable> {
    const bytes = this.objects.get(key);
    if (!bytes) throw Object.assign(new Error(`No object ${key}`), { code: 'ENOENT' });
    return Readable.from([range ? bytes.subarray(range.start, range.end + 1) : bytes]);
  }
  async delete(key: string): Promise<void> {
    this.deleted.push(key);
    this.objects.delete(key);
  }
  async exists(key: string): Promise<boolean> {
    return this.objects.has(key);
  }
  async *list(): AsyncIterable<StoredObject> {
    for (const key of this.objects.keys()) yield { key, modifiedAt: new Date(0) };
  }
  async check(): Promise<void> {}
  override async close(): Promise<void> {
    this.closed = true;
  }
}

/** One part a fake client sends. */
export interface FakePart {
  name: string;
  content: string;
}

/**
 * The multipart boundary of the upload, faked: "receives" the parts it was given by putting them in storage under
 * keys from the options, as the real receiver streams them. `whileReceiving` runs in the middle, where a real upload
 * would give other requests time to change things.
 */
export class FakeMultipartReceiver implements Public<MultipartReceiver> {
  readonly received: ReceiveOptions[] = [];
  whileReceiving?: () => void;
  private parts: FakePart[] = [];

  constructor(private readonly storage: FakeFileStorage) {}

  /** The parts of the next request. */
  sends(...parts: FakePart[]): this {
    this.parts = parts;
    return this;
  }

  async receive(_req: Request, _res: Response, options: ReceiveOptions): Promise<StoredPart[]> {
    this.received.push(options);
    this.whileReceiving?.();
    const stored: StoredPart[] = [];
    for (const part of this.parts.splice(0)) {
      const key = options.newKey();
      const bytes = Buffer.from(part.content);
      await this.storage.put(key, Readable.from([bytes]));
      const checksumSha256 = createHash('sha256').update(bytes).digest('hex');
      stored.push({ key, originalName: part.name, size: bytes.length, checksumSha256, mimeType: 'image/png' });
    }
    return stored;
  }
}

/** Keeps every event published, in order. */
export class FakeFileEventPublisher extends FileEventPublisher {
  readonly published: FileEvent[] = [];

  async publish(_tx: unknown, event: FileEvent): Promise<void> {
    this.published.push(event);
  }
}

/** A registry of entity types given by hand, where the real one reads them from the DataSource's entities. */
export class FakeFileFieldRegistry implements Public<FileFieldRegistry> {
  private readonly byType = new Map<string, AttachableEntity>();

  constructor(types: Record<string, FileFieldDefinition[]>) {
    for (const [type, fields] of Object.entries(types)) {
      // Only the owners repository reads an entity's metadata, and its fake does not.
      const metadata = {} as EntityMetadata;
      const target = class {};
      this.byType.set(type, { type, target, metadata, fields: new Map(fields.map((f) => [f.name, f])) });
    }
  }

  onModuleInit(): void {}
  get(type: string): AttachableEntity | undefined {
    return this.byType.get(type);
  }
  forInstance(): AttachableEntity | undefined {
    return undefined;
  }
  forClass(target: Function): AttachableEntity | undefined {
    return this.all().find((entity) => entity.target === target);
  }
  all(): AttachableEntity[] {
    return [...this.byType.values()];
  }
  get size(): number {
    return this.byType.size;
  }
}

/** The request and response of an upload, as far as the service (not the faked receiver) touches them. */
export function fakeExchange(): { req: Request; res: Response & EventEmitter } {
  const res = new EventEmitter() as Response & EventEmitter;
  return { req: {} as Request, res };
}

export function principal(...scopes: string[]): Principal {
  return { subject: 'user:1', clientId: 'test', scopes };
}
