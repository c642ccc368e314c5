/** The shape of bench/results.json as the docs' tables read it (bench/lib/report.ts writes it). */

export interface Timing {
  load: number;
  first: number;
  init: number;
  cpu: number;
  bytes?: number;
}
export interface Cold {
  fn: Timing;
  floor: Timing;
  ratio: number;
  spread: number[];
  precision: number;
  cpuRatio: number;
  cpuSpread: number[];
}
export interface Paired {
  ratio: number;
  spread: number[];
  precision: number;
  pairs: number;
}
export interface Percentiles {
  p50: number;
  p99: number;
}
export interface Phase {
  events: number;
  eventsPerSecond: number;
  latencyMs?: Percentiles;
  sqs: { callsPerEvent: number };
  transactionsPerEvent?: number;
}
/** The same pairs in this process's CPU time (bench/lib/wire.ts). */
export interface CpuOverhead {
  handlerP50: number;
  floorP50: number;
  overheadP50: number | null;
  ratio: Paired;
  floorError: string | null;
}
/** A warm side against its floor: overhead null and floorError set when the floor was not below it. */
export interface WarmSide {
  p50: number;
  floorP50: number;
  overheadP50: number | null;
  ratio?: Paired;
  floorError?: string | null;
  cpu?: CpuOverhead;
}
export interface PeerRoute {
  label: string;
  ours: WarmSide;
  peer: WarmSide;
  warm: Paired;
  overheadRatio: number | null;
  cpuOverheadRatio?: number | null;
  cold: { fn: Timing; floor: Timing; ratio: Paired; cpuRatio: Paired };
}

export interface BenchResults {
  date: string;
  node: string;
  cpus: number;
  runtimeSeconds?: number;
  loadAverage: { start: number; end: number };
  budgets: Record<'bundle' | 'coldApi' | 'coldOther' | 'writeUnits' | 'deliveryShare', number> & {
    /** Queue workers' cold init budget; files written before it was stated hold coldOther for them. */
    coldWorker?: number;
  };
  bundles: { name: string; kind: string; bytes: number; floorBytes: number; ratio: number | null }[];
  cold: Record<string, Cold>;
  coldLevers?: Record<string, Timing>;
  routes: {
    label: string;
    status: number;
    calls: string[];
    capacity: { read: number; write: number };
    writeFloor: number;
    writeFloorRatio: number | null;
    handler: Percentiles;
    floor: Percentiles;
    ratioP50: number;
    ratio: Paired;
    overheadP50?: number | null;
    floorError?: string | null;
    cpu?: CpuOverhead;
    costPerMillion: number;
  }[];
  authorizer?: {
    calls: string[];
    capacity: { read: number; write: number };
    handler: Percentiles;
    floor: Percentiles;
    ratio?: Paired;
    overheadP50?: number | null;
    floorError?: string | null;
    cpu?: CpuOverhead;
  };
  delivery: {
    live?: Phase;
    backlog?: Phase;
    ceiling?: {
      transactionsPerSecond: number;
      before: number;
      after: number;
      liveShare: number;
      backlogShare: number;
    };
  };
  lists?: { rows: { list: string; history: number; readUnits: number; roundTrips: number; items: number }[] };
  peer?: { bytes: Record<'ours' | 'peer' | 'oursFloor' | 'peerFloor', number>; routes: PeerRoute[] };
  webhooks?: {
    fanOut: { changes: number; endpoints: number; messagesPerSecond: number; writeUnitsPerMessage: number };
    latency: { changes: number; intervalMs: number; changeToReceiverMs: Percentiles };
    fairness: {
      changesPerTenant: number;
      aloneMs: Percentiles;
      besideHealthyMs: Percentiles;
      besideMs: Percentiles;
      ratio: Percentiles;
      controlRatio: Percentiles;
      budget: number;
    };
  };
  measuredAt?: Record<string, { at: string; loadAverage: { start: number; end: number } }>;
}

/** The goals of the peer comparison (bench/lib/peer-report.ts) and the lists' budget (bench/lib/lists.ts). */
export interface Goals {
  peerCold: number;
  peerOverhead: number;
  lists: number;
}
