// Who is calling: the authenticated principal every resolver checks access against.
export type Viewer = {
  userId: number;
  username: string;
  isAdmin: boolean;
  via: "jwt" | "key" | "cookie";
  keyId: string | undefined;
  /** Seconds since the epoch of the original login. */
  loginAt: number;
  org: string | undefined;
};
