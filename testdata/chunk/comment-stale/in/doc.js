const LIMIT = 10;

/**
 * Parses the header.
 * Returns null when it is empty.
 */
function parse(header) {
  return header.split(",").slice(0, LIMIT);
}
