import { awaitFlight } from "../cache/single-flight";
import type { LedgerClient } from "./ledgers";
import type { ChargeAnswer, ChargeRequest } from "./tenant-ledger";

// Group commit for each tenant's charges in this isolate. A charge asked for while a call to the
// tenant's ledger is in flight waits for that call, then goes with every charge that waited, in
// one call; a charge that finds no call in flight goes at once, alone. The object applies a
// batch's charges in order in one turn, so each is answered exactly as if it had come alone, and
// a busy tenant costs its object one call per round trip instead of one per request.
//
// Each call is made by one of the requests it carries, through that request's own stub (workerd
// ties a stub to its request), kept alive until the call ends (`keepAlive`: waitUntil), so the
// requests riding on it are answered even if its own client has gone. When a call ends, every
// charge still waiting is woken and the first to run sends the next batch. Unlike the cache's
// reads (cache/batched-reads.ts), no request is picked ahead of time to send the next batch: a
// read whose sender went away can be made again alone, a charge cannot (it may have been applied),
// so whichever waiting request runs first sends it.

/** The most charges one call carries. */
const MAX_BATCH = 64;

/**
 * How long a waiting charge waits for the call in flight before its request gives up (a 503 to
 * retry, as when the ledger cannot be reached). A call lasts milliseconds; the sender keeps it
 * alive for as long as workerd lets a request's background work run (30 s).
 */
const CALL_WAIT_MS = 30_000;

type Outcome = { readonly answer: ChargeAnswer } | { readonly error: unknown };

interface Waiting {
  readonly request: ChargeRequest;
  /** Set when the call that carried this charge ended. */
  outcome?: Outcome;
}

interface TenantCharges {
  /** The call in flight, settled once its charges' outcomes are set; null when none is. */
  sending: Promise<void> | null;
  readonly waiting: Waiting[];
}

export class ChargeBatches {
  private readonly tenants = new Map<string, TenantCharges>();

  constructor(private readonly callWaitMs = CALL_WAIT_MS) {}

  /** Charges `request` on `tenantId`'s ledger (`ledger()`: this request's stub). */
  async charge(
    tenantId: string,
    ledger: () => LedgerClient,
    request: ChargeRequest,
    keepAlive: (work: Promise<unknown>) => void,
  ): Promise<ChargeAnswer> {
    let charges = this.tenants.get(tenantId);
    if (!charges) {
      charges = { sending: null, waiting: [] };
      this.tenants.set(tenantId, charges);
    }
    const self: Waiting = { request };
    charges.waiting.push(self);
    for (;;) {
      if (self.outcome) {
        if ("answer" in self.outcome) return self.outcome.answer;
        throw self.outcome.error;
      }
      // Not answered and no call in flight: no call carried this charge, so it sends one.
      if (!charges.sending) {
        await this.send(tenantId, charges, self, ledger, keepAlive);
        continue;
      }
      // The sender's promise (not one of this request's own), so workerd resumes this request
      // in its own context when the call ends; with a timer of its own (awaitFlight says why).
      const joined = await awaitFlight(charges.sending, this.callWaitMs);
      if (!joined.ended) {
        // A charge no call carried yet is taken back: its request answers without being charged.
        const at = charges.waiting.indexOf(self);
        if (at >= 0) charges.waiting.splice(at, 1);
        throw new Error("the tenant's ledger call in flight did not end in time");
      }
    }
  }

  /** Sends `self` with the charges waiting behind it, setting the outcome of each. */
  private async send(
    tenantId: string,
    charges: TenantCharges,
    self: Waiting,
    ledger: () => LedgerClient,
    keepAlive: (work: Promise<unknown>) => void,
  ): Promise<void> {
    let ended = () => undefined as void;
    charges.sending = new Promise<void>((resolve) => (ended = resolve));
    keepAlive(charges.sending);
    // `self` is still waiting: nothing carried it yet.
    charges.waiting.splice(charges.waiting.indexOf(self), 1);
    const batch = [self, ...charges.waiting.splice(0, MAX_BATCH - 1)];
    try {
      const answers = await ledger().charge(batch.map((waiting) => waiting.request));
      if (answers.length !== batch.length)
        throw new Error(`the ledger answered ${answers.length} of ${batch.length} charges`);
      batch.forEach((waiting, i) => (waiting.outcome = { answer: answers[i] as ChargeAnswer }));
    } catch (error) {
      for (const waiting of batch) waiting.outcome = { error };
    } finally {
      charges.sending = null;
      if (charges.waiting.length === 0) this.tenants.delete(tenantId);
      ended();
    }
  }
}
