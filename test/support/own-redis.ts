import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { eventually } from './wait.js';

/** A Redis server of a suite's own on a free port, never the shared one: the suite stops, hangs or kills it. */
export class OwnRedis {
  private process?: ChildProcess;
  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    this.process = spawn('redis-server', args, { stdio: 'ignore' });
    await eventually('the Redis server to answer', () => this.ask((probe) => probe.ping()));
  }

  /** SIGSTOP: a hung server that holds its connections and answers nothing; SIGCONT ends it. */
  signal(signal: 'SIGSTOP' | 'SIGCONT'): void {
    this.process?.kill(signal);
  }

  /** The keys under `prefix`, or undefined while the server does not answer. */
  keys(prefix: string): Promise<string[] | undefined> {
    return this.ask((probe) => probe.keys(`${prefix}:*`));
  }

  /** CLIENT LIST of the server: one line per connection. */
  async clients(): Promise<string> {
    return String(await this.ask((probe) => probe.client('LIST')));
  }

  async stop(): Promise<void> {
    if (!this.process || this.process.exitCode !== null) return;
    const exited = once(this.process, 'exit');
    this.process.kill('SIGCONT');
    this.process.kill('SIGKILL');
    await exited;
  }

  /** One command on a connection of its own; undefined when the server does not answer. */
  private async ask<T>(command: (probe: Redis) => Promise<T>): Promise<T | undefined> {
    const probe = new Redis(this.url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      return await command(probe);
    } catch {
      return undefined;
    } finally {
      probe.disconnect();
    }
  }
}
