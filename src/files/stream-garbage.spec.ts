import { jest } from '@jest/globals';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ByteInspector } from './upload/byte-inspector.js';
import { COLLECT_EVERY_BYTES, StreamGarbage } from './stream-garbage.js';

describe('StreamGarbage', () => {
  it('collects the young generation once per step of streamed bytes, over every stream', () => {
    const collect = jest.fn();
    const garbage = new StreamGarbage(collect, 100);
    for (let i = 0; i < 9; i++) garbage.streamed(10);
    expect(collect).not.toHaveBeenCalled();
    garbage.streamed(10);
    expect(collect).toHaveBeenCalledTimes(1);
    expect(collect).toHaveBeenCalledWith({ type: 'minor' });
    garbage.streamed(250);
    garbage.streamed(99);
    expect(collect).toHaveBeenCalledTimes(2);
    garbage.streamed(1);
    expect(collect).toHaveBeenCalledTimes(3);
  });

  it('does nothing without an exposed collector', () => {
    expect(() => new StreamGarbage(undefined).streamed(COLLECT_EVERY_BYTES * 3)).not.toThrow();
  });

  it('follows a download stream without taking its bytes or its backpressure from the destination', async () => {
    const collect = jest.fn();
    const garbage = new StreamGarbage(collect, 64 * 1024);
    const source = Readable.from(Array.from({ length: 20 }, (_, i) => Buffer.alloc(16 * 1024, i)));
    let emitted = 0;
    let received = 0;
    let mostAhead = 0;
    // A slow destination with a small buffer: the source must wait for it rather than flow at the listener's pace.
    const slow = new Writable({
      highWaterMark: 16 * 1024,
      write(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        setTimeout(done, 1);
      },
    });
    garbage.follow(source);
    source.on('data', (chunk: Buffer) => {
      emitted += chunk.length;
      mostAhead = Math.max(mostAhead, emitted - received);
    });
    await pipeline(source, slow);
    expect(received).toBe(20 * 16 * 1024);
    expect(mostAhead).toBeLessThanOrEqual(3 * 16 * 1024);
    expect(collect).toHaveBeenCalledTimes(5);
  });

  it('leaves a stream alone without an exposed collector', () => {
    const source = Readable.from([Buffer.alloc(10)]);
    new StreamGarbage(undefined).follow(source);
    expect(source.listenerCount('data')).toBe(0);
  });

  it('is fed every byte that passes an upload inspector', async () => {
    const collect = jest.fn();
    const inspector = new ByteInspector({ garbage: new StreamGarbage(collect, 64 * 1024) });
    const chunks = Array.from({ length: 10 }, () => Buffer.alloc(32 * 1024, 7));
    const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
    await pipeline(Readable.from(chunks), inspector, sink);
    expect(inspector.size).toBe(320 * 1024);
    expect(collect).toHaveBeenCalledTimes(5);
  });
});
