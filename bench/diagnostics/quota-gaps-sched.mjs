// Who held the Pi core's quota during each long gap of the event loop. Runs a command (the Pi-core
// bench) with the kernel's scheduler tracing on the pinned CPU (tracefs `sched_switch`, CLOCK_MONOTONIC
// as timer-gaps.mjs stamps its gaps), notes the gateway's threads and their nice values each second,
// and then lists, for the longest gaps timer-gaps.mjs logged, the CPU time each thread got inside the
// gap and the time nobody of the process ran ("throttled": the quota was spent or overdrawn).
// Needs root (tracefs). What it showed is in docs/performance.md, "Who holds the quota in a gap".
//
//   node bench/diagnostics/quota-gaps-sched.mjs [--cpu 0] [--gaps 12] [--out dir] -- \
//     env BENCH_ONLY=load BENCH_QUOTA_ONLY=1 \
//     BENCH_NODE_FLAGS="--import ./bench/diagnostics/timer-gaps.mjs" TIMER_GAPS_MS=100 npx tsx bench/pi-core.bench.ts
//
// `--report <dir>` reads an earlier run's files again. `--stacks` also records the kernel stack of every
// switch into uninterruptible sleep (D) on that CPU: what a thread waited for inside a system call.
// `--syscalls` also records the gateway's system calls on that CPU and lists, for each gap, those in
// which a thread ran 1 ms or more: a thread inside one runs on while its group is throttled.
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

const TRACING = '/sys/kernel/tracing';
const GATEWAY_ENTRY = 'dist/server/main.js';

function parseArgs(argv) {
  const options = { cpu: 0, gaps: 12, out: '/tmp/quota-gaps-sched', report: null, stacks: false, syscalls: false, command: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      options.command = argv.slice(i + 1);
      break;
    }
    if (arg === '--cpu') options.cpu = Number(argv[++i]);
    else if (arg === '--gaps') options.gaps = Number(argv[++i]);
    else if (arg === '--out') options.out = argv[++i];
    else if (arg === '--report') options.report = argv[++i];
    else if (arg === '--stacks') options.stacks = true;
    else if (arg === '--syscalls') options.syscalls = true;
    else throw new Error(`unknown argument ${arg}`);
  }
  return options;
}

const write = (file, text) => writeFileSync(join(TRACING, file), `${text}\n`);

function startTracing(cpu, stacks, syscalls) {
  if (!existsSync(join(TRACING, 'trace'))) execFileSync('mount', ['-t', 'tracefs', 'nodev', TRACING]);
  write('tracing_on', '0');
  write('trace', '');
  write('trace_clock', 'mono');
  write(`per_cpu/cpu${cpu}/buffer_size_kb`, '400000');
  write('events/enable', '0');
  write('events/sched/sched_switch/enable', '1');
  // The kernel stack of each switch into uninterruptible sleep (D): what a thread waited for in the kernel.
  if (stacks) write('events/sched/sched_switch/trigger', 'stacktrace if prev_state == 2');
  if (syscalls) {
    for (const event of ['sys_enter', 'sys_exit']) {
      write(`events/raw_syscalls/${event}/filter`, 'comm == "node"');
      write(`events/raw_syscalls/${event}/enable`, '1');
    }
  }
  write('tracing_on', '1');
}

function stopTracing(cpu, out) {
  write('tracing_on', '0');
  writeFileSync(join(out, 'sched.trace'), readFileSync(join(TRACING, `per_cpu/cpu${cpu}/trace`)));
  write('events/enable', '0');
  write('events/sched/sched_switch/trigger', '!stacktrace');
  for (const event of ['sys_enter', 'sys_exit']) write(`events/raw_syscalls/${event}/filter`, '0');
  write('trace', '');
  write(`per_cpu/cpu${cpu}/buffer_size_kb`, '1408'); // the kernel's default, memory given back
}

/** Every thread of every gateway process now: `pid tid nice`, one line each. */
function gatewayThreads() {
  const lines = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes(GATEWAY_ENTRY)) continue;
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'latin1');
        const nice = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16];
        lines.push(`${pid} ${tid} ${nice}`);
      }
    } catch {
      // the process or thread ended meanwhile
    }
  }
  return lines;
}

