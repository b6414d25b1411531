import { execFile } from 'node:child_process';
import { cp, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = process.cwd();
export const packageDir = join(root, 'packages/file-fields');

export interface PackedPackage {
  /** The tarball's path. */
  tarball: string;
  /** The paths it holds, as npm lists them. */
  files: string[];
}

/**
 * `npm pack` of @file-fields/nest (its prepack builds it) from a copy in `work`, outside the repository: the build
 * cannot reach the service's sources, and the package's own dist/ (which the service's processes load) is left alone.
 * The installed packages are beside the copy while it builds, and gone afterwards.
 */
export async function packFileFields(work: string): Promise<PackedPackage> {
  const copy = join(work, 'package');
  for (const name of ['package.json', 'README.md', 'tsconfig.build.json', 'src']) {
    await cp(join(packageDir, name), join(copy, name), { recursive: true });
  }
  const modules = join(work, 'node_modules');
  await symlink(join(root, 'node_modules'), modules);
  try {
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], {
      cwd: copy,
      maxBuffer: 16 * 1024 * 1024,
    });
    const [pack] = JSON.parse(stdout) as Array<{ filename: string; files: { path: string }[] }>;
    return { tarball: join(work, pack.filename), files: pack.files.map((file) => file.path) };
  } finally {
    await rm(modules);
    await rm(copy, { recursive: true, force: true });
  }
}
