import { Global, Injectable, Module } from '@nestjs/common';

/** The time, behind an injectable so expiry and retry logic can be tested without sleeping. */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }

  /** Milliseconds since the epoch. */
  nowMs(): number {
    return this.now().getTime();
  }
}

/** Provides the {@link Clock} everywhere; tests override it with `overrideProvider(Clock)` or by replacing `now`. */
@Global()
@Module({ providers: [Clock], exports: [Clock] })
export class ClockModule {}
