import { beforeAll, describe, expect, it } from "vitest";
import { seedTestDataset } from "./seed-fixture";
import { platformOrg, rowCount } from "./support/platform-org";

beforeAll(() => seedTestDataset());

type Result<T> = { result: T };
interface Members {
  members: { uid: string; email: string; roles: string[] | null }[];
  pagination: { page_size: number; next_page_token?: string };
}

describe("organization members", () => {
  it("lists the organization's accounts with their roles, a page at a time", async () => {
    const org = platformOrg("org-members-list", { members: 3 });
    const first = await org.json<Result<Members>>(
      "GET",
      `/v3/accounts/organizations/${org.id}/members?page_size=2`,
    );
    expect(first.body.result.members.map((m) => m.uid)).toEqual(
      org.members.slice(0, 2).map((m) => m.user_id),
    );
    expect(first.body.result.members[0]).toMatchObject({
      email: org.members[0]!.email,
      roles: ["admin", "api_access"],
    });
    const token = first.body.result.pagination.next_page_token;
    expect(token).toBeTruthy();
    const second = await org.json<Result<Members>>(
      "GET",
      `/v3/accounts/organizations/${org.id}/members?page_size=2&page_token=${token}`,
    );
    expect(second.body.result.members.map((m) => m.uid)).toEqual([org.members[2]!.user_id]);
    expect(second.body.result.pagination.next_page_token).toBeUndefined();
  });

  it("changes roles, which the organization's member counts follow, and keeps one admin (409)", async () => {
    const org = platformOrg("org-members-roles");
    const path = (n: number) => `/v3/accounts/organizations/${org.id}/members/${org.members[n - 1]!.user_id}`;
    expect((await org.call("PATCH", path(2), { body: { roles: ["api_access"] } })).status).toBe(204);
    const details = await org.json<
      Result<{ member_counts: { total: number; by_role: Record<string, number> } }>
    >("GET", `/v3/accounts/organizations/${org.id}?include_member_counts=true`);
    expect(details.body.result.member_counts).toEqual({ total: 2, by_role: { admin: 1, api_access: 2 } });
    // The last admin cannot lose the role, nor be removed.
    expect((await org.call("PATCH", path(1), { body: { roles: [] } })).status).toBe(409);
    expect((await org.call("DELETE", path(1))).status).toBe(409);
    // A member who is not an admin changes nothing.
    expect((await org.call("PATCH", path(1), { member: 2, body: { roles: ["admin"] } })).status).toBe(403);
    expect(
      (
        await org.call("POST", `/v3/accounts/organizations/${org.id}/invitations`, {
          member: 2,
          body: { email: "x@y.test" },
        })
      ).status,
    ).toBe(403);
    // Roles outside the SDK's list are refused.
    expect((await org.call("PATCH", path(2), { body: { roles: ["owner"] } })).status).toBe(400);
    expect(
      (
        await org.call("PATCH", `/v3/accounts/organizations/${org.id}/members/nobody`, {
          body: { roles: [] },
        })
      ).status,
    ).toBe(404);
  });

  it("removes a member, whose token then acts for the organization no more", async () => {
    const org = platformOrg("org-members-remove");
    const path = `/v3/accounts/organizations/${org.id}/members/${org.members[1]!.user_id}`;
    expect((await org.call("GET", "/v3/tags", { member: 2 })).status).toBe(200);
    const removed = await org.call("DELETE", path);
    expect(removed.status).toBe(204);
    expect(await removed.text()).toBe("");
    expect((await org.call("GET", "/v3/tags", { member: 2 })).status).toBe(403);
    expect((await org.call("DELETE", path)).status).toBe(404);
    const list = await org.json<Result<Members>>("GET", `/v3/accounts/organizations/${org.id}/members`);
    expect(list.body.result.members.map((m) => m.uid)).toEqual([org.members[0]!.user_id]);
  });

  it("invites an address once: a member's or an invited address again is a 409, a bad one a 422", async () => {
    const org = platformOrg("org-members-invite");
    const path = `/v3/accounts/organizations/${org.id}/invitations`;
    const invited = await org.call("POST", path, { body: { email: "New.Analyst@Example.test" } });
    expect(invited.status).toBe(201);
    expect(await invited.text()).toBe("");
    expect((await org.call("POST", path, { body: { email: "new.analyst@example.test" } })).status).toBe(409);
    expect((await org.call("POST", path, { body: { email: org.members[1]!.email } })).status).toBe(409);
    expect((await org.call("POST", path, { body: { email: "not an address" } })).status).toBe(422);
    expect(await rowCount("v3_invitations", "organization_id = ?", org.id)).toBe(1);
    expect(
      (
        await org.call("POST", `/v3/accounts/organizations/org-someone-else/invitations`, {
          body: { email: "a@b.test" },
        })
      ).status,
    ).toBe(403);
  });

  it("answers the user's own credits and usage: the organization's balance, the member's spending", async () => {
    const org = platformOrg("org-members-credits", { credits: 500 });
    await org.call("POST", "/v3/global/search/query", {
      member: 2,
      body: { query: "host.services.port: 22" },
    });
    const credits = await org.json<Result<{ balance: number }>>("GET", "/v3/accounts/users/credits", {
      member: 1,
    });
    expect(credits.body.result.balance).toBe(499);
    const day = new Date(org.now()).toISOString().slice(0, 10);
    const mine = await org.json<Result<{ total_consumed: number }>>(
      "GET",
      `/v3/accounts/users/credits/usage?start_date=${day}&end_date=${day}`,
      { member: 1 },
    );
    const theirs = await org.json<Result<{ total_consumed: number }>>(
      "GET",
      `/v3/accounts/users/credits/usage?start_date=${day}&end_date=${day}`,
      { member: 2 },
    );
    expect([mine.body.result.total_consumed, theirs.body.result.total_consumed]).toEqual([0, 1]);
    expect((await org.call("GET", "/v3/accounts/users/credits/usage?start_date=2024-01-01")).status).toBe(
      400,
    );
  });
});
