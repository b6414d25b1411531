import { Logger } from '@nestjs/common';

// Quiet logs in tests unless a run asks for them.
process.env.LOG_LEVEL ??= 'silent';

// ...but an unexpected 500 must not vanish with them: the "Unhandled error" the problem details filter logs, with the
// error and its stack, is printed anyway. A test that provokes one on purpose spies on Logger.prototype.error and
// asserts the call instead, so a passing run prints none and a real one stands out.
if (process.env.LOG_LEVEL === 'silent') {
  const logError = Logger.prototype.error;
  Logger.prototype.error = function (this: Logger, message: unknown, ...params: unknown[]): void {
    if (params[0] === 'Unhandled error') console.error('Unhandled error (the logs are silent in tests):', message);
    logError.call(this, message, ...params);
  };
}
