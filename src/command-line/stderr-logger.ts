import { ConsoleLogger, type LogLevel } from '@nestjs/common';

/** The command lines' logger: warnings and errors, on stderr, so that stdout holds nothing but the command's answer. */
export class StderrLogger extends ConsoleLogger {
  constructor() {
    super({ logLevels: ['error', 'warn'] });
  }

  protected override printMessages(
    messages: unknown[],
    context?: string,
    logLevel?: LogLevel,
    _stream?: 'stdout' | 'stderr',
    errorStack?: unknown,
    params?: Record<string, unknown>,
  ): void {
    super.printMessages(messages, context, logLevel, 'stderr', errorStack, params);
  }
}
