// Diagnostics for the HTTP benchmarks, measured rather than guessed: SQL statements sent by every
// pg client of this process (API, projections and webhook worker share it), the CPU time of this
// process and of the PostgreSQL backends serving it (/proc), and the time spent inside chosen
// async methods (event-store calls, the read-your-writes wait). Nothing here changes behaviour.
import { readFileSync } from 'node:fs';
import pg from 'pg';

export interface ProbeSnapshot {
  statements: number;
  /** Statement → [count, ms from send to result]. */
  byStatement: Map<string, [number, number]>;
  nodeCpuMs: number;
  pgCpuMs: number;
  /** Method name → [calls, total ms]. */
  methods: Map<string, [number, number]>;
}

const CLOCK_TICKS_PER_SECOND = 100; // `getconf CLK_TCK` on Linux

function backendCpuMs(pids: Iterable<number>): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      // Fields after the parenthesised command name: utime and stime are the 12th and 13th.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The backend exited (or PostgreSQL is not local): not counted.
    }
  }
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

export interface Probe {
  snapshot(): ProbeSnapshot;
  /** Wraps async methods of an object (an instance, not a prototype) to time them. */
  time(target: object, names: string[], label: string): void;
  uninstall(): void;
}

export function installProbe(): Probe {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  const counts = new Map<string, [number, number]>();
  const pids = new Set<number>();
  const methods = new Map<string, [number, number]>();
  const restores: (() => void)[] = [];
  let statements = 0;
  proto.query = function (this: { processID?: number | null }, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text;
    if (typeof this.processID === 'number') pids.add(this.processID);
    const result = original.apply(this, args);
    if (text !== undefined) {
      statements++;
      const key = text.replace(/\s+/g, ' ').trim().slice(0, 90);
      const entry = counts.get(key) ?? [0, 0];
      entry[0]++;
      counts.set(key, entry);
      if (result && typeof (result as Promise<unknown>).then === 'function') {
        const t0 = performance.now();
        (result as Promise<unknown>).then(
          () => {
            entry[1] += performance.now() - t0;
          },
          () => {
            entry[1] += performance.now() - t0;
          },
        );
      }
    }
    return result;
  };
  return {
    snapshot() {
      const cpu = process.cpuUsage();
      return {
        statements,
        byStatement: new Map([...counts].map(([k, v]) => [k, [...v] as [number, number]])),
        nodeCpuMs: (cpu.user + cpu.system) / 1000,
        pgCpuMs: backendCpuMs(pids),
        methods: new Map([...methods].map(([k, v]) => [k, [...v] as [number, number]])),
      };
    },
    time(target, names, label) {
      const obj = target as Record<string, (...a: unknown[]) => Promise<unknown>>;
      for (const name of names) {
        const fn = obj[name]!;
        const key = `${label}.${name}`;
        obj[name] = async (...a: unknown[]) => {
          const t0 = performance.now();
          try {
            return await fn.apply(target, a);
          } finally {
            const m = methods.get(key) ?? [0, 0];
            m[0]++;
            m[1] += performance.now() - t0;
            methods.set(key, m);
          }
        };
        restores.push(() => {
          obj[name] = fn;
        });
      }
    },
    uninstall() {
      proto.query = original;
      for (const r of restores.reverse()) r();
    },
  };
}

export interface ProbeDelta {
  per: number;
  statements: number;
  nodeCpuMs: number;
  pgCpuMs: number;
  /** Statement, count and ms (send to result) per unit of work. */
  topStatements: [string, number, number][];
  methods: [string, { calls: number; ms: number }][];
}

/** What happened between two snapshots, per unit of work (`per` requests). */
export function delta(a: ProbeSnapshot, b: ProbeSnapshot, per: number): ProbeDelta {
  const top = [...b.byStatement]
    .map(([k, [n, ms]]) => {
      const [n0, ms0] = a.byStatement.get(k) ?? [0, 0];
      return [k, (n - n0) / per, (ms - ms0) / per] as [string, number, number];
    })
    .filter(([, n]) => n > 0)
    .sort((x, y) => y[1] - x[1] || y[2] - x[2]);
  return {
    per,
    statements: (b.statements - a.statements) / per,
    nodeCpuMs: (b.nodeCpuMs - a.nodeCpuMs) / per,
    pgCpuMs: (b.pgCpuMs - a.pgCpuMs) / per,
    topStatements: top,
    methods: [...b.methods]
      .map(([k, [calls, ms]]) => {
        const [c0, ms0] = a.methods.get(k) ?? [0, 0];
        return [k, { calls: (calls - c0) / per, ms: (ms - ms0) / per }] as [string, { calls: number; ms: number }];
      })
      .filter(([, m]) => m.calls > 0),
  };
}

export function describeDelta(d: ProbeDelta, label: string, top = 14): string {
  const lines = [
    `per ${label} (${d.per}): ${d.statements.toFixed(1)} SQL statements, CPU ${d.nodeCpuMs.toFixed(2)} ms Node + ${d.pgCpuMs.toFixed(2)} ms PostgreSQL backends`,
    ...d.methods.map(([k, m]) => `    ${k}: ${m.calls.toFixed(2)} calls, ${m.ms.toFixed(1)} ms inside`),
    ...(top > 0
      ? [
          '    statements (count, ms from send to result, per unit):',
          ...d.topStatements.slice(0, top).map(([sql, n, ms]) => `    ${n.toFixed(2).padStart(7)} ${ms.toFixed(1).padStart(7)} ms  ${sql}`),
        ]
      : []),
  ];
  return lines.join('\n');
}
