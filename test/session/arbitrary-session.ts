import fc from 'fast-check';
import { type JsonlStyle, prng, SessionBuilder } from './generate-session.js';

/** One step of building a random session tree. */
export type SessionOp =
  | { readonly kind: 'turn'; readonly parallel: boolean; readonly fromFirst: boolean }
  | { readonly kind: 'rewind'; readonly pick: number }
  | { readonly kind: 'compact'; readonly broken: boolean }
  | { readonly kind: 'clear' }
  | {
      readonly kind: 'side';
      readonly which: 'summary' | 'last-prompt' | 'snapshot' | 'queue' | 'unknown';
      readonly leaf: boolean;
    }
  | { readonly kind: 'sidechain' };

/** A random session: how it grows, then how it is damaged and written. */
export interface SessionPlan {
  readonly seed: number;
  readonly ops: readonly SessionOp[];
  readonly shuffle: boolean;
  readonly duplicate: boolean;
  readonly cycle: boolean;
  readonly dangling: boolean;
  /** Cut the file at this fraction of its bytes (a crash mid-append). */
  readonly cut: number | undefined;
  readonly style: JsonlStyle;
}

const opArb: fc.Arbitrary<SessionOp> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('turn' as const),
      parallel: fc.boolean(),
      fromFirst: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('rewind' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('compact' as const), broken: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('side' as const),
      which: fc.constantFrom('summary', 'last-prompt', 'snapshot', 'queue', 'unknown'),
      leaf: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'sidechain' as const }) },
);

/** Random session plans; `damage: false` keeps the file intact (no shuffling, cycles, dangling links or cuts). */
export function sessionPlanArb(options: { readonly damage?: boolean } = {}): fc.Arbitrary<SessionPlan> {
  const damage = options.damage ?? true;
  const flag = damage ? fc.boolean() : fc.constant(false);
  return fc.record({
    seed: fc.nat(),
    ops: fc.array(opArb, { minLength: 0, maxLength: 14 }),
    shuffle: damage ? fc.boolean() : fc.constant(false),
    duplicate: flag,
    cycle: flag,
    dangling: flag,
    cut: damage
      ? fc.option(
          fc.integer({ min: 0, max: 999 }).map((permille) => 0.5 + permille / 2000),
          { nil: undefined },
        )
      : fc.constant(undefined),
    style: fc.record({ spaced: fc.boolean(), shuffleKeys: fc.boolean() }),
  });
}

/** Writes a plan out as the bytes of a session file. */
export function buildSession(plan: SessionPlan): Uint8Array {
  const builder = new SessionBuilder(plan.seed);
  const random = prng(plan.seed ^ 0x5bd1e995);
  let tip: string | null = null;
  const messages = (): string[] =>
    builder.records.flatMap((record) =>
      (record['type'] === 'user' || record['type'] === 'assistant') && typeof record['uuid'] === 'string'
        ? [record['uuid']]
        : [],
    );
  for (const op of plan.ops) {
    switch (op.kind) {
      case 'turn':
        tip = builder.turn(tip, {
          small: true,
          outputScale: 0.02,
          maxRounds: 2,
          parallelShare: op.parallel ? 0.8 : 0,
          continueFromFirst: op.fromFirst,
          interleave: true,
          progress: random() < 0.5,
          noise: true,
        });
        break;
      case 'rewind': {
        const all = messages();
        if (all.length > 0) tip = all[op.pick % all.length] as string;
        break;
      }
      case 'compact':
        if (tip !== null) tip = builder.compaction(op.broken ? builder.uuid() : tip);
        break;
      case 'clear':
        tip = null;
        break;
      case 'side':
        builder.sideRecord(op.which, op.leaf && tip !== null ? tip : undefined);
        break;
      case 'sidechain':
        if (tip !== null) builder.sidechainRecord(tip);
        break;
    }
  }
  damage(builder.records, plan, random);
  const bytes = Buffer.from(builder.jsonl(plan.style), 'utf8');
  return plan.cut === undefined ? bytes : bytes.subarray(0, Math.floor(plan.cut * bytes.length));
}

function damage(records: Record<string, unknown>[], plan: SessionPlan, random: () => number): void {
  const withUuid = () => records.filter((record) => typeof record['uuid'] === 'string');
  const pick = <T>(list: readonly T[]): T | undefined =>
    list.length === 0 ? undefined : list[Math.floor(random() * list.length)];
  if (plan.duplicate) {
    const record = pick(withUuid());
    if (record !== undefined) records.push({ ...record });
  }
  if (plan.cycle) {
    // Parent a record's parent to the record itself: a two-record loop.
    const child = pick(withUuid().filter((record) => typeof record['parentUuid'] === 'string'));
    const parent = records.find((record) => record['uuid'] === child?.['parentUuid']);
    if (child !== undefined && parent !== undefined) parent['parentUuid'] = child['uuid'];
  }
  if (plan.dangling) {
    const record = pick(withUuid().filter((item) => item['parentUuid'] !== null));
    if (record !== undefined) record['parentUuid'] = `dangling-${Math.floor(random() * 1e9)}`;
  }
  if (plan.shuffle) {
    for (let at = records.length - 1; at > 0; at--) {
      const other = Math.floor(random() * (at + 1));
      [records[at], records[other]] = [
        records[other] as Record<string, unknown>,
        records[at] as Record<string, unknown>,
      ];
    }
  }
}
