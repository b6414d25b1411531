import { VariantQueue } from './variant-queue.js';

describe('VariantQueue', () => {
  /** A job that records its start and ends when told. */
  const gate = (started: string[], id: string) => {
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    return {
      work: () => {
        started.push(id);
        return ended;
      },
      end: () => end(),
    };
  };
  const flush = () => new Promise((resolve) => setImmediate(resolve));

  it('runs one job per id, whoever asks, and at most `concurrency` at once', async () => {
    const queue = new VariantQueue({ concurrency: 1, maxJobs: 10, perRequester: 10 });
    const started: string[] = [];
    const a = gate(started, 'a');
    const first = queue.run('a', 'alice', a.work);
    expect(queue.run('a', 'bob', () => Promise.reject(new Error('not run')))).toBe(first);
    void queue.run('b', 'alice', gate(started, 'b').work);
    await flush();
    expect(started).toEqual(['a']);
    a.end();
    await first;
    await flush();
    expect(started).toEqual(['a', 'b']);
  });

  it('bounds what one requester may queue, and the queue as a whole, for jobs nobody waits for', () => {
    const queue = new VariantQueue({ concurrency: 1, maxJobs: 4, perRequester: 2 });
    const idle = () => new Promise<void>(() => undefined);
    expect(queue.run('1', 'mallory', idle, true)).toBeDefined();
    expect(queue.run('2', 'mallory', idle, true)).toBeDefined();
    expect(queue.run('3', 'mallory', idle, true)).toBeUndefined();
    // Someone waiting for the job gets it whatever the shares.
    expect(queue.run('3', 'mallory', idle)).toBeDefined();
    expect(queue.run('4', 'alice', idle, true)).toBeDefined();
    expect(queue.run('5', 'bob', idle, true)).toBeUndefined();
    expect(queue.size).toBe(4);
  });

  it('starts the waiting jobs of each requester in turn, not in the order they came', async () => {
    const queue = new VariantQueue({ concurrency: 1, maxJobs: 100, perRequester: 100 });
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof gate>>();
    const add = (id: string, requester: string) => {
      const job = gate(started, id);
      gates.set(id, job);
      void queue.run(id, requester, job.work, true);
    };
    for (const id of ['m1', 'm2', 'm3', 'm4']) add(id, 'mallory');
    add('a1', 'alice');
    add('b1', 'bob');
    add('a2', 'alice');
    for (let i = 0; i < 7; i++) {
      await flush();
      gates.get(started.at(-1)!)!.end();
    }
    await queue.settled();
    expect(started).toEqual(['m1', 'm2', 'a1', 'b1', 'm3', 'a2', 'm4']);
  });

  it('frees the slot and the share of a job that fails', async () => {
    const queue = new VariantQueue({ concurrency: 1, maxJobs: 10, perRequester: 1 });
    await expect(queue.run('x', 'alice', () => Promise.reject(new Error('broken')), true)).rejects.toThrow('broken');
    await expect(queue.run('y', 'alice', () => Promise.resolve(), true)).resolves.toBeUndefined();
    expect(queue.size).toBe(0);
  });
});
