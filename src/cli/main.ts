// Operator command line: users and personal keys, straight against the configured database.
import { parseArgs } from "node:util";
import { type Config, loadConfig } from "../config/config.ts";
import { AppError } from "../errors/app-error.ts";
import { createLogger } from "../server/logger.ts";
import { createServices, type Services } from "../server/services.ts";
import { BACKUP_USAGE, runBackupCommand } from "./backup-commands.ts";
import { ORG_USAGE, runOrgCommand } from "./org-commands.ts";
import { readSecret } from "./secret-input.ts";
import { runSsoCommand, SSO_USAGE, type SsoFlags } from "./sso-commands.ts";

const USAGE = `usage:
  npm run cli -- user create --username U [--email E] [--name N] [--admin] [--org O]
      (the password: typed at the prompt, or the first line of stdin with --password-stdin, or USER_PASSWORD;
       --password P still works but shows it to every user of the machine)
  npm run cli -- user list
  npm run cli -- user disable --username U
  npm run cli -- user logout --username U    (ends its tokens, browser sessions and single-use links, on every instance)
  npm run cli -- user assistant --username U --off|--on   (the /mcp tool endpoint for this account)
  npm run cli -- key create --username U [--name N]     (last line printed: KEY_ID:KEY_SECRET)
  npm run cli -- key list --username U
  npm run cli -- key revoke --id KEY_ID
  npm run cli -- jwt rotate     (a new JWT signing key; tokens of the old one work for JWT_KEY_GRACE_SECONDS)
  npm run cli -- jwt keys       (the signing keys: id, created, replaced, verifies until)
${BACKUP_USAGE}
${ORG_USAGE}
${SSO_USAGE}`;

type Flags = {
  username?: string;
  password?: string;
  "password-stdin"?: boolean;
  email?: string;
  name?: string;
  admin?: boolean;
  org?: string;
  id?: string;
  on?: boolean;
  off?: boolean;
  role?: string;
};

async function userOf(services: Services, username: string | undefined) {
  if (!username) throw new AppError("INVALID_INPUT", "--username is required");
  const user = await services.users.findByUsername(username);
  if (!user) throw new AppError("NOT_FOUND", `no user "${username}"`);
  return user;
}

async function run(services: Services, noun: string, verb: string, flags: Flags): Promise<void> {
  if (noun === "org") return runOrgCommand(services.db, verb, flags);
  if (noun === "sso") {
    const as = (flags as SsoFlags).as;
    const actor = as === undefined ? ({ site: true } as const) : await userOf(services, as);
    return runSsoCommand(
      services.sso.admins,
      "site" in actor ? actor : { userId: actor.id, isAdmin: actor.isAdmin },
      verb,
      flags as SsoFlags,
    );
  }
  const command = `${noun} ${verb}`;
  switch (command) {
    case "user create": {
      if (!flags.username) throw new AppError("INVALID_INPUT", "--username is required");
      const password = await readSecret({
        flag: flags.password,
        flagName: "--password",
        fromStdin: flags["password-stdin"] ?? false,
        envName: "USER_PASSWORD",
        env: process.env,
      });
      if (!password)
        throw new AppError("INVALID_INPUT", "a password is required: --password-stdin, USER_PASSWORD, or a terminal to type it at");
      const user = await services.users.create({
        username: flags.username,
        password,
        email: flags.email,
        name: flags.name,
        isAdmin: flags.admin ?? false,
        org: flags.org,
      });
      console.log(`created user ${user.username} (id ${user.id}${user.isAdmin ? ", admin" : ""})`);
      return;
    }
    case "user list": {
      const { items } = await services.users.list({ limit: 1000, offset: 0 });
      for (const u of items)
        console.log([u.id, u.username, u.email, u.isAdmin ? "admin" : "user", u.isActive ? "active" : "disabled"].join("\t"));
      return;
    }
    case "user disable": {
      const user = await userOf(services, flags.username);
      await services.users.update(user.id, { isActive: false });
      console.log(`disabled user ${user.username}; its tokens and keys stop working`);
      return;
    }
    case "user logout": {
      const user = await userOf(services, flags.username);
      await services.forcedLogout.logout(user.username);
      console.log(`logged out user ${user.username}: its tokens, browser sessions and single-use links are ended`);
      return;
    }
    case "user assistant": {
      const user = await userOf(services, flags.username);
      if (flags.on === flags.off) throw new AppError("INVALID_INPUT", "give exactly one of --on and --off");
      await services.users.update(user.id, { assistantEnabled: Boolean(flags.on) });
      console.log(`the assistant tool endpoint is ${flags.on ? "on" : "off"} for ${user.username}`);
      return;
    }
    case "key create": {
      const user = await userOf(services, flags.username);
      const created = await services.keys.create(user.id, flags.name ?? "cli");
      console.log(`personal key ${created.key.id} created for ${user.username}; the secret is shown only once:`);
      console.log(created.credential);
      return;
    }
    case "key list": {
      const user = await userOf(services, flags.username);
      for (const k of await services.keys.list(user.id)) {
        console.log([k.id, k.name, k.createdAt.toISOString(), k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : "active"].join("\t"));
      }
      return;
    }
    case "key revoke": {
      if (!flags.id) throw new AppError("INVALID_INPUT", "--id is required");
      const key = await services.keys.revoke(flags.id, undefined);
      console.log(`revoked personal key ${key.id}`);
      return;
    }
    case "jwt rotate": {
      const kid = await services.jwtKeys.rotate();
      console.log(`new JWT signing key ${kid}; tokens signed before verify for ${services.config.jwtKeyGraceSeconds} s more`);
      return;
    }
    case "jwt keys": {
      for (const k of await services.jwtKeys.list()) {
        const state = k.retiredAt ? `replaced ${k.retiredAt.toISOString()}, verifies until ${k.verifiesUntil?.toISOString()}` : "signing";
        console.log([k.kid, k.createdAt.toISOString(), state].join("\t"));
      }
      return;
    }
    default:
      throw new AppError("INVALID_INPUT", `unknown command "${command.trim()}"\n${USAGE}`);
  }
}

export async function main(argv: string[], config: Config = loadConfig()): Promise<number> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        username: { type: "string" },
        password: { type: "string" },
        "password-stdin": { type: "boolean" },
        email: { type: "string" },
        name: { type: "string" },
        admin: { type: "boolean" },
        on: { type: "boolean" },
        off: { type: "boolean" },
        org: { type: "string" },
        id: { type: "string" },
        role: { type: "string" },
        issuer: { type: "string" },
        "client-id": { type: "string" },
        "client-secret": { type: "string" },
        "display-name": { type: "string" },
        domains: { type: "string" },
        as: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const [noun, verb] = parsed.positionals;
  if (parsed.values.help || !noun || !verb) {
    console.log(USAGE);
    return parsed.values.help ? 0 : 2;
  }
  // Before the services start: they would create the tables a restore needs absent.
  if (noun === "backup" || noun === "restore") return runBackupCommand(noun, verb, config);
  // The CLI's own logs stay quiet unless asked for, so its output can be parsed.
  const services = await createServices(config, createLogger(process.env.LOG_LEVEL ? config.logLevel : "warn"), { parser: "lazy" });
  try {
    await run(services, noun, verb, parsed.values as Flags);
    return 0;
  } catch (error) {
    if (error instanceof AppError) {
      console.error(`error: ${error.message}`);
      return error.code === "INVALID_INPUT" ? 2 : 1;
    }
    throw error;
  } finally {
    await services.close();
  }
}

if (import.meta.main) process.exitCode = await main(process.argv.slice(2));
