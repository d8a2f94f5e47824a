import { afterAll, describe, expect, it } from "vitest";
import { countUsers, insertUser } from "../store/users-store.ts";
import { type PostgresServer, startPostgresServer } from "../testing/postgres-server.ts";
import { describeDatabaseContract } from "./database.contract.ts";
import { migrate } from "./migrate.ts";
import { openPostgresDatabase } from "./postgres-database.ts";

// One server for the file, started by whichever test needs it first.
let started: Promise<PostgresServer> | undefined;
const postgres = (): Promise<PostgresServer> => (started ??= startPostgresServer());
afterAll(async () => {
  await (await started)?.stop();
});

describeDatabaseContract("PostgreSQL server (Debian postgresql, started by the test)", async () =>
  openPostgresDatabase({ url: (await postgres()).url }),
);

describe("a PostgreSQL server shared by several Hub processes", () => {
  it("shows each pool what another committed, and gives counts as numbers", async () => {
    const { url } = await postgres();
    const one = await openPostgresDatabase({ url, maxConnections: 2 });
    const two = await openPostgresDatabase({ url, maxConnections: 2 });
    try {
      await migrate(one);
      const before = await countUsers(two);
      await one.transaction((tx) => insertUser(tx, { name: "grace", passwordHash: null, isAdmin: false }));
      expect(await countUsers(two)).toBe(before + 1);
      const [row] = await two.query<{ n: unknown }>("select count(*) as n from users");
      expect(row!.n).toBe(before + 1); // int8, parsed to a number rather than left a string
    } finally {
      await one.close();
      await two.close();
    }
  });
});