async function record(options) {
  mkdirSync(options.out, { recursive: true });
  const gapsLog = join(options.out, 'timer-gaps.log');
  writeFileSync(gapsLog, '');
  writeFileSync(join(options.out, 'threads.log'), '');
  startTracing(options.cpu, options.stacks, options.syscalls);
  // The command keeps every CPU (the bench moves its own clients off the gateway's); this process,
  // which reads /proc every second, leaves the traced CPU to the gateway.
  const allCpus = `0-${availableParallelism() - 1}`;
  const child = spawn('taskset', ['-c', allCpus, ...options.command], {
    stdio: 'inherit',
    env: { ...process.env, TIMER_GAPS_OUT: gapsLog },
  });
  const others = Array.from({ length: availableParallelism() }, (_, cpu) => cpu).filter((cpu) => cpu !== options.cpu);
  if (others.length > 0) execFileSync('taskset', ['-a', '-p', '-c', others.join(','), String(process.pid)], { stdio: 'ignore' });
  // Ctrl-C reaches the command too (one process group): wait for it to end, then stop tracing.
  process.on('SIGINT', () => undefined);
  const poll = setInterval(() => appendFileSync(join(options.out, 'threads.log'), gatewayThreads().map((line) => `${line}\n`).join('')), 1000);
  const code = await new Promise((resolve) => child.once('exit', (exitCode) => resolve(exitCode ?? 1)));
  clearInterval(poll);
  stopTracing(options.cpu, options.out);
  return code;
}

/** Role of each thread seen: the main thread, a background worker (nice 19), or another thread (V8's, libuv's). */
function threadRoles(out) {
  const roles = new Map();
  for (const line of readFileSync(join(out, 'threads.log'), 'utf8').split('\n')) {
    const [pid, tid, nice] = line.split(' ').map(Number);
    if (!tid) continue;
    roles.set(tid, pid === tid ? 'main' : nice > 0 ? `worker ${tid} (nice ${nice})` : `thread ${tid}`);
  }
  return roles;
}

/** Who was on the CPU from each sched_switch to the next: [{ startS, endS, tid }]. */
function cpuStretches(out) {
  const pattern = /\s(\d+\.\d+): sched_switch: .*?prev_pid=(\d+) .*==> next_comm=.*? next_pid=(\d+)/;
  const stretches = [];
  let previous = null;
  for (const line of readFileSync(join(out, 'sched.trace'), 'utf8').split('\n')) {
    const match = pattern.exec(line);
    if (!match) continue;
    const atS = Number(match[1]);
    if (previous) stretches.push({ startS: previous.atS, endS: atS, tid: previous.next });
    previous = { atS, next: Number(match[3]) };
  }
  return stretches;
}

/** x86-64 numbers of the system calls a gateway thread makes most; others are shown by number. */
const SYSCALL_NAMES = new Map([
  [0, 'read'], [1, 'write'], [3, 'close'], [5, 'fstat'], [7, 'poll'], [8, 'lseek'], [9, 'mmap'], [10, 'mprotect'],
  [11, 'munmap'], [12, 'brk'], [17, 'pread64'], [18, 'pwrite64'], [20, 'writev'], [24, 'sched_yield'], [28, 'madvise'],
  [35, 'nanosleep'], [39, 'getpid'], [44, 'sendto'], [45, 'recvfrom'], [72, 'fcntl'], [74, 'fsync'], [75, 'fdatasync'],
  [76, 'truncate'], [77, 'ftruncate'], [82, 'rename'], [87, 'unlink'], [89, 'readlink'], [140, 'getpriority'],
  [141, 'setpriority'], [202, 'futex'], [228, 'clock_gettime'], [230, 'clock_nanosleep'], [232, 'epoll_wait'],
  [233, 'epoll_ctl'], [257, 'openat'], [262, 'newfstatat'], [281, 'epoll_pwait'], [291, 'epoll_create1'],
  [293, 'pipe2'], [318, 'getrandom'], [332, 'statx'], [435, 'clone3'],
]);

