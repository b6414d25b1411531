import { readdir, readFile, readlink } from 'node:fs/promises';

/**
 * Which of `pids` holds the TCP connection from local port `fromPort` to port `toPort` (Linux: /proc/net/tcp names
 * the socket's inode, a process's fd links name the inodes it holds). Tells which instance is sending a request a
 * receiver holds, when any instance could have claimed it.
 */
export async function connectionOwner(fromPort: number, toPort: number, pids: number[]): Promise<number | undefined> {
  const hex = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');
  const table = (await readFile('/proc/net/tcp', 'utf8')).split('\n').slice(1);
  const line = table
    .map((row) => row.trim().split(/\s+/))
    .find((fields) => fields[1]?.endsWith(`:${hex(fromPort)}`) && fields[2]?.endsWith(`:${hex(toPort)}`));
  if (!line) return undefined;
  const socket = `socket:[${line[9]}]`;
  for (const pid of pids) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
    for (const fd of fds) {
      if ((await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')) === socket) return pid;
    }
  }
  return undefined;
}
