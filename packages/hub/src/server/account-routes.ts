/** The account routes of the API: whoami, API keys, and the CLI side of the browser login. */

import { randomBytes } from "node:crypto";
import type { RouteTable } from "../api/route-table.ts";
import {
  ApiKeyInfo,
  CreatedKey,
  CreatedUser,
  CreateKeyRequest,
  CreateUserRequest,
  DevicePoll,
  DevicePollRequest,
  DeviceStart,
  DeviceStartRequest,
  RevokedKey,
  Whoami,
} from "../api/schemas/account-schemas.ts";
import { pageOf } from "../api/schemas/envelope.ts";
import { pollDeviceLogin, startDeviceLogin } from "../auth/device-login.ts";
import { issueApiKey } from "../auth/issue-api-key.ts";
import { hashPassword } from "../auth/password.ts";
import { HubError } from "../hub-error.ts";
import { listApiKeys, revokeApiKey } from "../store/api-keys-store.ts";
import { findUserById, insertUser } from "../store/users-store.ts";
import { toApiKeyInfo } from "./api-views.ts";
import { originOf } from "./origin.ts";

/** Registers the account routes on `table`. */
export function addAccountRoutes(table: RouteTable): void {
  table.add(
    { method: "get", path: "/me", summary: "Who the key belongs to", auth: "read", response: Whoami },
    async (c, { user }) => {
      const record = (await findUserById(c.get("hub").db, user.userId))!;
      return {
        user: { name: record.name, is_admin: record.isAdmin, created_at: record.createdAt },
        key:
          user.via.type === "key"
            ? { prefix: user.via.prefix, name: user.via.name, scope: user.scope }
            : null,
      };
    },
  );

  table.add(
    {
      method: "get",
      path: "/me/keys",
      summary: "Your API keys (prefixes only)",
      auth: "read",
      response: pageOf(ApiKeyInfo),
    },
    async (c, { user }) => {
      const keys = await listApiKeys(c.get("hub").db, user.userId);
      return {
        items: keys.map(toApiKeyInfo),
        next_cursor: null,
      };
    },
  );

  table.add(
    {
      method: "post",
      path: "/me/keys",
      summary: "Create a key; the reply is the only time it is shown",
      auth: "write",
      body: CreateKeyRequest,
      response: CreatedKey,
      status: () => 201,
    },
    async (c, { user, body }) => issueApiKey(c.get("hub").db, user.userId, body.name, body.scope),
  );

  table.add(
    {
      method: "delete",
      path: "/me/keys/{prefix}",
      summary: "Revoke a key by its prefix",
      auth: "write",
      response: RevokedKey,
    },
    async (c, { params, user }) => {
      const hub = c.get("hub");
      if (!(await revokeApiKey(hub.db, user.userId, params.prefix))) {
        throw new HubError(
          "not_found",
          `you have no active key ${params.prefix}: list them with GET /api/v1/me/keys`,
        );
      }
      hub.cache.invalidate("key:");
      return { prefix: params.prefix, revoked: true as const };
    },
  );

  table.add(
    {
      method: "post",
      path: "/users",
      summary: "Create a user with a first write key (admins only)",
      auth: "admin",
      notAdmin: "only admins create users: ask one, or run vf hub user create on the Hub's machine",
      body: CreateUserRequest,
      response: CreatedUser,
      status: () => 201,
    },
    async (c, { body }) => {
      const password = body.password ?? randomBytes(12).toString("base64url");
      return c.get("hub").db.transaction(async (tx) => {
        const user = await insertUser(tx, {
          name: body.name,
          passwordHash: await hashPassword(password),
          isAdmin: body.is_admin,
        });
        const key = await issueApiKey(tx, user.id, "first key", "write");
        return { name: user.name, is_admin: user.isAdmin, password, api_key: key.key };
      });
    },
  );

  table.add(
    {
      method: "post",
      path: "/auth/device",
      summary: "Start a browser login (vf login)",
      auth: "none",
      body: DeviceStartRequest,
      response: DeviceStart,
      status: () => 201,
    },
    async (c, { body }) =>
      startDeviceLogin(c.get("hub").db, {
        clientName: body.client_name,
        publicKey: body.public_key,
        origin: originOf(c),
      }),
  );

  table.add(
    {
      method: "post",
      path: "/auth/device/poll",
      summary: "Poll a browser login; approved once, then gone",
      auth: "none",
      body: DevicePollRequest,
      response: DevicePoll,
    },
    async (c, { body }) => pollDeviceLogin(c.get("hub").db, body.device_code),
  );
}
