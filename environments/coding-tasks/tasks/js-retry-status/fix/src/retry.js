/**
 * Whether a request that failed with this HTTP status is worth sending again: server errors (5xx)
 * and 429 Too Many Requests are; other client errors (4xx) are not, since the same request would
 * fail the same way.
 * @param {number} status
 * @returns {boolean}
 */
export function isRetryable(status) {
  return status === 429 || (status >= 500 && status < 600);
}

/**
 * Sends a request until its response is a success or not worth retrying, at most `attempts` times.
 * @template {{ status: number }} R
 * @param {() => Promise<R>} send makes one request
 * @param {{ attempts?: number }} [options]
 * @returns {Promise<R>} the last response
 */
export async function requestWithRetry(send, { attempts = 3 } = {}) {
  let response = await send();
  for (let attempt = 1; attempt < attempts; attempt++) {
    if (response.status < 400 || !isRetryable(response.status)) break;
    response = await send();
  }
  return response;
}