/** The gateway threads' system calls of 1 ms or more: [{ startS, endS, tid, name }]. */
function longSyscalls(out) {
  const pattern = /-(\d+)\s+\[\d+\].*?\s(\d+\.\d+): sys_(enter|exit): NR (\d+)/;
  const open = new Map();
  const calls = [];
  for (const line of readFileSync(join(out, 'sched.trace'), 'utf8').split('\n')) {
    const match = pattern.exec(line);
    if (!match) continue;
    const [, tid, atS, kind, nr] = match;
    if (kind === 'enter') {
      open.set(tid, { startS: Number(atS), nr: Number(nr) });
      continue;
    }
    const call = open.get(tid);
    open.delete(tid);
    if (!call || Number(atS) - call.startS < 0.001) continue;
    calls.push({ startS: call.startS, endS: Number(atS), tid: Number(tid), name: SYSCALL_NAMES.get(call.nr) ?? `syscall ${call.nr}` });
  }
  return calls;
}

function report(out, gapCount) {
  const roles = threadRoles(out);
  const stretches = cpuStretches(out);
  const gaps = readFileSync(join(out, 'timer-gaps.log'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [startUs, endUs, ms, , atMs] = line.split(' ');
      return { startS: Number(startUs) / 1e6, endS: Number(endUs) / 1e6, ms: Number(ms), atMs: Number(atMs) };
    })
    .sort((a, b) => b.ms - a.ms)
    .slice(0, gapCount);
  const syscalls = readFileSync(join(out, 'sched.trace'), 'utf8').includes('sys_enter:') ? longSyscalls(out) : null;
  const longestRun = new Map();
  for (const { startS, endS, tid } of stretches) {
    const role = roles.get(tid);
    if (role) longestRun.set(role, Math.max(longestRun.get(role) ?? 0, (endS - startS) * 1000));
  }
  for (const gap of gaps) {
    const used = new Map();
    let first = stretches.findIndex((s) => s.endS > gap.startS);
    for (let i = Math.max(0, first); i >= 0 && i < stretches.length && stretches[i].startS < gap.endS; i++) {
      const { startS, endS, tid } = stretches[i];
      const ms = (Math.min(endS, gap.endS) - Math.max(startS, gap.startS)) * 1000;
      const who = roles.get(tid) ?? (tid === 0 ? 'throttled (CPU idle)' : 'other processes');
      used.set(who, (used.get(who) ?? 0) + ms);
    }
    const parts = [...used].sort((a, b) => b[1] - a[1]).map(([who, ms]) => `${who} ${ms.toFixed(1)}`);
    console.log(`gap ${gap.ms} ms at ${gap.atMs} ms of the gateway: ${parts.join(', ')}`);
    for (const call of syscalls?.filter((c) => c.endS > gap.startS && c.startS < gap.endS) ?? []) {
      const who = roles.get(call.tid) ?? `thread ${call.tid}`;
      const onCpuMs = stretches
        .filter((s) => s.tid === call.tid && s.endS > call.startS && s.startS < call.endS)
        .reduce((sum, s) => sum + (Math.min(s.endS, call.endS) - Math.max(s.startS, call.startS)) * 1000, 0);
      // A call that waited (futex, epoll, a disk) is not what held the quota: only those that ran.
      if (onCpuMs >= 1) console.log(`    ${who}: ${call.name} ${((call.endS - call.startS) * 1000).toFixed(1)} ms, ${onCpuMs.toFixed(1)} ms of it on the CPU`);
    }
  }
  console.log('\nlongest single stretch on the CPU, by thread (a stretch past the quota is paid back by the whole process):');
  for (const [role, ms] of [...longestRun].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${role}: ${ms.toFixed(1)} ms`);
}

const options = parseArgs(process.argv.slice(2));
if (options.report) {
  report(options.report, options.gaps);
} else {
  if (options.command.length === 0) throw new Error('give the command to trace after --');
  const code = await record(options);
  report(options.out, options.gaps);
  process.exitCode = code;
}
