const LIMIT = 20;

/**
 * Parses the header into its fields.
 */
function parse(header) {
  return header.split(",").slice(0, LIMIT);
}
