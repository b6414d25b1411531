/**
 * Benchmark (not a test): streams a large upload through the built service and downloads it again, then prints the
 * service process's peak resident memory (VmHWM). Usage: npm run bench:memory -- [sizeMiB]
 * Defaults to 1024 MiB. The service starts as `npm start` starts it (logs on, into a temporary file), with local disk
 * storage and SQLite in a temporary directory; traffic stays on 127.0.0.1. `npm run bench` reports the same figure.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killAll } from './support.js';
import { measureServiceUpload } from './upload.js';

const sizeMiB = Number(process.argv[2] ?? 1024);
const logDir = await mkdtemp(join(tmpdir(), 'bench-memory-'));
try {
  const result = await measureServiceUpload(sizeMiB, logDir, true);
  const download = result.download!;
  console.log(
    `file size:              ${sizeMiB} MiB (upload status ${result.status}, stored ${result.storedBytes} bytes)`,
  );
  console.log(`upload:                 ${result.seconds.toFixed(1)} s (${result.mibPerSecond.toFixed(0)} MiB/s)`);
  console.log(
    `download:               ${download.seconds.toFixed(1)} s, ${download.bytes} bytes, checksum ${download.checksumMatches ? 'matches' : 'DIFFERS'}`,
  );
  console.log(`peak RSS after start:   ${result.baselineRssMiB.toFixed(0)} MiB`);
  console.log(`peak RSS after upload:  ${result.peakRssMiB.toFixed(0)} MiB`);
  console.log(`peak RSS after download: ${download.peakRssMiB.toFixed(0)} MiB`);
} finally {
  killAll();
  await rm(logDir, { recursive: true, force: true });
}
