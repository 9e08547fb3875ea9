// Encrypts SSO client secrets at rest: AES-256-GCM with a key derived (HKDF-SHA256) from the JWT signing secret.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { AppError } from "../../errors/app-error.ts";

const VERSION = "v1";
const INFO = "graphviz-gateway sso client secret";

export type SecretBox = { seal(plain: string): string; open(sealed: string): string };

export function createSecretBox(jwtSecret: Uint8Array): SecretBox {
  const key = Buffer.from(hkdfSync("sha256", jwtSecret, new Uint8Array(0), INFO, 32));

  function seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", key, iv);
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64url")}`;
  }

  function open(sealed: string): string {
    const [version, data] = sealed.split(":");
    const bytes = Buffer.from(data ?? "", "base64url");
    if (version !== VERSION || bytes.length < 28) throw new AppError("INTERNAL", "stored SSO client secret is malformed");
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(bytes.length - 16));
      return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString("utf8");
    } catch (error) {
      // The JWT secret changed since the provider was saved: its secret must be set again.
      throw new AppError("INTERNAL", "stored SSO client secret cannot be decrypted (was JWT_SECRET changed?); set it again", {
        cause: error,
      });
    }
  }

  return { seal, open };
}
