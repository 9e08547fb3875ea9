// Account administration: create, list, update and delete users, with organizations by slug.

import { hashPassword, passwordProblem } from "../auth/passwords.ts";
import { AppError } from "../errors/app-error.ts";
import type { Db } from "../store/prisma.ts";
import { ensureMembership } from "./organizations.ts";

export type CreateUserInput = {
  username: string;
  password?: string | undefined;
  email?: string | undefined;
  name?: string | undefined;
  isAdmin?: boolean | undefined;
  org?: string | undefined;
};

export type UpdateUserInput = {
  email?: string | undefined;
  name?: string | undefined;
  password?: string | undefined;
  isAdmin?: boolean | undefined;
  isActive?: boolean | undefined;
  assistantEnabled?: boolean | undefined;
};

const USERNAME = /^[A-Za-z0-9_.@+-]{1,150}$/;

export type UserService = ReturnType<typeof createUserService>;

export function createUserService(deps: { db: Db; onChange?: (userId: number) => void }) {
  const { db } = deps;

  async function checkedHash(password: string | undefined): Promise<string | undefined> {
    if (password === undefined) return undefined;
    const problem = passwordProblem(password);
    if (problem) throw new AppError("INVALID_INPUT", problem, { details: { field: "password" } });
    return hashPassword(password);
  }

  async function create(input: CreateUserInput) {
    if (!USERNAME.test(input.username)) {
      throw new AppError("INVALID_INPUT", "username must be 1-150 letters, digits or . @ + - _", { details: { field: "username" } });
    }
    const passwordHash = await checkedHash(input.password);
    const existing = await db.user.findUnique({ where: { username: input.username }, select: { id: true } });
    if (existing) throw new AppError("CONFLICT", `user "${input.username}" already exists`, { details: { field: "username" } });
    const user = await db.user.create({
      data: {
        username: input.username,
        email: input.email ?? "",
        name: input.name ?? "",
        isAdmin: input.isAdmin ?? false,
        passwordHash: passwordHash ?? null,
      },
    });
    if (input.org !== undefined) await ensureMembership(db, user.id, input.org, input.isAdmin ? "admin" : "member");
    return user;
  }

  async function get(id: number) {
    const user = await db.user.findUnique({ where: { id } });
    if (!user) throw new AppError("NOT_FOUND", `no user with id ${id}`);
    return user;
  }

  async function list(page: { limit: number; offset: number }) {
    const [count, items] = await Promise.all([
      db.user.count(),
      db.user.findMany({ orderBy: { id: "asc" }, take: page.limit, skip: page.offset }),
    ]);
    return { count, items };
  }

  async function update(id: number, input: UpdateUserInput) {
    await get(id);
    const passwordHash = await checkedHash(input.password);
    const revokeTokens = passwordHash !== undefined || input.isActive === false;
    const user = await db.user.update({
      where: { id },
      data: {
        ...(input.email !== undefined ? { email: input.email } : {}),
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.isAdmin !== undefined ? { isAdmin: input.isAdmin } : {}),
        ...(input.isActive !== undefined ? { isActive: input.isActive } : {}),
        ...(input.assistantEnabled !== undefined ? { assistantEnabled: input.assistantEnabled } : {}),
        ...(passwordHash !== undefined ? { passwordHash } : {}),
        // A new password or a deactivation ends every token issued so far.
        ...(revokeTokens ? { tokensValidAfter: new Date() } : {}),
      },
    });
    deps.onChange?.(id);
    return user;
  }

  async function remove(id: number): Promise<boolean> {
    await get(id);
    await db.user.delete({ where: { id } });
    deps.onChange?.(id);
    return true;
  }

  /** Creates the configured admin on start when no user of that name exists yet; safe to race. */
  async function ensureAdmin(username: string, password: string, email: string): Promise<boolean> {
    if (await db.user.findUnique({ where: { username }, select: { id: true } })) return false;
    try {
      await create({ username, password, email, isAdmin: true });
      return true;
    } catch (error) {
      if (error instanceof AppError && error.code === "CONFLICT") return false;
      if ((error as { code?: string }).code === "P2002") return false;
      throw error;
    }
  }

  return {
    create,
    get,
    list,
    update,
    remove,
    ensureAdmin,
    findByUsername: (username: string) => db.user.findUnique({ where: { username } }),
  };
}
