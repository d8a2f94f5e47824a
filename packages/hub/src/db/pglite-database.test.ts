import { describeDatabaseContract } from "./database.contract.ts";
import { openPgliteDatabase } from "./pglite-database.ts";

describeDatabaseContract("PGlite (in memory)", () => openPgliteDatabase());
