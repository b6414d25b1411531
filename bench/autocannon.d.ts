/** The part of autocannon's programmatic API the benchmark uses (the package ships no types). */
declare module 'autocannon' {
  export interface Histogram {
    average: number;
    mean: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p97_5: number;
    p99: number;
  }

  export interface Options {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    /** Seconds. */
    timeout?: number;
    /** Requests sent in turn; `setupRequest` may change each one before it is sent. */
    requests?: Array<{ setupRequest?: <R extends object>(request: R) => R }>;
  }

  export interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    /** Seconds. */
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
  }

  export interface Instance {
    /** Ends the run early; `done` still gets the result. */
    stop(): void;
    /** Every second: the answers (`counter`) and bytes of that second. */
    on(event: 'tick', listener: (tick: { counter: number; bytes: number }) => void): this;
  }

  function autocannon(options: Options, done: (error: Error | null, result: Result) => void): Instance;
  export default autocannon;
}
