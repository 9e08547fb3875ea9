// Many calls on one credential arriving together when its cached state has expired share one database read, and a
// change forgotten while a read is under way is not hidden by that read (src/auth/authenticator.ts).
import { describe, expect, it } from "vitest";
import { createAuthenticator } from "../../src/auth/authenticator.ts";
import { hashKeySecret } from "../../src/auth/personal-keys.ts";

type KeyRow = { id: string; userId: number; secretHash: string; revokedAt: Date | null };

/** A database with one user and one key whose reads wait until released, counting them. */
function fakeDb() {
  const reads = { user: 0, key: 0 };
  let release: () => void = () => {};
  let gate = Promise.resolve();
  const key: KeyRow = { id: "k1", userId: 1, secretHash: hashKeySecret("s3cret"), revokedAt: null };
  const user = { id: 1, username: "ann", isAdmin: false, isActive: true, assistantEnabled: true, tokensValidAfter: new Date(0) };
  const db = {
    user: {
      findUnique: async () => {
        reads.user += 1;
        const row = { ...user };
        await gate;
        return row;
      },
    },
    personalKey: {
      findUnique: async () => {
        reads.key += 1;
        const row = { ...key }; // what the database held when the read began
        await gate;
        return row;
      },
    },
  };
  return {
    db,
    reads,
    key,
    hold() {
      gate = new Promise((resolve) => {
        release = resolve;
      });
    },
    release: () => release(),
  };
}

function authenticatorOn(world: ReturnType<typeof fakeDb>) {
  return createAuthenticator({
    db: world.db as never,
    tokens: {} as never,
    cacheSeconds: 60,
    browserSessions: {} as never,
  });
}

describe("authenticator reads", () => {
  it("shares one key read and one user read among calls arriving together", async () => {
    const world = fakeDb();
    const auth = authenticatorOn(world);
    world.hold();
    const pending = Array.from({ length: 20 }, () => auth.authenticate("Bearer k1:s3cret"));
    world.release();
    const viewers = await Promise.all(pending);
    expect(viewers.every((v) => v?.userId === 1 && v.keyId === "k1")).toBe(true);
    expect(world.reads).toEqual({ key: 1, user: 1 });
    // cached afterwards
    await auth.authenticate("Bearer k1:s3cret");
    expect(world.reads).toEqual({ key: 1, user: 1 });
  });

  it("reads again after forget(), even when the forgotten read was still under way", async () => {
    const world = fakeDb();
    const auth = authenticatorOn(world);
    world.hold();
    const before = auth.authenticate("Bearer k1:s3cret");
    // the key is revoked while the first read is under way; that read saw it unrevoked
    auth.forget({ keyId: "k1" });
    world.key.revokedAt = new Date();
    world.release();
    await expect(before).resolves.toMatchObject({ keyId: "k1" });
    await expect(auth.authenticate("Bearer k1:s3cret")).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    expect(world.reads.key).toBe(2);
  });
});
