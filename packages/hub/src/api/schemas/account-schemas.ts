/** Request and response bodies of accounts, keys and the browser login flow. */
import { z } from "zod";

/** read: see your private environments and reports; write: also push, delete, upload, make keys. */
export const KeyScope = z.enum(["read", "write"]);
export type KeyScope = z.infer<typeof KeyScope>;

/** A key as its owner sees it in lists: never the key itself. */
export const ApiKeyInfo = z.object({
  prefix: z.string(),
  name: z.string(),
  scope: KeyScope,
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type ApiKeyInfo = z.infer<typeof ApiKeyInfo>;

/** `GET /me`: who the key (or session) belongs to. */
export const Whoami = z.object({
  user: z.object({ name: z.string(), is_admin: z.boolean(), created_at: z.string() }),
  /** The key used for this request; null when signed in by the web session. */
  key: z.object({ prefix: z.string(), name: z.string(), scope: KeyScope }).nullable(),
});
export type Whoami = z.infer<typeof Whoami>;

/** `POST /me/keys`. */
export const CreateKeyRequest = z
  .object({
    name: z.string().min(1).max(100),
    scope: KeyScope.default("write"),
  })
  .strict();
export type CreateKeyRequest = z.infer<typeof CreateKeyRequest>;

/** A new key: `key` is shown this once and never again. */
export const CreatedKey = ApiKeyInfo.extend({ key: z.string() });
export type CreatedKey = z.infer<typeof CreatedKey>;

/** `DELETE /me/keys/{prefix}`. */
export const RevokedKey = z.object({ prefix: z.string(), revoked: z.literal(true) });
export type RevokedKey = z.infer<typeof RevokedKey>;

/** `POST /auth/device`: the CLI starts a browser login with a one-time RSA public key (PEM, SPKI). */
export const DeviceStartRequest = z
  .object({
    client_name: z.string().min(1).max(100),
    public_key: z.string().min(100).max(2000),
  })
  .strict();
export type DeviceStartRequest = z.infer<typeof DeviceStartRequest>;

/** A started browser login: the CLI shows `user_code` and `verification_url`, and polls with `device_code`. */
export const DeviceStart = z.object({
  /** Secret the CLI polls with. */
  device_code: z.string(),
  /** Short code the user compares on the approval page. */
  user_code: z.string(),
  /** Page the user opens, signed in, to approve. */
  verification_url: z.string(),
  expires_at: z.string(),
  interval_seconds: z.number().int(),
});
export type DeviceStart = z.infer<typeof DeviceStart>;

/** `POST /auth/device/poll`. */
export const DevicePollRequest = z.object({ device_code: z.string().min(1).max(200) }).strict();
export type DevicePollRequest = z.infer<typeof DevicePollRequest>;

/** Pending until the user approves; then a new write key, RSA-OAEP(SHA-256)-encrypted to the CLI's key. */
export const DevicePoll = z.discriminatedUnion("status", [
  z.object({ status: z.literal("pending") }),
  z.object({ status: z.literal("denied") }),
  z.object({ status: z.literal("approved"), user: z.string(), encrypted_key: z.string() }),
]);
export type DevicePoll = z.infer<typeof DevicePoll>;

/** `POST /users` (admins only): a new user with a first write key. */
export const CreateUserRequest = z
  .object({
    name: z.string().min(2).max(39),
    /** For the web pages; default a random one, returned once. */
    password: z.string().min(8).max(200).optional(),
    is_admin: z.boolean().default(false),
  })
  .strict();
export type CreateUserRequest = z.infer<typeof CreateUserRequest>;

/** The new user's secrets, shown this once. */
export const CreatedUser = z.object({
  name: z.string(),
  is_admin: z.boolean(),
  password: z.string(),
  api_key: z.string(),
});
export type CreatedUser = z.infer<typeof CreatedUser>;
