import type { ChargeAnswer, ChargeRequest } from "../../src/ledger/tenant-ledger";

/** One charge on a tenant's ledger, as a batch of one (the ledger takes its charges in batches). */
export async function chargeOne(
  ledger: { charge(requests: ChargeRequest[]): Promise<ChargeAnswer[]> },
  request: ChargeRequest,
): Promise<ChargeAnswer> {
  const [answer] = await ledger.charge([request]);
  if (!answer) throw new Error("the ledger answered no charge");
  return answer;
}
