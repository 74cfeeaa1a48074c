// Through the package's own `exports`, as an integrator imports it.
import { ApiError, AuthError, createClient, NotConfiguredError, NotFoundError, ServerError } from "rentctl";
import { createSandbox, type Sandbox } from "rentctl/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The library's errors (issue 40, item 2): each carries the request's method and path, the status,
 * the contract operation, and a hint in the library's words (createClient's options), never a
 * CLI command or flag.
 */

let sb: Sandbox;
beforeAll(async () => {
  sb = await createSandbox();
});
afterAll(() => sb.close());

async function failure(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
}

const CLI_WORDS = /rentctl |--[a-z]|RENTCTL_/;

describe("library errors", () => {
  it("404: NotFoundError with method, path, status and operation", async () => {
    const client = createClient({ baseUrl: sb.url, apiKey: sb.apiKey, userId: sb.userId });
    try {
      const e = await failure(client.vehicles.get(99999));
      expect(e).toBeInstanceOf(NotFoundError);
      expect({ method: e.method, path: e.path, status: e.status, operation: e.operation }).toEqual({
        method: "GET",
        path: "/api/v302/vehicles/list/id",
        status: 404,
        operation: "vehicles.get",
      });
      // a hint in the library's words: the listing methods, no CLI command
      expect(e.hint).toMatch(/client\.vehicles\.list\(\)/);
      expect(e.hint).not.toMatch(/rentctl|--/);
    } finally {
      await client.close();
    }
  });

  it("401: AuthError located, its hint names createClient's options, no CLI command or flag", async () => {
    const client = createClient({ baseUrl: sb.url, apiKey: "not-a-key", userId: sb.userId });
    try {
      const e = await failure(client.vehicles.get(1));
      expect(e).toBeInstanceOf(AuthError);
      expect([e.method, e.path, e.status, e.operation]).toEqual([
        "GET",
        "/api/v302/vehicles/list/id",
        401,
        "vehicles.get",
      ]);
      expect(e.hint).toMatch(/createClient/);
      expect(e.hint).not.toMatch(CLI_WORDS);
    } finally {
      await client.close();
    }
  });

  it("500: ServerError located (after the retries of a read)", async () => {
    const client = createClient({ baseUrl: sb.url, apiKey: sb.apiKey, userId: sb.userId, retries: 1 });
    sb.setFaults({ failRate: 1, faultFirst: 1 });
    try {
      const e = await failure(client.extras.get(1));
      expect(e).toBeInstanceOf(ServerError);
      expect([e.method, e.path, e.operation]).toEqual(["GET", "/api/v302/vehicles/extras/list/id", "extras.get"]);
      expect(e.status).toBeGreaterThanOrEqual(500);
    } finally {
      sb.setFaults({});
      await client.close();
    }
  });

  it("no key: NotConfiguredError located, nothing sent, the hint in library terms", async () => {
    const client = createClient({ baseUrl: sb.url, userId: sb.userId });
    try {
      const e = await failure(client.vehicles.get(1));
      expect(e).toBeInstanceOf(NotConfiguredError);
      expect([e.method, e.path, e.operation]).toEqual(["GET", "/api/v302/vehicles/list/id", "vehicles.get"]);
      expect(e.hint).toBe("pass apiKey to createClient");
    } finally {
      await client.close();
    }
  });
});
