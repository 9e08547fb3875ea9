// Personal keys of a user: create (secret shown once), list and revoke.

import { generateKeyMaterial } from "../auth/personal-keys.ts";
import { AppError } from "../errors/app-error.ts";
import type { Db } from "../store/prisma.ts";

export type KeyEvent = { kind: "CREATED" | "REVOKED"; userId: number; keyId: string };

export type PersonalKeyService = ReturnType<typeof createPersonalKeyService>;

export function createPersonalKeyService(deps: { db: Db; onChange?: (event: KeyEvent) => void }) {
  const { db } = deps;

  async function create(userId: number, name = "") {
    if (name.length > 200) throw new AppError("INVALID_INPUT", "key name must be at most 200 characters", { details: { field: "name" } });
    const material = generateKeyMaterial();
    const key = await db.personalKey.create({ data: { id: material.id, userId, name, secretHash: material.secretHash } });
    deps.onChange?.({ kind: "CREATED", userId, keyId: key.id });
    return { key, secret: material.secret, credential: `${key.id}:${material.secret}` };
  }

  function list(userId: number) {
    return db.personalKey.findMany({ where: { userId }, orderBy: { createdAt: "asc" } });
  }

  /** Revokes a key; `ownerId` limits it to that user's keys (admins pass undefined). */
  async function revoke(keyId: string, ownerId: number | undefined) {
    const key = await db.personalKey.findUnique({ where: { id: keyId } });
    if (!key || (ownerId !== undefined && key.userId !== ownerId)) throw new AppError("NOT_FOUND", `no personal key with id ${keyId}`);
    if (key.revokedAt) return key;
    const revoked = await db.personalKey.update({ where: { id: keyId }, data: { revokedAt: new Date() } });
    deps.onChange?.({ kind: "REVOKED", userId: key.userId, keyId });
    return revoked;
  }

  function touch(keyId: string): Promise<unknown> {
    return db.personalKey.update({ where: { id: keyId }, data: { lastUsedAt: new Date() } }).catch(() => undefined);
  }

  return { create, list, revoke, touch };
}
