/**
 * One page of a list.
 * @template T
 * @param {T[]} items the whole list
 * @param {number} page which page, numbered from 1
 * @param {number} [pageSize] items per page
 * @returns {{ items: T[], page: number, totalPages: number }}
 */
export function paginate(items, page, pageSize = 10) {
  if (!Number.isInteger(page) || page < 1) {
    throw new RangeError(`page must be a whole number from 1, got ${page}`);
  }
  if (!Number.isInteger(pageSize) || pageSize < 1) {
    throw new RangeError(`pageSize must be a whole number from 1, got ${pageSize}`);
  }
  const totalPages = Math.max(1, Math.ceil(items.length / pageSize));
  const start = (page - 1) * pageSize;
  return { items: items.slice(start, start + pageSize), page, totalPages };
}
