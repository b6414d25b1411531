import { createHash } from 'node:crypto';
import { Readable, Writable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SNIFF_BYTES } from '../../../intake/inspection/byte-inspector.js';
import { AppendMeter } from './append-meter.js';
import { HashCarry } from './hash-carry.js';
import { HeadGate } from './head-gate.js';

/** Runs the chunks through a transform; what came out, and how it ended. */
async function run(transform: Transform, chunks: Buffer[]): Promise<{ out: Buffer; error?: unknown }> {
  const passed: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      passed.push(chunk);
      done();
    },
  });
  const error = await pipeline(Readable.from(chunks), transform, sink).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  return { out: Buffer.concat(passed), error };
}

describe('HeadGate', () => {
  const accept = () => Promise.resolve('application/octet-stream');
  const refuse = () => Promise.reject(new Error('refused'));

  it('holds the first bytes until the type can be sniffed, then lets every byte through in order', async () => {
    const judged: Buffer[] = [];
    const judge = (head: Buffer) => {
      judged.push(head);
      return accept();
    };
    const body = Buffer.alloc(SNIFF_BYTES * 3, 7);
    const gate = new HeadGate(Buffer.alloc(0), judge, () => false);
    const { out, error } = await run(gate, [body.subarray(0, 100), body.subarray(100, 5000), body.subarray(5000)]);
    expect(error).toBeUndefined();
    expect(out.equals(body)).toBe(true);
    expect(judged).toEqual([body.subarray(0, SNIFF_BYTES)]);
    expect(gate.mimeType).toBe('application/octet-stream');
  });

  it('lets no byte of a refused type through', async () => {
    const { out, error } = await run(new HeadGate(Buffer.alloc(0), refuse, () => false), [Buffer.alloc(SNIFF_BYTES)]);
    expect(error).toEqual(new Error('refused'));
    expect(out.length).toBe(0);
  });

  it('passes a short body unjudged unless it is the last, and judges with the bytes stored before', async () => {
    const short = await run(new HeadGate(Buffer.alloc(0), refuse, () => false), [Buffer.from('abc')]);
    expect(short).toEqual({ out: Buffer.from('abc'), error: undefined });
    const judged: Buffer[] = [];
    const gate = new HeadGate(
      Buffer.from('stored '),
      (head) => (judged.push(head), accept()),
      (n) => n === 4,
    );
    expect((await run(gate, [Buffer.from('last')])).out.toString()).toBe('last');
    expect(judged.map(String)).toEqual(['stored last']);
  });
});

describe('AppendMeter', () => {
  it('counts and feeds the hashes, and fails past its limit without passing the chunk that crossed it', async () => {
    const hash = createHash('sha256');
    const meter = new AppendMeter(10, [hash, undefined]);
    const { out, error } = await run(meter, [Buffer.from('12345'), Buffer.from('678'), Buffer.from('9ab')]);
    expect(out.toString()).toBe('12345678');
    expect(meter.count).toBe(8);
    expect(error).toMatchObject({ status: 413, code: 'upload-length-exceeded' });
    expect(hash.digest('hex')).toBe(createHash('sha256').update('12345678').digest('hex'));
  });
});

describe('HashCarry', () => {
  const digest = (text: string) => createHash('sha256').update(text).digest('hex');

  it('continues an upload hashed here in order, and forgets one continued elsewhere', () => {
    const carry = new HashCarry();
    const first = carry.continueAt(1, 0)!.update('abc');
    carry.keep(1, 3, first);
    expect(carry.continueAt(1, 5)).toBeUndefined();
    const second = carry.continueAt(1, 3)!.update('def');
    carry.keep(1, 6, second);
    expect(carry.take(1, 6)).toBe(digest('abcdef'));
    expect(carry.take(1, 6)).toBeUndefined();
  });

  it('keeps its hash intact when a continuation is abandoned (a copy is handed out)', () => {
    const carry = new HashCarry();
    carry.keep(2, 3, carry.continueAt(2, 0)!.update('abc'));
    carry.continueAt(2, 3)!.update('discarded');
    expect(carry.take(2, 3)).toBe(digest('abc'));
    carry.keep(3, 3, undefined);
    expect(carry.continueAt(3, 3)).toBeUndefined();
  });
});
