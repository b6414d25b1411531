import { Command, Redis, ReplyError, type RedisOptions } from 'ioredis';

/** How often, while the breaker is open, a PING checks whether Redis answers again. */
const BREAKER_PROBE_MS = 1_000;

/** The message of a command refused by the open breaker. */
const CIRCUIT_OPEN = 'Redis is failing: the command was not sent (circuit breaker open)';

type SendStream = Parameters<Redis['sendCommand']>[1];

/** Whether a command's error says Redis failed (a timeout, no connection) rather than that Redis answered an error. */
function isFailureOfRedis(error: unknown): error is Error {
  return error instanceof Error && !(error instanceof (ReplyError as typeof Error));
}

/**
 * An ioredis client behind a circuit breaker. A hung server (stopped, overloaded) keeps the connection open and
 * answers nothing: each command would wait for its timeout. So the first command that fails (a timeout, or no
 * connection) opens the breaker: every command then fails at once, without being sent, for its caller to fall back
 * on local state; a PING every BREAKER_PROBE_MS, sent past the breaker, closes it when Redis answers again (as does
 * a new connection, once ready).
 * Errors Redis answers with (ReplyError) are not failures of Redis.
 */
export class GuardedRedis extends Redis {
  private open = false;
  /** Whether the opening was told: only for a connected server that does not answer (a lost one is told already). */
  private told = false;
  private probe?: NodeJS.Timeout;
  private probing = false;

  constructor(
    url: string,
    options: RedisOptions,
    private readonly events: { opened(error: Error): void; closed(): void },
  ) {
    super(url, options);
    // A connection (re)established has had its ready check answered: Redis answers again.
    this.on('ready', () => this.close());
  }

  override sendCommand(command: Command, stream?: SendStream): unknown {
    // A PUBLISH is sent anyway: no request waits for it, and it may still reach the other instances. The breaker
    // guards a ready connection only: one being (re)established sends its ready check through here, which must pass
    // (refused, the connection would never become ready again), and without the offline queue ioredis refuses other
    // commands itself until it is ready.
    if (this.open && this.status === 'ready' && command.name !== 'publish') {
      command.reject(new Error(CIRCUIT_OPEN));
      return command.promise;
    }
    const sent = super.sendCommand(command, stream);
    command.promise.catch((error: unknown) => {
      if (isFailureOfRedis(error)) this.trip(error);
    });
    return sent;
  }

  override disconnect(reconnect = false): void {
    this.stopProbing();
    super.disconnect(reconnect);
  }

  private trip(error: Error): void {
    if (this.open || this.status === 'end') return;
    this.open = true;
    this.told = this.status === 'ready';
    if (this.told) this.events.opened(error);
    this.probe = setInterval(() => void this.tryClosing(), BREAKER_PROBE_MS);
    this.probe.unref();
  }

  private async tryClosing(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    const ping = new Command('ping', []);
    try {
      super.sendCommand(ping);
      await ping.promise;
      this.close();
    } catch {
      // Still failing: the next probe tries again.
    } finally {
      this.probing = false;
    }
  }

  private close(): void {
    if (!this.open) return;
    this.open = false;
    this.stopProbing();
    if (this.told) this.events.closed();
  }

  private stopProbing(): void {
    clearInterval(this.probe);
    this.probe = undefined;
  }
}
