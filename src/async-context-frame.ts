/**
 * Imported first by main.ts, for its side effect: on Node.js 22, the process replaces itself (same pid, same
 * arguments, same environment) with one started with `--experimental-async-context-frame`.
 *
 * The request context of the logs lives in an AsyncLocalStorage (nestjs-pino). Node.js 22 implements it with
 * async_hooks unless started with that flag, and then a hook runs for every promise the service makes: a third of
 * the CPU of a token request (663 → 448 µs) and a quarter of a product read's (983 → 715 µs), measured by
 * `npm run bench`. Node.js 24 uses context frames by default and refuses the flag, so it cannot be written into the
 * `start` script. Where `process.execve` is missing (Windows, Node.js before 22.15) or fails, the service starts as
 * it is.
 */
const ASYNC_CONTEXT_FRAME_FLAG = '--experimental-async-context-frame';

const nodeOptions = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
const lacksFrames = process.versions.node.startsWith('22.') && !nodeOptions.includes(ASYNC_CONTEXT_FRAME_FLAG);
if (lacksFrames && process.execve && process.platform !== 'win32') {
  const argv = [process.execPath, ASYNC_CONTEXT_FRAME_FLAG, ...process.execArgv, ...process.argv.slice(1)];
  try {
    process.execve(process.execPath, argv);
  } catch {
    // Not replaced (the system refused): this process serves, without context frames.
  }
}
