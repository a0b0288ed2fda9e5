/**
 * What the node's status says about the machine, read as kubelet's cadvisor and nodestatus setters
 * read it: cores from /proc/cpuinfo (os.cpus when it cannot be read), MemTotal from /proc/meminfo,
 * the root directory's filesystem (statfs) for ephemeral-storage, machine-id, product_uuid and
 * boot_id, the kernel release and /etc/os-release's PRETTY_NAME, and the node's addresses.
 */
import { readFile, statfs } from 'node:fs/promises';
import os from 'node:os';

/** The machine's facts (read once at start, the filesystem again at each status update). */
export interface MachineInfo {
  readonly cores: number;
  readonly memoryBytes: number;
  readonly machineID: string;
  readonly systemUUID: string;
  readonly bootID: string;
  readonly kernelVersion: string;
  readonly osImage: string;
  readonly operatingSystem: string;
  readonly architecture: string;
}

/** A filesystem's size as statfs reports it. */
export interface FsInfo {
  readonly capacityBytes: number;
  readonly availableBytes: number;
  readonly usedBytes: number;
  readonly inodes: number;
  readonly inodesFree: number;
  readonly inodesUsed: number;
}

async function readTrimmed(path: string): Promise<string> {
  return (await readFile(path, 'utf8').catch(() => '')).trim();
}

/** Go's GOARCH name of process.arch (amd64, arm64, ...), as kubernetes.io/arch carries it. */
export function goArch(arch: string = process.arch): string {
  return ({ x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm', ppc64: 'ppc64le', s390x: 's390x' } as Record<string, string>)[arch] ?? arch;
}

/** Logical CPUs: "processor" entries of /proc/cpuinfo, else os.cpus(). */
export async function cpuCores(): Promise<number> {
  const text = await readTrimmed('/proc/cpuinfo');
  const n = text.split('\n').filter((l) => /^processor\s*:/.test(l)).length;
  return n > 0 ? n : Math.max(1, os.cpus().length);
}

/** A field of /proc/meminfo in bytes (its values are in kB). */
export async function meminfoBytes(field: string): Promise<number | undefined> {
  const text = await readTrimmed('/proc/meminfo');
  const m = new RegExp(`^${field}:\\s+(\\d+)\\s*kB`, 'm').exec(text);
  return m ? Number(m[1]) * 1024 : undefined;
}

/** PRETTY_NAME of /etc/os-release ("Debian GNU/Linux 12 (bookworm)"), kubelet's osImage. */
export async function osImage(): Promise<string> {
  const text = await readTrimmed('/etc/os-release');
  const m = /^PRETTY_NAME=(.*)$/m.exec(text);
  if (!m) return 'Linux';
  return (m[1] ?? '').replace(/^["']|["']$/g, '');
}

/** Reads the machine's facts. */
export async function readMachineInfo(): Promise<MachineInfo> {
  const [cores, memTotal, machineID, systemUUID, bootID, image] = await Promise.all([
    cpuCores(),
    meminfoBytes('MemTotal'),
    readTrimmed('/etc/machine-id'),
    readTrimmed('/sys/class/dmi/id/product_uuid'),
    readTrimmed('/proc/sys/kernel/random/boot_id'),
    osImage(),
  ]);
  return {
    cores,
    memoryBytes: memTotal ?? os.totalmem(),
    machineID,
    systemUUID,
    bootID,
    kernelVersion: os.release(),
    osImage: image,
    operatingSystem: process.platform === 'win32' ? 'windows' : process.platform,
    architecture: goArch(),
  };
}

/** statfs of path: capacity, available (to unprivileged users, as kubelet reports), used and inodes. */
export async function filesystemInfo(path: string): Promise<FsInfo> {
  const s = await statfs(path);
  const capacityBytes = s.blocks * s.bsize;
  const availableBytes = s.bavail * s.bsize;
  return {
    capacityBytes,
    availableBytes,
    usedBytes: (s.blocks - s.bfree) * s.bsize,
    inodes: s.files,
    inodesFree: s.ffree,
    inodesUsed: s.files - s.ffree,
  };
}

/**
 * The node's InternalIP: --node-ip when given, else the first non-loopback IPv4 (then IPv6) address
 * of the host's interfaces, else 127.0.0.1.
 */
export function internalIPs(nodeIPs: readonly string[]): string[] {
  if (nodeIPs.length > 0) return [...nodeIPs];
  const all = Object.values(os.networkInterfaces()).flatMap((list) => list ?? []);
  const v4 = all.find((a) => a.family === 'IPv4' && !a.internal);
  const v6 = all.find((a) => a.family === 'IPv6' && !a.internal && !a.address.startsWith('fe80'));
  const first = v4 ?? v6;
  return [first?.address ?? '127.0.0.1'];
}
