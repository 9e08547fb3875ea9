// The SSO client secret at rest: AES-256-GCM under a key derived from the JWT secret; a different JWT secret or a
// changed byte cannot open it, and the same secret sealed twice differs (random IV).
import { describe, expect, it } from "vitest";
import { createSecretBox } from "../../src/auth/sso/secret-box.ts";

const key = (text: string) => new TextEncoder().encode(text);

describe("SSO secret box", () => {
  const box = createSecretBox(key("a-jwt-secret-of-at-least-32-characters!"));

  it("seals and opens; two seals of one secret differ and neither shows it", () => {
    const a = box.seal("client-secret-value");
    const b = box.seal("client-secret-value");
    expect(a).not.toBe(b);
    expect(a).not.toContain("client-secret-value");
    expect(box.open(a)).toBe("client-secret-value");
    expect(box.open(b)).toBe("client-secret-value");
  });

  it("refuses a record sealed under another JWT secret, a changed byte, or a malformed record", () => {
    const sealed = box.seal("client-secret-value");
    const other = createSecretBox(key("another-jwt-secret-of-at-least-32-chars"));
    expect(() => other.open(sealed)).toThrow(/cannot be decrypted/);
    const bytes = Buffer.from(sealed.slice(3), "base64url");
    bytes[20] = (bytes[20] ?? 0) ^ 1;
    expect(() => box.open(`v1:${bytes.toString("base64url")}`)).toThrow(/cannot be decrypted/);
    expect(() => box.open("v2:abc")).toThrow(/malformed/);
  });
});
