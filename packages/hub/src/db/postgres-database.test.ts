import { afterAll } from "vitest";
import { type PostgresServer, startPostgresServer } from "../testing/postgres-server.ts";
import { describeDatabaseContract } from "./database.contract.ts";
import { openPostgresDatabase } from "./postgres-database.ts";

let server: PostgresServer | undefined;
afterAll(async () => {
  await server?.stop();
});

describeDatabaseContract("PostgreSQL server (Debian postgresql, started by the test)", async () => {
  server = await startPostgresServer();
  return openPostgresDatabase({ url: server.url });
});
