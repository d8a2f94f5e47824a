/** How large a request body each kind of Hub route accepts; shared by the server and the client. */

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * Body caps in bytes by kind of route. The package tarball's cap is the Hub's `maxTarballBytes`.
 * - `form`: web forms (sign-in, key creation, approvals): a few short fields.
 * - `json`: JSON metadata (keys, users, visibility, the login handshake with its RSA public key).
 * - `reportOpen`: opening a report, which carries the run's metadata.json and sampling arguments.
 * - `reportRows`: one chunk of report rows (rollouts with token ids and logprobs); the client sends
 *   chunks of at most half of it.
 */
export const BODY_LIMITS = {
  form: 16 * KiB,
  json: 64 * KiB,
  reportOpen: 1 * MiB,
  reportRows: 32 * MiB,
} as const;
