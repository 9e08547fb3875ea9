// Operator commands for single sign-on providers (site-wide or an organization's); secrets are never printed. The
// command line acts as a site admin, or with `--as USERNAME` with that user's rights: an organization's owners and
// admins manage its providers only.
import type { Actor } from "../accounts/memberships.ts";
import type { ProviderAdmins } from "../auth/sso/provider-admins.ts";
import { AppError } from "../errors/app-error.ts";

export const SSO_USAGE = `  npm run cli -- sso add --name N --issuer URL --client-id ID [--client-secret S] [--display-name D] [--org O] [--domains a.com,b.org]
                        (the secret may come from SSO_CLIENT_SECRET instead; the provider's redirect URI is <PUBLIC_URL>/sso/oidc/callback/)
  npm run cli -- sso update --name N [--issuer URL] [--client-id ID] [--client-secret S] [--display-name D] [--domains ...]
  npm run cli -- sso list
  npm run cli -- sso remove --name N
                        (each sso command takes --as USERNAME to act with that user's rights: an organization's owners
                        and admins add, change, list and remove that organization's providers only)`;

export type SsoFlags = {
  name?: string;
  issuer?: string;
  "client-id"?: string;
  "client-secret"?: string;
  "display-name"?: string;
  org?: string;
  domains?: string;
  as?: string;
};

const domainsOf = (value: string | undefined) => (value === undefined ? undefined : value.split(",").filter((d) => d.trim() !== ""));

export async function runSsoCommand(providers: ProviderAdmins, actor: Actor, verb: string, flags: SsoFlags): Promise<void> {
  const secret = flags["client-secret"] ?? process.env.SSO_CLIENT_SECRET;
  switch (verb) {
    case "add": {
      if (!flags.name || !flags.issuer || !flags["client-id"] || !secret) {
        throw new AppError("INVALID_INPUT", "--name, --issuer, --client-id and --client-secret (or SSO_CLIENT_SECRET) are required");
      }
      const created = await providers.create(actor, {
        name: flags.name,
        displayName: flags["display-name"],
        organization: flags.org,
        issuer: flags.issuer,
        clientId: flags["client-id"],
        clientSecret: secret,
        allowedDomains: domainsOf(flags.domains),
      });
      console.log(`added SSO provider ${created.name} (${created.organization ? `organization ${created.organization}` : "site-wide"})`);
      return;
    }
    case "update": {
      if (!flags.name) throw new AppError("INVALID_INPUT", "--name is required");
      const updated = await providers.update(actor, flags.name, {
        displayName: flags["display-name"],
        issuer: flags.issuer,
        clientId: flags["client-id"],
        clientSecret: flags["client-secret"],
        allowedDomains: domainsOf(flags.domains),
      });
      console.log(`updated SSO provider ${updated.name}`);
      return;
    }
    case "list": {
      for (const p of await providers.settings(actor)) {
        console.log(
          [p.name, p.displayName, p.organization ?? "(site-wide)", p.issuer, p.clientId, p.allowedDomains.join(",") || "(any domain)"].join(
            "\t",
          ),
        );
      }
      return;
    }
    case "remove": {
      if (!flags.name) throw new AppError("INVALID_INPUT", "--name is required");
      await providers.remove(actor, flags.name);
      console.log(`removed SSO provider ${flags.name}`);
      return;
    }
    default:
      throw new AppError("INVALID_INPUT", `unknown command "sso ${verb}"\n${SSO_USAGE}`);
  }
}
