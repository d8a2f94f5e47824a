/**
 * Fetches every id at once; resolves to the results in the order of `ids`, rejects if a fetch does.
 * @template T
 * @param {string[]} ids
 * @param {(id: string) => Promise<T>} fetchOne
 * @returns {Promise<T[]>}
 */
export async function loadAll(ids, fetchOne) {
  return Promise.all(ids.map((id) => fetchOne(id)));
}
