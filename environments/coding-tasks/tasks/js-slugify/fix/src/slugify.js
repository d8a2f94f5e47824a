/**
 * The URL slug of a title: lower case letters and digits, each run of anything else one dash,
 * accents dropped ("Crème brûlée" -> "creme-brulee").
 * @param {string} title
 * @returns {string}
 */
export function slugify(title) {
  return title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
