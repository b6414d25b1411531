import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file runs from dist-test/screenshots/scripts/screenshots/). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

/** Where the PNGs go: docs/images/, or SCREENSHOTS_DIR to look at a run without touching the docs. */
export const OUT_DIR = process.env.SCREENSHOTS_DIR ?? join(ROOT, 'docs', 'images');
