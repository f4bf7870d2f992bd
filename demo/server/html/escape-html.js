const ENTITIES = /** @type {Record<string, string>} */ ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' });

/**
 * Escape text for HTML element content and quoted attribute values.
 * @param {unknown} value
 * @returns {string}
 * @example escapeHTML('</script>') // '&lt;/script&gt;'
 */
export function escapeHTML(value) {
  return String(value).replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character);
}
